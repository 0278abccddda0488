// The event area (`engram.events`): the episodic log read a page at a time, one event by id, and
// full-text search over it. Secret events show only the fields that cannot describe the secret.

import type { EventRecord } from '../spec/event.js';
import { NotFoundError } from '../spec/errors.js';
import type { ListEventsRequest, SearchEventsRequest } from '../spec/requests.js';
import type { EventSearchHit } from '../spec/storage.js';
import { validateListEventsRequest } from '../spec/validators.js';
import { shownEvent } from '../events/sensitivity.js';
import { requireId, tenantOrDefault } from './arguments.js';
import { searchEventPage, type EventSearchPage } from './event-search.js';
import type { Runtime } from './runtime.js';

/** Events per page when a request names no limit. */
const DEFAULT_EVENT_PAGE = 100;

/** The episodic log (`engram.events`). */
export interface Events {
  /**
   * A page of events in log order. Secret events appear with only the fields that cannot describe
   * the secret (SECRET_SHOWN_FIELDS: ids, scope, kind, role, times) unless `include_secret_content` is set.
   *
   * @example
   * const page = await engram.events.list({ scope: { user_id: 'u1', agent_id: 'a1', session_id: 's1' }, limit: 50 });
   */
  list(request: ListEventsRequest): Promise<EventRecord[]>;
  /**
   * One event by id; a secret one with only the fields that cannot describe it (SECRET_SHOWN_FIELDS).
   *
   * @example
   * const event = await engram.events.get('evt_01J…');
   */
  get(eventId: string, tenantId?: string): Promise<EventRecord>;
  /**
   * Full-text search over a user's events, best first: one page of hits. Never returns secret
   * events. `searchPage` also returns the cursor of the next page; long-term memory items are
   * `engram.items.search`.
   *
   * @example
   * const hits = await engram.events.search({ scope: { user_id: 'u1' }, query: '中文文档' });
   */
  search(request: SearchEventsRequest): Promise<EventSearchHit[]>;
  /**
   * One page of a full-text search over a user's events, with the cursor of the next page (null at
   * the end). Later pages rank as the first did: events recorded since neither shift nor repeat hits.
   *
   * @example
   * const first = await engram.events.searchPage({ scope: { user_id: 'u1' }, query: 'deploy', limit: 50 });
   * const next = await engram.events.searchPage({ scope: { user_id: 'u1' }, query: 'deploy', limit: 50, cursor: first.next_cursor! });
   */
  searchPage(request: SearchEventsRequest): Promise<EventSearchPage>;
}

export function eventsOf(runtime: Runtime): Events {
  const searchPage = async (request: SearchEventsRequest) => {
    const { storage, now } = runtime.store();
    return searchEventPage(storage, request, now());
  };
  return {
    list: async (request) => {
      const { storage, now } = runtime.store();
      const valid = validateListEventsRequest(request);
      const events = await storage.events.list({
        ...valid.scope,
        tenant_id: tenantOrDefault(valid.scope.tenant_id),
        kinds: valid.kinds,
        order: valid.order,
        cursor: valid.cursor,
        limit: valid.limit ?? DEFAULT_EVENT_PAGE,
        now: now(),
      });
      return valid.include_secret_content === true ? events : events.map(shownEvent);
    },
    get: async (eventId, tenantId) => {
      const { storage, now } = runtime.store();
      requireId('evt', eventId, 'event_id');
      const event = await storage.events.get(tenantOrDefault(tenantId), eventId, now());
      if (event === null) throw new NotFoundError('event_id', eventId);
      return shownEvent(event);
    },
    search: async (request) => (await searchPage(request)).hits,
    searchPage,
  };
}
