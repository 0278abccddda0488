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
  // Walked in place, not through Object.values (an array made per object): a kept item is some ten
  // objects and arrays, and freezing it took as long as building it.
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) deepFreeze(value[index]);
  } else {
    for (const key in value) deepFreeze(value[key]);
  }
  return Object.freeze(value);
}
