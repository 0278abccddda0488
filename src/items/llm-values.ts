// What a model's `{k, v}` pairs mean as an item value. The prompt asks for pairs because strict
// structured output needs one closed shape for every type; here they become the type's value. For
// most types the pairs are its fields (a field the type's schema holds as a list collects every pair
// of that name, in order; a numeric field reads its number). A profile's pairs are its facts, merged
// by `k` into the current profile like the rules' facts; ended facts clear what they name.

import type { ItemCandidate, MemoryType } from '../spec/items.js';
import { VALUE_SCHEMAS } from './values.js';

/** One pair of the model's answer. */
export interface ValuePair {
  k: string;
  v: string;
}

/** Pairs of a profile item that are not facts: its subject and the date its facts became true. */
const PROFILE_FIELDS = new Set(['subject', 'since']);

/**
 * A fact's `k` as the rules write it: lower case, `:` between parts, words joined by `_`
 * ("Family: Wife" → "family:wife"), so both extractors name one attribute alike.
 *
 * @example
 * factKey(' Allergy : Tree nuts ') // 'allergy:tree_nuts'
 */
export function factKey(k: string): string {
  return k
    .trim()
    .toLowerCase()
    .split(':')
    .map((part) => part.trim().replace(/\s+/gu, '_'))
    .join(':');
}

function fieldKinds(type: MemoryType): { lists: Set<string>; numbers: Set<string> } {
  const properties = (VALUE_SCHEMAS[type]['properties'] ?? {}) as Record<string, { type?: unknown }>;
  const named = (kinds: readonly string[]) =>
    new Set(
      Object.entries(properties)
        .filter(([, schema]) => kinds.includes(String(schema.type)))
        .map(([name]) => name),
    );
  return { lists: named(['array']), numbers: named(['number', 'integer']) };
}

/** The fields of a value of any type but profile. */
function fieldsOf(type: MemoryType, pairs: readonly ValuePair[]): Record<string, unknown> {
  const { lists, numbers } = fieldKinds(type);
  // Own properties only (no prototype), so a pair named __proto__ stays a plain field.
  const value: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const { k, v } of pairs) {
    const name = k.trim();
    if (lists.has(name)) value[name] = [...((value[name] as unknown[] | undefined) ?? []), v];
    else if (numbers.has(name) && v.trim() !== '' && Number.isFinite(Number(v))) value[name] = Number(v);
    else value[name] = v;
  }
  return { ...value };
}

/** The facts a profile item states, or (a retraction) the facts it ends, as of the events' date. */
function profileValue(
  key: string,
  action: ItemCandidate['action'],
  pairs: readonly ValuePair[],
  date: string,
): Record<string, unknown> {
  const named = (name: string) => pairs.findLast((pair) => factKey(pair.k) === name)?.v.trim();
  const subject = named('subject') || key.slice('profile:'.length);
  const since = named('since');
  const facts = pairs
    .filter((pair) => !PROFILE_FIELDS.has(factKey(pair.k)))
    .map(({ k, v }) => {
      if (action === 'retract') return { k: factKey(k), v: null, ...(v.trim() === '' ? {} : { was: v }), until: date };
      return { k: factKey(k), v, ...(since === undefined || since === '' ? {} : { since }) };
    });
  return { subject, facts };
}

/**
 * The value of an item from the model's pairs, and its action: a profile's retraction ends the facts
 * it names (an upsert of ended facts, as the rules write it), never the whole profile.
 *
 * @example
 * valueFromPairs('profile', 'profile:user', 'upsert', [{ k: 'location', v: 'Lisbon' }], '2026-06-01')
 * // { action: 'upsert', value: { subject: 'user', facts: [{ k: 'location', v: 'Lisbon' }] } }
 */
export function valueFromPairs(
  type: MemoryType,
  key: string,
  action: ItemCandidate['action'],
  pairs: readonly ValuePair[],
  date: string,
): { action: ItemCandidate['action']; value: Record<string, unknown> } {
  if (type === 'profile') return { action: 'upsert', value: profileValue(key, action, pairs, date) };
  return { action, value: fieldsOf(type, pairs) };
}

/**
 * How many facts the pairs of a profile item name (its pairs other than subject and since).
 *
 * @example
 * profileFactCount([{ k: 'subject', v: 'user' }, { k: 'location', v: 'Lisbon' }]) // 1
 */
export function profileFactCount(pairs: readonly ValuePair[]): number {
  return pairs.filter((pair) => !PROFILE_FIELDS.has(factKey(pair.k))).length;
}
