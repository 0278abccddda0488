// Runs on SQLite: the state the agent recorded about each run (replaced under an optimistic
// version), the run's evidence ledger (first entry per evidence id stays), and its compaction
// snapshots (append-only; a trigger refuses updates). Used by SqliteStorage inside its
// transactions; every read is scoped by tenant first.

import type Database from 'better-sqlite3';

import type { LedgerEntry, RunKey, RunState, SnapshotRecord } from '../../spec/compaction.js';
import { ConflictError } from '../../spec/errors.js';
import type { PutEvidenceOp, PutRunStateOp, PutSnapshotOp, SnapshotQuery } from '../../spec/storage.js';
import { ledgerReads, snapshotList } from '../shared/list-queries.js';
import { placeholders, type Row } from '../shared/rows.js';
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
import { isUniqueViolation } from './sql-helpers.js';

/** The SQL of run states, evidence ledgers and snapshots (migration 5). */
export class RunStore {
  private readonly s;

  constructor(
    db: Database.Database,
    private readonly cached: (sql: string) => Database.Statement,
  ) {
    this.s = {
      runVersion: db.prepare(`SELECT version FROM run_states WHERE ${RUN_WHERE}`),
      getRun: db.prepare(`SELECT ${RUN_SELECT} FROM run_states WHERE ${RUN_WHERE}`),
      insertRun: db.prepare(`INSERT INTO run_states (${RUN_SELECT}) VALUES (${placeholders(RUN_COLUMNS)})`),
      replaceRun: db.prepare(`UPDATE run_states SET (${RUN_SELECT}) = (${placeholders(RUN_COLUMNS)}) WHERE ${RUN_WHERE}`),
      // Only a duplicate evidence id of the run is skipped; any other constraint still fails.
      insertEvidence: db.prepare(
        `INSERT INTO evidence_ledger (${LEDGER_SELECT}) VALUES (${placeholders(LEDGER_COLUMNS)})
         ON CONFLICT (tenant_id, user_id, agent_id, run_id, evidence_id) DO NOTHING`,
      ),
      insertSnapshot: db.prepare(`INSERT INTO snapshots (${SNAPSHOT_SELECT}) VALUES (${placeholders(SNAPSHOT_COLUMNS)})`),
      getSnapshot: db.prepare(`SELECT ${SNAPSHOT_SELECT} FROM snapshots WHERE tenant_id = ? AND id = ?`),
    };
  }

  /** Inserts (`expected_version: 0`) or replaces a run state at the version the caller read. */
  putRunState(op: PutRunStateOp): void {
    const key = runKeyValues(op.state);
    const row = this.s.runVersion.get(...key) as Row | undefined;
    const actual = row === undefined ? 0 : (row['version'] as number);
    // An existing row conflicts with an insert even if its stored version happens to be 0.
    if (actual !== op.expected_version || (row !== undefined && op.expected_version === 0)) {
      throw ConflictError.ofVersion('run.version', op.expected_version, actual, 'concurrent');
    }
    if (row === undefined) this.s.insertRun.run(...runValues(op.state));
    else this.s.replaceRun.run(...runValues(op.state), ...key);
  }

  /** Adds ledger entries; an evidence id the run already has keeps its first entry. */
  putEvidence(op: PutEvidenceOp): void {
    for (const entry of op.entries) this.s.insertEvidence.run(...ledgerValues(op.run, entry));
  }

  /** Appends a snapshot; a taken (run, sequence) or snapshot id is a STATE_VERSION_CONFLICT. */
  putSnapshot(op: PutSnapshotOp): void {
    const { run_id, snapshot } = op.record;
    try {
      this.s.insertSnapshot.run(...snapshotValues(op.record));
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      throw new ConflictError(
        `snapshot.sequence: run ${run_id} already has snapshot ${snapshot.sequence} (or id ${snapshot.snapshot_id} is taken); another writer stored it first`,
        { field: 'snapshot.sequence', origin: 'concurrent', cause: error, details: { snapshot_id: snapshot.snapshot_id, run_id, sequence: snapshot.sequence } },
      );
    }
  }

  findRunState(run: RunKey): RunState | null {
    const row = this.s.getRun.get(...runKeyValues(run)) as Row | undefined;
    return row === undefined ? null : runFromRow(row);
  }

  /** The run's entries among `evidenceIds` (each once), read in chunks of at most LEDGER_CHUNK ids. */
  ledgerEntries(run: RunKey, evidenceIds: readonly string[]): LedgerEntry[] {
    return ledgerReads(run, evidenceIds).flatMap(({ sql, params }) => (this.cached(sql).all(...params) as Row[]).map(ledgerFromRow));
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
