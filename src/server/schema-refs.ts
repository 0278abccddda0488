// Schema fragments the route table uses to describe queries, bodies and responses in the OpenAPI
// document: references into the library's JSON Schemas (components named after `schemas`, records
// among them), pages, closed objects, and the fragments more than one route file shares.

import type { schemas } from '../index.js';
import type { SchemaObject } from './route-kit.js';
import type { QueryParam } from './route-query.js';

/** The name of one of the library's schemas (a key of `schemas`). */
export type LibrarySchema = keyof typeof schemas;

/**
 * A reference to a library schema, or into it by JSON pointer.
 *
 * @example
 * ref('memoryRequests', '/$defs/remember') // { $ref: '#/components/schemas/memoryRequests/$defs/remember' }
 */
export function ref(name: LibrarySchema | 'Problem', pointer = ''): SchemaObject {
  return { $ref: `#/components/schemas/${name}${pointer}` };
}

/**
 * A page of a list: `{ items, next_cursor }`.
 *
 * @example
 * pageOf(ref('eventRecord'))
 */
export function pageOf(items: SchemaObject): SchemaObject {
  return {
    type: 'object',
    required: ['items', 'next_cursor'],
    properties: {
      items: { type: 'array', items },
      next_cursor: {
        type: ['string', 'null'],
        description: 'The last id of this page when it is full (pass it as cursor), else null.',
      },
    },
  };
}

/**
 * An object with these properties (required ones listed) and no others.
 *
 * @example
 * objectOf({ reason: { type: 'string' } }, ['reason'])
 */
export function objectOf(properties: Record<string, SchemaObject>, required: readonly string[] = []): SchemaObject {
  return { type: 'object', additionalProperties: false, ...(required.length > 0 ? { required } : {}), properties };
}

/** An optional tenant in a body: allowed only when it is the key's own. */
export const OWN_TENANT: SchemaObject = {
  type: 'string',
  description: "Optional; must be the key's own tenant (the server sets it).",
};

/** Who decided, in a review decision or an insight change. */
export const REVIEWER: SchemaObject = ref('reflectionRequests', '/$defs/reviewer');

/** The scope of a list of a user's reflection records (review candidates, insights). */
export const USER_PARAMS: readonly QueryParam[] = [
  { name: 'user_id', type: 'string', description: 'The user (required).', required: true },
  { name: 'agent_id', type: 'string', description: 'One agent.' },
  { name: 'session_id', type: 'string', description: 'One session.' },
  { name: 'run_id', type: 'string', description: 'One run.' },
];
