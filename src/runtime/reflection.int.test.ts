import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { SessionReflection } from '../index.js';
import {
  chatReply,
  startOpenAiCompatibleServer,
  type OpenAiCompatibleServer,
  type Reply,
} from '../../test/helpers/openai-compatible-server.js';
import { atlasRun, atlasScope, commitAtlasRun } from '../../test/helpers/atlas-run.js';
import { tempEngram, type TempEngram } from '../../test/helpers/temp-engram.js';

const scope = atlasScope;
const run = atlasRun;

/** The trace id and the event and item ids the prompt showed. */
function shown(body: { messages: Array<{ content: string }> }) {
  const prompt = body.messages.at(-1)!.content;
  return {
    trace: /Trace: (trc_[0-9A-Z]{26})/.exec(prompt)![1]!,
    events: [...prompt.matchAll(/"id":"(evt_[0-9A-Z]{26})"/g)].map((match) => match[1]!),
    items: [...prompt.matchAll(/^(mem_[0-9A-Z]{26}) /gm)].map((match) => match[1]!),
  };
}

function reflection(trace: string, events: string[], extra: Partial<SessionReflection> = {}): SessionReflection {
  return {
    trace_id: trace,
    episode_candidates: [
      {
        summary: 'Mira planned the Atlas launch and set a writing tone.',
        entities: ['Atlas'],
        domains: ['launch'],
        source_event_ids: events.slice(0, 4),
        confidence: 0.8,
        candidate_meaning: 'launch planning',
      },
    ],
    memory_candidates: [
      {
        claim: 'The user prefers bullet points in writing.',
        memory_type: 'affective',
        applies_when: ['writing'],
        does_not_apply_when: [],
        initial_salience: { consequence: 0.4, emotional_charge: 0.6, reusability: 0.9 },
        source_episode_indexes: [0],
        confidence: 0.85,
      },
      {
        claim: 'The user works at Acme.',
        memory_type: 'semantic',
        applies_when: [],
        does_not_apply_when: [],
        initial_salience: { consequence: 0.5, emotional_charge: 0.1, reusability: 0.8 },
        source_episode_indexes: [0],
        confidence: 0.7,
      },
      {
        claim: 'Ask before deploying on Fridays.',
        memory_type: 'strategic',
        applies_when: ['deploying'],
        does_not_apply_when: [],
        initial_salience: { consequence: 0.7, emotional_charge: 0.2, reusability: 0.6 },
        source_episode_indexes: [0],
        confidence: 0.5,
      },
    ],
    contradictions: [],
    doctrine_suggestions: [],
    ...extra,
  };
}

describe('reflection with a model (OpenAI-compatible server on loopback)', () => {
  let server: OpenAiCompatibleServer;
  let t: TempEngram;
  let answer: (body: { messages: Array<{ content: string }> }, call: number) => Reply;

  beforeEach(async () => {
    server = await startOpenAiCompatibleServer({ chat: (body, call) => answer(body, call) });
    t = await tempEngram('2026-06-01T12:00:00.000Z', {
      embeddings: { provider: 'none' },
      reflection: { llm: { provider: 'openai-compatible', baseUrl: server.baseUrl, model: 'test-model' } },
    });
    await commitAtlasRun(t.engram);
  });
  afterEach(async () => {
    await t.cleanup();
    await server.close();
  });

  it('proposes candidates; approve, reject and edit decide what becomes memory, with provenance to the run', async () => {
    answer = (body) => {
      const ids = shown(body);
      return chatReply(JSON.stringify(reflection(ids.trace, ids.events)));
    };
    const result = await t.engram.reflect({ scope: run });
    expect(result).toMatchObject({ source: 'llm', status: 'succeeded' });
    expect(result.candidates.map((candidate) => [candidate.kind, candidate.memory_type, candidate.status])).toEqual([
      ['episode', 'episodic', 'pending'],
      ['memory', 'affective', 'pending'],
      ['memory', 'semantic', 'pending'],
      ['memory', 'strategic', 'pending'],
    ]);
    const runEvents = new Set((await t.engram.events.list({ scope, limit: 100 })).map((event) => event.id));
    const [episode, preference, semantic, strategic] = result.candidates;
    expect(preference!.target).toMatchObject({
      write: 'item',
      type: 'preferences',
      key: 'pref:writing:format',
      value: { value: 'bullet points' },
    });
    expect(semantic!.target).toMatchObject({ write: 'item', type: 'profile', key: 'profile:user' });
    const before = await t.engram.items.list({ scope: { user_id: 'mira', agent_id: 'assistant' }, limit: 100 });

    const approved = await t.engram.review.approve({ candidate_id: preference!.id, by: 'mira' });
    expect(approved.candidate).toMatchObject({ status: 'approved', decision: { by: 'mira', reason: null } });
    const written = approved.items.find((diff) => diff.action === 'created' || diff.action === 'updated')!;
    const [item] = await t.engram.items.history({
      scope: { user_id: 'mira', agent_id: 'assistant' },
      key: written.key,
    });
    expect(item!.provenance).toMatchObject({ extractor: 'reflection', rule: `review:${preference!.id}` });
    expect(item!.source_event_ids.length).toBeGreaterThan(0);
    expect(item!.source_event_ids.every((id) => runEvents.has(id))).toBe(true);

    const rejected = await t.engram.review.reject({ candidate_id: semantic!.id, by: 'mira', reason: 'I left Acme' });
    expect(rejected.candidate).toMatchObject({ status: 'rejected', decision: { by: 'mira', reason: 'I left Acme' } });
    expect(rejected.items).toEqual([]);

    const edit = {
      write: 'item' as const,
      type: 'events' as const,
      key: 'event:atlas:2026-06-12:launch',
      value: { date: '2026-06-12', title: 'Atlas launch' },
    };
    const edited = await t.engram.review.approve({ candidate_id: episode!.id, by: 'mira', edit });
    expect(edited.candidate).toMatchObject({ status: 'edited', decision: { edit } });
    expect(edited.items[0]).toMatchObject({ action: 'created', key: 'event:atlas:2026-06-12:launch' });

    const sketch = await t.engram.review.approve({ candidate_id: strategic!.id });
    expect(sketch.insight_ids).toHaveLength(1);
    const insights = await t.engram.insights.list({ scope: { user_id: 'mira', agent_id: 'assistant' } });
    expect(insights.map((insight) => [insight.type, insight.validation_state, insight.candidate_id])).toEqual([
      ['strategy', 'unvalidated', strategic!.id],
    ]);

    const after = await t.engram.items.list({ scope: { user_id: 'mira', agent_id: 'assistant' }, limit: 100 });
    expect(after.length).toBe(before.length + 2);
    expect(
      after.some((entry) => entry.key.startsWith('profile:') && JSON.stringify(entry.value).includes('Acme')),
    ).toBe(false);
    await expect(t.engram.review.approve({ candidate_id: semantic!.id })).rejects.toMatchObject({
      code: 'STATE_VERSION_CONFLICT',
      field: 'candidate_id',
    });
    expect(server.requests.filter((request) => request.path.endsWith('/chat/completions'))).toHaveLength(1);
  });

  it.each([
    [
      'an answer that breaks the schema',
      () => chatReply(JSON.stringify({ trace_id: 'trc_01J0000000000000000000000A', episode_candidates: [] })),
      'invalid',
    ],
    ['truncated JSON', () => chatReply('{"trace_id": "trc_01J0000000000000000000000A", "episode_candi'), 'not_json'],
  ])('records %s as a failed reflection after one retry and writes no memory', async (_name, reply, reason) => {
    answer = reply;
    const items = await t.engram.items.list({ scope: { user_id: 'mira', agent_id: 'assistant' }, limit: 100 });
    const result = await t.engram.reflect({ scope: run });
    expect(result).toMatchObject({
      status: 'failed',
      candidates: [],
      failure: { reason, attempts: 2, stage: 'model' },
    });
    expect(server.requests.filter((request) => request.path.endsWith('/chat/completions'))).toHaveLength(2);
    expect(await t.engram.review.list({ scope: { user_id: 'mira' } })).toEqual([]);
    expect(await t.engram.items.list({ scope: { user_id: 'mira', agent_id: 'assistant' }, limit: 100 })).toEqual(items);
    expect(await t.storage.reviews.getReflection('default', result.trace_id)).toMatchObject({
      status: 'failed',
      reflection: null,
    });
  });

  it("refuses a reflection that cites another user's event, and reports which", async () => {
    const other = await t.engram.commitTurn({
      scope: { ...scope, user_id: 'someone-else' },
      turn_id: 'x1',
      messages: [{ role: 'user', content: 'My secret plan.' }],
    });
    const foreign = other.events[0]!.event_id;
    answer = (body) => {
      const ids = shown(body);
      return chatReply(JSON.stringify(reflection(ids.trace, [foreign, ...ids.events])));
    };
    const result = await t.engram.reflect({ scope: run });
    expect(result.status).toBe('failed');
    expect(result.failure!.issues[0]).toMatchObject({
      field: 'episode_candidates[0].source_event_ids[0]',
      rule: 'known_event',
    });
    expect(result.candidates).toEqual([]);
    expect(await t.engram.review.list({ scope: { user_id: 'mira' } })).toEqual([]);
  });

  it('marks disputed facts and opens a question until the contradiction is decided; a replay still shows the dispute', async () => {
    await t.engram.items.remember({
      scope,
      type: 'preferences',
      key: 'pref:writing:tone',
      value: { scope: 'writing', name: 'tone', value: 'formal' },
    });
    answer = (body) => {
      const ids = shown(body);
      const item = ids.items[0]!;
      return chatReply(
        JSON.stringify(
          reflection(ids.trace, ids.events, {
            memory_candidates: [],
            contradictions: [
              {
                detail: 'tone: formal or friendly?',
                item_ids: [item],
                source_event_ids: [ids.events[2]!],
                question: 'Should writing be formal or friendly?',
              },
            ],
          }),
        ),
      );
    };
    const result = await t.engram.reflect({ scope: run });
    const dispute = result.candidates.find((candidate) => candidate.kind === 'contradiction')!;
    expect((await t.engram.sessions.workingState(scope)).open_loops).toEqual([
      expect.objectContaining({ question: 'Should writing be formal or friendly?', status: 'open', owner: 'user' }),
    ]);
    const packet = await t.engram.compose({ scope, purpose: 'planner' });
    expect(packet.long_term.facts.find((fact) => fact.fact_key === 'pref:writing:tone')).toMatchObject({
      status: 'disputed',
    });
    expect(packet.explain.conflicts).toEqual([
      expect.objectContaining({ type: 'disputed_fact', fact_ids: dispute.item_ids }),
    ]);

    t.clock.advance(60_000);
    // Settling a dispute needs a choice: a plain approve is refused.
    await expect(t.engram.review.approve({ candidate_id: dispute.id })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      field: 'edit',
    });
    await expect(
      t.engram.review.approve({
        candidate_id: dispute.id,
        edit: { write: 'resolve', keep: 'mem_01J0000000000000000000000A' },
      }),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED', field: 'edit.keep' });
    await t.engram.review.reject({ candidate_id: dispute.id, reason: 'formal is right' });
    expect((await t.engram.sessions.workingState(scope)).open_loops).toEqual([
      expect.objectContaining({ status: 'closed' }),
    ]);
    const settled = await t.engram.compose({ scope, purpose: 'planner' });
    expect(settled.long_term.facts.find((fact) => fact.fact_key === 'pref:writing:tone')).toMatchObject({
      status: 'active',
    });
    const replayed = await t.engram.builds.replay(String(packet.explain.determinism!['context_build_id']));
    expect(replayed.identical).toBe(true);
  });
});

describe('reflection without a model', () => {
  let t: TempEngram;
  beforeEach(async () => {
    t = await tempEngram('2026-06-01T12:00:00.000Z', { embeddings: { provider: 'none' } });
  });
  afterEach(() => t.cleanup());

  it('proposes from rules; approved candidates become items, a rejected one never does', async () => {
    await t.engram.commitTurn({
      scope,
      turn_id: 't1',
      messages: [{ role: 'user', content: 'I prefer concise answers in writing.' }],
    });
    await t.engram.commitTurn({
      scope,
      turn_id: 't2',
      messages: [{ role: 'user', content: 'Deploy billing.' }],
      tool_results: [
        { tool_name: 'build_image', content: { ok: true } },
        { tool_name: 'push_image', content: { ok: true } },
      ],
    });
    await t.engram.commitTurn({
      scope,
      turn_id: 't3',
      messages: [{ role: 'user', content: 'Now deploy auth.' }],
      tool_results: [
        { tool_name: 'build_image', content: { ok: true } },
        { tool_name: 'push_image', content: { ok: true } },
      ],
    });
    await t.engram.commitTurn({
      scope,
      turn_id: 't4',
      messages: [{ role: 'user', content: 'Again: I prefer concise answers in writing.' }],
    });
    const result = await t.engram.reflect({ scope: run });
    expect(result).toMatchObject({ source: 'rules', status: 'succeeded' });
    const preference = result.candidates.find((candidate) => candidate.memory_type === 'affective')!;
    const procedure = result.candidates.find((candidate) => candidate.memory_type === 'procedural')!;
    expect(preference.source_event_ids).toHaveLength(2);
    expect(procedure.target).toMatchObject({ write: 'item', type: 'procedure' });

    await t.engram.review.reject({ candidate_id: procedure.id, reason: 'one-off deploys' });
    const approved = await t.engram.review.approve({ candidate_id: preference.id });
    expect(approved.candidate.status).toBe('approved');
    const procedures = await t.engram.items.list({
      scope: { user_id: 'mira', agent_id: 'assistant' },
      types: ['procedure'],
      limit: 10,
    });
    expect(procedures).toEqual([]);
    const pending = await t.engram.review.list({ scope: { user_id: 'mira' }, status: ['pending'] });
    expect(pending.every((candidate) => candidate.kind === 'episode')).toBe(true);
  });

  it('auto-approves only what the policy names, never from a model unless it says so', async () => {
    const auto = await tempEngram('2026-06-01T12:00:00.000Z', {
      embeddings: { provider: 'none' },
      reflection: { autoApprove: [{ memory_types: ['affective'], min_confidence: 0.5 }] },
    });
    try {
      for (const [index, text] of [
        'I prefer concise answers in writing.',
        'I prefer concise answers in writing, really.',
      ].entries()) {
        await auto.engram.commitTurn({ scope, turn_id: `t${index}`, messages: [{ role: 'user', content: text }] });
      }
      const result = await auto.engram.reflect({ scope: run });
      const preference = result.candidates.find((candidate) => candidate.memory_type === 'affective')!;
      expect(preference).toMatchObject({ status: 'approved', decision: { by: 'policy:auto-approve' } });
      expect(
        result.candidates
          .filter((candidate) => candidate.kind === 'episode')
          .every((candidate) => candidate.status === 'pending'),
      ).toBe(true);
    } finally {
      await auto.cleanup();
    }
    await expect(
      tempEngram('2026-06-01T12:00:00.000Z', {
        reflection: { autoApprove: [{ memory_types: ['feelings' as never], min_confidence: 2 }] },
      }),
    ).rejects.toMatchObject({ code: 'CONFIG_INVALID' });
  });
});
