// JSON Merge Patch (RFC 7396): objects merge, null removes a member, anything else replaces.
// Keys are defined as own data properties, so `__proto__` in a patch can never reach a prototype.

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * Applies a merge patch to a JSON value and returns the result; neither input is changed.
 *
 * @example
 * applyMergePatch({ a: 1, b: { c: 2 } }, { b: { c: null, d: 3 } }) // { a: 1, b: { d: 3 } }
 */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch)) return patch;
  const result: Record<string, unknown> = {};
  if (isPlainObject(target)) {
    for (const [key, value] of Object.entries(target)) define(result, key, value);
  }
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else define(result, key, applyMergePatch(result[key], value));
  }
  return result;
}
