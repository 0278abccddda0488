// LLM extraction as a background job, end to end on a SQLite file against an OpenAI-compatible
// server on loopback: the commit writes the rules' items and queues the job without asking the
// model; the job writes the model's items later, with their own recorded time and provenance,
// retries a model that is down with backoff, and records an answer it cannot use.

import { afterEach, describe, expect, it } from 'vitest';

import { createEngram, type Engram, type EngramConfig } from '../index.js';
import {
  chatReply,
  promptEventIds,
  startOpenAiCompatibleServer,
  type OpenAiCompatibleServer,
  type Reply,
} from '../../test/helpers/openai-compatible-server.js';
import { tempEngram, type TempEngram } from '../../test/helpers/temp-engram.js';

const scope = { user_id: 'mira', agent_id: 'assistant', session_id: 's1', run_id: 'r1' };
const reader = { user_id: 'mira', agent_id: 'assistant' };
type ChatBody = { messages: Array<{ role: string; content: string }> };

/** An extraction answer: one profile item stating `pairs`, citing the first event shown. */
function profileAnswer(body: ChatBody, pairs: Array<{ k: string; v: string }>): Reply {
  const item = {
    action: 'upsert',
    type: 'profile',
    key: 'profile:user',
    value: pairs,
    confidence: 0.9,
    gate: 'may',
    source_event_ids: promptEventIds(body).slice(0, 1),
    salience: null,
  };
  return chatReply(JSON.stringify({ items: [item] }));
}

function llmConfig(
  server: OpenAiCompatibleServer,
  extra: NonNullable<EngramConfig['extraction']> = {},
): Omit<EngramConfig, 'store' | 'clock'> {
  return {
    embeddings: { provider: 'none' },
    extraction: { llm: { provider: 'openai-compatible', baseUrl: server.baseUrl, model: 'test-model' }, ...extra },
  };
}

async function profileVersions(engram: Engram) {
  return engram.items.history({ scope: reader, key: 'profile:user' });
}

describe('LLM extraction in the background', () => {
  let server: OpenAiCompatibleServer;
  let t: TempEngram;
  let answer: (body: ChatBody, call: number) => Reply;

  async function start(extra: NonNullable<EngramConfig['extraction']> = {}): Promise<void> {
    server = await startOpenAiCompatibleServer({ chat: (body, call) => answer(body, call) });
    t = await tempEngram('2026-06-01T12:00:00.000Z', llmConfig(server, extra));
  }
  afterEach(async () => {
    await t?.cleanup();
    await server?.close();
  });

  it("commits without the model, then writes its fact as a fact that supersedes the rules' old value, with its own time and provenance", async () => {
    answer = (body) => profileAnswer(body, [{ k: 'Location', v: 'Lisbon' }]);
    await start();
    const first = await t.engram.commitTurn({
      scope,
      turn_id: 't1',
      messages: [{ role: 'user', content: 'I live in Berlin.' }],
    });
    expect(first.items.map((diff) => [diff.action, diff.key, diff.rule])).toEqual([
      ['created', 'profile:user', 'en.profile.fact'],
    ]);
    expect(first.extraction_failures).toEqual([]);
    // Only the rules ran in the commit: the model was not asked, the job waits.
    expect(server.requests).toHaveLength(0);
    const [queued] = await t.engram.maintenance.listJobs();
    expect(queued).toMatchObject({
      id: `extract:${first.events[0]!.event_id}`,
      kind: 'extract',
      status: 'pending',
      payload: { scope, turn_id: 't1', event_ids: [first.events[0]!.event_id], recorded_at: first.recorded_at },
    });

    t.clock.advance(5_000);
    expect(await t.engram.maintenance.runJobs()).toEqual({ done: 1, failed: 0, retried: 0 });
    expect(server.requests).toHaveLength(1);
    const [old, current] = await profileVersions(t.engram);
    expect(old).toMatchObject({
      status: 'superseded',
      provenance: { extractor: 'rules' },
      value: { facts: [{ k: 'location', v: 'Berlin' }] },
    });
    expect(current).toMatchObject({
      status: 'active',
      version: 2,
      supersedes: old!.id,
      value: { subject: 'user', facts: [{ k: 'location', v: 'Lisbon' }] },
      provenance: { extractor: 'llm', rule: 'llm:extract-items@2', model: 'test-model' },
      source_event_ids: [first.events[0]!.event_id],
      // Written by the job, learned from the turn.
      recorded_at: '2026-06-01T12:00:05.000Z',
      valid_from: first.recorded_at,
    });
    expect(current!.value).not.toHaveProperty('location');
    expect((await t.engram.items.list({ scope: reader })).map((item) => item.id)).toEqual([current!.id]);
    expect((await t.engram.items.list({ scope: reader, status: ['superseded'] })).map((item) => item.id)).toEqual([
      old!.id,
    ]);
    expect(await t.engram.maintenance.listJobs()).toEqual([
      expect.objectContaining({ status: 'done', attempts: 1, last_error: null }),
    ]);
    expect(await t.engram.maintenance.runJobs()).toEqual({ done: 0, failed: 0, retried: 0 });
  });

  it('keeps what a later turn changed when the job of an earlier turn runs after it', async () => {
    answer = (body) =>
      profileAnswer(body, [
        { k: 'location', v: 'Berlin' },
        { k: 'employer', v: 'Acme' },
      ]);
    await start();
    await t.engram.commitTurn({
      scope,
      turn_id: 't1',
      messages: [{ role: 'user', content: 'I work for Acme and live in Berlin.' }],
    });
    t.clock.advance(60_000);
    await t.engram.commitTurn({ scope, turn_id: 't2', messages: [{ role: 'user', content: 'I moved to Lisbon.' }] });
    // The first turn's job answers last: Berlin is old news by then, the role is not.
    answer = (body, call) =>
      call === 1
        ? profileAnswer(body, [
            { k: 'location', v: 'Berlin' },
            { k: 'role', v: 'nurse' },
          ])
        : chatReply(JSON.stringify({ items: [] }));
    expect(await t.engram.maintenance.runJobs()).toMatchObject({ done: 2 });
    const current = (await profileVersions(t.engram)).find((version) => version.status === 'active')!;
    const facts = current.value['facts'] as Array<{ k: string; v: string }>;
    expect(facts.find((fact) => fact.k === 'location')?.v).toBe('Lisbon');
    expect(facts.find((fact) => fact.k === 'role')?.v).toBe('nurse');
  });

  it('uses the answer that follows one malformed answer', async () => {
    answer = (body, call) =>
      call === 1 ? chatReply('I think she lives in Lisbon.') : profileAnswer(body, [{ k: 'location', v: 'Lisbon' }]);
    await start();
    await t.engram.commitTurn({
      scope,
      turn_id: 't1',
      messages: [{ role: 'user', content: 'Lisbon has been home for a while.' }],
    });
    expect(await t.engram.maintenance.runJobs()).toEqual({ done: 1, failed: 0, retried: 0 });
    expect(server.requests).toHaveLength(2);
    expect(JSON.stringify(server.requests[1]!.body)).toContain('could not be used');
    const [profile] = await profileVersions(t.engram);
    expect(profile).toMatchObject({
      provenance: { extractor: 'llm' },
      value: { facts: [{ k: 'location', v: 'Lisbon' }] },
    });
  });

  it('records an answer malformed twice on the job and leaves memory untouched by the model', async () => {
    answer = (_, call) => chatReply(call === 1 ? 'no JSON here' : JSON.stringify({ memories: [] }));
    await start();
    const committed = await t.engram.commitTurn({
      scope,
      turn_id: 't1',
      messages: [{ role: 'user', content: 'I live in Berlin.' }],
    });
    expect(await t.engram.maintenance.runJobs()).toEqual({ done: 0, failed: 1, retried: 0 });
    const [job] = await t.engram.maintenance.listJobs({ statuses: ['failed'] });
    expect(job).toMatchObject({ kind: 'extract', attempts: 1 });
    expect(job!.last_error).toMatch(
      /^llm:extract-items@2 \(test-model\): answer invalid after 2 attempts; .*last answer: \{"memories":\[\]\}$/u,
    );
    // Not retried: a third answer would be no better.
    expect(await t.engram.maintenance.runJobs()).toEqual({ done: 0, failed: 0, retried: 0 });
    expect(server.requests).toHaveLength(2);
    const items = await t.engram.items.list({ scope: reader, status: ['active', 'superseded', 'retracted'] });
    expect(items.map((item) => [item.id, item.provenance.extractor])).toEqual([[committed.items[0]!.item_id, 'rules']]);
  });

  it('commits at once while the model is down, retries the job with backoff, then records the failure', async () => {
    answer = () => chatReply('{}');
    await start();
    await server.close();
    const started = Date.now();
    const committed = await t.engram.commitTurn({
      scope,
      turn_id: 't1',
      messages: [{ role: 'user', content: 'I live in Berlin.' }],
    });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(committed.items).toHaveLength(1);

    expect(await t.engram.maintenance.runJobs()).toEqual({ done: 0, failed: 0, retried: 1 });
    const [waiting] = await t.engram.maintenance.listJobs();
    expect(waiting).toMatchObject({ status: 'pending', attempts: 1, lease_until: '2026-06-01T12:00:30.000Z' });
    expect(waiting!.last_error).toMatch(/ECONNREFUSED/u);
    // Not before its backoff ends.
    expect(await t.engram.maintenance.runJobs()).toEqual({ done: 0, failed: 0, retried: 0 });
    for (const pause of [30_000, 120_000]) {
      t.clock.advance(pause);
      expect(await t.engram.maintenance.runJobs()).toEqual({ done: 0, failed: 0, retried: 1 });
    }
    t.clock.advance(480_000);
    expect(await t.engram.maintenance.runJobs()).toEqual({ done: 0, failed: 1, retried: 0 });
    expect(await t.engram.maintenance.listJobs()).toEqual([
      expect.objectContaining({
        status: 'failed',
        attempts: 4,
        lease_until: null,
        last_error: expect.stringMatching(/ECONNREFUSED/u),
      }),
    ]);
    const items = await t.engram.items.list({ scope: reader, status: ['active', 'superseded', 'retracted'] });
    expect(items.map((item) => item.provenance.extractor)).toEqual(['rules']);
  });

  it('survives a close: the job committed with the turn runs when a store with the model opens again, and waits while one without it runs', async () => {
    answer = (body) => profileAnswer(body, [{ k: 'employer', v: 'Acme' }]);
    await start();
    await t.engram.commitTurn({
      scope,
      turn_id: 't1',
      messages: [{ role: 'user', content: 'Acme pays my bills these days.' }],
    });
    await t.engram.close();

    const rulesOnly = await createEngram({ store: `sqlite:${t.path}`, embeddings: { provider: 'none' } });
    expect(await rulesOnly.maintenance.runJobs()).toEqual({ done: 0, failed: 0, retried: 0 });
    expect(await rulesOnly.maintenance.listJobs()).toEqual([
      expect.objectContaining({ kind: 'extract', status: 'pending' }),
    ]);
    await rulesOnly.close();

    const reopened = await createEngram({ store: `sqlite:${t.path}`, ...llmConfig(server) });
    try {
      expect(await reopened.maintenance.runJobs()).toEqual({ done: 1, failed: 0, retried: 0 });
      const [profile] = await profileVersions(reopened);
      expect(profile).toMatchObject({
        value: { facts: [{ k: 'employer', v: 'Acme' }] },
        provenance: { extractor: 'llm', model: 'test-model' },
      });
    } finally {
      await reopened.close();
    }
  });

  it('queues nothing for a dry run or a turn with nothing to read, and asks inside the commit in inline mode', async () => {
    answer = (body) => profileAnswer(body, [{ k: 'employer', v: 'Acme' }]);
    await start();
    await t.engram.commitTurn({
      scope,
      turn_id: 'dry',
      dry_run: true,
      messages: [{ role: 'user', content: 'I work for Acme.' }],
    });
    await t.engram.commitTurn({ scope, turn_id: 'marker', markers: ['STEP_DONE'] });
    expect(await t.engram.maintenance.listJobs()).toEqual([]);
    await t.cleanup();
    await server.close();

    await start({ llmMode: 'inline' });
    const result = await t.engram.commitTurn({
      scope,
      turn_id: 't1',
      messages: [{ role: 'user', content: 'Acme pays my bills these days.' }],
    });
    expect(result.items).toEqual([
      expect.objectContaining({ action: 'created', key: 'profile:user', rule: 'llm:extract-items@2' }),
    ]);
    expect(await t.engram.maintenance.listJobs()).toEqual([]);
    await expect(
      createEngram({ store: 'sqlite::memory:', extraction: { llmMode: 'later' as never } }),
    ).rejects.toMatchObject({ code: 'CONFIG_INVALID', field: 'extraction.llmMode' });
  });
});
