// Checks of the plain arguments of Engram's methods (ids, tenants, counts), so a malformed one is a
// ValidationError naming the argument instead of a confusing NOT_FOUND or a silent no-op.

import { ValidationError } from '../spec/errors.js';
import { textIssue } from '../spec/input-rules.js';
import { DEFAULT_TENANT } from '../spec/scope.js';
import { isId, type IdPrefix } from '../util/ids.js';

/** Throws unless `value` is an id with this prefix (`evt_…`, `ctx_…`). */
export function requireId(prefix: IdPrefix, value: unknown, field: string): void {
  if (typeof value !== 'string' || !isId(prefix, value)) {
    throw ValidationError.of(
      field,
      'pattern',
      `must be a ${prefix}_ id (${prefix}_ and 26 Crockford base-32 characters)`,
    );
  }
}

/**
 * Throws unless `value` is an identifier (a tenant, user, agent or session id): 1–256 characters of
 * well-formed Unicode, no control characters.
 *
 * @example
 * requireTenant(scope.user_id, 'user_id')
 */
export function requireTenant(value: unknown, field = 'tenant_id'): void {
  if (typeof value === 'string') requireText(value, field);
  // eslint-disable-next-line no-control-regex -- control characters are exactly what an id may not hold
  if (typeof value !== 'string' || !/^[^\u0000-\u001f\u007f]{1,256}$/u.test(value)) {
    throw ValidationError.of(field, 'pattern', 'must be 1–256 characters without control characters');
  }
}

/**
 * The tenant a method's argument names, checked as `requireTenant` does, or the default tenant
 * when it names none: the one place a missing tenant argument is filled in.
 *
 * @example
 * const tenant = tenantOrDefault(query.tenant_id); // 'default' when absent
 */
export function tenantOrDefault(tenantId: string | undefined): string {
  if (tenantId === undefined) return DEFAULT_TENANT;
  requireTenant(tenantId);
  return tenantId;
}

/**
 * Throws unless `text` is well-formed Unicode without U+0000 (the input rule of every string).
 *
 * @example
 * requireText(label, 'label')
 */
export function requireText(text: string, field: string): void {
  const issue = textIssue(text, field);
  if (issue !== undefined) throw new ValidationError([issue]);
}

/** Throws unless `value` is a whole number in the range. */
export function requireCount(value: unknown, field: string, min: number, max: number): void {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw ValidationError.of(field, 'range', `must be a whole number from ${min} to ${max}`);
  }
}

/**
 * Throws unless `values` is absent or a list of the allowed words.
 *
 * @example
 * requireChoices(query.statuses, ['pending', 'running', 'done', 'failed'], 'statuses')
 */
export function requireChoices(values: unknown, allowed: readonly string[], field: string): void {
  if (values === undefined) return;
  if (!Array.isArray(values) || values.some((value) => !allowed.includes(value as string))) {
    throw ValidationError.of(field, 'enum', `must list some of ${allowed.join(', ')}`);
  }
}
