// Export and erasure on PostgreSQL. An export reads each table page by page in insertion order
// (`seq`, indexed per tenant), mapped by the shared row readers; an erase deletes every row of a
// user or a session, derived rows included, inside the caller's transaction.

import type { EraseCounts, EraseScope, ExportRecord, ExportScope } from '../../spec/export.js';
import { EXPORT_KINDS } from '../../spec/export.js';
import { ownerOf } from '../../spec/items.js';
import { SESSION_TABLES, USER_TABLES } from '../shared/erase-tables.js';
import { EXPORT_PAGE_SIZE, EXPORT_SOURCES, exportRecord, type TableSource } from '../shared/export-sources.js';
import { Filters, type Row } from '../shared/rows.js';
import type { Sql } from './client.js';

/** Every record of the scope, kind by kind in EXPORT_KINDS order, each table in insertion order. */
export async function* exportRecords(sql: Sql, scope: ExportScope, guard: () => void): AsyncGenerator<ExportRecord> {
  for (const kind of EXPORT_KINDS) yield* exportTable(sql, EXPORT_SOURCES[kind], scope, guard);
}

async function* exportTable(sql: Sql, source: TableSource, scope: ExportScope, guard: () => void): AsyncGenerator<ExportRecord> {
  const filters = new Filters(scope.tenant_id);
  if (scope.user_id !== undefined) {
    if (source.userFilter === undefined) filters.equals('user_id', scope.user_id);
    else source.userFilter(filters, scope.user_id);
  }
  // `*` would bring the derived search column along; the shared source names what a record needs.
  const select = source.select === '*' ? `${source.table}.*` : source.select;
  const text = `SELECT seq AS export_key, ${select} FROM ${source.table} WHERE ${filters.where.join(' AND ')} AND seq > ? ORDER BY seq LIMIT ?`;
  let after = 0;
  for (;;) {
    guard();
    const page = source.raw ? await sql.arrays(text, [...filters.params, after, EXPORT_PAGE_SIZE]) : await sql.rows(text, [...filters.params, after, EXPORT_PAGE_SIZE]);
    for (const row of page) yield exportRecord(source, row);
    if (page.length < EXPORT_PAGE_SIZE) return;
    const last = page[page.length - 1]!;
    after = Number(Array.isArray(last) ? last[0] : (last as Row)['export_key']);
  }
}

/** Deletes the rows of a user or a session; see StorageAdapter.erase. Call inside a transaction. */
export async function eraseScope(tx: Sql, scope: EraseScope): Promise<EraseCounts> {
  const { tenant_id: tenantId, user_id: userId, session_id: sessionId } = scope;
  const params = sessionId === undefined ? [tenantId, userId] : [tenantId, userId, sessionId];
  const where = sessionId === undefined ? 'tenant_id = ? AND user_id = ?' : 'tenant_id = ? AND user_id = ? AND session_id = ?';
  const userOwner = ownerOf('user', userId, null);
  // Items first: a session's items are found through its events, which are still there.
  const itemIds =
    sessionId === undefined
      ? (await tx.arrays('SELECT id FROM memory_items WHERE tenant_id = ? AND (user_id = ? OR owner = ?)', [tenantId, userId, userOwner])).map((row) => row[0] as string)
      : (
          await tx.arrays(
            `SELECT i.id FROM memory_items i
             WHERE i.tenant_id = ? AND (i.user_id = ? OR i.owner = ?) AND jsonb_array_length(i.source_event_ids::jsonb) > 0
               AND NOT EXISTS (
                 SELECT 1 FROM jsonb_array_elements_text(i.source_event_ids::jsonb) AS source(event_id)
                 WHERE NOT EXISTS (
                   SELECT 1 FROM events e WHERE e.tenant_id = i.tenant_id AND e.id = source.event_id AND e.user_id = ? AND e.session_id = ?
                 )
               )`,
            [tenantId, userId, userOwner, userId, sessionId],
          )
        ).map((row) => row[0] as string);
  const counts: EraseCounts = {};
  // The full-text entries live in the rows themselves (the `search` column), so they go with them.
  counts['event_vectors'] = await tx.run(
    `DELETE FROM event_vectors v USING events e WHERE v.tenant_id = e.tenant_id AND v.event_id = e.id AND ${where.replace(/(\w+) = \?/g, 'e.$1 = ?')}`,
    params,
  );
  counts['events'] = await tx.run(`DELETE FROM events WHERE ${where}`, params);
  counts['memory_chunks'] = await tx.run('DELETE FROM memory_chunks WHERE tenant_id = ? AND item_id = ANY(?::text[])', [tenantId, itemIds]);
  counts['memory_items'] = await tx.run('DELETE FROM memory_items WHERE tenant_id = ? AND id = ANY(?::text[])', [tenantId, itemIds]);
  for (const table of sessionId === undefined ? USER_TABLES : SESSION_TABLES) {
    counts[table] = await tx.run(`DELETE FROM ${table} WHERE ${where}`, params);
  }
  return counts;
}
