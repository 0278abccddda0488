// The SQL of events and their vectors whose text is the same on SQLite and PostgreSQL, written once;
// each dialect runs it with its own executor. Appending, reindexing, ranking words and purging stay
// per dialect: the full-text index is FTS5 in one and a tsvector column in the other.

import type { EventQuery } from '../../spec/storage.js';
import { EVENT_SELECT, eventFilters } from './event-rows.js';
import type { SqlQuery } from './list-queries.js';
import { BOUND_LIMIT, placeholders } from './rows.js';

/**
 * The event statements without a dialect of their own.
 *
 * @example
 * const rows = await pool.arrays(EVENT_SQL.get, [tenantId, eventId, now]);
 */
export const EVENT_SQL = {
  /** tenant_id, id, now: an expired event is not found. */
  get: `SELECT ${EVENT_SELECT} FROM events WHERE tenant_id = ? AND id = ? AND (expires_at IS NULL OR expires_at > ?)`,
  /** embedding_status, tenant_id, id. */
  setEmbeddingStatus: 'UPDATE events SET embedding_status = ? WHERE tenant_id = ? AND id = ?',
  /** tenant_id, id, vector_model: an embedded event without a vector of that model waits for one again. */
  embedAgain: `UPDATE events SET embedding_status = 'pending' WHERE tenant_id = ? AND id = ? AND embedding_status = 'done'
    AND NOT EXISTS (SELECT 1 FROM event_vectors v WHERE v.event_seq = events.seq AND v.vector_model = ?)`,
  /** The vectors of a user stored for a model since a vid (tenant_id, user_id, vector_model, vid), in vid order. */
  vectorsSince:
    'SELECT vid, event_seq, agent_id, embedded_at, vector FROM event_vectors WHERE tenant_id = ? AND user_id = ? AND vector_model = ? AND vid > ? ORDER BY vid',
} as const;

/**
 * A page of events by id after the cursor, in the query's order.
 *
 * @example
 * const { sql, params } = eventListQuery({ tenant_id: 't1', now, order: 'asc', limit: 50 });
 */
export function eventListQuery(query: EventQuery): SqlQuery {
  const { where, params } = eventFilters(query, '');
  if (query.cursor !== undefined) {
    where.push(query.order === 'desc' ? 'id < ?' : 'id > ?');
    params.push(query.cursor);
  }
  const order = query.order === 'desc' ? 'DESC' : 'ASC';
  return {
    sql: `SELECT ${EVENT_SELECT} FROM events WHERE ${where.join(' AND ')} ORDER BY id ${order} ${BOUND_LIMIT}`,
    params: [...params, query.limit],
  };
}

/**
 * The candidates of a search (by their `seq`) that pass its filters, each row `seq` then the event's
 * columns: what a full-text or a vector search reads back, in any order.
 *
 * @example
 * const { sql, params } = eventsAtSeqs([12, 40], eventFilters(query, ''));
 */
export function eventsAtSeqs(
  seqs: readonly number[],
  filters: { where: readonly string[]; params: readonly unknown[] },
): SqlQuery {
  return {
    sql: `SELECT seq, ${EVENT_SELECT} FROM events WHERE seq IN (${placeholders(seqs)}) AND ${filters.where.join(' AND ')}`,
    params: [...seqs, ...filters.params],
  };
}
