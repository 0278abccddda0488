// Runs on PostgreSQL: a run's compaction state, its evidence ledger and its snapshots. Writes run
// inside the caller's transaction; version checks are conditional statements.

import type { LedgerEntry, RunKey, RunState, SnapshotRecord } from '../../spec/compaction.js';
import { ConflictError } from '../../spec/errors.js';
import type { PutEvidenceOp, PutRunStateOp, PutSnapshotOp, SnapshotQuery } from '../../spec/storage.js';
import { ledgerReads, snapshotList } from '../shared/list-queries.js';
import {
  ledgerFromRow,
  ledgerValues,
  runFromRow,
  runKeyValues,
  runValues,
  snapshotFromRow,
  snapshotValues,
} from '../shared/run-rows.js';
import { RUN_SQL as SQL, snapshotTaken } from '../shared/run-sql.js';
import { isUniqueViolation, type Sql } from './client.js';

export class PgRunStore {
  constructor(private readonly sql: Sql) {}

  /** Inserts (`expected_version: 0`) or replaces a run state at the version the caller read. */
  async putRunState(tx: Sql, op: PutRunStateOp): Promise<void> {
    const key = runKeyValues(op.state);
    const changed =
      op.expected_version === 0
        ? await tx.run(SQL.insertRun, runValues(op.state))
        : await tx.run(SQL.replaceRun, [...runValues(op.state), ...key, op.expected_version]);
    if (changed === 1) return;
    const rows = await tx.rows(SQL.runVersion, key);
    throw ConflictError.ofVersion(
      'run.version',
      op.expected_version,
      rows.length === 0 ? 0 : Number(rows[0]!['version']),
      'concurrent',
    );
  }

  /** Adds ledger entries; an evidence id the run already has keeps its first entry. */
  async putEvidence(tx: Sql, op: PutEvidenceOp): Promise<void> {
    for (const entry of op.entries) await tx.run(SQL.insertEvidence, ledgerValues(op.run, entry));
  }

  /** Appends a snapshot; a taken (run, sequence) or snapshot id is a STATE_VERSION_CONFLICT. */
  async putSnapshot(tx: Sql, op: PutSnapshotOp): Promise<void> {
    try {
      await tx.run(SQL.insertSnapshot, snapshotValues(op.record));
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      throw snapshotTaken(op.record, error);
    }
  }

  async findRunState(run: RunKey): Promise<RunState | null> {
    const rows = await this.sql.rows(SQL.getRun, runKeyValues(run));
    return rows.length === 0 ? null : runFromRow(rows[0]!);
  }

  async ledgerEntries(run: RunKey, evidenceIds: readonly string[]): Promise<LedgerEntry[]> {
    const entries: LedgerEntry[] = [];
    for (const { sql, params } of ledgerReads(run, evidenceIds))
      entries.push(...(await this.sql.rows(sql, params)).map(ledgerFromRow));
    return entries;
  }

  async findSnapshot(tenantId: string, snapshotId: string): Promise<SnapshotRecord | null> {
    const rows = await this.sql.rows(SQL.getSnapshot, [tenantId, snapshotId]);
    return rows.length === 0 ? null : snapshotFromRow(rows[0]!);
  }

  async listSnapshots(query: SnapshotQuery): Promise<SnapshotRecord[]> {
    const { sql, params } = snapshotList(query);
    return (await this.sql.rows(sql, params)).map(snapshotFromRow);
  }
}
