// The event vectors of a user, kept in memory between searches and compared exactly: compose embeds
// its query once and asks for the user's nearest events on every call, and reading thousands of
// vectors from the database each time would cost more than the comparison. Each adapter loads only
// the vectors stored since its last read (their `vid` grows with every insert), so a kept scope stays
// current without being reread; deletions are the adapter's to announce (`forget`).

import { LRUCache } from 'lru-cache';

import type { EventSearchHit, NearestEventsQuery } from '../../spec/storage.js';
import { dot } from '../../util/vectors.js';
import { eventFromValues } from './event-rows.js';
import { firstPassing } from './first-passing.js';

/** One stored event vector, as the adapters read it. */
export interface EventVectorRow {
  vid: number;
  event_seq: number;
  agent_id: string;
  /** When the vector was stored: a search as of a time sees only vectors stored before it. */
  embedded_at: string;
  vector: Float32Array;
}

/** A candidate of the scan: the event's row key and its cosine similarity to the query. */
export interface NearestRow {
  row: number;
  score: number;
}

/** What a scan is asked: the query vector, which agents of the user, and the as-of bound. */
export interface VectorScan {
  vector: Float32Array;
  /** The agents searched; undefined for all of the user's. */
  agents?: readonly string[];
  /** Only vectors stored strictly before this time. */
  embeddedBefore?: string;
  limit: number;
}

/** The vectors of one user and model, in insertion order, replaced in place when an event is embedded again. */
class ScopeVectors {
  lastVid = 0;
  readonly rows: EventVectorRow[] = [];
  private readonly slotOfSeq = new Map<number, number>();

  add(loaded: readonly EventVectorRow[]): void {
    for (const row of loaded) {
      const slot = this.slotOfSeq.get(row.event_seq);
      if (slot === undefined) {
        this.slotOfSeq.set(row.event_seq, this.rows.length);
        this.rows.push(row);
      } else {
        this.rows[slot] = row;
      }
      if (row.vid > this.lastVid) this.lastVid = row.vid;
    }
  }

  get floats(): number {
    return this.rows.reduce((sum, row) => sum + row.vector.length, 0) + 1;
  }
}

/** Most floats kept over all scopes (64 MiB); the least recently searched scopes are dropped first. */
const MAX_FLOATS = 16 * 1024 * 1024;

/**
 * The kept vectors of every searched scope. `load` reads a scope's vectors stored after a `vid`
 * (sync or async, per dialect).
 */
export class EventVectorScopes {
  private readonly kept = new LRUCache<string, ScopeVectors>({
    maxSize: MAX_FLOATS,
    sizeCalculation: (scope) => scope.floats,
  });

  /**
   * The `limit` nearest events of a scope, best first (equal scores: the newer event first). Only
   * vectors of the query's dimension are compared: another model's vectors have another size, or a
   * model name of their own (the key).
   */
  async nearest(
    key: { tenant_id: string; user_id: string; model: string },
    scan: VectorScan,
    load: (afterVid: number) => EventVectorRow[] | Promise<EventVectorRow[]>,
  ): Promise<NearestRow[]> {
    const name = `${key.tenant_id}\u0000${key.user_id}\u0000${key.model}`;
    let scope = this.kept.get(name);
    const fresh = scope === undefined;
    scope ??= new ScopeVectors();
    const loaded = await load(scope.lastVid);
    if (loaded.length > 0 || fresh) {
      scope.add(loaded);
      // Re-set so the LRU counts the new size.
      this.kept.set(name, scope);
    }
    return scanRows(scope.rows, scan);
  }

  /**
   * The `limit` events nearest to the query that pass its filters: the scope's vectors compared,
   * then the best candidates read as events (`read`: rows of `seq, <event columns>` by seq, the
   * query's filters applied) in rank order.
   */
  async nearestEvents(
    query: NearestEventsQuery,
    load: (afterVid: number) => EventVectorRow[] | Promise<EventVectorRow[]>,
    read: (seqs: number[]) => unknown[][] | Promise<unknown[][]>,
  ): Promise<EventSearchHit[]> {
    if (query.limit <= 0) return [];
    const ranked = await this.nearest(
      { tenant_id: query.tenant_id, user_id: query.user_id, model: query.model },
      {
        vector: query.vector,
        ...(query.agent_id === undefined ? {} : { agents: [query.agent_id] }),
        ...(query.embedded_before === undefined ? {} : { embeddedBefore: query.embedded_before }),
        limit: Math.max(MIN_CANDIDATES, query.limit * CANDIDATES_PER_HIT),
      },
      load,
    );
    return firstPassing(
      ranked,
      query.limit,
      async (seqs) => new Map((await read(seqs)).map((row) => [Number(row[0]), row])),
      (row, score) => ({ event: eventFromValues(row, 1), score }),
    );
  }

  /** Drops every kept vector: events or vectors were deleted (erasure, expiry, a rebuilt index). */
  forget(): void {
    this.kept.clear();
  }
}

/** Candidates compared for every hit asked: the filters (session, time, expiry) may reject some. */
const CANDIDATES_PER_HIT = 4;
const MIN_CANDIDATES = 100;

/** Exact top-k of the rows that pass the scan's filters. */
export function scanRows(rows: readonly EventVectorRow[], scan: VectorScan): NearestRow[] {
  const agents = scan.agents === undefined ? null : new Set(scan.agents);
  const scored: NearestRow[] = [];
  const size = scan.vector.length;
  for (const row of rows) {
    if (row.vector.length !== size) continue;
    if (agents !== null && !agents.has(row.agent_id)) continue;
    if (scan.embeddedBefore !== undefined && row.embedded_at >= scan.embeddedBefore) continue;
    scored.push({ row: row.event_seq, score: Math.round(dot(scan.vector, row.vector) * 1e6) / 1e6 });
  }
  scored.sort((a, b) => b.score - a.score || b.row - a.row);
  return scored.slice(0, scan.limit);
}
