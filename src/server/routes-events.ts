// The episodic log (engram.events): list a user's or session's events, get one, and search them
// by full text a page at a time.

import type { ListEventsRequest, SearchEventsRequest } from '../index.js';
import { type RouteCall, type RouteSpec } from './route-kit.js';
import { limitOf, page, PAGE_PARAMS, pick } from './route-query.js';
import { objectOf, pageOf, ref } from './schema-refs.js';
import { bindTenant } from './tenancy.js';

const SCOPE_PARAMS = [
  { name: 'user_id', type: 'string', description: 'The user (required).', required: true },
  { name: 'agent_id', type: 'string', description: 'One agent of the user.' },
  { name: 'session_id', type: 'string', description: 'One session.' },
  { name: 'run_id', type: 'string', description: 'One run.' },
] as const;

async function listEvents({ engram, tenant, query }: RouteCall): Promise<unknown> {
  const limit = limitOf(query);
  const request = {
    scope: { ...pick(query, ['user_id', 'agent_id', 'session_id', 'run_id']), tenant_id: tenant },
    ...pick(query, ['kinds', 'order', 'cursor']),
    limit,
  };
  return page(await engram.events.list(request as unknown as ListEventsRequest), limit, (event) => event.id);
}

/** The episodic log. */
export const eventRoutes: readonly RouteSpec[] = [
  {
    method: 'GET',
    url: '/v1/events',
    operationId: 'listEvents',
    wire: { response: 'Page<EventRecord>' },
    role: 'read',
    tag: 'events',
    summary:
      "A page of a user's (or session's) events in log order; a secret event shows only its ids, scope, kind, role and times",
    query: [
      ...SCOPE_PARAMS,
      {
        name: 'kinds',
        type: 'list',
        enum: ['message', 'tool_result', 'state_patch', 'marker'],
        description: 'Event kinds (comma-separated).',
      },
      { name: 'order', type: 'string', enum: ['asc', 'desc'], description: 'Log order (default asc).' },
      ...PAGE_PARAMS,
    ],
    response: { status: 200, description: 'A page of events.', schema: pageOf(ref('eventRecord')) },
    handle: listEvents,
  },
  {
    method: 'GET',
    url: '/v1/events/:id',
    operationId: 'getEvent',
    wire: { response: 'EventRecord' },
    role: 'read',
    tag: 'events',
    summary: 'One event by id (a secret one shows only its ids, scope, kind, role and times)',
    response: { status: 200, description: 'The event.', schema: ref('eventRecord') },
    errors: [404],
    handle: ({ engram, tenant, params }) => engram.events.get(params['id']!, tenant),
  },
  {
    method: 'POST',
    url: '/v1/events/search',
    operationId: 'searchEvents',
    wire: { body: 'SearchEventsRequest', response: 'EventSearchPage' },
    role: 'read',
    tag: 'events',
    summary:
      "Search a user's events, the episodic log (never secret ones): full text, best first, a page at a time; long-term memory items are POST /v1/items/search",
    body: { required: true, schema: ref('searchEventsRequest') },
    response: {
      status: 200,
      description: 'A page of event hits, best first, and the cursor of the next page.',
      schema: objectOf(
        {
          hits: {
            type: 'array',
            items: objectOf({ event: ref('eventRecord'), score: { type: 'number' } }, ['event', 'score']),
          },
          next_cursor: {
            type: ['string', 'null'],
            description:
              'Pass it as cursor (with the same scope, query and time range) for the next page; null at the end.',
          },
        },
        ['hits', 'next_cursor'],
      ),
    },
    errors: [413, 415],
    handle: async ({ engram, tenant, body }) =>
      engram.events.searchPage(bindTenant(body, tenant) as SearchEventsRequest),
  },
];
