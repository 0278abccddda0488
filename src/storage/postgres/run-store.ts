// Runs, context builds, API keys and background jobs on PostgreSQL. Writes run inside the caller's
// transaction; version checks are conditional statements, and jobs are claimed with
// FOR UPDATE SKIP LOCKED, so any number of workers on any number of machines share the queue.

import type { ApiKeyRecord } from '../../spec/auth.js';
import type { LedgerEntry, RunKey, RunState, SnapshotRecord } from '../../spec/compaction.js';
import { ConflictError, NotFoundError } from '../../spec/errors.js';
import type {
  BuildQuery,
  ContextBuild,
  EnqueueJobOp,
  Job,
  JobQuery,
  PutApiKeyOp,
  PutContextBuildOp,
  PutEvidenceOp,
  PutRunStateOp,
  PutSnapshotOp,
  RevokeApiKeyOp,
  SnapshotQuery,
} from '../../spec/storage.js';
import { buildList, jobList, ledgerReads, snapshotList } from '../shared/list-queries.js';
import { placeholders } from '../shared/rows.js';
import {
  LEDGER_COLUMNS,
  LEDGER_SELECT,
  RUN_COLUMNS,
  RUN_SELECT,
  RUN_WHERE,
  SNAPSHOT_COLUMNS,
  SNAPSHOT_SELECT,
  ledgerFromRow,
  ledgerValues,
  runFromRow,
  runKeyValues,
  runValues,
  snapshotFromRow,
  snapshotValues,
} from '../shared/run-rows.js';
import { BUILD_COLUMNS, BUILD_SELECT, buildFromRow, buildValues, JOB_CLAIMABLE, JOB_COLUMNS, JOB_FINISH, jobFromRow, jobNotBefore, KEY_COLUMNS, KEY_SELECT, keyFromRow } from '../shared/service-rows.js';
import { isUniqueViolation, type Sql } from './client.js';

export class PgRunStore {
  constructor(private readonly sql: Sql) {}

  /** Inserts (`expected_version: 0`) or replaces a run state at the version the caller read. */
  async putRunState(tx: Sql, op: PutRunStateOp): Promise<void> {
    const key = runKeyValues(op.state);
    if (op.expected_version === 0) {
      const inserted = await tx.run(
        `INSERT INTO run_states (${RUN_SELECT}) VALUES (${placeholders(RUN_COLUMNS)}) ON CONFLICT (tenant_id, user_id, agent_id, run_id) DO NOTHING`,
        runValues(op.state),
      );
      if (inserted === 1) return;
    } else {
      const changed = await tx.run(`UPDATE run_states SET (${RUN_SELECT}) = (${placeholders(RUN_COLUMNS)}) WHERE ${RUN_WHERE} AND version = ?`, [
        ...runValues(op.state),
        ...key,
        op.expected_version,
      ]);
      if (changed === 1) return;
    }
    const rows = await tx.rows(`SELECT version FROM run_states WHERE ${RUN_WHERE}`, key);
    throw ConflictError.ofVersion('run.version', op.expected_version, rows.length === 0 ? 0 : Number(rows[0]!['version']), 'concurrent');
  }

  /** Adds ledger entries; an evidence id the run already has keeps its first entry. */
  async putEvidence(tx: Sql, op: PutEvidenceOp): Promise<void> {
    for (const entry of op.entries) {
      await tx.run(
        `INSERT INTO evidence_ledger (${LEDGER_SELECT}) VALUES (${placeholders(LEDGER_COLUMNS)})
         ON CONFLICT (tenant_id, user_id, agent_id, run_id, evidence_id) DO NOTHING`,
        ledgerValues(op.run, entry),
      );
    }
  }

  /** Appends a snapshot; a taken (run, sequence) or snapshot id is a STATE_VERSION_CONFLICT. */
  async putSnapshot(tx: Sql, op: PutSnapshotOp): Promise<void> {
    const { run_id, snapshot } = op.record;
    try {
      await tx.run(`INSERT INTO snapshots (${SNAPSHOT_SELECT}) VALUES (${placeholders(SNAPSHOT_COLUMNS)})`, snapshotValues(op.record));
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      throw new ConflictError(
        `snapshot.sequence: run ${run_id} already has snapshot ${snapshot.sequence} (or id ${snapshot.snapshot_id} is taken); another writer stored it first`,
        { field: 'snapshot.sequence', origin: 'concurrent', cause: error, details: { snapshot_id: snapshot.snapshot_id, run_id, sequence: snapshot.sequence } },
      );
    }
  }

  async findRunState(run: RunKey): Promise<RunState | null> {
    const rows = await this.sql.rows(`SELECT ${RUN_SELECT} FROM run_states WHERE ${RUN_WHERE}`, runKeyValues(run));
    return rows.length === 0 ? null : runFromRow(rows[0]!);
  }

  async ledgerEntries(run: RunKey, evidenceIds: readonly string[]): Promise<LedgerEntry[]> {
    const entries: LedgerEntry[] = [];
    for (const { sql, params } of ledgerReads(run, evidenceIds)) entries.push(...(await this.sql.rows(sql, params)).map(ledgerFromRow));
    return entries;
  }


  async findSnapshot(tenantId: string, snapshotId: string): Promise<SnapshotRecord | null> {
    const rows = await this.sql.rows(`SELECT ${SNAPSHOT_SELECT} FROM snapshots WHERE tenant_id = ? AND id = ?`, [tenantId, snapshotId]);
    return rows.length === 0 ? null : snapshotFromRow(rows[0]!);
  }

  async listSnapshots(query: SnapshotQuery): Promise<SnapshotRecord[]> {
    const { sql, params } = snapshotList(query);
    return (await this.sql.rows(sql, params)).map(snapshotFromRow);
  }


  async putBuild(tx: Sql, op: PutContextBuildOp): Promise<void> {
    await tx.run(`INSERT INTO context_builds (${BUILD_SELECT}) VALUES (${placeholders(BUILD_COLUMNS)})`, buildValues(op.build, op.packet_json));
  }


  async findBuild(tenantId: string, buildId: string): Promise<ContextBuild | null> {
    const rows = await this.sql.rows(`SELECT ${BUILD_SELECT} FROM context_builds WHERE tenant_id = ? AND id = ?`, [tenantId, buildId]);
    return rows.length === 0 ? null : buildFromRow(rows[0]!);
  }

  async listBuilds(query: BuildQuery): Promise<ContextBuild[]> {
    const { sql, params } = buildList(query);
    return (await this.sql.rows(sql, params)).map(buildFromRow);
  }


  async putKey(tx: Sql, op: PutApiKeyOp): Promise<void> {
    const key = op.api_key;
    try {
      await tx.run(`INSERT INTO api_keys (${KEY_SELECT}) VALUES (${placeholders(KEY_COLUMNS)})`, [
        key.tenant_id, key.id, key.role, key.label, key.hash, key.last4, key.created_at, key.revoked_at,
      ]);
    } catch (error) {
      if (isUniqueViolation(error)) throw new ConflictError(`key.id: a key ${key.id} (or with the same secret) exists`, { field: 'key.id', origin: 'concurrent', cause: error });
      throw error;
    }
  }

  async revokeKey(tx: Sql, op: RevokeApiKeyOp): Promise<void> {
    const changed = await tx.run('UPDATE api_keys SET revoked_at = coalesce(revoked_at, ?) WHERE tenant_id = ? AND id = ?', [op.revoked_at, op.tenant_id, op.key_id]);
    if (changed === 0) throw new NotFoundError('key_id', op.key_id);
  }

  async findKey(hash: string): Promise<ApiKeyRecord | null> {
    const rows = await this.sql.rows(`SELECT ${KEY_SELECT} FROM api_keys WHERE hash = ?`, [hash]);
    return rows.length === 0 ? null : keyFromRow(rows[0]!);
  }

  async listKeys(tenantId: string | undefined): Promise<ApiKeyRecord[]> {
    const rows =
      tenantId === undefined
        ? await this.sql.rows(`SELECT ${KEY_SELECT} FROM api_keys ORDER BY seq`)
        : await this.sql.rows(`SELECT ${KEY_SELECT} FROM api_keys WHERE tenant_id = ? ORDER BY seq`, [tenantId]);
    return rows.map(keyFromRow);
  }

  async enqueueJob(tx: Sql, op: EnqueueJobOp): Promise<void> {
    const j = op.job;
    await tx.run(`INSERT INTO jobs (${JOB_COLUMNS.join(', ')}) VALUES (${placeholders(JOB_COLUMNS)}) ON CONFLICT (tenant_id, id) DO NOTHING`, [
      j.tenant_id, j.id, j.kind, JSON.stringify(j.payload), j.status, j.attempts, j.lease_until, j.last_error, j.created_at, j.updated_at,
    ]);
  }

  /**
   * Claims jobs oldest first in one statement: rows another worker has locked are skipped, so two
   * workers never claim the same job, and a job whose lease ended is claimed again.
   */
  async claimJobs(tx: Sql, kinds: readonly Job['kind'][], limit: number, now: string, leaseUntil: string): Promise<Job[]> {
    if (kinds.length === 0 || limit < 1) return [];
    const rows = await tx.rows(
      `UPDATE jobs SET status = 'running', attempts = attempts + 1, lease_until = ?, updated_at = ?
       WHERE (tenant_id, id) IN (
         SELECT tenant_id, id FROM jobs WHERE kind IN (${placeholders(kinds)})
           AND ${JOB_CLAIMABLE}
         ORDER BY seq LIMIT ? FOR UPDATE SKIP LOCKED)
       RETURNING seq, ${JOB_COLUMNS.join(', ')}`,
      [leaseUntil, now, ...kinds, now, now, limit],
    );
    return rows.sort((a, b) => Number(a['seq']) - Number(b['seq'])).map(jobFromRow);
  }

  async completeJob(tx: Sql, tenantId: string, jobId: string, status: 'done' | 'failed' | 'pending', error: string | null, now: string, retryAt?: string): Promise<void> {
    const changed = await tx.run(JOB_FINISH, [status, jobNotBefore(status, retryAt), error, now, tenantId, jobId]);
    if (changed === 0) throw new NotFoundError('job_id', jobId);
  }

  async listJobs(query: JobQuery): Promise<Job[]> {
    const { sql, params } = jobList(query);
    return (await this.sql.rows(sql, params)).map(jobFromRow);
  }
}
