// Hostile input for property tests at every boundary: random Unicode with lone surrogates, huge
// strings, deeply nested JSON, prototype-pollution keys, wrong types, malformed ids and search-syntax
// metacharacters (FTS5, tsquery, SQL, LIKE). One value replaces one field of a valid request; the
// text a boundary must refuse (lone surrogates, U+0000) is recognised by breaksTextRule.

import fc from 'fast-check';

/** Lone surrogates and other code units that are valid in a JS string but not in UTF-8. */
const SURROGATES = ['\uD800', '\uDBFF', '\uDC00', '\uDFFF', 'a\uD83Db', '\uDE00x\uD83D'];

/** Query syntax of the full-text engines and SQL that must be taken as plain words. */
export const QUERY_METACHARACTERS = [
  '"',
  '""',
  "'",
  "''",
  '*',
  'NEAR(a b)',
  'a OR',
  'AND',
  'NOT',
  '(',
  ')',
  '^',
  ':',
  '-',
  '+',
  'col:term',
  '{a b}',
  "'; DROP TABLE events; --",
  '%',
  '_',
  '\\',
  '!',
  '&',
  '|',
  '<->',
  ':*',
  '\0',
  'a"b*c(d)',
  '"unterminated',
];

/** Keys that pollute Object.prototype when code copies them carelessly. */
export const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype'];

/** A JSON object nested `depth` levels deep. */
export function deepJson(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = { leaf: true };
  for (let level = 0; level < depth; level += 1) value = { nested: value };
  return value;
}

/** The text of a JSON object nested `depth` levels deep, deeper than JSON.stringify can write. */
export function deepJsonText(depth: number): string {
  return `${'{"nested":'.repeat(depth)}true${'}'.repeat(depth)}`;
}

/** An object that carries a prototype key as an own property (as JSON.parse produces it). */
export function pollutingObject(key: string): Record<string, unknown> {
  return JSON.parse(`{"${key}": {"polluted": "yes"}, "prototype": {"polluted": "yes"}}`) as Record<string, unknown>;
}

/** Strings no validator should choke on: anything from an empty string to a megabyte. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 64 }),
  fc.string({ unit: 'grapheme', maxLength: 64 }),
  fc.constantFrom(...SURROGATES, ...QUERY_METACHARACTERS, ...PROTOTYPE_KEYS, '', ' ', '\n\t', 'x'.repeat(70_000)),
  fc.constantFrom(
    'evt_',
    'mem_01J0000000000000000000000A',
    'evt_01J000000000000000000000000000',
    '../../etc/passwd',
    '%00',
    'ＡＢＣ',
  ),
  fc.integer({ min: 1, max: 4 }).map((megabytes) => '\u00e9'.repeat(megabytes * 300_000)),
);

/** Any value of any type, hostile strings and structures included. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  fc.constantFrom<unknown>(
    null,
    undefined,
    true,
    0,
    -1,
    1e308,
    -0,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    2 ** 53 + 1,
    [],
    {},
    [[[]]],
  ),
  fc.double(),
  fc.integer({ min: 64, max: 3000 }).map(deepJson),
  fc.constantFrom(...PROTOTYPE_KEYS).map(pollutingObject),
  fc.array(hostileString, { maxLength: 5 }),
  fc.dictionary(hostileString, fc.oneof(hostileString, fc.integer()), { maxKeys: 4 }),
);

/** Every dotted path of the leaves and sub-objects of a JSON value (arrays by index). */
export function pathsOf(value: unknown, prefix: string[] = []): string[][] {
  if (typeof value !== 'object' || value === null) return prefix.length === 0 ? [] : [prefix];
  const own = Object.entries(value as Record<string, unknown>).flatMap(([key, child]) =>
    pathsOf(child, [...prefix, key]),
  );
  return prefix.length === 0 ? own : [prefix, ...own];
}

/** A copy of `base` with the value at `path` replaced (or the key added one level down). */
export function replaceAt(base: unknown, path: readonly string[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path as [string, ...string[]];
  const copy: Record<string, unknown> = Array.isArray(base)
    ? ([...base] as unknown as Record<string, unknown>)
    : { ...(base as Record<string, unknown>) };
  Object.defineProperty(copy, head, {
    value: replaceAt(copy[head], rest, value),
    enumerable: true,
    writable: true,
    configurable: true,
  });
  return copy;
}

/** The value at `path` inside `base` (undefined where the path leaves it). */
function valueAt(base: unknown, path: readonly string[]): unknown {
  return path.reduce<unknown>(
    (node, key) => (typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[key] : undefined),
    base,
  );
}

/**
 * A request derived from `base` with one field (or one new field) set to a hostile value.
 *
 * @example
 * fc.assert(fc.asyncProperty(mutated(turn), async (request) => { ... }))
 */
export function mutated(base: Record<string, unknown>): fc.Arbitrary<{ path: string[]; request: unknown }> {
  const paths = pathsOf(base);
  // A new key goes into objects only: one set on an array is not JSON (a transport drops it unseen).
  const inObject = (path: readonly string[]) => !Array.isArray(valueAt(base, path.slice(0, -1)));
  const extended = [
    ...paths,
    ...paths.filter(inObject).map((path) => [...path.slice(0, -1), 'zzz_extra']),
    ...PROTOTYPE_KEYS.map((key) => [key]),
  ];
  return fc
    .tuple(fc.constantFrom(...extended), hostileValue)
    .map(([path, value]) => ({ path, request: replaceAt(base, path, value) }));
}

/** True when `text` is well-formed Unicode without U+0000 (String.prototype.isWellFormed is not in the ES2023 types). */
const cleanText = (text: string): boolean =>
  (text as string & { isWellFormed(): boolean }).isWellFormed() && !text.includes('\0');

/**
 * True when a string or property name anywhere in `value` is ill-formed Unicode (a lone surrogate)
 * or holds U+0000: every boundary refuses such input (VALIDATION_FAILED, rule `well_formed` or
 * `no_nul`) with the field named.
 *
 * @example
 * breaksTextRule({ user_id: 'u\ud800' }) // true
 */
export function breaksTextRule(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const node = pending.pop();
    if (typeof node === 'string' && !cleanText(node)) return true;
    if (typeof node !== 'object' || node === null) continue;
    for (const [key, child] of Object.entries(node)) {
      if (!cleanText(key)) return true;
      pending.push(child);
    }
  }
  return false;
}

/** The rules a boundary names for text that breaks the input rules. */
export const TEXT_RULES = ['well_formed', 'no_nul'];

/**
 * The field name a boundary gives a path of a request: `['messages', '0', 'content']` → `messages[0].content`.
 *
 * @example
 * fieldOf(['scope', 'user_id']) // 'scope.user_id'
 */
export function fieldOf(path: readonly string[]): string {
  return path.reduce(
    (acc, part) => (/^\d+$/.test(part) ? `${acc}[${part}]` : acc === '' ? part : `${acc}.${part}`),
    '',
  );
}

/** True when Object.prototype has gained an enumerable or named property since start. */
export function prototypePolluted(): boolean {
  return 'polluted' in Object.prototype || Object.keys(Object.prototype).length > 0;
}
