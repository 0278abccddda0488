// Full-text search over a user's events, a page at a time. A page after the first ranks as the first
// did: its cursor carries the first page's time (later pages read the store as of it, so events
// recorded since neither shift nor repeat hits), how far the pages got, and the last hit shown.

import { ValidationError } from '../spec/errors.js';
import type { SearchEventsRequest } from '../spec/requests.js';
import { DEFAULT_TENANT } from '../spec/scope.js';
import type { EventSearchHit, EventSearchQuery, StorageAdapter } from '../spec/storage.js';
import { validateSearchEventsRequest } from '../spec/validators.js';
import { NEVER_SHARED } from '../events/sensitivity.js';
import { toIso } from '../util/clock.js';
import { sha256 } from '../util/ids.js';
import { searchTerms } from '../util/word-forms.js';

/** One page of an event search: hits best first, and the cursor of the next page (null at the end). */
export interface EventSearchPage {
  hits: EventSearchHit[];
  next_cursor: string | null;
}

/** Hits per page when a request names no limit. */
export const DEFAULT_EVENT_HITS = 20;

/** How deep pages reach: each page re-ranks from the top, so a deeper one would read ever more of the index. */
export const MAX_EVENT_SEARCH_DEPTH = 1000;

const CURSOR_VERSION = '1';
const CURSOR_SHAPE = /^1_([0-9a-z]{1,12})_([0-9a-z]{1,6})_([0-9A-HJKMNP-TV-Z]{26})_([0-9a-f]{12})$/;

interface Cursor {
  /** The first page's time: later pages read the store as of it. */
  asOf: string;
  /** How many hits the pages before showed. */
  offset: number;
  /** The last hit shown: the next page starts after it while it is still found. */
  last: string;
}

/** Ties a cursor to the search it continues: the same scope, words and time range. */
function fingerprintOf(query: EventSearchQuery): string {
  const { tenant_id, user_id, agent_id, session_id, terms, ts_from, ts_to } = query;
  return sha256(
    JSON.stringify([tenant_id, user_id, agent_id ?? null, session_id ?? null, terms, ts_from ?? null, ts_to ?? null]),
  ).slice(0, 12);
}

function writeCursor(cursor: Cursor, fingerprint: string): string {
  return [
    CURSOR_VERSION,
    Date.parse(cursor.asOf).toString(36),
    cursor.offset.toString(36),
    cursor.last.slice(4),
    fingerprint,
  ].join('_');
}

function readCursor(text: string, fingerprint: string, now: string): Cursor {
  const parts = CURSOR_SHAPE.exec(text);
  const at = parts === null ? Number.NaN : parseInt(parts[1]!, 36);
  // A first page's time is never later than now.
  if (parts === null || !(at <= Date.parse(now)))
    throw ValidationError.of('cursor', 'format', 'is not a cursor an event search returned');
  if (parts[4] !== fingerprint)
    throw ValidationError.of(
      'cursor',
      'same_search',
      'continues another search: send the scope, query and time_range of its first page',
    );
  return { asOf: new Date(at).toISOString(), offset: parseInt(parts[2]!, 36), last: `evt_${parts[3]!}` };
}

/**
 * One page of a full-text search over a user's events (never secret ones), best first; pass its
 * `next_cursor` as `cursor` for the next page.
 *
 * @example
 * const first = await searchEventPage(storage, { scope: { user_id: 'mira' }, query: 'deploy', limit: 20 }, now);
 * const second = await searchEventPage(storage, { scope: { user_id: 'mira' }, query: 'deploy', limit: 20, cursor: first.next_cursor! }, now);
 */
export async function searchEventPage(
  storage: StorageAdapter,
  request: SearchEventsRequest,
  now: string,
): Promise<EventSearchPage> {
  const valid = validateSearchEventsRequest(request);
  const query: EventSearchQuery = {
    ...valid.scope,
    tenant_id: valid.scope.tenant_id ?? DEFAULT_TENANT,
    terms: searchTerms(valid.query),
    now,
    ts_from: valid.time_range?.start === undefined ? undefined : toIso(valid.time_range.start, 'time_range.start'),
    ts_to: valid.time_range?.end === undefined ? undefined : toIso(valid.time_range.end, 'time_range.end'),
    exclude_sensitivity: [...NEVER_SHARED],
    limit: 0,
  };
  const limit = valid.limit ?? DEFAULT_EVENT_HITS;
  const fingerprint = fingerprintOf(query);
  const cursor = valid.cursor === undefined ? undefined : readCursor(valid.cursor, fingerprint, now);
  const offset = cursor?.offset ?? 0;
  if (offset >= MAX_EVENT_SEARCH_DEPTH) return { hits: [], next_cursor: null };
  // One hit more than the page, to know whether another page follows.
  const ranked = await storage.events.search({
    ...query,
    ...(cursor === undefined ? {} : { as_of: cursor.asOf }),
    limit: offset + limit + 1,
  });
  // Resume after the last hit shown while it is still found (an event ranked above it may have expired
  // or been erased since), else at the count of hits shown.
  const resumed = cursor === undefined ? -1 : ranked.findIndex((hit) => hit.event.id === cursor.last);
  const start = resumed >= 0 ? resumed + 1 : offset;
  const end = Math.min(start + limit, MAX_EVENT_SEARCH_DEPTH);
  const hits = ranked.slice(start, end);
  const more = hits.length > 0 && ranked.length > end && end < MAX_EVENT_SEARCH_DEPTH;
  return {
    hits,
    next_cursor: more
      ? writeCursor({ asOf: cursor?.asOf ?? now, offset: end, last: hits.at(-1)!.event.id }, fingerprint)
      : null,
  };
}
