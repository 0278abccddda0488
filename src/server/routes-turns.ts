// The root write and read path: commit turns (one or a batch) and compose a packet (optionally
// rendered as prompt text), as engram.commitTurn, commitTurns and compose. Reflect, the other root
// call, is in routes-review.ts: it opens the review queue (tagged review, listed before it).

import {
  renderPacket,
  ValidationError,
  type CommitTurnRequest,
  type ComposeRequest,
  type RenderFormat,
} from '../index.js';
import type { RouteCall, RouteSpec } from './route-kit.js';
import { objectOf, ref } from './schema-refs.js';
import { bindTenant, isObject } from './tenancy.js';

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
