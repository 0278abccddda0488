// The events area of the storage contract: reading the append-only log of a tenant's events, by page,
// by anchor, by words and by vector, and the one change an event allows (its status flags).

import type { EventFlags, EventKind, EventRecord, Sensitivity } from '../event.js';

/** A page of a scope's events. Expired events are never returned. */
export interface EventQuery {
  tenant_id: string;
  user_id?: string;
  agent_id?: string;
  session_id?: string;
  run_id?: string;
  kinds?: EventKind[];
  /** Only these events. */
  ids?: readonly string[];
  /** Sensitivities to leave out (for example `['secret']` on every read path that feeds a packet). */
  exclude_sensitivity?: Sensitivity[];
  /** Current time: events whose `expires_at` is at or before it are invisible. */
  now: string;
  /** Return expired (not yet purged) events too: only for rebuilding derived state exactly. */
  include_expired?: boolean;
  /** Only events recorded at or before this time. */
  as_of?: string;
  /** Only events whose event time is at or after this time. */
  ts_from?: string;
  /** Only events whose event time is at or before this time. */
  ts_to?: string;
  /** Only events with an id after (ascending) or before (descending) this one. */
  cursor?: string;
  order?: 'asc' | 'desc';
  limit: number;
}

/** Where a walk over the events of every tenant stands: the last event read. */
export interface EventPosition {
  tenant_id: string;
  id: string;
}

/**
 * The events right before and the two right after some anchor events in their own sessions, among
 * those the filters let through (kinds, sensitivity, time, expiry). The anchors themselves need not pass.
 */
export interface NeighbourQuery extends Omit<
  EventQuery,
  'ids' | 'cursor' | 'order' | 'limit' | 'session_id' | 'run_id'
> {
  user_id: string;
  agent_id: string;
  anchors: ReadonlyArray<{ id: string; session_id: string }>;
}

/**
 * One anchor's neighbours: the nearest passing event before it and after it in its session, and
 * the nearest passing one after that (null when `after` is).
 */
export interface EventNeighbours {
  anchor_id: string;
  before: EventRecord | null;
  after: EventRecord | null;
  twoAfter: EventRecord | null;
}

/** A full-text query over event text; `terms` are already segmented and normalised. */
export interface EventSearchQuery {
  tenant_id: string;
  user_id: string;
  agent_id?: string;
  session_id?: string;
  terms: string[];
  exclude_sensitivity?: Sensitivity[];
  now: string;
  /**
   * Only events recorded at or before this time; words are then ranked by those events alone (their
   * rarity, newest matches and the scope's size), as a search at that time ranked them.
   */
  as_of?: string;
  ts_from?: string;
  ts_to?: string;
  limit: number;
}

/**
 * The events of a user whose stored vectors are nearest to a query vector (cosine), with the same
 * filters as a full-text search. Only vectors of `model` stored strictly before `embedded_before`
 * are compared: a replay sees the vectors its original saw.
 */
export interface NearestEventsQuery extends Omit<EventSearchQuery, 'terms'> {
  vector: Float32Array;
  /** The model the vectors were stored with (`provider:modelId`, as `completeEmbeddingWork` was told). */
  model: string;
  embedded_before?: string;
}

export interface EventSearchHit {
  event: EventRecord;
  /** Higher is better; comparable only within one result list. */
  score: number;
}

/**
 * Reads of the event log (writes go through `StorageAdapter.write`).
 *
 * @example
 * const events = await storage.events.list({ tenant_id: 'default', user_id: 'u1', now, limit: 50 });
 */
export interface EventStorage {
  get(tenantId: string, eventId: string, now: string): Promise<EventRecord | null>;
  list(query: EventQuery): Promise<EventRecord[]>;
  /** For each anchor, in order, its nearest neighbours in its session (one read for all of them). */
  neighbours(query: NeighbourQuery): Promise<EventNeighbours[]>;
  search(query: EventSearchQuery): Promise<EventSearchHit[]>;
  /** Events nearest to a query vector, best first; `score` is the cosine similarity. */
  nearest(query: NearestEventsQuery): Promise<EventSearchHit[]>;
  /** Changes an event's status flags; any other field is refused with APPEND_ONLY_VIOLATION. */
  updateFlags(tenantId: string, eventId: string, flags: EventFlags): Promise<void>;
  /**
   * Events of one tenant (or all), in (tenant, id) order after `after`, at most `limit`: every event,
   * expired or secret ones too, for rebuilding the full-text index.
   */
  forReindex(tenantId: string | undefined, after: EventPosition | undefined, limit: number): Promise<EventRecord[]>;
}
