// Events on SQLite: the append-only log, its scoped full-text entries, and the reads over them
// (by id, by session, by cue words, next to anchors, for reindexing). Used by SqliteStorage inside
// its transactions; only status flags of an event ever change.

import type Database from 'better-sqlite3';

import { NotFoundError } from '../../spec/errors.js';
import type { EventFlags, EventRecord } from '../../spec/event.js';
import type {
  AppendEventOp,
  EventNeighbours,
  EventPosition,
  EventQuery,
  EventSearchHit,
  EventSearchQuery,
  IndexEventOp,
  NeighbourQuery,
} from '../../spec/storage.js';
import { SCOPE_SIZE_CAP } from '../../util/bm25.js';
import { termStats } from '../../util/bm25-stats.js';
import { scopePrefix } from '../../util/scope-token.js';
import {
  checkedEmbeddingStatus,
  EVENT_COLUMNS,
  eventFilters,
  eventFromValues,
  eventsForReindexQuery,
  eventValues,
  neighbourStatement,
  neighboursFromRows,
  type Row,
} from '../shared/event-rows.js';
import { EVENT_SQL, eventListQuery, eventsAtSeqs } from '../shared/event-sql.js';
import { firstPassing } from '../shared/first-passing.js';
import { placeholders } from '../shared/rows.js';
import { scopeSizeQuery } from '../shared/scope-rows.js';
import { FtsIndex } from './fts-index.js';

/** Adds to the events counted for a user and agent (`event_scope_sizes`; a negative number removes). */
const COUNT_EVENTS_SQL = `INSERT INTO event_scope_sizes (tenant_id, user_id, agent_id, events) VALUES (?, ?, ?, ?)
  ON CONFLICT (tenant_id, user_id, agent_id) DO UPDATE SET events = events + excluded.events`;

export class EventStore {
  private readonly index: FtsIndex;
  private readonly s;

  constructor(
    private readonly db: Database.Database,
    private readonly cached: (sql: string) => Database.Statement,
    keptSearchTerms: number,
  ) {
    this.index = new FtsIndex(db, 'events_fts', keptSearchTerms);
    this.s = {
      // The word counts of the search text go with the row (derived: reindex rewrites them).
      insert: db.prepare(
        `INSERT INTO events (${EVENT_COLUMNS.join(', ')}, term_stats) VALUES (${placeholders(EVENT_COLUMNS)}, ?)`,
      ),
      putTermStats: db.prepare('UPDATE events SET term_stats = ? WHERE seq = ?'),
      agentsOfUser: db.prepare(
        'SELECT agent_id FROM event_scope_sizes WHERE tenant_id = ? AND user_id = ? AND events > 0',
      ),
      get: db.prepare(EVENT_SQL.get).raw(),
      position: db.prepare('SELECT seq, user_id, agent_id FROM events WHERE tenant_id = ? AND id = ?').raw(),
      updateEmbeddingStatus: db.prepare(EVENT_SQL.setEmbeddingStatus),
      embedAgain: db.prepare(EVENT_SQL.embedAgain),
      expiredSeqs: db
        .prepare(
          'SELECT seq, tenant_id, user_id, agent_id FROM events WHERE expires_at IS NOT NULL AND expires_at <= ?',
        )
        .raw(),
      count: db.prepare(COUNT_EVENTS_SQL),
      delete: db.prepare('DELETE FROM events WHERE seq = ?'),
      deleteVector: db.prepare('DELETE FROM event_vectors WHERE event_seq = ?'),
    };
  }

  /** Appends an event with the tokens compose charges for its text (null: not counted) and the word counts of its search text. */
  append(op: AppendEventOp, textTokens: number | null): void {
    const info = this.s.insert.run(
      ...eventValues(op.event, textTokens),
      op.search_text === null ? null : termStats(op.search_text),
    );
    this.s.count.run(op.event.tenant_id, op.event.user_id, op.event.agent_id, 1);
    if (op.search_text !== null) this.index.add(info.lastInsertRowid, scopePrefix(op.event), op.search_text);
  }

  /** Replaces an event's full-text entry and word counts (derived data; the event itself is unchanged). */
  reindex(op: IndexEventOp): void {
    const row = this.s.position.get(op.tenant_id, op.event_id) as [number, string, string] | undefined;
    if (row === undefined) throw new NotFoundError('event_id', op.event_id);
    const [seq, user_id, agent_id] = row;
    this.index.delete(seq);
    this.s.putTermStats.run(op.search_text === null ? null : termStats(op.search_text), seq);
    if (op.search_text !== null)
      this.index.add(seq, scopePrefix({ tenant_id: op.tenant_id, user_id, agent_id }), op.search_text);
    if (op.embedding_model !== undefined) this.s.embedAgain.run(op.tenant_id, op.event_id, op.embedding_model);
  }

  /** The full-text index changed by statements of another class (erasure). */
  indexChanged(): void {
    this.index.changed();
  }

  get(tenantId: string, eventId: string, now: string): EventRecord | null {
    const row = this.s.get.get(tenantId, eventId, now) as unknown[] | undefined;
    return row === undefined ? null : eventFromValues(row);
  }

  neighbours(query: NeighbourQuery): EventNeighbours[] {
    if (query.anchors.length === 0) return [];
    const { sql, params } = neighbourStatement(query);
    return neighboursFromRows(
      query,
      this.cached(sql)
        .raw()
        .all(...params) as unknown[][],
    );
  }

  list(query: EventQuery): EventRecord[] {
    const { sql, params } = eventListQuery(query);
    return (
      this.cached(sql)
        .raw()
        .all(...params) as unknown[][]
    ).map((row) => eventFromValues(row));
  }

  async search(query: EventSearchQuery): Promise<EventSearchHit[]> {
    const terms = query.terms;
    if (terms.length === 0) return [];
    // The index is scoped per agent; a user-wide query asks each of the user's agents.
    const agents =
      query.agent_id === undefined
        ? (this.s.agentsOfUser.all(query.tenant_id, query.user_id) as Row[]).map((row) => row['agent_id'] as string)
        : [query.agent_id];
    const prefixes = agents.map((agent_id) =>
      scopePrefix({ tenant_id: query.tenant_id, user_id: query.user_id, agent_id }),
    );
    // As of a past time, words are ranked by the rows recorded then (a replay ranks as the original did).
    const ranked = this.index.rank(prefixes, terms, this.scopeSize(query, agents), query.as_of);
    // `+` keeps SQLite on the rowids of the candidates: with plain columns it walks the scope's
    // session index and tests every event of the user against the candidate list.
    const filters = eventFilters({ ...query, kinds: undefined }, '+');
    // Candidates are checked against the filters (expiry, time, sensitivity) in rank order.
    return firstPassing(
      ranked,
      query.limit,
      (seqs) => {
        const { sql, params } = eventsAtSeqs(seqs, filters);
        return new Map(
          (
            this.cached(sql)
              .raw()
              .all(...params) as unknown[][]
          ).map((row) => [row[0] as number, row]),
        );
      },
      (row, score) => ({ event: eventFromValues(row, 1), score }),
    );
  }

  /**
   * How many events the searched agents of the user hold, each counted up to SCOPE_SIZE_CAP: the
   * counts kept in event_scope_sizes, or, as of a past time, the events recorded by then.
   */
  private scopeSize(query: EventSearchQuery, agents: readonly string[]): number {
    if (query.as_of !== undefined) {
      const size = scopeSizeQuery(query.tenant_id, query.user_id, agents, query.as_of);
      return Number(
        (
          this.cached(size.sql)
            .raw()
            .get(...size.params) as unknown[]
        )[0],
      );
    }
    if (agents.length === 0) return 0;
    const sql = `SELECT coalesce(sum(min(events, ?)), 0) FROM event_scope_sizes WHERE tenant_id = ? AND user_id = ? AND agent_id IN (${placeholders(agents)})`;
    return this.cached(sql)
      .pluck()
      .get(SCOPE_SIZE_CAP, query.tenant_id, query.user_id, ...agents) as number;
  }

  forReindex(tenantId: string | undefined, after: EventPosition | undefined, limit: number): EventRecord[] {
    const { sql, params } = eventsForReindexQuery(tenantId, after, limit);
    return (
      this.cached(sql)
        .raw()
        .all(...params) as unknown[][]
    ).map((row) => eventFromValues(row));
  }

  /** Changes status flags; any other field is refused as append-only. */
  updateFlags(tenantId: string, eventId: string, flags: EventFlags): void {
    const status = checkedEmbeddingStatus(flags);
    if (status === null) return;
    const info = this.s.updateEmbeddingStatus.run(status, tenantId, eventId);
    if (info.changes === 0) throw new NotFoundError('event_id', eventId);
  }

  /** Deletes expired events with their full-text entries and vectors, in one transaction; returns how many. */
  purgeExpired(now: string): number {
    const purge = this.db.transaction(() => {
      const expired = this.s.expiredSeqs.all(now) as Array<[number, string, string, string]>;
      for (const [seq, tenantId, userId, agentId] of expired) {
        this.index.delete(seq);
        this.s.deleteVector.run(seq);
        this.s.delete.run(seq);
        this.s.count.run(tenantId, userId, agentId, -1);
      }
      return expired.length;
    });
    return purge.immediate();
  }
}
