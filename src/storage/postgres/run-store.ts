// Runs on PostgreSQL: a run's compaction state, its evidence ledger and its snapshots. Writes run
// inside the caller's transaction; version checks are conditional statements.

import type { LedgerEntry, RunKey, RunState, SnapshotRecord } from '../../spec/compaction.js';
import { ConflictError } from '../../spec/errors.js';
import type {
  PutEvidenceOp,
  PutRunStateOp,
  PutSnapshotOp,
  SnapshotQuery,
} from '../../spec/storage.js';
import { ledgerReads, snapshotList } from '../shared/list-queries.js';
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
}
