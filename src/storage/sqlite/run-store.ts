// Runs on SQLite: the state the agent recorded about each run (replaced under an optimistic
// version), the run's evidence ledger (first entry per evidence id stays), and its compaction
// snapshots (append-only; a trigger refuses updates). Used by SqliteStorage inside its
// transactions; every read is scoped by tenant first.

import type Database from 'better-sqlite3';

import type { LedgerEntry, RunKey, RunState, SnapshotRecord } from '../../spec/compaction.js';
import { ConflictError } from '../../spec/errors.js';
import type { PutEvidenceOp, PutRunStateOp, PutSnapshotOp, SnapshotQuery } from '../../spec/storage.js';
import { ledgerReads, snapshotList } from '../shared/list-queries.js';
import type { Row } from '../shared/rows.js';
import {
  ledgerFromRow,
  ledgerValues,
  runFromRow,
  runKeyValues,
  runValues,
  snapshotFromRow,
  snapshotValues,
} from '../shared/run-rows.js';
import { RUN_SQL, snapshotTaken } from '../shared/run-sql.js';
import { isUniqueViolation, prepareAll } from './sql-helpers.js';

/** The SQL of run states, evidence ledgers and snapshots (migration 5). */
export class RunStore {
  private readonly s;

  constructor(
    db: Database.Database,
    private readonly cached: (sql: string) => Database.Statement,
  ) {
    this.s = prepareAll(db, RUN_SQL);
  }

  /**
   * Inserts (`expected_version: 0`) or replaces a run state at the version the caller read, by the
   * same conditional statements as on PostgreSQL: an existing row conflicts with an insert even if
   * its stored version happens to be 0.
   */
  putRunState(op: PutRunStateOp): void {
    const key = runKeyValues(op.state);
    const written =
      op.expected_version === 0
        ? this.s.insertRun.run(...runValues(op.state))
        : this.s.replaceRun.run(...runValues(op.state), ...key, op.expected_version);
    if (written.changes === 1) return;
    const row = this.s.runVersion.get(...key) as Row | undefined;
    throw ConflictError.ofVersion(
      'run.version',
      op.expected_version,
      row === undefined ? 0 : (row['version'] as number),
      'concurrent',
    );
  }

  /** Adds ledger entries; an evidence id the run already has keeps its first entry. */
  putEvidence(op: PutEvidenceOp): void {
    for (const entry of op.entries) this.s.insertEvidence.run(...ledgerValues(op.run, entry));
  }

  /** Appends a snapshot; a taken (run, sequence) or snapshot id is a STATE_VERSION_CONFLICT. */
  putSnapshot(op: PutSnapshotOp): void {
    try {
      this.s.insertSnapshot.run(...snapshotValues(op.record));
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      throw snapshotTaken(op.record, error);
    }
  }

  findRunState(run: RunKey): RunState | null {
    const row = this.s.getRun.get(...runKeyValues(run)) as Row | undefined;
    return row === undefined ? null : runFromRow(row);
  }

  /** The run's entries among `evidenceIds` (each once), read in chunks of at most LEDGER_CHUNK ids. */
  ledgerEntries(run: RunKey, evidenceIds: readonly string[]): LedgerEntry[] {
    return ledgerReads(run, evidenceIds).flatMap(({ sql, params }) =>
      (this.cached(sql).all(...params) as Row[]).map(ledgerFromRow),
    );
  }

  findSnapshot(tenantId: string, snapshotId: string): SnapshotRecord | null {
    const row = this.s.getSnapshot.get(tenantId, snapshotId) as Row | undefined;
    return row === undefined ? null : snapshotFromRow(row);
  }

  /** Snapshots by (sequence, insertion order), paged after the cursor snapshot's position. */
  listSnapshots(query: SnapshotQuery): SnapshotRecord[] {
    const { sql, params } = snapshotList(query);
    return (this.cached(sql).all(...params) as Row[]).map(snapshotFromRow);
  }
}
