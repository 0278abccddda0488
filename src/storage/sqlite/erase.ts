// Erasing a user, or one session of theirs, from SQLite: every row of theirs in every table,
// derived rows included (full-text entries, vectors, chunks), the records of the runs a session
// took part in, their queued jobs, and the copies other rows keep (erase-copies.ts). Runs inside the
// caller's transaction and counts what each table lost.

import type Database from 'better-sqlite3';

import type { EraseCounts, EraseScope } from '../../spec/export.js';
import { ownerOf } from '../../spec/items.js';
import { eraseSql } from '../shared/erase-sql.js';
import { RUN_TABLES, SESSION_TABLES, USER_TABLES } from '../shared/erase-tables.js';
import { ErasedCopies } from './erase-copies.js';

// The events of the scope: a user's (`user`) or one session's (`session`); `?` are the bound values.
const EVENTS_OF = {
  user: 'SELECT seq FROM events WHERE tenant_id = ? AND user_id = ?',
  session: 'SELECT seq FROM events WHERE tenant_id = ? AND user_id = ? AND session_id = ?',
} as const;

/** The (agent, run) pairs of a JSON list of `[agent_id, run_id]`, for a row-value IN. */
const RUNS_IN = "SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?)";

/**
 * Deletes the rows of a user or a session; see StorageAdapter.erase.
 *
 * @example
 * const counts = db.transaction(() => new Eraser((sql) => db.prepare(sql)).erase({ tenant_id: 't1', user_id: 'mira' })).immediate();
 */
export class Eraser {
  private readonly copies: ErasedCopies;

  constructor(private readonly cached: (sql: string) => Database.Statement) {
    this.copies = new ErasedCopies(cached);
  }

  /** Deletes the scope's rows and redacts the copies kept elsewhere; call inside a transaction. */
  erase(scope: EraseScope): EraseCounts {
    const { tenant_id: tenantId, user_id: userId, session_id: sessionId } = scope;
    const session = sessionId !== undefined;
    const sql = eraseSql(scope, RUNS_IN);
    const params = sql.params;
    // Read before anything goes: the scope's items (a session's are found through its events), the
    // ids its copies may cite, and the runs a session took part in.
    const itemIds = session ? this.sessionItemIds(tenantId, userId, sessionId) : this.userItemIds(tenantId, userId);
    const eventIds = this.cached(sql.eventIds)
      .pluck()
      .all(...params) as string[];
    const runs = session
      ? JSON.stringify(
          this.cached(sql.runs)
            .raw(true)
            .all(...params),
        )
      : null;
    const insightIds = (
      runs === null
        ? this.cached(sql.userInsightIds).pluck().all(tenantId, userId)
        : this.cached(sql.runInsightIds).pluck().all(tenantId, userId, runs)
    ) as string[];

    const counts: EraseCounts = {
      ...this.eraseEvents(session ? EVENTS_OF.session : EVENTS_OF.user, tenantId, userId, params),
      ...this.eraseItems(tenantId, itemIds),
    };
    for (const table of session ? SESSION_TABLES : USER_TABLES) {
      counts[table] = this.cached(sql.deleteScope(table)).run(...params).changes;
    }
    if (runs !== null) {
      for (const table of RUN_TABLES) {
        const gone = this.cached(sql.deleteRuns(table)).run(tenantId, userId, runs).changes;
        counts[table] = (counts[table] ?? 0) + gone;
      }
    }
    counts['jobs'] = this.copies.eraseJobs(tenantId, userId, runs);
    const erased = new Set([...eventIds, ...itemIds, ...insightIds]);
    counts['context_builds_redacted'] = this.copies.redactBuilds(tenantId, userId, erased, {
      at: scope.at ?? new Date().toISOString(),
      erased: session ? 'session' : 'user',
    });
    if (session)
      counts['memory_items_sources_trimmed'] = this.copies.trimItemSources(tenantId, userId, new Set(eventIds));
    return counts;
  }

  /** The user's items: user-level ones, and any other version recorded with their user_id. */
  private userItemIds(tenantId: string, userId: string): string[] {
    const sql = 'SELECT id FROM memory_items WHERE tenant_id = ? AND (user_id = ? OR owner = ?) ORDER BY seq';
    return this.cached(sql)
      .pluck()
      .all(tenantId, userId, ownerOf('user', userId, null)) as string[];
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
    return this.cached(sql)
      .pluck()
      .all(tenantId, userId, ownerOf('user', userId, null), userId, sessionId) as string[];
  }

  /** Events of the subquery with their full-text entries (rowid = seq) and vectors; the user's event counts follow. */
  private eraseEvents(eventsOf: string, tenantId: string, userId: string, params: readonly unknown[]): EraseCounts {
    const counts = {
      events_fts: this.cached(`DELETE FROM events_fts WHERE rowid IN (${eventsOf})`).run(...params).changes,
      event_vectors: this.cached(`DELETE FROM event_vectors WHERE tenant_id = ? AND event_seq IN (${eventsOf})`).run(
        tenantId,
        ...params,
      ).changes,
      events: this.cached(`DELETE FROM events WHERE seq IN (${eventsOf})`).run(...params).changes,
    };
    // The counts of the user's agents, from what is left (none, once the whole user is erased).
    this.cached('DELETE FROM event_scope_sizes WHERE tenant_id = ? AND user_id = ?').run(tenantId, userId);
    this.cached(
      `INSERT INTO event_scope_sizes (tenant_id, user_id, agent_id, events)
      SELECT tenant_id, user_id, agent_id, count(*) FROM events WHERE tenant_id = ? AND user_id = ? GROUP BY tenant_id, user_id, agent_id`,
    ).run(tenantId, userId);
    return counts;
  }

  /** Items by id with their chunks and the chunks' full-text entries (rowid = chunk seq). */
  private eraseItems(tenantId: string, itemIds: readonly string[]): EraseCounts {
    // The ids travel as one JSON array: no cap on the number of bound parameters.
    const ids = JSON.stringify(itemIds);
    const chunksOf =
      'SELECT seq FROM memory_chunks WHERE tenant_id = ? AND item_id IN (SELECT value FROM json_each(?))';
    return {
      items_fts: this.cached(`DELETE FROM items_fts WHERE rowid IN (${chunksOf})`).run(tenantId, ids).changes,
      memory_chunks: this.cached(`DELETE FROM memory_chunks WHERE seq IN (${chunksOf})`).run(tenantId, ids).changes,
      memory_items: this.cached(
        'DELETE FROM memory_items WHERE tenant_id = ? AND id IN (SELECT value FROM json_each(?))',
      ).run(tenantId, ids).changes,
    };
  }
}
