// Ill-formed Unicode and U+0000 on both stores. Random text with a lone high or low surrogate or a
// NUL put at a random place — in ids, content, tool output, metadata values and property names,
// tags, queries, cues, working-state patches — sent through the library and over HTTP to a SQLite
// file and to the PostgreSQL server: every one is refused with VALIDATION_FAILED (`well_formed` or
// `no_nul`) naming the field, and the store is unchanged. Random well-formed text (astral
// characters, controls, noncharacters) in the same places comes back exactly as sent, ids included.

import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createEngram, EngramError, type Engram, type EventRecord } from '../../src/index.js';
import { serveEngram } from '../helpers/served-engram.js';
import { fieldOf } from '../helpers/hostile.js';
import { postgresStore, sqliteStore, type StoreUnderTest } from '../helpers/stores.js';
import { recordOutcome } from './results.js';

const RUNS = Number(process.env['ENGRAM_RELIABILITY_RUNS'] ?? 40);
const scope = { user_id: 'mira', agent_id: 'assistant', session_id: 's1', run_id: 'r1' };
const userScope = { user_id: 'mira', agent_id: 'assistant' };

/** A request of each kind, with the route that takes it and the paths of its text. */
const TEMPLATES: Record<
  string,
  {
    method: string;
    path: string;
    body: Record<string, unknown>;
    call: (engram: Engram, body: never) => Promise<unknown>;
  }
> = {
  commit: {
    method: 'POST',
    path: '/v1/turns',
    body: {
      scope,
      turn_id: 'probe',
      messages: [{ role: 'user', content: 'Deploy on Friday.', tags: ['release'], metadata: { source: 'chat' } }],
      tool_results: [{ tool_name: 'lookup', content: { rows: ['a'], note: 'b' } }],
    },
    call: (engram, body) => engram.commitTurn(body),
  },
  remember: {
    method: 'POST',
    path: '/v1/items',
    body: {
      scope: userScope,
      type: 'goals',
      key: 'goal:atlas:launch',
      value: { name: 'launch', description: 'Ship Atlas' },
      tags: ['atlas'],
    },
    call: (engram, body) => engram.items.remember(body),
  },
  compose: {
    method: 'POST',
    path: '/v1/compose',
    body: { scope, purpose: 'planner', task_type: 'deploy', cues: { query: 'deploy', keywords: ['friday'] } },
    call: (engram, body) => engram.compose(body),
  },
  search: {
    method: 'POST',
    path: '/v1/memory/search',
    body: { scope: userScope, query: 'launch' },
    call: (engram, body) => engram.items.search(body),
  },
  searchEvents: {
    method: 'POST',
    path: '/v1/events/search',
    body: { scope: { user_id: 'mira' }, query: 'deploy' },
    call: (engram, body) => engram.events.search(body),
  },
  patch: {
    method: 'PATCH',
    path: '/v1/working-state',
    body: { scope, expected_version: 0, set: { goal: 'ship', slots: { city: 'Oslo' } } },
    call: (engram, body) => engram.sessions.updateWorkingState(body),
  },
};

/** Every path of a string in `value`. */
function textPaths(value: unknown, prefix: string[] = []): string[][] {
  if (typeof value === 'string') return [prefix];
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, child]) => textPaths(child, [...prefix, key]));
}

function setAt(value: unknown, path: readonly string[], replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path as [string, ...string[]];
  const copy: Record<string, unknown> = Array.isArray(value)
    ? ([...value] as unknown as Record<string, unknown>)
    : { ...(value as Record<string, unknown>) };
  copy[head] = setAt(copy[head], rest, replacement);
  return copy;
}

/** Text with one bad code unit put at a random place, and the rule it breaks. */
const broken = fc
  .tuple(
    fc.string({ unit: 'grapheme', maxLength: 20 }),
    fc.nat(),
    fc.oneof(fc.integer({ min: 0xd800, max: 0xdbff }), fc.integer({ min: 0xdc00, max: 0xdfff }), fc.constant(0)),
  )
  .map(([text, at, unit]) => {
    // Between code points, so no pair of the text is split; a high surrogate is followed by a
    // letter and a low one follows one, so neither pairs up with the text around it.
    const points = Array.from(text);
    const place = at % (points.length + 1);
    const bad = unit === 0 ? '\0' : unit <= 0xdbff ? `${String.fromCharCode(unit)}x` : `x${String.fromCharCode(unit)}`;
    return {
      text: [...points.slice(0, place), bad, ...points.slice(place)].join(''),
      rule: unit === 0 ? 'no_nul' : 'well_formed',
    };
  });

/** Well-formed text without U+0000 of every kind, for round trips. */
const wellFormed = fc
  .oneof(
    fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }),
    fc.constantFrom('\ufffd', '\ufffe\uffff', '\u{10ffff}', 'e\u0301', '\u200f\u202e', '😀'),
  )
  .filter((text) => (text as string & { isWellFormed(): boolean }).isWellFormed() && !text.includes('\0'));

/** An identifier the schema accepts: no control characters, 1–256 code units. */
const identifier = wellFormed
  // eslint-disable-next-line no-control-regex -- control characters are exactly what an id may not hold
  .map((text) => text.replace(/[\u0000-\u001f\u007f]/g, '').slice(0, 200))
  .filter((text) => text.length > 0 && (text as string & { isWellFormed(): boolean }).isWellFormed());

/** The figures of each store. */
const figuresByStore: Record<string, Record<string, Record<string, number>>> = {};
afterAll(() => recordOutcome('ill-formed-unicode', figuresByStore));

describe.each([['sqlite'], ['postgres']])('ill-formed Unicode on %s', (name) => {
  let store: StoreUnderTest;
  let engram: Engram;
  let url: string;
  let close: () => Promise<void>;
  const figures: Record<string, Record<string, number>> = (figuresByStore[name] = {});

  /** What a refused call must leave as it was: the user's events, items, builds and working state. */
  const fingerprint = async () =>
    JSON.stringify([
      (await engram.events.list({ scope: { user_id: 'mira' }, limit: 1000 })).length,
      (await engram.items.list({ scope: userScope, status: ['active', 'superseded', 'retracted'], limit: 1000 }))
        .length,
      (await engram.builds.list({ limit: 1000 })).length,
      (await engram.sessions.workingState(scope)).state_version,
    ]);

  beforeAll(async () => {
    store = name === 'sqlite' ? sqliteStore('ill-formed') : postgresStore('engram_ill_formed');
    engram = await createEngram({ store: store.address(), embeddings: { provider: 'none' } });
    ({ url, close } = await serveEngram(engram, { auth: 'none' }, () => store.cleanup()));
  }, 60_000);
  afterAll(() => close());

  it('a lone surrogate or U+0000 anywhere is refused naming the field, by the library and over HTTP, and nothing is written', async () => {
    const tally = (figures['refusals'] = { calls: 0, refused: 0, answer_errors: 0, store_change_errors: 0 });
    const cases = fc.record({
      kind: fc.constantFrom(...Object.keys(TEMPLATES)),
      pick: fc.nat(),
      asName: fc.boolean(),
      bad: broken,
      overHttp: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(cases, async ({ kind, pick, asName, bad, overHttp }) => {
        tally.calls += 1;
        const template = TEMPLATES[kind]!;
        const paths = textPaths(template.body);
        const path = paths[pick % paths.length]!;
        // As a property name: the bad text names a new property beside the string it was picked for
        // (beside a list entry it would be no property at all in JSON).
        const inList = /^\d+$/.test(path.at(-1)!);
        const asKey = asName && !inList;
        const target = asKey ? [...path.slice(0, -1), bad.text] : path;
        const body = asKey ? setAt(template.body, target, 'x') : setAt(template.body, path, bad.text);
        const field = asKey
          ? fieldOf([
              ...path.slice(0, -1),
              bad.text.replace(/\p{Cs}|\0/gu, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`),
            ])
          : fieldOf(path);
        const before = await fingerprint();
        let answer: { code?: string; field?: string; rule?: string };
        if (overHttp) {
          const response = await fetch(`${url}${template.path}`, {
            method: template.method,
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(body),
          });
          const problem = (await response.json()) as {
            code?: string;
            field?: string;
            issues?: Array<{ rule: string }>;
          };
          answer = {
            code: problem.code ?? String(response.status),
            field: problem.field,
            rule: problem.issues?.[0]?.rule,
          };
        } else {
          answer = await template.call(engram, body as never).then(
            () => ({ code: 'accepted' }),
            (error: unknown) =>
              EngramError.isInstance(error)
                ? { code: error.code, field: error.field, rule: error.details['rule'] as string }
                : { code: String(error) },
          );
        }
        const context = `${overHttp ? 'HTTP' : 'library'} ${kind} ${field}: ${JSON.stringify(answer)}`;
        if (answer.code !== 'VALIDATION_FAILED' || answer.field !== field || answer.rule !== bad.rule)
          tally.answer_errors += 1;
        else tally.refused += 1;
        if ((await fingerprint()) !== before) tally.store_change_errors += 1;
        expect(answer, context).toEqual({ code: 'VALIDATION_FAILED', field, rule: bad.rule });
        expect(await fingerprint(), `${context}: the store changed`).toBe(before);
      }),
      { numRuns: RUNS * 2 },
    );
  }, 240_000);

  it('well-formed text of every kind comes back exactly as sent, in ids, content, tags and metadata', async () => {
    const tally = (figures['round_trip'] = { calls: 0, round_trip_errors: 0 });
    let n = 0;
    await fc.assert(
      // `__proto__` is refused as a property name of its own (it would reach a prototype).
      fc.asyncProperty(
        identifier,
        wellFormed,
        wellFormed.filter((key) => key !== '__proto__'),
        async (user, text, key) => {
          n += 1;
          tally.calls += 1;
          const turn = {
            scope: { ...scope, user_id: user },
            turn_id: `rt-${n}`,
            messages: [{ role: 'user', content: text, tags: [text.slice(0, 100)], metadata: { [key]: text } }],
          };
          const response = await fetch(`${url}/v1/turns`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(turn),
          });
          expect(response.status, await response.clone().text()).toBe(200);
          const listed = await fetch(
            `${url}/v1/events?user_id=${encodeURIComponent(user)}&session_id=s1&agent_id=assistant&limit=1000`,
          );
          const events = ((await listed.json()) as { items: EventRecord[] }).items;
          const mine = events.find((event) => event.turn_id === `rt-${n}`);
          const same =
            mine !== undefined &&
            mine.user_id === user &&
            mine.content === text &&
            mine.tags[0] === text.slice(0, 100) &&
            mine.origin_metadata[key] === text;
          if (!same) tally.round_trip_errors += 1;
          expect(mine, `user ${JSON.stringify(user)}`).toMatchObject({
            user_id: user,
            content: text,
            tags: [text.slice(0, 100)],
            origin_metadata: { [key]: text },
          });
        },
      ),
      { numRuns: RUNS },
    );
  }, 240_000);
});
