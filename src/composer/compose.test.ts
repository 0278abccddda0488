import { describe, expect, it } from 'vitest';

import { assertPacket, type Purpose } from '../index.js';
import { scope, tempEngramEach } from '../../test/helpers/temp-engram.js';
import { seedSession, usedWithin } from '../../test/helpers/compose-packets.js';

const PURPOSES: Purpose[] = ['planner', 'tool', 'responder'];

const t = tempEngramEach();

const seed = () => seedSession(t.engram);

describe('compose', () => {
  it('returns a schema-valid packet for every purpose, also for an empty session', async () => {
    for (const purpose of PURPOSES) assertPacket(await t.engram.compose({ scope, purpose }));
    await seed();
    for (const purpose of PURPOSES) {
      const packet = assertPacket(await t.engram.compose({ scope, purpose, cues: { query: 'Atlas deadline' } }));
      expect(packet.meta.purpose).toBe(purpose);
      // Long-term memory extracted from the turns: the preference, cited back to its event.
      const preference = packet.long_term.facts.find((fact) => fact.fact_key.startsWith('pref:'));
      expect(preference).toBeDefined();
      expect(packet.long_term.preferences).toContainEqual(preference);
      for (const source of preference!.sources)
        expect(packet.citations.map((citation) => citation.id)).toContain(source);
      expect(packet.insight.usage_policy.allow_in_responder).toBe(false);
      usedWithin(packet);
    }
  });

  it('enforces the injection matrix: responder gets no plan, risks, tool evidence or window by default', async () => {
    await seed();
    const responder = await t.engram.compose({ scope, purpose: 'responder' });
    expect(responder.short_term.working_state).not.toHaveProperty('plan');
    expect(responder.short_term.working_state).not.toHaveProperty('risks');
    expect(responder.short_term.last_tool_evidence).toEqual([]);
    expect(responder.short_term.conversation_window).toEqual([]);
    expect(responder.short_term.working_state.goal).toBe('Prepare the Atlas launch');
    const reasons = responder.explain.omitted
      .filter((omission) => omission.reason === 'not_allowed_for_purpose')
      .map((omission) => omission.item);
    expect(reasons).toEqual(
      expect.arrayContaining(['working_state.plan', 'working_state.risks', 'conversation_window']),
    );
    const asked = await t.engram.compose({ scope, purpose: 'responder', conversation_window: 2 });
    expect(asked.short_term.conversation_window).toHaveLength(2);

    const planner = await t.engram.compose({ scope, purpose: 'planner' });
    expect(planner.short_term.working_state.plan).toHaveLength(2);
    expect(planner.short_term.working_state.risks).toHaveLength(1);
    expect(planner.short_term.conversation_window!.length).toBeGreaterThan(0);
    expect(planner.short_term.last_tool_evidence![0]!.summary).toContain('venue_search');
    expect(planner.short_term.open_loops![0]!.question).toBe('Which venue does ACME prefer?');
  });

  it('cites every event it quotes, once, with its type and time', async () => {
    await seed();
    const packet = await t.engram.compose({ scope, purpose: 'planner', cues: { query: 'Atlas' } });
    const ids = packet.citations.map((citation) => citation.id);
    expect(new Set(ids).size).toBe(ids.length);
    const referenced = [
      ...packet.short_term.key_quotes!.map((quote) => quote.evidence_id),
      ...packet.short_term.conversation_window!.map((message) => message.evidence_id),
      ...packet.short_term.last_tool_evidence!.map((evidence) => evidence.ref),
      ...packet.short_term.working_state.decisions!.map((decision) => decision.evidence_id!),
      ...packet.short_term.open_loops!.map((loop) => loop.evidence_id!),
    ];
    for (const id of referenced) expect(ids).toContain(id);
    const decision = packet.citations.find(
      (citation) => citation.id === packet.short_term.working_state.decisions![0]!.evidence_id,
    );
    expect(decision!.type).toBe('state_patch');
    expect(packet.citations.every((citation) => citation.ts !== undefined)).toBe(true);
  });

  it('finds Chinese text with a Chinese word in the query cue', async () => {
    await seed();
    const packet = await t.engram.compose({ scope, purpose: 'responder', cues: { query: '中文' } });
    expect(packet.short_term.key_quotes![0]!.quote).toBe('我更喜欢用中文写技术文档。');
    expect(packet.explain.selected.some((line) => line.includes('cue.hybrid(words #1'))).toBe(true);
  });

  it('degrades before it omits, and records both', async () => {
    await seed();
    const packet = await t.engram.compose({
      scope,
      purpose: 'planner',
      budget: {
        max_tokens: 256,
        per_section: { working_state: 60, short_term_summary: 100, facts: 0, procedures: 0, episodes: 0, insights: 0 },
      },
      cues: { query: 'Atlas deadline concise' },
    });
    usedWithin(packet);
    expect(packet.budget_report.omissions!.some((omission) => omission.reason === 'over_budget')).toBe(true);
    expect(packet.explain.omitted.length).toBeGreaterThanOrEqual(packet.budget_report.omissions!.length);
  });

  it('hides summary sentences and quotes of expired events', async () => {
    await t.engram.commitTurn({
      scope,
      turn_id: 't1',
      messages: [
        {
          role: 'user',
          content: 'Temporary: the door code for the Atlas venue is 4711.',
          expires_at: '2026-06-01T13:00:00.000Z',
        },
      ],
    });
    expect(JSON.stringify(await t.engram.compose({ scope, purpose: 'planner' }))).toContain('4711');
    t.clock.set('2026-06-01T14:00:00.000Z');
    const later = await t.engram.compose({ scope, purpose: 'planner', cues: { query: 'door code' } });
    expect(JSON.stringify(later.short_term)).not.toContain('door code for the Atlas venue');
    expect(later.explain.omitted.some((omission) => omission.reason === 'expired')).toBe(true);
  });

  it('fills the conversation window with the newest messages and tool results, passing over any number of system messages', async () => {
    const system = (index: number) => ({ role: 'system' as const, content: `system note ${index}` });
    await t.engram.commitTurn({
      scope,
      turn_id: 'w1',
      messages: [{ role: 'user', content: 'first question' }, system(1), system(2)],
    });
    await t.engram.commitTurn({
      scope,
      turn_id: 'w2',
      messages: [{ role: 'assistant', content: 'first answer' }, system(3), system(4), system(5), system(6), system(7)],
    });
    await t.engram.commitTurn({
      scope,
      turn_id: 'w3',
      messages: [{ role: 'user', content: 'second question' }, system(8)],
      tool_results: [{ tool_name: 'lookup', content: { found: true } }],
    });
    const packet = await t.engram.compose({ scope, purpose: 'tool', conversation_window: 3 });
    const window = packet.short_term.conversation_window ?? [];
    expect(window.map((message) => message.role)).toEqual(['assistant', 'user', 'tool']);
    expect(window[0]!.content).toBe('first answer');
    const all = await t.engram.compose({ scope, purpose: 'tool', conversation_window: 10 });
    expect((all.short_term.conversation_window ?? []).map((message) => message.content)).toEqual([
      'first question',
      'first answer',
      'second question',
      expect.stringContaining('found'),
    ]);
  });

  it('shows the key quotes of one event in the order its sentences were said, past the tenth', async () => {
    t.engram.registerPolicy({ policy_id: 'quotes', purposes: { planner: { summary_share: 0, key_quotes: 12 } } });
    const said = Array.from(
      { length: 12 },
      (_, index) =>
        `We decided to ship release ${index + 1} on 2026-07-${String(index + 1).padStart(2, '0')} at 16:00.`,
    );
    await t.engram.commitTurn({ scope, turn_id: 'releases', messages: [{ role: 'user', content: said.join(' ') }] });
    const packet = await t.engram.compose({
      scope,
      purpose: 'planner',
      policy_id: 'quotes',
      budget: { max_tokens: 4000 },
    });
    const shown = packet.short_term.key_quotes!.map((quote) => quote.quote);
    expect(shown.length).toBeGreaterThan(10);
    expect(shown).toEqual(said.filter((sentence) => shown.includes(sentence)));
  });

  it('rejects a bad request with the field and the rule', async () => {
    await expect(t.engram.compose({ scope, purpose: 'critic' as Purpose })).rejects.toMatchObject({
      field: 'purpose',
      rule: 'enum',
    });
    await expect(t.engram.compose({ scope, purpose: 'tool', conversation_window: -1 })).rejects.toMatchObject({
      field: 'conversation_window',
    });
    // As of a time still to come the packet would change as the store fills up: refused, nothing stored.
    await expect(t.engram.compose({ scope, purpose: 'tool', as_of: '2026-06-01T12:00:00.001Z' })).rejects.toMatchObject(
      { code: 'VALIDATION_FAILED', field: 'as_of', rule: 'not_future' },
    );
    expect(await t.engram.builds.list({ user_id: scope.user_id })).toEqual([]);
    expect(
      (await t.engram.compose({ scope, purpose: 'tool', as_of: '2026-06-01T12:00:00.000Z' })).meta.generated_at,
    ).toBe('2026-06-01T12:00:00.000Z');
  });
});
