// The tenant of every call comes from the key. A request may repeat its own tenant but never name
// another one; the server then writes the key's tenant into the scope (and the request, where the
// library's request carries one) before the library sees it.

import { ValidationError } from '../index.js';
import { HttpError } from './http-error.js';

/** A JSON object (not an array, not null). */
export type JsonObject = Record<string, unknown>;

/**
 * True for a JSON object.
 *
 * @example
 * isObject({}) // true
 * isObject([]) // false
 */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Refuses a tenant other than the key's (403) or a tenant that is not a string (400).
 *
 * @example
 * assertOwnTenant('acme', 'acme', 'scope.tenant_id'); // fine
 * assertOwnTenant('other', 'acme', 'scope.tenant_id'); // throws FORBIDDEN
 */
export function assertOwnTenant(value: unknown, tenant: string, field: string): void {
  if (value === undefined || value === tenant) return;
  if (typeof value !== 'string') throw ValidationError.of(field, 'type', 'must be string');
  throw new HttpError('FORBIDDEN', `${field}: a key may only name its own tenant`, field);
}

/**
 * Checks the tenant a body names (`tenant_id`, `scope.tenant_id`) and sets the key's tenant in its
 * scope, and at the top when `top` (requests addressed by id: approve, reject, insight changes).
 * Anything but an object is returned as it is, for the library to refuse.
 *
 * @example
 * bindTenant({ scope: { user_id: 'u1' }, query: 'tea' }, 'acme') // { scope: { user_id: 'u1', tenant_id: 'acme' }, query: 'tea' }
 */
export function bindTenant(body: unknown, tenant: string, options: { top?: boolean } = {}): unknown {
  if (!isObject(body)) return body;
  assertOwnTenant(body['tenant_id'], tenant, 'tenant_id');
  const bound: JsonObject = { ...body };
  if (options.top === true) bound['tenant_id'] = tenant;
  const scope = body['scope'];
  if (isObject(scope)) {
    assertOwnTenant(scope['tenant_id'], tenant, 'scope.tenant_id');
    bound['scope'] = { ...scope, tenant_id: tenant };
  }
  return bound;
}

/**
 * Refuses the fields of an object that are not allowed (the library ignores them in a few requests
 * it does not validate as a whole).
 *
 * @example
 * allowOnly({ role: 'read', colour: 'red' }, ['role', 'label']) // throws VALIDATION_FAILED on colour
 */
export function allowOnly(body: unknown, allowed: readonly string[], prefix = ''): void {
  if (body === undefined) return;
  if (!isObject(body)) throw ValidationError.of(prefix, 'type', 'must be object');
  const extra = Object.keys(body).filter((key) => !allowed.includes(key));
  if (extra.length > 0)
    throw new ValidationError(
      extra.map((key) => ({
        field: `${prefix}${key}`,
        rule: 'additionalProperties',
        message: 'is not an allowed property',
      })),
    );
}
