// Values shared between callers (kept between reads) are frozen through and through, so a caller
// that changes what it was given fails loudly instead of changing what the next caller reads.

/**
 * Freezes a JSON-like value and everything it holds; returns it.
 *
 * @example
 * const item = deepFreeze(itemFromValues(row)); // item.value.name = 'x' now throws
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  for (const inner of Object.values(value)) deepFreeze(inner);
  return Object.freeze(value);
}
