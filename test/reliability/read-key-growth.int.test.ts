// Storage growth a read key can cause. Every compose stores a context build, so a key that may only
// read could once make the store grow by what it sent (`cues: { junk: <1 MB> }` stored twice per
// call). Over real loopback HTTP, a read key sends composes with unknown cues of up to ~900 KB,
// oversize and nested cue fields, and the largest valid cues with the largest budget over a store
// with history: every request with a cue Engram does not define or past its size is refused naming
// it and writes nothing; every accepted compose stores a build under MAX_BUILD_BYTES.

import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createEngram, MAX_BUILD_BYTES, type ContextBuild, type Engram } from '../../src/index.js';
import { serveEngram } from '../helpers/served-engram.js';
import { sqliteStore, type StoreUnderTest } from '../helpers/stores.js';
import { recordOutcome } from './results.js';

const RUNS = Number(process.env['ENGRAM_RELIABILITY_RUNS'] ?? 40);
const scope = { user_id: 'mira', agent_id: 'assistant', session_id: 's1', run_id: 'r1' };
const CUE_NAMES = ['tags', 'entities', 'keywords', 'time_range', 'query'];

/** Cues with one thing wrong (or nothing), and whether the compose request schema takes them. */
const cueSets = fc.oneof(
  fc
    .record({
      name: fc
        .string({ minLength: 1, maxLength: 12 })
        .filter((name) => !CUE_NAMES.includes(name) && name !== '__proto__'),
      size: fc.integer({ min: 1, max: 900_000 }),
    })
    .map(({ name, size }) => ({
      cues: { query: 'launch', [name]: 'x'.repeat(size) },
      valid: false,
      field: `cues.${name}`,
    })),
  fc.constant({
    cues: { query: 'launch', extra: { nested: ['x'.repeat(100_000)] } },
    valid: false,
    field: 'cues.extra',
  }),
  fc.constant({ cues: { query: 'q'.repeat(10_001) }, valid: false, field: 'cues.query' }),
  fc.constant({
    cues: { tags: Array.from({ length: 65 }, (_, index) => `t${index}`) },
    valid: false,
    field: 'cues.tags',
  }),
  fc.constant({ cues: { keywords: ['k'.repeat(257)] }, valid: false, field: 'cues.keywords[0]' }),
  fc.constant({
    cues: { time_range: { start: '2026-01-01T00:00:00Z', junk: 'x'.repeat(50_000) } },
    valid: false,
    field: 'cues.time_range.junk',
  }),
  fc.integer({ min: 0, max: 3 }).map((variant) => ({
    cues: {
      query: 'Atlas launch deploy Friday tea '.repeat(400).slice(0, 10_000 - variant),
      tags: Array.from({ length: 64 }, (_, index) => `tag${index}`.padEnd(128, 't')),
      keywords: Array.from({ length: 64 }, (_, index) => `keyword${index}`.padEnd(256, 'k')),
      entities: Array.from({ length: 64 }, (_, index) => `entity${index}`.padEnd(256, '界')),
      time_range: { start: '2026-01-01T00:00:00Z' },
    },
    valid: true,
    field: '',
  })),
);

describe('read-key storage growth: cues are closed and size-limited, stored builds are bounded', () => {
  let store: StoreUnderTest;
  let engram: Engram;
  let url: string;
  let readKey: string;
  let close: () => Promise<void>;
  const figures: Record<string, number> = {
    requests: 0,
    refused: 0,
    accepted: 0,
    max_build_bytes: 0,
    mean_build_bytes: 0,
    refusals_that_wrote: 0,
    builds_over_bound: 0,
  };

  const builds = async () => (await engram.builds.list({ limit: 1000 })) as ContextBuild[];

  beforeAll(async () => {
    store = sqliteStore('read-key-growth');
    engram = await createEngram({ store: store.address(), embeddings: { provider: 'none' } });
    const text = (index: number) =>
      `Turn ${index}: the Atlas launch deploy moves to Friday; tea for the team. ${'Notes on the rollout plan and its risks. '.repeat(40)}`;
    for (let batch = 0; batch < 4; batch += 1) {
      await engram.commitTurns(
        Array.from({ length: 25 }, (_, offset) => ({
          scope,
          turn_id: `seed-${batch}-${offset}`,
          messages: [
            { role: 'user' as const, content: text(batch * 25 + offset) },
            { role: 'assistant' as const, content: text(offset) },
          ],
        })),
      );
    }
    readKey = (await engram.keys.create({ role: 'read' })).key;
    ({ url, close } = await serveEngram(engram, { auth: 'keys' }, () => store.cleanup()));
  }, 120_000);
  afterAll(async () => {
    recordOutcome('read-key-growth', { ...figures, bound_bytes: MAX_BUILD_BYTES });
    await close();
  });

  it('refuses every cue it does not define or past its size, writing nothing; every build it stores is under the bound', async () => {
    let stored = 0;
    await fc.assert(
      fc.asyncProperty(
        cueSets,
        fc.constantFrom(4000, 100_000, 1_000_000),
        async ({ cues, valid, field }, maxTokens) => {
          figures['requests']! += 1;
          const before = (await builds()).length;
          const response = await fetch(`${url}/v1/compose`, {
            method: 'POST',
            headers: { authorization: `Bearer ${readKey}`, 'content-type': 'application/json' },
            body: JSON.stringify({
              scope,
              purpose: 'planner',
              cues,
              budget: { max_tokens: maxTokens },
              conversation_window: 200,
            }),
          });
          const body = (await response.json()) as {
            code?: string;
            field?: string;
            packet?: { explain: { determinism: { context_build_id: string } } };
          };
          const after = await builds();
          if (!valid) {
            if (after.length !== before) figures['refusals_that_wrote']! += 1;
            else figures['refused']! += 1;
            expect(response.status, JSON.stringify(body).slice(0, 300)).toBe(400);
            expect(body).toMatchObject({ code: 'VALIDATION_FAILED', field });
            expect(after).toHaveLength(before);
            return;
          }
          expect(response.status, JSON.stringify(body).slice(0, 300)).toBe(200);
          figures['accepted']! += 1;
          const build = after.find((entry) => entry.id === body.packet!.explain.determinism.context_build_id)!;
          const bytes =
            Buffer.byteLength(JSON.stringify(build.request)) + Buffer.byteLength(JSON.stringify(build.packet));
          if (bytes > MAX_BUILD_BYTES) figures['builds_over_bound']! += 1;
          figures['max_build_bytes'] = Math.max(figures['max_build_bytes']!, bytes);
          stored += bytes;
          figures['mean_build_bytes'] = Math.round(stored / figures['accepted']!);
          expect(bytes).toBeLessThanOrEqual(MAX_BUILD_BYTES);
        },
      ),
      { numRuns: RUNS },
    );
  }, 240_000);
});
