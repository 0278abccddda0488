// Erasing a user, or one session of theirs, from SQLite: every row of theirs in every table,
// derived rows included (full-text entries, vectors, chunks). Runs inside the caller's transaction
// and counts what each table lost.

import type Database from 'better-sqlite3';

import type { EraseCounts, EraseScope } from '../../spec/export.js';
import { ownerOf } from '../../spec/items.js';
import { SESSION_TABLES, USER_TABLES } from '../shared/erase-tables.js';

// The events of the scope: a user's (`user`) or one session's (`session`); `?` are the bound values.
const EVENTS_OF = {
  user: 'SELECT seq FROM events WHERE tenant_id = ? AND user_id = ?',
  session: 'SELECT seq FROM events WHERE tenant_id = ? AND user_id = ? AND session_id = ?',
} as const;

/** Deletes the rows of a user or a session; see StorageAdapter.erase. */
export class Eraser {
  constructor(private readonly cached: (sql: string) => Database.Statement) {}

  /** Deletes the scope's rows; call inside a transaction. */
  erase(scope: EraseScope): EraseCounts {
    const { tenant_id: tenantId, user_id: userId, session_id: sessionId } = scope;
    const params = sessionId === undefined ? [tenantId, userId] : [tenantId, userId, sessionId];
    // Items first: a session's items are found through its events, which are still there.
    const itemIds = sessionId === undefined ? this.userItemIds(tenantId, userId) : this.sessionItemIds(tenantId, userId, sessionId);
    const counts: EraseCounts = {
      ...this.eraseEvents(sessionId === undefined ? EVENTS_OF.user : EVENTS_OF.session, tenantId, userId, params),
      ...this.eraseItems(tenantId, itemIds),
    };
    const where = sessionId === undefined ? 'tenant_id = ? AND user_id = ?' : 'tenant_id = ? AND user_id = ? AND session_id = ?';
    for (const table of sessionId === undefined ? USER_TABLES : SESSION_TABLES) {
      counts[table] = this.cached(`DELETE FROM ${table} WHERE ${where}`).run(...params).changes;
    }
    return counts;
  }

  /** The user's items: user-level ones, and any other version recorded with their user_id. */
  private userItemIds(tenantId: string, userId: string): string[] {
    const sql = 'SELECT id FROM memory_items WHERE tenant_id = ? AND (user_id = ? OR owner = ?) ORDER BY seq';
    return this.cached(sql).pluck().all(tenantId, userId, ownerOf('user', userId, null)) as string[];
  }

  /** The user's items with sources, all of them events of the session (items with other sources stay). */
  private sessionItemIds(tenantId: string, userId: string, sessionId: string): string[] {
    const sql = `SELECT i.id FROM memory_items i
      WHERE i.tenant_id = ? AND (i.user_id = ? OR i.owner = ?) AND json_array_length(i.source_event_ids) > 0
        AND NOT EXISTS (
          SELECT 1 FROM json_each(i.source_event_ids) AS source
          WHERE NOT EXISTS (
            SELECT 1 FROM events e WHERE e.tenant_id = i.tenant_id AND e.id = source.value AND e.user_id = ? AND e.session_id = ?
          )
        )
      ORDER BY i.seq`;
    return this.cached(sql).pluck().all(tenantId, userId, ownerOf('user', userId, null), userId, sessionId) as string[];
  }

  /** Events of the subquery with their full-text entries (rowid = seq) and vectors; the user's event counts follow. */
  private eraseEvents(eventsOf: string, tenantId: string, userId: string, params: readonly unknown[]): EraseCounts {
    const counts = {
      events_fts: this.cached(`DELETE FROM events_fts WHERE rowid IN (${eventsOf})`).run(...params).changes,
      event_vectors: this.cached(`DELETE FROM event_vectors WHERE tenant_id = ? AND event_seq IN (${eventsOf})`)
        .run(tenantId, ...params).changes,
      events: this.cached(`DELETE FROM events WHERE seq IN (${eventsOf})`).run(...params).changes,
    };
    // The counts of the user's agents, from what is left (none, once the whole user is erased).
    this.cached('DELETE FROM event_scope_sizes WHERE tenant_id = ? AND user_id = ?').run(tenantId, userId);
    this.cached(`INSERT INTO event_scope_sizes (tenant_id, user_id, agent_id, events)
      SELECT tenant_id, user_id, agent_id, count(*) FROM events WHERE tenant_id = ? AND user_id = ? GROUP BY tenant_id, user_id, agent_id`).run(tenantId, userId);
    return counts;
  }

  /** Items by id with their chunks and the chunks' full-text entries (rowid = chunk seq). */
  private eraseItems(tenantId: string, itemIds: readonly string[]): EraseCounts {
    // The ids travel as one JSON array: no cap on the number of bound parameters.
    const ids = JSON.stringify(itemIds);
    const chunksOf = 'SELECT seq FROM memory_chunks WHERE tenant_id = ? AND item_id IN (SELECT value FROM json_each(?))';
    return {
      items_fts: this.cached(`DELETE FROM items_fts WHERE rowid IN (${chunksOf})`).run(tenantId, ids).changes,
      memory_chunks: this.cached(`DELETE FROM memory_chunks WHERE seq IN (${chunksOf})`).run(tenantId, ids).changes,
      memory_items: this.cached('DELETE FROM memory_items WHERE tenant_id = ? AND id IN (SELECT value FROM json_each(?))')
        .run(tenantId, ids).changes,
    };
  }
}
