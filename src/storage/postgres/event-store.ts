// Events on PostgreSQL: the append-only log with its tsvector of scoped words, and the reads over it
// (by id, by session, by cue words, next to anchors, for reindexing). Writes run inside the caller's
// transaction; only status flags and the derived full-text column of an event ever change.

import { NotFoundError } from '../../spec/errors.js';
import type { EventFlags, EventRecord } from '../../spec/event.js';
import type { TextCounts } from '../shared/text-token-ops.js';
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
} from '../shared/event-rows.js';
import { EVENT_SQL, eventListQuery, eventsAtSeqs } from '../shared/event-sql.js';
import { firstPassing } from '../shared/first-passing.js';
import { placeholders } from '../shared/rows.js';
import { scopeSizeQuery } from '../shared/scope-rows.js';
import type { Sql, SqlPool } from './client.js';
import { scopedLexemes, WordIndex } from './word-index.js';

// The agents a user has events with, one index probe per agent (a loose index scan) rather than a
// walk over all of the user's events.
const AGENTS_OF_USER = `WITH RECURSIVE agents(agent_id) AS (
    SELECT min(agent_id) FROM events WHERE tenant_id = ? AND user_id = ?
    UNION ALL
    SELECT (SELECT min(e.agent_id) FROM events e WHERE e.tenant_id = ? AND e.user_id = ? AND e.agent_id > agents.agent_id)
    FROM agents WHERE agents.agent_id IS NOT NULL)
  SELECT agent_id FROM agents WHERE agent_id IS NOT NULL`;

/** A text[] of scoped words as a tsvector, or NULL (an event without search text). */
const SEARCH_VECTOR = 'CASE WHEN ?::text[] IS NULL THEN NULL ELSE array_to_tsvector(?::text[]) END';

export class PgEventStore {
  private readonly index = new WordIndex('events');

  constructor(private readonly pool: SqlPool) {}

  /** Inserts events with their scoped words and word counts (and the token counts of their texts) in one statement. */
  async append(tx: Sql, ops: readonly AppendEventOp[], counts: TextCounts): Promise<void> {
    const row = `(${placeholders(EVENT_COLUMNS)}, ${SEARCH_VECTOR}, ?)`;
    const params: unknown[] = [];
    for (const op of ops) {
      const lexemes = op.search_text === null ? null : scopedLexemes(scopePrefix(op.event), op.search_text);
      params.push(
        ...eventValues(op.event, counts.get(op) ?? null),
        lexemes,
        lexemes,
        op.search_text === null ? null : termStats(op.search_text),
      );
    }
    await tx.run(
      `INSERT INTO events (${EVENT_COLUMNS.join(', ')}, search, term_stats) VALUES ${ops.map(() => row).join(', ')}`,
      params,
    );
  }

  /** Replaces an event's full-text entry and word counts (derived data; the event itself is unchanged). */
  async reindex(tx: Sql, op: IndexEventOp): Promise<void> {
    const rows = await tx.arrays('SELECT user_id, agent_id FROM events WHERE tenant_id = ? AND id = ?', [
      op.tenant_id,
      op.event_id,
    ]);
    if (rows.length === 0) throw new NotFoundError('event_id', op.event_id);
    const [user_id, agent_id] = rows[0] as [string, string];
    const lexemes =
      op.search_text === null
        ? null
        : scopedLexemes(scopePrefix({ tenant_id: op.tenant_id, user_id, agent_id }), op.search_text);
    const stats = op.search_text === null ? null : termStats(op.search_text);
    await tx.run(`UPDATE events SET search = ${SEARCH_VECTOR}, term_stats = ? WHERE tenant_id = ? AND id = ?`, [
      lexemes,
      lexemes,
      stats,
      op.tenant_id,
      op.event_id,
    ]);
    if (op.embedding_model !== undefined)
      await tx.run(EVENT_SQL.embedAgain, [op.tenant_id, op.event_id, op.embedding_model]);
  }

  async get(tenantId: string, eventId: string, now: string): Promise<EventRecord | null> {
    const rows = await this.pool.arrays(EVENT_SQL.get, [tenantId, eventId, now]);
    return rows.length === 0 ? null : eventFromValues(rows[0]!);
  }

  async neighbours(query: NeighbourQuery): Promise<EventNeighbours[]> {
    if (query.anchors.length === 0) return [];
    const { sql, params } = neighbourStatement(query);
    return neighboursFromRows(query, await this.pool.arrays(sql, params));
  }

  async list(query: EventQuery): Promise<EventRecord[]> {
    const { sql, params } = eventListQuery(query);
    return (await this.pool.arrays(sql, params)).map((row) => eventFromValues(row));
  }

  async search(query: EventSearchQuery): Promise<EventSearchHit[]> {
    if (query.terms.length === 0) return [];
    // The index is scoped per agent; a user-wide query asks each of the user's agents.
    const agents =
      query.agent_id === undefined
        ? (
            await this.pool.arrays(AGENTS_OF_USER, [query.tenant_id, query.user_id, query.tenant_id, query.user_id])
          ).map((row) => row[0] as string)
        : [query.agent_id];
    if (agents.length === 0) return [];
    const prefixes = agents.map((agent_id) =>
      scopePrefix({ tenant_id: query.tenant_id, user_id: query.user_id, agent_id }),
    );
    // As of a past time, words are ranked by the rows recorded then (a replay ranks as the original did).
    const size = scopeSizeQuery(query.tenant_id, query.user_id, agents, query.as_of);
    const scopeSize = this.pool.arrays(size.sql, size.params).then((rows) => Number(rows[0]![0]));
    const ranked = await this.index.rank(this.pool, prefixes, query.terms, scopeSize, query.as_of);
    const filters = eventFilters({ ...query, kinds: undefined }, '');
    return firstPassing(
      ranked,
      query.limit,
      async (seqs) => {
        const { sql, params } = eventsAtSeqs(seqs, filters);
        return new Map((await this.pool.arrays(sql, params)).map((row) => [Number(row[0]), row]));
      },
      (row, score) => ({ event: eventFromValues(row, 1), score }),
    );
  }

  async forReindex(
    tenantId: string | undefined,
    after: EventPosition | undefined,
    limit: number,
  ): Promise<EventRecord[]> {
    const { sql, params } = eventsForReindexQuery(tenantId, after, limit);
    return (await this.pool.arrays(sql, params)).map((row) => eventFromValues(row));
  }

  /** Changes status flags; any other field is refused as append-only. */
  async updateFlags(tenantId: string, eventId: string, flags: EventFlags): Promise<void> {
    const status = checkedEmbeddingStatus(flags);
    if (status === null) return;
    const changed = await this.pool.run(EVENT_SQL.setEmbeddingStatus, [status, tenantId, eventId]);
    if (changed === 0) throw new NotFoundError('event_id', eventId);
  }

  /** Deletes expired events with their vectors (their full-text entries go with the row), in one transaction. */
  purgeExpired(now: string): Promise<number> {
    return this.pool.transaction(async (tx) => {
      await tx.run(
        'DELETE FROM event_vectors v USING events e WHERE v.tenant_id = e.tenant_id AND v.event_id = e.id AND e.expires_at IS NOT NULL AND e.expires_at <= ?',
        [now],
      );
      return tx.run('DELETE FROM events WHERE expires_at IS NOT NULL AND expires_at <= ?', [now]);
    });
  }
}
