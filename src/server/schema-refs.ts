// Schema fragments the route table uses to describe bodies and responses in the OpenAPI document:
// references into the library's JSON Schemas (components named after `schemas`, records among
// them), pages, and closed objects.

import type { schemas } from '../index.js';
import type { SchemaObject } from './route-kit.js';

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
