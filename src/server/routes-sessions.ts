// A session's own records (engram.sessions): the tenant's sessions and users with their counts,
// and a session's working state (read, and patch at an expected version). The scopes and the
// working state are exported apart to keep the published order of the routes (docs/http.md,
// /openapi.json): the scopes beside the log they count, the working state after the items.

import type { SessionScopeInput, UpdateWorkingStateRequest } from '../index.js';
import { type RouteCall, type RouteSpec } from './route-kit.js';
import { pick } from './route-query.js';
import { objectOf, ref } from './schema-refs.js';
import { bindTenant } from './tenancy.js';

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

/** The tenant's sessions and users. */
export const scopeRoutes: readonly RouteSpec[] = [
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
];

async function patchWorkingState({ engram, tenant, body }: RouteCall): Promise<unknown> {
  return engram.sessions.updateWorkingState(bindTenant(body, tenant) as UpdateWorkingStateRequest);
}

const STATE_FIELDS = [
  'goal',
  'plan',
  'slots',
  'constraints',
  'tool_evidence',
  'decisions',
  'risks',
  'open_loops',
  'state_version',
] as const;

/** The response of PATCH /v1/working-state: the WorkingState an update left, and whether it was a replay. */
const UPDATE_SCHEMA = objectOf(
  {
    ...Object.fromEntries(STATE_FIELDS.map((field) => [field, ref('workingState', `/properties/${field}`)])),
    replayed: {
      type: 'boolean',
      description:
        'True when this turn_id was recorded before with the same update: nothing was written and the state is as it recorded it.',
    },
  },
  [...STATE_FIELDS, 'replayed'],
);

/** A session's working state. */
export const workingStateRoutes: readonly RouteSpec[] = [
  {
    method: 'GET',
    url: '/v1/working-state',
    operationId: 'getWorkingState',
    wire: { response: 'WorkingState' },
    role: 'read',
    tag: 'working state',
    summary: "A session's working state (version 0 and empty when it has none yet)",
    query: [
      { name: 'user_id', type: 'string', description: 'The user (required).', required: true },
      { name: 'agent_id', type: 'string', description: 'The agent (required).', required: true },
      { name: 'session_id', type: 'string', description: 'The session (required).', required: true },
    ],
    response: { status: 200, description: 'The working state.', schema: ref('workingState') },
    handle: ({ engram, tenant, query }) =>
      engram.sessions.workingState({
        ...pick(query, ['user_id', 'agent_id', 'session_id']),
        tenant_id: tenant,
      } as unknown as SessionScopeInput),
  },
  {
    method: 'PATCH',
    url: '/v1/working-state',
    operationId: 'patchWorkingState',
    wire: { body: 'UpdateWorkingStateRequest', response: 'WorkingStateUpdate' },
    role: 'write',
    tag: 'working state',
    summary:
      'Patch a working state at the expected version (a stale version is 409 STATE_VERSION_CONFLICT; a used turn_id replays the same update, or is 409 DUPLICATE_TURN for another)',
    body: {
      required: true,
      schema: objectOf(
        {
          scope: ref('common', '/$defs/scope'),
          expected_version: ref('commitTurnRequest', '/properties/state_patch/properties/expected_version'),
          set: ref('commitTurnRequest', '/properties/state_patch/properties/set'),
          append: ref('commitTurnRequest', '/properties/state_patch/properties/append'),
          turn_id: {
            ...ref('common', '/$defs/identifier'),
            description: 'Idempotency key of the patch turn (default: a new id).',
          },
        },
        ['scope', 'expected_version'],
      ),
    },
    response: {
      status: 200,
      description: 'The new working state (or, for a repeated turn_id, the state the update recorded) with `replayed`.',
      schema: UPDATE_SCHEMA,
    },
    errors: [409, 413, 415],
    handle: patchWorkingState,
  },
];
