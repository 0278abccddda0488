// The SQL of run states, evidence ledgers and snapshots, written once for SQLite and PostgreSQL
// (its text is the same in both); each dialect runs it with its own executor. Also the conflict a
// taken snapshot becomes, so both dialects report it alike.

import type { SnapshotRecord } from '../../spec/compaction.js';
import { ConflictError } from '../../spec/errors.js';
import { placeholders } from './rows.js';
import {
  LEDGER_COLUMNS,
  LEDGER_SELECT,
  RUN_COLUMNS,
  RUN_SELECT,
  RUN_WHERE,
  SNAPSHOT_COLUMNS,
  SNAPSHOT_SELECT,
} from './run-rows.js';

/**
 * The statements of the run tables. A run state is written by one conditional statement (an insert
 * that does nothing over an existing row, an update at the version the writer read), so of two
 * writers only one changes the row; the stored version is read only when nothing changed.
 *
 * @example
 * const changed = await tx.run(RUN_SQL.replaceRun, [...runValues(state), ...runKeyValues(state), expected]);
 */
export const RUN_SQL = {
  runVersion: `SELECT version FROM run_states WHERE ${RUN_WHERE}`,
  getRun: `SELECT ${RUN_SELECT} FROM run_states WHERE ${RUN_WHERE}`,
  insertRun: `INSERT INTO run_states (${RUN_SELECT}) VALUES (${placeholders(RUN_COLUMNS)})
    ON CONFLICT (tenant_id, user_id, agent_id, run_id) DO NOTHING`,
  /** The run's values, then its key and the version the writer read. */
  replaceRun: `UPDATE run_states SET (${RUN_SELECT}) = (${placeholders(RUN_COLUMNS)}) WHERE ${RUN_WHERE} AND version = ?`,
  // Only a duplicate evidence id of the run is skipped; any other constraint still fails.
  insertEvidence: `INSERT INTO evidence_ledger (${LEDGER_SELECT}) VALUES (${placeholders(LEDGER_COLUMNS)})
    ON CONFLICT (tenant_id, user_id, agent_id, run_id, evidence_id) DO NOTHING`,
  insertSnapshot: `INSERT INTO snapshots (${SNAPSHOT_SELECT}) VALUES (${placeholders(SNAPSHOT_COLUMNS)})`,
  getSnapshot: `SELECT ${SNAPSHOT_SELECT} FROM snapshots WHERE tenant_id = ? AND id = ?`,
} as const;

/**
 * The conflict of a snapshot whose (run, sequence) or id another writer stored first.
 *
 * @example
 * throw snapshotTaken(op.record, error);
 */
export function snapshotTaken(record: SnapshotRecord, cause: unknown): ConflictError {
  const { run_id, snapshot } = record;
  return new ConflictError(
    `snapshot.sequence: run ${run_id} already has snapshot ${snapshot.sequence} (or id ${snapshot.snapshot_id} is taken); another writer stored it first`,
    {
      field: 'snapshot.sequence',
      origin: 'concurrent',
      cause,
      details: { snapshot_id: snapshot.snapshot_id, run_id, sequence: snapshot.sequence },
    },
  );
}
