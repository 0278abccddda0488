// Bad input from the model: the extraction (commit_turn and its background job) and reflection paths talk to an
// OpenAI-compatible server on loopback whose answers are hostile — a valid answer with one field
// broken, random text, truncated or deeply nested JSON, prototype keys, wrong HTTP shapes. The turn
// is always acknowledged and readable, a reflection ends as succeeded or failed (never a throw), every
// stored item has a known type and obeys its key rule, and nothing reaches Object.prototype.

import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { assertKey, EngramError, MEMORY_TYPES } from '../../src/index.js';
import { deepJsonText, hostileString, mutated, prototypePolluted } from '../helpers/hostile.js';
import {
  chatReply,
  startOpenAiCompatibleServer,
  type OpenAiCompatibleServer,
  type Reply,
} from '../helpers/openai-compatible-server.js';
import { tempEngram, type TempEngram } from '../helpers/temp-engram.js';
import { emptyTally, recordOutcome, type BoundaryTally } from './results.js';

const RUNS = Number(process.env['ENGRAM_RELIABILITY_RUNS'] ?? 40);
const scope = { user_id: 'mira', agent_id: 'assistant', session_id: 's1', run_id: 'r1' };

/** A well-formed extraction answer (the event ids are the model's guess: they may name nothing). */
const EXTRACTION: Record<string, unknown> = {
  items: [
    {
      action: 'upsert',
      type: 'decisions',
      key: 'decision:atlas:launch_date',
      value: [
        { k: 'project', v: 'Atlas' },
        { k: 'decision', v: 'Launch on 2026-03-03' },
      ],
      confidence: 0.9,
      gate: 'must',
      source_event_ids: ['evt_01J0000000000000000000000A'],
      salience: { consequence: 0.8, emotional_charge: 0.1, reusability: 0.6 },
    },
  ],
};

/** A well-formed reflection answer. */
const REFLECTION: Record<string, unknown> = {
  trace_id: 'trc_01J0000000000000000000000A',
  episode_candidates: [
    {
      summary: 'Planned Atlas.',
      entities: ['Atlas'],
      domains: ['launch'],
      source_event_ids: [],
      confidence: 0.8,
      candidate_meaning: 'planning',
    },
  ],
  memory_candidates: [
    {
      claim: 'Prefers tea.',
      memory_type: 'affective',
      applies_when: [],
      does_not_apply_when: [],
      initial_salience: { consequence: 0.4, emotional_charge: 0.6, reusability: 0.9 },
      source_episode_indexes: [0],
      confidence: 0.85,
    },
  ],
  contradictions: [],
  doctrine_suggestions: [],
};

/** Hostile answers of the chat endpoint, built around a well-formed answer. */
function hostileReplies(valid: Record<string, unknown>): fc.Arbitrary<Reply> {
  const text = fc.oneof(
    mutated(valid).map(({ request }) => JSON.stringify(request) ?? 'null'),
    hostileString,
    fc.integer({ min: 1, max: 60 }).map((cut) => JSON.stringify(valid).slice(0, cut)),
    fc.constant(deepJsonText(20_000)),
    fc.constantFrom(
      '{"__proto__": {"polluted": "yes"}, "items": []}',
      '{"items": [{"__proto__": {"polluted": "yes"}, "constructor": {"prototype": {"polluted": "yes"}}}]}',
      '```json\n{"items": []}\n```',
      'null',
      '[]',
      '""',
    ),
  );
  return fc.oneof(
    { weight: 5, arbitrary: text.map(chatReply) },
    {
      weight: 1,
      arbitrary: fc.constantFrom<Reply>(
        { status: 500, body: { error: { message: 'down' } } },
        { body: { choices: [] } },
        { body: { choices: [{ message: { content: null } }] } },
        { body: 'not an object' },
        { status: 429, body: {} },
      ),
    },
  );
}

describe('hostile model output', () => {
  let server: OpenAiCompatibleServer;
  let t: TempEngram;
  let next: Reply = chatReply('{}');
  const tallies: Record<string, BoundaryTally> = {};

  beforeAll(async () => {
    server = await startOpenAiCompatibleServer({ chat: () => next });
    const llm = { provider: 'openai-compatible' as const, baseUrl: server.baseUrl, model: 'test-model' };
    t = await tempEngram('2026-06-01T12:00:00.000Z', {
      embeddings: { provider: 'none' },
      extraction: { llm },
      reflection: { llm },
    });
  });
  afterAll(async () => {
    recordOutcome('llm-output', tallies);
    await t.cleanup();
    await server.close();
  });

  it('extraction: every turn is acknowledged and readable, whatever the model answers', async () => {
    const tally = (tallies['extraction'] = emptyTally());
    await fc.assert(
      fc.asyncProperty(hostileReplies(EXTRACTION), async (reply) => {
        tally.cases += 1;
        next = reply;
        t.clock.advance(1000);
        const result = await t.engram.commitTurn({
          scope,
          turn_id: `llm-${tally.cases}`,
          messages: [{ role: 'user', content: 'We decided: Atlas launches on March 3.' }],
        });
        const stored = await t.engram.events.get(result.events[0]!.event_id);
        expect(stored.turn_id).toBe(`llm-${tally.cases}`);
        // The model reads the turn in its background job: whatever it answers, the job ends or waits to retry.
        const jobs = await t.engram.maintenance.runJobs();
        const outcome = jobs.failed > 0 ? 'job_failed' : jobs.retried > 0 ? 'job_retried' : 'job_done';
        tally.codes[outcome] = (tally.codes[outcome] ?? 0) + 1;
        tally.accepted += 1;
        expect(prototypePolluted()).toBe(false);
      }),
      { numRuns: RUNS },
    );
    const items = await t.engram.items.list({
      scope: { user_id: 'mira', agent_id: 'assistant' },
      status: ['active', 'superseded', 'retracted'],
      limit: 1000,
    });
    for (const item of items) {
      expect(MEMORY_TYPES).toContain(item.type);
      expect(() => assertKey(item.type, item.key), item.key).not.toThrow();
    }
  }, 240_000);

  it('reflection: every run ends as succeeded or failed, or a typed provider error when the endpoint fails', async () => {
    const tally = (tallies['reflection'] = emptyTally());
    await fc.assert(
      fc.asyncProperty(hostileReplies(REFLECTION), async (reply) => {
        tally.cases += 1;
        next = reply;
        t.clock.advance(1000);
        const result = await t.engram
          .reflect({ scope: { user_id: 'mira', agent_id: 'assistant', run_id: 'r1' } })
          .catch((error: unknown) => {
            // A provider that fails at the HTTP level is a typed error naming it; nothing was written.
            expect(EngramError.isInstance(error) && error.field, String(error)).toBe('llm');
            return { status: 'unreachable' as const, failure: { reason: 'provider_http' } };
          });
        expect(['succeeded', 'failed', 'unreachable']).toContain(result.status);
        if (result.status === 'succeeded') tally.accepted += 1;
        else tally.rejected += 1;
        tally.codes[result.failure?.reason ?? 'ok'] = (tally.codes[result.failure?.reason ?? 'ok'] ?? 0) + 1;
        expect(prototypePolluted()).toBe(false);
      }),
      { numRuns: RUNS },
    );
  }, 240_000);
});
