// Bad input at the library boundary, as property tests: every request of the public API with one
// field replaced by a hostile value (random Unicode, lone surrogates, huge strings, deep JSON,
// prototype keys, wrong types, malformed ids, query metacharacters) either succeeds or throws a
// typed EngramError naming a field; text with a lone surrogate or U+0000 is always refused, naming
// the field it is in; a rejected call leaves every row of the store as it was, and nothing reaches
// Object.prototype.

import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { EngramError } from '../../src/index.js';
import {
  breaksTextRule,
  fieldOf,
  mutated,
  prototypePolluted,
  QUERY_METACHARACTERS,
  hostileString,
  TEXT_RULES,
} from '../helpers/hostile.js';
import { sqliteDigest } from '../helpers/store-digest.js';
import { tempEngram, type TempEngram } from '../helpers/temp-engram.js';
import { emptyTally, recordOutcome, type BoundaryTally } from './results.js';

const RUNS = Number(process.env['ENGRAM_RELIABILITY_RUNS'] ?? 40);
const scope = { user_id: 'mira', agent_id: 'assistant', session_id: 's1', run_id: 'r1' };

const BASES: Record<string, Record<string, unknown>> = {
  commitTurn: {
    scope,
    turn_id: 't-probe',
    messages: [{ role: 'user', content: 'I prefer tea.', metadata: { a: 1 } }],
    tool_results: [{ tool_name: 'lookup', content: { ok: true } }],
    state_patch: { expected_version: 0, set: { goal: 'probe' } },
    metadata: { source: 'test' },
  },
  compose: { scope, purpose: 'responder', cues: { query: 'tea' }, budget: { max_tokens: 800 }, conversation_window: 4 },
  search: {
    scope: { user_id: 'mira', agent_id: 'assistant' },
    query: 'tea',
    k: 5,
    filters: { tags: ['a'], time_range: { start: '2026-01-01T00:00:00.000Z' } },
  },
  searchEvents: { scope: { user_id: 'mira' }, query: 'tea', limit: 5 },
  remember: {
    scope: { user_id: 'mira', agent_id: 'assistant' },
    type: 'preferences',
    key: 'pref:writing:tone',
    value: { scope: 'writing', name: 'tone', value: 'formal' },
    tags: ['x'],
    confidence: 0.9,
  },
  updateWorkingState: {
    scope,
    expected_version: 0,
    set: { goal: 'plan', slots: { a: 1 } },
    append: { decisions: [{ statement: 'tea', rationale: 'warm' }] },
  },
};

type Call = (engram: TempEngram['engram'], request: never) => Promise<unknown>;
const CALLS: Record<string, Call> = {
  commitTurn: (engram, request) => engram.commitTurn(request),
  compose: (engram, request) => engram.compose(request),
  search: (engram, request) => engram.items.search(request),
  searchEvents: (engram, request) => engram.events.search(request),
  remember: (engram, request) => engram.items.remember(request),
  updateWorkingState: (engram, request) => engram.sessions.updateWorkingState(request),
};

/**
 * Writes go to a new session each case (unless the case breaks the scope), so an accepted write
 * neither makes the next case a duplicate turn nor moves the working-state version it expects.
 */
function freshSession(name: string, path: readonly string[], request: unknown, index: number): unknown {
  if (
    !['commitTurn', 'updateWorkingState'].includes(name) ||
    path[0] === 'scope' ||
    typeof request !== 'object' ||
    request === null
  )
    return request;
  const body = request as Record<string, unknown>;
  return { ...body, scope: { ...(body['scope'] as object), session_id: `s-case-${index}` } };
}

/**
 * Calls `run`; a rejection must be a typed error with a field, and must leave the store unchanged.
 * Given `illFormed` (the field of text that breaks the input rules), it must be refused naming it.
 */
async function expectTypedOrDone(
  t: TempEngram,
  tally: BoundaryTally,
  context: string,
  run: () => Promise<unknown>,
  illFormed?: string,
): Promise<void> {
  const before = sqliteDigest(t.path);
  try {
    await run();
    expect(illFormed, `${context}: text with a lone surrogate or U+0000 was accepted`).toBeUndefined();
    tally.accepted += 1;
  } catch (error) {
    expect(EngramError.isInstance(error), `${context}: ${String(error)}`).toBe(true);
    const typed = error as EngramError;
    expect(typed.code, context).not.toBe('INTERNAL');
    if (typed.code === 'VALIDATION_FAILED') expect(typeof typed.field, context).toBe('string');
    if (illFormed !== undefined) {
      expect(typed.code, context).toBe('VALIDATION_FAILED');
      expect(TEXT_RULES, `${context}: ${typed.message}`).toContain(typed.details['rule']);
      expect(typed.field?.startsWith(illFormed), `${context}: named ${typed.field}`).toBe(true);
    }
    expect(sqliteDigest(t.path), `${context}: a rejected call changed the store`).toBe(before);
    tally.rejected += 1;
    tally.codes[typed.code] = (tally.codes[typed.code] ?? 0) + 1;
  }
  expect(prototypePolluted(), context).toBe(false);
}

describe('library boundary: hostile input gets a typed error or is handled, and never a partial write', () => {
  let t: TempEngram;
  const tallies: Record<string, BoundaryTally> = {};

  beforeAll(async () => {
    t = await tempEngram('2026-06-01T12:00:00.000Z', { embeddings: { provider: 'none' } });
    await t.engram.commitTurn({
      scope,
      turn_id: 'seed-1',
      messages: [
        { role: 'user', content: 'I prefer tea in the morning.' },
        { role: 'assistant', content: 'Noted: tea.' },
      ],
    });
    await t.engram.commitTurn({
      scope,
      turn_id: 'seed-2',
      messages: [{ role: 'user', content: 'Deploy the billing service on Friday.' }],
    });
  });
  afterAll(async () => {
    recordOutcome('library', tallies);
    await t.cleanup();
  });

  it('every base request is valid as it stands (so each case breaks exactly one thing)', async () => {
    for (const [index, [name, base]] of Object.entries(BASES).entries())
      await CALLS[name]!(t.engram, freshSession(name, [], base, -1 - index) as never);
  });

  for (const [name, base] of Object.entries(BASES)) {
    it(`${name}: one hostile field at a time`, async () => {
      const tally = (tallies[name] = emptyTally());
      await fc.assert(
        fc.asyncProperty(mutated(base), async ({ path, request }) => {
          tally.cases += 1;
          t.clock.advance(1000);
          const fresh = freshSession(name, path, request, tally.cases);
          const illFormed = breaksTextRule(request) ? fieldOf(path) : undefined;
          await expectTypedOrDone(
            t,
            tally,
            `${name} ${path.join('.')}`,
            () => CALLS[name]!(t.engram, fresh as never),
            illFormed,
          );
        }),
        { numRuns: RUNS },
      );
    }, 240_000);
  }

  it('search and event search take any query text as words: metacharacters and random Unicode', async () => {
    const tally = (tallies['queries'] = emptyTally());
    const query = fc.oneof(
      fc.constantFrom(...QUERY_METACHARACTERS),
      hostileString,
      fc
        .array(fc.constantFrom(...QUERY_METACHARACTERS, 'tea', 'deploy'), { maxLength: 6 })
        .map((words) => words.join(' ')),
    );
    await fc.assert(
      fc.asyncProperty(query, async (text) => {
        tally.cases += 1;
        await expectTypedOrDone(
          t,
          tally,
          `query ${JSON.stringify(text.slice(0, 40))}`,
          async () => {
            await t.engram.items.search({ scope: { user_id: 'mira', agent_id: 'assistant' }, query: text });
            await t.engram.events.search({ scope: { user_id: 'mira' }, query: text });
          },
          breaksTextRule(text) ? 'query' : undefined,
        );
      }),
      { numRuns: RUNS * 2 },
    );
    // A metacharacter query that names a stored word still finds it.
    const hits = await t.engram.events.search({ scope: { user_id: 'mira' }, query: '"billing" OR (deploy* NEAR' });
    expect(hits.length).toBeGreaterThan(0);
  }, 240_000);

  it('record ids of every shape: getEvent, getBuild, replay, the review queue, insights and snapshots reject with NOT_FOUND or VALIDATION_FAILED', async () => {
    const tally = (tallies['ids'] = emptyTally());
    await fc.assert(
      fc.asyncProperty(hostileString, async (id) => {
        tally.cases += 1;
        for (const read of [
          () => t.engram.events.get(id),
          () => t.engram.builds.get(id),
          () => t.engram.builds.replay(id),
          () => t.engram.review.get(id),
          () => t.engram.insights.get(id),
          () => t.engram.runs.snapshot(id),
        ]) {
          // Called bare, without an async wrapper: a method that returns a promise must not throw synchronously.
          const error = await read().then(
            () => null,
            (caught: unknown) => caught,
          );
          expect(EngramError.isInstance(error), `id ${JSON.stringify(id.slice(0, 40))}: ${String(error)}`).toBe(true);
          const { code } = error as EngramError;
          expect(['NOT_FOUND', 'VALIDATION_FAILED']).toContain(code);
          tally.codes[code] = (tally.codes[code] ?? 0) + 1;
        }
        tally.rejected += 1;
      }),
      { numRuns: RUNS },
    );
  }, 240_000);

  it('a closed Engram rejects every call with a typed error instead of throwing synchronously', async () => {
    const closed = await tempEngram();
    await closed.engram.close();
    const runScope = { user_id: 'mira', agent_id: 'assistant', run_id: 'r1' };
    const calls = [
      () => closed.engram.insights.list({ scope: { user_id: 'mira' } }),
      () => closed.engram.insights.add({ scope: runScope, type: 'hypothesis', statement: 'x' }),
      () => closed.engram.review.list({ scope: { user_id: 'mira' } }),
      () => closed.engram.review.approve({ candidate_id: 'cand_01J0000000000000000000000A' }),
      () => closed.engram.runs.snapshot('snp_01J0000000000000000000000A'),
    ];
    for (const call of calls) {
      const error = await call().then(
        () => null,
        (caught: unknown) => caught,
      );
      expect(EngramError.isInstance(error) && error.code, String(error)).toBe('CONFIG_INVALID');
    }
    await closed.cleanup();
  });
});
