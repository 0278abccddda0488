// A value that replaces an item's current value whole: what to send through the merge (which merges
// a new value into the current one) so that the version it writes holds exactly the new value.
// Used by remember's `replace` (a person's edit) and by restore (an earlier version made current).

import type { MemoryItem, MemoryType } from '../spec/items.js';

type Value = Record<string, unknown>;

const isPlain = (value: unknown): value is Value =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A JSON merge patch that turns `current` into `next`: what `next` leaves out is set to null. */
function patchTo(current: Value, next: Value): Value {
  const patch: Value = {};
  for (const [name, value] of Object.entries(next)) {
    const before = current[name];
    patch[name] = isPlain(value) && isPlain(before) ? patchTo(before, value) : value;
  }
  for (const name of Object.keys(current)) if (!(name in next)) patch[name] = null;
  return patch;
}

const factsOf = (value: Value): Value[] => (Array.isArray(value['facts']) ? value['facts'].filter(isPlain) : []);

/**
 * What to merge over `current` so the result is `next`: a merge patch, and for a profile every
 * current fact `next` leaves out ended by its `k` (a profile merges its facts one by one).
 *
 * @example
 * replacementPatch('tasks', { title: 'Ship', status: 'todo', due: '2026-05-01' }, { title: 'Ship', status: 'done' })
 * // { title: 'Ship', status: 'done', due: null }
 */
export function replacementPatch(type: MemoryType, current: Value, next: Value): Value {
  if (type !== 'profile') return patchTo(current, next);
  const { facts: _currentFacts, ...currentRest } = current;
  const { facts: _nextFacts, ...nextRest } = next;
  const kept = new Set(factsOf(next).map((fact) => String(fact['k'])));
  const ended = factsOf(current)
    .map((fact) => String(fact['k']))
    .filter((k) => !kept.has(k))
    .map((k) => ({ k, v: null }));
  return { ...patchTo(currentRest, nextRest), facts: [...factsOf(next), ...ended] };
}

/**
 * The value to merge so that a key's new version holds exactly `next`: the replacement patch over
 * its newest current version among `stored`, or `next` itself when none is current.
 *
 * @example
 * replacingValue('preferences', storedVersionsOfTheKey, { scope: 'writing', name: 'tone', value: 'plain' })
 */
export function replacingValue(type: MemoryType, stored: readonly MemoryItem[], next: Value): Value {
  const latest = stored
    .filter((item) => item.status === 'active')
    .sort((a, b) => a.version - b.version)
    .at(-1);
  return latest === undefined ? next : replacementPatch(type, latest.value, next);
}
