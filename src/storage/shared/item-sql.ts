// The SQL of memory items and their chunks whose text is the same on SQLite and PostgreSQL, written
// once; each dialect runs it with its own executor. Chunk writes, listing pages and ranking words
// stay per dialect (FTS5 rows and a kept-version cache in one, a tsvector column in the other).

import { ConflictError } from '../../spec/errors.js';
import type { ItemQuery, SetItemStatusOp } from '../../spec/storage.js';
import { chunkVectorFilters, ITEM_COLUMNS, ITEM_SELECT, itemFilters } from './item-rows.js';
import type { SqlQuery } from './list-queries.js';
import { BOUND_LIMIT, placeholders } from './rows.js';

/**
 * The item statements without a dialect of their own. A status change is conditional (on the status
 * the writer read), so of two writers only one changes the row; the status is read only on a miss.
 *
 * @example
 * const changed = await tx.run(ITEM_SQL.setStatus, setStatusValues(op));
 */
export const ITEM_SQL = {
  insert: `INSERT INTO memory_items (${ITEM_SELECT}) VALUES (${placeholders(ITEM_COLUMNS)})`,
  status: 'SELECT status FROM memory_items WHERE tenant_id = ? AND id = ?',
  setStatus:
    'UPDATE memory_items SET status = ?, ended_at = ?, updated_at = ? WHERE tenant_id = ? AND id = ? AND status = ?',
  deleteItem: 'DELETE FROM memory_items WHERE tenant_id = ? AND id = ?',
} as const;

/**
 * The values of ITEM_SQL.setStatus.
 *
 * @example
 * await tx.run(ITEM_SQL.setStatus, setStatusValues(op));
 */
export function setStatusValues(op: SetItemStatusOp): unknown[] {
  return [op.status, op.ended_at, op.updated_at, op.tenant_id, op.item_id, op.expected_status];
}

/**
 * The conflict of a status change whose item another writer changed first.
 *
 * @example
 * throw itemStatusChanged(op, 'superseded');
 */
export function itemStatusChanged(op: SetItemStatusOp, status: unknown): ConflictError {
  return new ConflictError(
    `item_id: ${op.item_id} is ${String(status)}, not ${op.expected_status}; another writer changed it`,
    { field: 'item_id', origin: 'concurrent', details: { expected_status: op.expected_status, status } },
  );
}

/**
 * The keys of the owners' active items, most recently written first.
 *
 * @example
 * const { sql, params } = activeKeysQuery('t1', ['user:mira'], 20);
 */
export function activeKeysQuery(tenantId: string, owners: readonly string[], limit: number): SqlQuery {
  return {
    sql: `SELECT key FROM memory_items WHERE tenant_id = ? AND owner IN (${placeholders(owners)}) AND status = 'active'
      GROUP BY key ORDER BY max(seq) DESC ${BOUND_LIMIT}`,
    params: [tenantId, ...owners, limit],
  };
}

/**
 * The stored chunk vectors of the items a query sees, each row `item_id, vector` (a blob).
 *
 * @example
 * const { sql, params } = itemVectorsQuery({ tenant_id: 't1', owners: ['user:mira'], statuses: ['active'] });
 */
export function itemVectorsQuery(query: Omit<ItemQuery, 'cursor' | 'limit' | 'keys' | 'ids' | 'as_of'>): SqlQuery {
  const { where, params } = itemFilters(query, 'i.');
  const bound = chunkVectorFilters(query);
  return {
    sql: `SELECT c.item_id, c.vector FROM memory_chunks c JOIN memory_items i ON i.tenant_id = c.tenant_id AND i.id = c.item_id
      WHERE c.tenant_id = ? AND c.owner IN (${placeholders(query.owners)}) AND c.vector IS NOT NULL${bound.sql} AND ${where.join(' AND ')}`,
    params: [query.tenant_id, ...query.owners, ...bound.params, ...params],
  };
}
