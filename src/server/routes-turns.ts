// The write path and the read path: commit turns (one or a batch), compose a packet (optionally
// rendered as prompt text), and read the episodic log (list, get, full-text search).

import {
  renderPacket,
  ValidationError,
  type CommitTurnRequest,
  type ComposeRequest,
  type ListEventsRequest,
  type RenderFormat,
  type SearchEventsRequest,
} from '../index.js';
import { limitOf, page, PAGE_PARAMS, pick, type RouteCall, type RouteSpec } from './route-kit.js';
import { objectOf, pageOf, ref } from './schema-refs.js';
import { bindTenant, isObject } from './tenancy.js';

const SCOPE_PARAMS = [
  { name: 'user_id', type: 'string', description: 'The user (required).', required: true },
  { name: 'agent_id', type: 'string', description: 'One agent of the user.' },
  { name: 'session_id', type: 'string', description: 'One session.' },
  { name: 'run_id', type: 'string', description: 'One run.' },
] as const;

async function commit({ engram, tenant, body, metrics }: RouteCall): Promise<unknown> {
  const batch = isObject(body) && 'turns' in body && !('scope' in body);
  if (!batch) {
    const result = await engram.commitTurn(bindTenant(body, tenant) as CommitTurnRequest);
    metrics.turnsCommitted.inc({ outcome: result.replayed ? 'replayed' : 'written' });
    return result;
  }
  const extra = Object.keys(body).filter((key) => key !== 'turns');
  if (extra.length > 0) throw ValidationError.of(extra[0]!, 'additionalProperties', 'is not an allowed property');
  const turns = body['turns'];
  const bound = Array.isArray(turns) ? turns.map((turn) => bindTenant(turn, tenant)) : turns;
  const results = await engram.commitTurns(bound as CommitTurnRequest[]);
  for (const result of results) metrics.turnsCommitted.inc({ outcome: result.replayed ? 'replayed' : 'written' });
  return { results };
}

async function compose({ engram, tenant, body, query, metrics }: RouteCall): Promise<unknown> {
  const packet = await engram.compose(bindTenant(body, tenant) as ComposeRequest);
  metrics.packetsComposed.inc({ purpose: packet.meta.purpose });
  const format = query['render'] as RenderFormat | undefined;
  return format === undefined ? { packet } : { packet, text: renderPacket(packet, { format }) };
}

async function listEvents({ engram, tenant, query }: RouteCall): Promise<unknown> {
  const limit = limitOf(query);
  const request = {
    scope: { ...pick(query, ['user_id', 'agent_id', 'session_id', 'run_id']), tenant_id: tenant },
    ...pick(query, ['kinds', 'order', 'cursor']),
    limit,
  };
  return page(await engram.events.list(request as unknown as ListEventsRequest), limit, (event) => event.id);
}

/** Commit and compose. */
export const turnRoutes: readonly RouteSpec[] = [
  {
    method: 'POST',
    url: '/v1/turns',
    operationId: 'commitTurn',
    wire: {
      body: 'CommitTurnRequest | { turns: CommitTurnRequest[] }',
      response: 'CommitTurnResult | { results: CommitTurnResult[] }',
    },
    role: 'write',
    tag: 'turns',
    summary: 'Commit a turn, or a batch of turns in one transaction',
    body: {
      required: true,
      schema: {
        oneOf: [
          ref('commitTurnRequest'),
          objectOf({ turns: { type: 'array', minItems: 1, items: ref('commitTurnRequest') } }, ['turns']),
        ],
      },
    },
    response: {
      status: 200,
      description: 'A CommitTurnResult, or { results } for a batch.',
      schema: {
        oneOf: [
          ref('records', '/$defs/commit_turn_result'),
          objectOf({ results: { type: 'array', items: ref('records', '/$defs/commit_turn_result') } }, ['results']),
        ],
      },
    },
    errors: [409, 413, 415],
    handle: commit,
  },
  {
    method: 'POST',
    url: '/v1/compose',
    operationId: 'compose',
    wire: { body: 'ComposeRequest', response: '{ packet: MemoryPacket; text?: string }' },
    role: 'read',
    tag: 'compose',
    summary: 'Compose a token-budgeted MemoryPacket (and its prompt text with ?render=)',
    query: [
      {
        name: 'render',
        type: 'string',
        enum: ['markdown', 'xml'],
        description: 'Also render the packet as prompt text.',
      },
    ],
    body: { required: true, schema: ref('composeRequest') },
    response: {
      status: 200,
      description: 'The packet, and its text when rendered.',
      schema: objectOf({ packet: ref('memoryPacket'), text: { type: 'string' } }, ['packet']),
    },
    errors: [413, 415],
    handle: compose,
  },
];

const COUNT = { type: 'integer', minimum: 0 };

/** The response of GET /v1/scopes. */
const SCOPES_SCHEMA = objectOf(
  {
    sessions: {
      type: 'array',
      items: objectOf(
        {
          user_id: { type: 'string' },
          agent_id: { type: 'string' },
          session_id: { type: 'string' },
          run_id: { type: 'string' },
          events: COUNT,
          first_ts: { type: 'string', format: 'date-time' },
          last_ts: { type: 'string', format: 'date-time' },
        },
        ['user_id', 'agent_id', 'session_id', 'run_id', 'events', 'first_ts', 'last_ts'],
      ),
    },
    users: {
      type: 'array',
      items: objectOf({ user_id: { type: 'string' }, items: COUNT, pending_candidates: COUNT }, [
        'user_id',
        'items',
        'pending_candidates',
      ]),
    },
  },
  ['sessions', 'users'],
);

/** The episodic log. */
export const eventRoutes: readonly RouteSpec[] = [
  {
    method: 'GET',
    url: '/v1/scopes',
    operationId: 'listScopes',
    wire: { response: 'ScopeCounts' },
    role: 'read',
    tag: 'events',
    summary:
      "The tenant's sessions (with run, event count and time span; most recently active first) and users (current items, pending candidates)",
    query: [{ name: 'limit', type: 'integer', description: 'Most sessions, 1–1000 (default 200).' }],
    response: { status: 200, description: 'Sessions and users with counts.', schema: SCOPES_SCHEMA },
    handle: ({ engram, tenant, query }) =>
      engram.sessions.scopes({
        tenant_id: tenant,
        ...(query['limit'] === undefined ? {} : { limit: query['limit'] as number }),
      }),
  },
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
