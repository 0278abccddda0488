// The SQL of a session's records (committed turns, the working state, the rolling summary), written
// once for SQLite and PostgreSQL (its text is the same in both); each dialect runs it with its own
// executor. Also the errors a write's miss becomes, so both dialects report it alike.

import { ConflictError, EngramError } from '../../spec/errors.js';
import type { SessionKey } from '../../spec/scope.js';
import type { PutSummaryOp, PutWorkingStateOp } from '../../spec/storage.js';

const SESSION_WHERE = 'tenant_id = ? AND user_id = ? AND agent_id = ? AND session_id = ?';

/**
 * A session's key in the order of its WHERE clause.
 *
 * @example
 * await sql.rows(TURN_SQL.get, [...sessionKeyValues(key), turnId]);
 */
export function sessionKeyValues(key: SessionKey): [string, string, string, string] {
  return [key.tenant_id, key.user_id, key.agent_id, key.session_id];
}

/**
 * The statements of committed turns: inserted once per turn_id (the primary key), read by it.
 *
 * @example
 * await tx.run(TURN_SQL.insert, [...sessionKeyValues(key), turnId, JSON.stringify(result), result.recorded_at]);
 */
export const TURN_SQL = {
  insert:
    'INSERT INTO turns (tenant_id, user_id, agent_id, session_id, turn_id, result, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  get: `SELECT result FROM turns WHERE ${SESSION_WHERE} AND turn_id = ?`,
} as const;

/**
 * The error of a turn the session already committed.
 *
 * @example
 * throw duplicateTurn('turn_7', error);
 */
export function duplicateTurn(turnId: string, cause: unknown): EngramError {
  return new EngramError('DUPLICATE_TURN', `turn_id: ${turnId} was already committed in this session`, {
    field: 'turn_id',
    cause,
  });
}

/** A session's versioned record: its statements and the field a version conflict names. */
export interface VersionedRecord {
  /** The column holding the record's JSON. */
  column: string;
  /** The field a version conflict names. */
  field: string;
  /** The record's JSON by session key. */
  read: string;
  /** The stored version (as `v`) by session key. */
  version: string;
  /** Key, JSON, version, updated_at; does nothing when the session has the record already. */
  insert: string;
  /** JSON, version, updated_at, key, then the version the writer read. */
  update: string;
}

function versionedRecord(table: string, column: string, versionColumn: string, field: string): VersionedRecord {
  return {
    column,
    field,
    read: `SELECT ${column} FROM ${table} WHERE ${SESSION_WHERE}`,
    version: `SELECT ${versionColumn} AS v FROM ${table} WHERE ${SESSION_WHERE}`,
    insert: `INSERT INTO ${table} (tenant_id, user_id, agent_id, session_id, ${column}, ${versionColumn}, updated_at)
      VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
    update: `UPDATE ${table} SET ${column} = ?, ${versionColumn} = ?, updated_at = ? WHERE ${SESSION_WHERE} AND ${versionColumn} = ?`,
  };
}

/**
 * The working state and the summary of a session. Each is written by one conditional statement (an
 * insert at version 0, else an update at the version the writer read), so of two writers only one
 * changes the row; the stored version is read only when nothing changed.
 *
 * @example
 * const changed = await tx.run(WORKING_STATE.update, [json, version, at, ...sessionKeyValues(key), expected]);
 */
export const WORKING_STATE = versionedRecord('working_state', 'state', 'state_version', 'state_patch.expected_version');

/** The rolling summary of a session; see WORKING_STATE. */
export const SUMMARY = versionedRecord('stm_summary', 'summary', 'version', 'summary.version');

/** A write of a session's versioned record: its new JSON and version, at the version the writer read (0: none yet). */
export interface VersionedWrite {
  record: VersionedRecord;
  key: SessionKey;
  expected: number;
  json: string;
  version: number;
  updatedAt: string;
}

/**
 * The write of a working state.
 *
 * @example
 * const [sql, values] = versionedStatement(workingStateWrite(op));
 */
export function workingStateWrite(op: PutWorkingStateOp): VersionedWrite {
  const { key, expected_version: expected, state, updated_at: updatedAt } = op;
  return { record: WORKING_STATE, key, expected, json: JSON.stringify(state), version: state.state_version, updatedAt };
}

/**
 * The write of a rolling summary.
 *
 * @example
 * const [sql, values] = versionedStatement(summaryWrite(op));
 */
export function summaryWrite(op: PutSummaryOp): VersionedWrite {
  const { key, expected_version: expected, summary } = op;
  return {
    record: SUMMARY,
    key,
    expected,
    json: JSON.stringify(summary),
    version: summary.version,
    updatedAt: summary.updated_at,
  };
}

/**
 * The statement of a write and its values: the record's insert (expected version 0) or its update.
 *
 * @example
 * const [sql, values] = versionedStatement(summaryWrite(op));
 */
export function versionedStatement(write: VersionedWrite): [string, unknown[]] {
  const { record, json, version, updatedAt, expected } = write;
  const key = sessionKeyValues(write.key);
  return expected === 0
    ? [record.insert, [...key, json, version, updatedAt]]
    : [record.update, [json, version, updatedAt, ...key, expected]];
}

/**
 * The conflict of a write that changed nothing: the record is at `actual` (0: none).
 *
 * @example
 * throw versionMissed(summaryWrite(op), 4);
 */
export function versionMissed(write: VersionedWrite, actual: number): ConflictError {
  return ConflictError.ofVersion(write.record.field, write.expected, actual, 'concurrent');
}
