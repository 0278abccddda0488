// Canonical JSON: object keys sorted, so two equal values (however their keys were ordered) give
// the same text. The snapshot gate compares done definitions with it and the narrative prints them.

/**
 * JSON text of `value` with every object's keys sorted by code unit (no locale).
 *
 * @example
 * canonicalJson({ b: 1, a: [true, null] }) // '{"a":[true,null],"b":1}'
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? 'null';
}

/**
 * True when two JSON values are equal, ignoring the order of object keys.
 *
 * @example
 * jsonEqual({ a: 1, b: 2 }, { b: 2, a: 1 }) // true
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

/**
 * Sorts strings by UTF-16 code unit, the same on every machine (never localeCompare).
 *
 * @example
 * ['b', 'B', 'a'].sort(byCodeUnit) // ['B', 'a', 'b']
 */
export function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== 'object' || value === null) return value;
  // fromEntries defines own properties, so a `__proto__` key stays a key instead of a prototype.
  const record = value as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(record)
      .sort(byCodeUnit)
      .map((key) => [key, sortKeys(record[key])]),
  );
}
