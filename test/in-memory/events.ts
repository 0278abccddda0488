// The event log of the in-memory store: appends (each event once per tenant), full-text entries and
// token counts replaced as derived data, status flags, purging, and the reads of the events area:
// pages, neighbours, words ranked by BM25 and vectors compared by cosine.

import {
  dot,
  EngramError,
  NotFoundError,
  SCOPE_SIZE_CAP,
  ValidationError,
  type AppendEventOp,
  type EventFlags,
  type EventNeighbours,
  type EventPosition,
  type EventQuery,
  type EventRecord,
  type EventSearchHit,
  type EventSearchQuery,
  type EventStorage,
  type IndexEventOp,
  type NearestEventsQuery,
  type NeighbourQuery,
  type PutTextTokensOp,
} from '../../src/index.js';
import { copy, eventOut, inScope, keys, pageById, recordConflict, type EventRow, type MemoryState } from './state.js';

/** The filters an event read applies (those of EventQuery that do not page). */
type EventFilters = Omit<EventQuery, 'limit' | 'order' | 'cursor'>;

/** True when an event has expired by `now` (it is then never read, only purged). */
const expired = (event: EventRecord, now: string): boolean => event.expires_at !== null && event.expires_at <= now;

/** True when the event passes every filter given. */
function passes(event: EventRecord, q: EventFilters): boolean {
  if (!inScope(event, q) || (q.include_expired !== true && expired(event, q.now))) return false;
  if (q.as_of !== undefined && event.recorded_at > q.as_of) return false;
  if (q.ts_from !== undefined && event.ts < q.ts_from) return false;
  if (q.ts_to !== undefined && event.ts > q.ts_to) return false;
  if (q.ids !== undefined && !q.ids.includes(event.id)) return false;
  if (q.kinds !== undefined && q.kinds.length > 0 && !q.kinds.includes(event.kind)) return false;
  return q.exclude_sensitivity === undefined || !q.exclude_sensitivity.includes(event.sensitivity);
}

const byId = (a: EventRow, b: EventRow): number => (a.event.id < b.event.id ? -1 : a.event.id > b.event.id ? 1 : 0);

/**
 * How many events the searched agents of a user hold, each counted up to SCOPE_SIZE_CAP; as of a
 * past time, the events recorded by then.
 */
function scopeSize(state: MemoryState, query: EventSearchQuery, agents: readonly string[]): number {
  const counts = state.eventCounts.get(keys.user(query.tenant_id, query.user_id));
  const asOf = query.as_of;
  if (asOf === undefined)
    return agents.reduce((sum, agent) => sum + Math.min(counts?.get(agent) ?? 0, SCOPE_SIZE_CAP), 0);
  const recorded = new Map<string, number>();
  for (const { event } of state.events.values()) {
    if (event.tenant_id !== query.tenant_id || event.user_id !== query.user_id || event.recorded_at > asOf) continue;
    recorded.set(event.agent_id, (recorded.get(event.agent_id) ?? 0) + 1);
  }
  return agents.reduce((sum, agent) => sum + Math.min(recorded.get(agent) ?? 0, SCOPE_SIZE_CAP), 0);
}

const EMBEDDING_STATUSES: ReadonlySet<string> = new Set(['pending', 'processing', 'done', 'skipped']);

/** The writes of the event log (inside a write's transaction). */
export class EventWrites {
  constructor(private readonly state: MemoryState) {}

  append(op: AppendEventOp): void {
    const { event } = op;
    const seq = this.state.nextSeq();
    const tokens = this.state.textTokens?.event(event) ?? null;
    this.state.events.insert(
      keys.byId(event.tenant_id, event.id),
      { seq, event: copy(event), tokens, lease: null, vector: null },
      () => recordConflict('events', 'id', event.id),
    );
    this.state.countEvents(event, 1);
    if (op.search_text !== null) this.addWords(seq, event, op.search_text);
  }

  /** Indexes an event's words under its user and agent, recorded when the event was. */
  private addWords(seq: number, event: EventRecord, searchText: string): void {
    const scope = keys.eventScope(event.tenant_id, event.user_id, event.agent_id);
    this.state.eventWords.add(seq, scope, searchText, event.recorded_at);
  }

  /** Replaces an event's full-text entry (derived data: the event itself is unchanged). */
  index(op: IndexEventOp): void {
    const row = this.state.events.get(keys.byId(op.tenant_id, op.event_id));
    if (row === undefined) throw new NotFoundError('event_id', op.event_id);
    this.state.eventWords.remove(row.seq);
    if (op.search_text !== null) this.addWords(row.seq, row.event, op.search_text);
    const model = op.embedding_model;
    if (model !== undefined && row.event.embedding_status === 'done' && row.vector?.model !== model) {
      const event = { ...row.event, embedding_status: 'pending' as const };
      this.state.events.put(keys.byId(op.tenant_id, op.event_id), { ...row, event });
    }
  }

  putTokens(op: PutTextTokensOp): void {
    const key = keys.byId(op.tenant_id, op.id);
    const row = this.state.events.get(key);
    if (row === undefined) throw new NotFoundError('event_id', op.id);
    this.state.events.put(key, { ...row, tokens: op.text_tokens });
  }

  /** Deletes an event with its full-text entry and vector. */
  remove(row: EventRow): void {
    this.state.eventWords.remove(row.seq);
    this.state.events.delete(keys.byId(row.event.tenant_id, row.event.id));
    this.state.countEvents(row.event, -1);
  }

  /** Deletes every event expired by `now`; returns how many. */
  purgeExpired(now: string): number {
    const purged = this.state.events.values().filter((row) => expired(row.event, now));
    for (const row of purged) this.remove(row);
    return purged.length;
  }
}

/** The events area of the storage contract: what a caller is given. */
export class EventArea implements EventStorage {
  constructor(private readonly state: MemoryState) {}

  async get(tenantId: string, eventId: string, now: string): Promise<EventRecord | null> {
    const row = this.state.events.get(keys.byId(tenantId, eventId));
    return row === undefined || expired(row.event, now) ? null : eventOut(row);
  }

  async list(query: EventQuery): Promise<EventRecord[]> {
    const passing = this.state.events.values().filter((row) => passes(row.event, query));
    return pageById(passing, (row) => row.event.id, query).map(eventOut);
  }

  async neighbours(query: NeighbourQuery): Promise<EventNeighbours[]> {
    if (query.anchors.length === 0) return [];
    const passing = this.state.events
      .values()
      .filter((row) => passes(row.event, query))
      .sort(byId);
    return query.anchors.map((anchor) => {
      const session = passing.filter((row) => row.event.session_id === anchor.session_id);
      const before = session.findLast((row) => row.event.id < anchor.id);
      const [after, twoAfter] = session.filter((row) => row.event.id > anchor.id);
      const out = (row: (typeof session)[number] | undefined) => (row === undefined ? null : eventOut(row));
      return { anchor_id: anchor.id, before: out(before), after: out(after), twoAfter: out(twoAfter) };
    });
  }

  async search(query: EventSearchQuery): Promise<EventSearchHit[]> {
    if (query.terms.length === 0) return [];
    // Words are indexed per agent of a user; a user-wide search asks each of the user's agents.
    const agents =
      query.agent_id === undefined
        ? [...(this.state.eventCounts.get(keys.user(query.tenant_id, query.user_id))?.keys() ?? [])]
        : [query.agent_id];
    const ranked = this.state.eventWords.rank(
      agents.map((agent) => keys.eventScope(query.tenant_id, query.user_id, agent)),
      query.terms,
      scopeSize(this.state, query, agents),
      query.as_of,
    );
    // Ranked candidates are checked against the filters (expiry, time, sensitivity) in rank order.
    const hits: EventSearchHit[] = [];
    for (const { row, score } of ranked) {
      if (hits.length >= query.limit) break;
      const found = this.state.events.atSeq(row);
      if (found !== undefined && passes(found.event, query)) hits.push({ event: eventOut(found), score });
    }
    return hits;
  }

  async nearest(query: NearestEventsQuery): Promise<EventSearchHit[]> {
    if (query.limit <= 0) return [];
    const scored: Array<{ row: EventRow; score: number }> = [];
    for (const row of this.state.events.values()) {
      const stored = row.vector;
      if (stored === null || stored.model !== query.model || stored.values.length !== query.vector.length) continue;
      if (query.embedded_before !== undefined && stored.at >= query.embedded_before) continue;
      if (!passes(row.event, query)) continue;
      // Rounded as the SQL stores round it: equal vectors score equal, and the newer event wins.
      scored.push({ row, score: Math.round(dot(query.vector, stored.values) * 1e6) / 1e6 });
    }
    scored.sort((a, b) => b.score - a.score || b.row.seq - a.row.seq);
    return scored.slice(0, query.limit).map(({ row, score }) => ({ event: eventOut(row), score }));
  }

  async updateFlags(tenantId: string, eventId: string, flags: EventFlags): Promise<void> {
    for (const field of Object.keys(flags)) {
      if (field !== 'embedding_status')
        throw new EngramError('APPEND_ONLY_VIOLATION', `${field}: events are append-only; only status flags change`, {
          field,
        });
    }
    const status = flags.embedding_status;
    if (status === undefined) return;
    if (!EMBEDDING_STATUSES.has(status))
      throw ValidationError.of('embedding_status', 'enum', `must be one of ${[...EMBEDDING_STATUSES].join(', ')}`);
    const key = keys.byId(tenantId, eventId);
    const row = this.state.events.get(key);
    if (row === undefined) throw new NotFoundError('event_id', eventId);
    this.state.journal.run(() =>
      this.state.events.put(key, { ...row, event: { ...row.event, embedding_status: status } }),
    );
  }

  async forReindex(
    tenantId: string | undefined,
    after: EventPosition | undefined,
    limit: number,
  ): Promise<EventRecord[]> {
    // In (tenant, id) order: the position of an event is its tenant, then its id.
    const compare = (a: EventPosition, b: EventPosition): number =>
      a.tenant_id < b.tenant_id ? -1 : a.tenant_id > b.tenant_id ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
    return this.state.events
      .values()
      .filter(
        ({ event }) =>
          (tenantId === undefined || event.tenant_id === tenantId) &&
          (after === undefined || compare(event, after) > 0),
      )
      .sort((a, b) => compare(a.event, b.event))
      .slice(0, limit)
      .map(eventOut);
  }
}
