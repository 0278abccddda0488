// The scope counts of a tenant, shared by the SQL adapters: its sessions with their event counts
// and time span, its users with their current items and pending review candidates, and the size
// of a search's scope.

import type { ScopeCounts, SessionCounts } from '../../spec/storage.js';
import type { SqlQuery } from './list-queries.js';
import { BOUND_LIMIT } from './rows.js';
import { SCOPE_SIZE_CAP } from '../../util/bm25.js';

/**
 * Sessions (each with its run) and their events, the most recently active first.
 *
 * @example
 * const { sql, params } = sessionCountsQuery('default', 100);
 */
export function sessionCountsQuery(tenantId: string, limit: number): SqlQuery {
  return {
    sql: `SELECT user_id, agent_id, session_id, run_id, COUNT(*), MIN(ts), MAX(ts) FROM events WHERE tenant_id = ?
          GROUP BY user_id, agent_id, session_id, run_id ORDER BY MAX(ts) DESC, user_id, agent_id, session_id, run_id ${BOUND_LIMIT}`,
    params: [tenantId, limit],
  };
}

/**
 * How many events a user's agents hold, each agent's counted up to SCOPE_SIZE_CAP (a walk of the
 * session index that stops there), as one row of one column. The rarity of a searched word is
 * relative to it. With `recordedBy`, only the events recorded by then count (each row is read).
 *
 * @example
 * const { sql, params } = scopeSizeQuery('default', 'mira', ['support-bot']);
 */
export function scopeSizeQuery(
  tenantId: string,
  userId: string,
  agents: readonly string[],
  recordedBy?: string,
): SqlQuery {
  const recorded = recordedBy === undefined ? '' : ' AND recorded_at <= ?';
  const one = `(SELECT count(*) FROM (SELECT 1 FROM events WHERE tenant_id = ? AND user_id = ? AND agent_id = ?${recorded} ${BOUND_LIMIT}) AS scoped)`;
  return {
    sql: `SELECT ${agents.length === 0 ? '0' : agents.map(() => one).join(' + ')}`,
    params: agents.flatMap((agentId) =>
      recordedBy === undefined
        ? [tenantId, userId, agentId, SCOPE_SIZE_CAP]
        : [tenantId, userId, agentId, recordedBy, SCOPE_SIZE_CAP],
    ),
  };
}

/** Each user's current items (the versions not superseded or retracted), as [user_id, count] rows. */
export const USER_ITEMS_SQL = `SELECT user_id, COUNT(*) FROM memory_items WHERE tenant_id = ? AND user_id IS NOT NULL AND status = 'active' GROUP BY user_id`;

/** Each user's review candidates waiting for a decision, as [user_id, count] rows. */
export const USER_PENDING_SQL = `SELECT user_id, COUNT(*) FROM candidates WHERE tenant_id = ? AND status = 'pending' GROUP BY user_id`;

/**
 * Reads the three result sets (rows as arrays; counts may come back as text from PostgreSQL).
 *
 * @example
 * scopeCountsFromRows(sessionRows, itemRows, pendingRows).users[0] // { user_id: 'mira', items: 3, pending_candidates: 1 }
 */
export function scopeCountsFromRows(sessions: unknown[][], items: unknown[][], pending: unknown[][]): ScopeCounts {
  const sessionCounts: SessionCounts[] = sessions.map(
    ([user_id, agent_id, session_id, run_id, events, first_ts, last_ts]) => ({
      user_id: String(user_id),
      agent_id: String(agent_id),
      session_id: String(session_id),
      run_id: String(run_id),
      events: Number(events),
      first_ts: String(first_ts),
      last_ts: String(last_ts),
    }),
  );
  const users = new Map<string, { items: number; pending_candidates: number }>();
  const user = (id: unknown) => {
    const key = String(id);
    if (!users.has(key)) users.set(key, { items: 0, pending_candidates: 0 });
    return users.get(key)!;
  };
  for (const session of sessionCounts) user(session.user_id);
  for (const [id, count] of items) user(id).items = Number(count);
  for (const [id, count] of pending) user(id).pending_candidates = Number(count);
  return {
    sessions: sessionCounts,
    users: [...users.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([user_id, counts]) => ({ user_id, ...counts })),
  };
}
