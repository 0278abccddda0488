// The SQL of an erase whose text is the same on SQLite and PostgreSQL, written once: the scope's
// WHERE clause and the reads and deletes built on it. How a list of (agent, run) pairs is bound
// differs (a JSON list in SQLite, two text arrays in PostgreSQL), so each dialect passes its own.

import type { EraseScope } from '../../spec/export.js';

/**
 * The statements of one erase: `where` and `params` select the scope's rows (a user's, or one
 * session's) in any table with tenant_id, user_id and session_id; `runsIn` is the dialect's
 * subquery of the (agent, run) pairs a session took part in.
 *
 * @example
 * const sql = eraseSql(scope, 'SELECT * FROM unnest(?::text[], ?::text[])');
 * const eventIds = await tx.arrays(sql.eventIds, sql.params);
 */
export function eraseSql(scope: EraseScope, runsIn: string) {
  const session = scope.session_id !== undefined;
  const where = session ? 'tenant_id = ? AND user_id = ? AND session_id = ?' : 'tenant_id = ? AND user_id = ?';
  const ofRuns = `tenant_id = ? AND user_id = ? AND (agent_id, run_id) IN (${runsIn})`;
  return {
    where,
    params: session ? [scope.tenant_id, scope.user_id, scope.session_id] : [scope.tenant_id, scope.user_id],
    eventIds: `SELECT id FROM events WHERE ${where}`,
    /** The (agent, run) pairs of the scope's events. */
    runs: `SELECT DISTINCT agent_id, run_id FROM events WHERE ${where}`,
    /** tenant_id, user_id. */
    userInsightIds: 'SELECT id FROM insights WHERE tenant_id = ? AND user_id = ?',
    /** tenant_id, user_id, then the runs as `runsIn` binds them. */
    runInsightIds: `SELECT id FROM insights WHERE ${ofRuns}`,
    /** The scope's rows of a table of USER_TABLES. */
    deleteScope: (table: string) => `DELETE FROM ${table} WHERE ${where}`,
    /** The rows of the runs in a table of RUN_TABLES: tenant_id, user_id, then the runs. */
    deleteRuns: (table: string) => `DELETE FROM ${table} WHERE ${ofRuns}`,
  };
}
