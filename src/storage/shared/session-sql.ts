// The SQL of a session's records (committed turns, the working state, the rolling summary), written
// once for SQLite and PostgreSQL (its text is the same in both); each dialect runs it with its own
// executor. Also the errors a write's miss becomes, so both dialects report it alike.

import { ConflictError, EngramError } from '../../spec/errors.js';
import type { SessionKey } from '../../spec/scope.js';

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

/**
 * The values of a versioned record's insert (expected version 0) or update.
 *
 * @example
 * const [sql, values] = versionedWrite(SUMMARY, key, 3, json, 4, now);
 */
export function versionedWrite(
  record: VersionedRecord,
  key: SessionKey,
  expected: number,
  json: string,
  version: number,
  updatedAt: string,
): [string, unknown[]] {
  const values = sessionKeyValues(key);
  return expected === 0
    ? [record.insert, [...values, json, version, updatedAt]]
    : [record.update, [json, version, updatedAt, ...values, expected]];
}

/**
 * The conflict of a versioned write that changed nothing: the record is at `actual` (0: none).
 *
 * @example
 * throw versionMissed(SUMMARY, 3, 4);
 */
export function versionMissed(record: VersionedRecord, expected: number, actual: number): ConflictError {
  return ConflictError.ofVersion(record.field, expected, actual, 'concurrent');
}
