// What a user's private events support stays with that user, on every path from events to memory:
// the rule-based and the model's reflection (the candidate carries the sensitivity and proposes the
// user's level), approval with and without an edit, insight promotion, extraction at commit and an
// explicit remember. Another user of the same agent never sees it in a packet or an item list.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { renderPacket, type CommitTurnRequest, type Engram, type SessionReflection } from '../index.js';
import {
  chatReply,
  promptEventIds,
  startOpenAiCompatibleServer,
  type OpenAiCompatibleServer,
  type Reply,
} from '../../test/helpers/openai-compatible-server.js';
import { tempEngram, type TempEngram } from '../../test/helpers/temp-engram.js';

const ana = { user_id: 'ana', agent_id: 'assistant', session_id: 's1', run_id: 'r1' };
const bo = { user_id: 'bo', agent_id: 'assistant', session_id: 's9', run_id: 'r9' };
const anaRun = { user_id: 'ana', agent_id: 'assistant', run_id: 'r1' };
const MARK = 'privsecret';

/** Ana's run: three private requests, each answered by the same two private tool calls. */
function privateTurns(): CommitTurnRequest[] {
  return ['march', 'april', 'may'].map((month, index) => ({
    scope: ana,
    turn_id: `t${index}`,
    messages: [{ role: 'user', content: `Reconcile my ${month} ledger please`, sensitivity: 'private' }],
    tool_results: [
      { tool_name: `look_${MARK}_ledger`, content: { rows: 3 }, sensitivity: 'private' },
      { tool_name: `sum_${MARK}_rows`, content: { total: 12 }, sensitivity: 'private' },
    ],
  }));
}

/** What user `who` of the same agent is shown: a planner packet's prompt text and every item listed. */
async function seenBy(engram: Engram, who: typeof bo): Promise<string> {
  const packet = await engram.compose({ scope: who, purpose: 'planner', cues: { query: 'reconcile the ledger' } });
  const items = await engram.items.list({ scope: { user_id: who.user_id, agent_id: who.agent_id }, limit: 1000 });
  return `${renderPacket(packet, { format: 'markdown' })}\n${JSON.stringify(items)}`;
}

describe('private data stays with its user (rules)', () => {
  let t: TempEngram;
  beforeEach(async () => {
    t = await tempEngram('2026-06-01T12:00:00.000Z', { embeddings: { provider: 'none' } });
    for (const turn of privateTurns()) await t.engram.commitTurn(turn);
  });
  afterEach(() => t.cleanup());

  it('marks the candidates private; the approved procedure is ana’s only and bo’s planner never shows it', async () => {
    const { candidates } = await t.engram.reflect({ scope: anaRun });
    const procedure = candidates.find((candidate) => candidate.memory_type === 'procedural')!;
    expect(procedure.target).toMatchObject({ write: 'item', type: 'procedure', scope_level: 'user' });
    expect(candidates.every((candidate) => candidate.sensitivity === 'private')).toBe(true);
    // The review queue shows it too.
    const queued = await t.engram.review.get(procedure.id);
    expect(queued.sensitivity).toBe('private');

    const approved = await t.engram.review.approve({ candidate_id: procedure.id, by: 'ana' });
    const written = approved.items.find((diff) => diff.action === 'created')!;
    const [item] = await t.engram.items.history({ scope: { user_id: 'ana', agent_id: 'assistant' }, key: written.key });
    expect(item).toMatchObject({ scope_level: 'user', user_id: 'ana', sensitivity: 'private' });

    expect(await seenBy(t.engram, bo)).not.toContain(MARK);
    // Ana still has it.
    const own = await t.engram.compose({ scope: ana, purpose: 'planner' });
    expect(own.long_term.procedures.map((entry) => entry.procedure_id)).toContain(written.item_id);
  });

  it('refuses an approval that asks for the agent or tenant level, and writes nothing', async () => {
    const { candidates } = await t.engram.reflect({ scope: anaRun });
    const procedure = candidates.find((candidate) => candidate.memory_type === 'procedural')!;
    const target = procedure.target as Extract<typeof procedure.target, { write: 'item' }>;
    for (const level of ['agent', 'tenant'] as const) {
      await expect(
        t.engram.review.approve({ candidate_id: procedure.id, edit: { ...target, scope_level: level } }),
      ).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
        field: 'edit.scope_level',
        details: { issues: [expect.objectContaining({ rule: 'private_evidence' })] },
      });
    }
    expect((await t.engram.review.get(procedure.id)).status).toBe('pending');
    expect(
      await t.engram.items.list({ scope: { user_id: 'ana', agent_id: 'assistant' }, types: ['procedure'], limit: 10 }),
    ).toEqual([]);
    // An edit that leaves the level out is written at the user's level.
    const { scope_level: _level, ...withoutLevel } = target;
    const edited = await t.engram.review.approve({ candidate_id: procedure.id, edit: withoutLevel });
    const [item] = await t.engram.items.list({
      scope: { user_id: 'ana', agent_id: 'assistant' },
      types: ['procedure'],
      limit: 10,
    });
    expect(item).toMatchObject({ id: edited.items[0]!.item_id, scope_level: 'user', sensitivity: 'private' });
    expect(await seenBy(t.engram, bo)).not.toContain(MARK);
  });

  it('keeps the agent level for what normal events support', async () => {
    const open = await tempEngram('2026-06-01T12:00:00.000Z', { embeddings: { provider: 'none' } });
    try {
      for (const turn of privateTurns()) {
        await open.engram.commitTurn({
          ...turn,
          messages: turn.messages!.map(({ sensitivity: _s, ...message }) => message),
          tool_results: turn.tool_results!.map(({ sensitivity: _s, ...result }) => result),
        });
      }
      const { candidates } = await open.engram.reflect({ scope: anaRun });
      const procedure = candidates.find((candidate) => candidate.memory_type === 'procedural')!;
      expect(procedure.sensitivity).toBe('normal');
      expect(procedure.target).not.toHaveProperty('scope_level');
      await open.engram.review.approve({ candidate_id: procedure.id });
      expect(await seenBy(open.engram, bo)).toContain(MARK);
    } finally {
      await open.cleanup();
    }
  });

  it('remembers a private procedure at the user’s level and refuses to share it', async () => {
    const value = { task_type: 'ledger', name: `${MARK}_steps`, steps: [`call look_${MARK}_ledger`] };
    const [created] = await t.engram.items.remember({
      scope: ana,
      type: 'procedure',
      key: `procedure:ledger:${MARK}_steps`,
      value,
      sensitivity: 'private',
    });
    const [item] = await t.engram.items.history({
      scope: { user_id: 'ana', agent_id: 'assistant' },
      key: created!.key,
    });
    expect(item).toMatchObject({ scope_level: 'user', sensitivity: 'private' });
    await expect(
      t.engram.items.remember({
        scope: ana,
        type: 'procedure',
        key: `procedure:ledger:${MARK}_shared`,
        value,
        sensitivity: 'private',
        scope_level: 'agent',
      }),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED', field: 'scope_level' });
    expect(await seenBy(t.engram, bo)).not.toContain(MARK);
  });
});

describe('private data stays with its user (a model reflects and extracts)', () => {
  let server: OpenAiCompatibleServer;
  let t: TempEngram;
  let answer: (body: { messages: Array<{ role: string; content: string }> }) => Reply;

  beforeEach(async () => {
    server = await startOpenAiCompatibleServer({ chat: (body) => answer(body) });
    const llm = { provider: 'openai-compatible' as const, baseUrl: server.baseUrl, model: 'test-model' };
    // The model is remote: it is shown private events only because this Engram allows it.
    t = await tempEngram('2026-06-01T12:00:00.000Z', {
      embeddings: { provider: 'none' },
      extraction: { llm, allowPrivateRemote: true },
      reflection: { llm },
    });
  });
  afterEach(async () => {
    await t.cleanup();
    await server.close();
  });

  /** A reflection whose claims cite no episode: only what the model read can say how sensitive they are. */
  function reflectionOf(prompt: string): SessionReflection {
    const trace = /Trace: (trc_[0-9A-Z]{26})/.exec(prompt)![1]!;
    const claim = (memory_type: 'procedural' | 'strategic', text: string) => ({
      claim: text,
      memory_type,
      applies_when: ['reconciling a ledger'],
      does_not_apply_when: [],
      initial_salience: { consequence: 0.5, emotional_charge: 0.1, reusability: 0.9 },
      source_episode_indexes: [],
      confidence: 0.8,
    });
    return {
      trace_id: trace,
      episode_candidates: [],
      memory_candidates: [
        claim('procedural', `Call look_${MARK}_ledger, then sum_${MARK}_rows.`),
        claim('strategic', `Check the ${MARK} ledger monthly.`),
      ],
      contradictions: [],
      doctrine_suggestions: [],
    };
  }

  it('gives a model’s candidates the sensitivity of all it read; approval and promotion stay at the user’s level', async () => {
    answer = (body) => {
      const prompt = body.messages.at(-1)!.content;
      return chatReply(
        prompt.includes('Trace: trc_') ? JSON.stringify(reflectionOf(prompt)) : JSON.stringify({ items: [] }),
      );
    };
    for (const turn of privateTurns()) await t.engram.commitTurn(turn);
    const result = await t.engram.reflect({ scope: anaRun, use: 'llm' });
    expect(result.status).toBe('succeeded');
    const [procedure, strategy] = result.candidates;
    expect(procedure).toMatchObject({
      memory_type: 'procedural',
      source_event_ids: [],
      sensitivity: 'private',
      target: { write: 'item', type: 'procedure', scope_level: 'user' },
    });
    expect(strategy).toMatchObject({ memory_type: 'strategic', sensitivity: 'private', target: { write: 'insight' } });

    await t.engram.review.approve({ candidate_id: procedure!.id });
    const {
      insight_ids: [insightId],
    } = await t.engram.review.approve({ candidate_id: strategy!.id });
    await t.engram.insights.update({ insight_id: insightId!, state: 'validated' });
    const promoted = await t.engram.insights.promote({
      insight_id: insightId!,
      type: 'procedure',
      key: `procedure:ledger:${MARK}_monthly`,
      value: { task_type: 'ledger', name: `${MARK}_monthly`, steps: [`check the ${MARK} ledger`] },
    });
    const [item] = await t.engram.items.history({
      scope: { user_id: 'ana', agent_id: 'assistant' },
      key: promoted.items[0]!.key,
    });
    expect(item).toMatchObject({ scope_level: 'user', sensitivity: 'private' });
    expect(await seenBy(t.engram, bo)).not.toContain(MARK);
  });

  it('stores a pattern extracted from a private turn at the user’s level (its type’s default is the agent’s)', async () => {
    answer = (body) => {
      const item = {
        action: 'upsert',
        type: 'patterns',
        key: `pattern:ledger:${MARK}_reconcile`,
        value: [
          { k: 'domain', v: 'ledger' },
          { k: 'name', v: `${MARK}_reconcile` },
          { k: 'rule', v: `call look_${MARK}_ledger first` },
        ],
        confidence: 0.9,
        gate: 'must',
        source_event_ids: promptEventIds(body).slice(0, 1),
        salience: null,
      };
      return chatReply(JSON.stringify({ items: [item] }));
    };
    await t.engram.commitTurn(privateTurns()[0]!);
    // The model reads the turn in the background extraction job.
    expect(await t.engram.maintenance.runJobs()).toMatchObject({ done: 1 });
    const [item] = await t.engram.items.history({
      scope: { user_id: 'ana', agent_id: 'assistant' },
      key: `pattern:ledger:${MARK}_reconcile`,
    });
    expect(item).toMatchObject({
      scope_level: 'user',
      sensitivity: 'private',
      provenance: { extractor: 'llm', model: 'test-model' },
    });
    expect(await seenBy(t.engram, bo)).not.toContain(MARK);
  });
});
