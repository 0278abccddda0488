import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { assertPacket, renderPacket, type CommitTurnRequest, type MemoryPacket, type Purpose } from '../index.js';
import { o200kTokenizer } from '../util/tokenizer.js';
import { scope, tempEngram, type TempEngram } from '../../test/helpers/temp-engram.js';

/** Validation paths an insight can take (each step allowed by the lifecycle). */
const INSIGHT_PATHS: ReadonlyArray<ReadonlyArray<'testing' | 'validated' | 'rejected'>> = [
  [],
  ['testing'],
  ['validated'],
  ['testing', 'validated'],
  ['rejected'],
  ['validated', 'rejected'],
];
const CANARY = 'canary-7f3e9d';
const PURPOSES: Purpose[] = ['planner', 'tool', 'responder'];

let t: TempEngram;
beforeEach(async () => {
  t = await tempEngram();
});
afterEach(async () => {
  await t.cleanup();
});

async function seed(): Promise<void> {
  await t.engram.commitTurn({
    scope,
    turn_id: 't1',
    messages: [
      { role: 'user', content: 'I prefer concise answers. Our Atlas launch deadline is 2026-12-01.' },
      { role: 'assistant', content: 'Understood, I will keep it short and track the Atlas deadline.' },
      { role: 'user', content: `my vault code is ${CANARY}, keep it safe`, sensitivity: 'secret' },
    ],
    state_patch: {
      expected_version: 0,
      set: { goal: 'Prepare the Atlas launch', slots: { customer: 'ACME' }, constraints: { tone: 'concise' } },
      append: {
        plan: [
          { step: 'Draft the launch note', status: 'done' },
          { step: 'Book the venue', status: 'in_progress' },
        ],
        decisions: [{ statement: 'Launch in the EU region first' }],
        risks: [{ risk: 'Venue may be booked', mitigation: 'Keep a backup venue' }],
        open_loops: [{ question: 'Which venue does ACME prefer?', status: 'open', owner: 'user' }],
      },
    },
  });
  await t.engram.commitTurn({
    scope,
    turn_id: 't2',
    messages: [{ role: 'user', content: '我更喜欢用中文写技术文档。' }],
    tool_results: [{ tool_name: 'venue_search', content: { venue: 'Hall B', capacity: 300, available: true } }],
  });
}

function usedWithin(packet: MemoryPacket): void {
  const report = packet.budget_report;
  expect(report.used_tokens_est).toBeLessThanOrEqual(report.max_tokens);
  const sum = Object.values(report.section_usage).reduce((total, tokens) => total + tokens, 0);
  expect(sum).toBe(report.used_tokens_est);
  const budgets = packet.explain.filters['section_budgets'] as Record<string, number>;
  for (const [section, tokens] of Object.entries(report.section_usage)) {
    if (section !== 'framing') expect(tokens).toBeLessThanOrEqual(budgets[section]!);
  }
  // What the model sees is no more than what was counted, in both renderings, and the title (or
  // root element) is charged at what it really takes in the larger of the two (its pieces are
  // counted apart, which may take a token more where they join).
  for (const format of ['markdown', 'xml'] as const) {
    expect(o200kTokenizer.count(renderPacket(packet, { format }))).toBeLessThanOrEqual(report.used_tokens_est);
  }
  const empty = {
    ...packet,
    short_term: {
      ...packet.short_term,
      working_state: { state_version: 0 },
      rolling_summary: '',
      key_quotes: [],
      conversation_window: [],
      open_loops: [],
      last_tool_evidence: [],
    },
    long_term: { facts: [], preferences: [], procedures: [], episodes: [] },
    insight: { ...packet.insight, hypotheses: [], strategy_sketches: [], patterns: [] },
  } as MemoryPacket;
  const title = Math.max(
    ...(['markdown', 'xml'] as const).map((format) => o200kTokenizer.count(renderPacket(empty, { format }))),
  );
  expect(report.section_usage['framing']).toBeGreaterThanOrEqual(Math.min(title, report.max_tokens));
  expect(report.section_usage['framing']).toBeLessThanOrEqual(title + 2);
}

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

  it('gives the same packet for the same inputs and the same as-of time, apart from its build id', async () => {
    await seed();
    const request = { scope, purpose: 'planner' as const, cues: { query: 'Atlas' }, as_of: '2026-06-01T12:00:00.000Z' };
    const withoutBuild = (packet: MemoryPacket) => {
      const copy = structuredClone(packet);
      delete copy.explain.determinism!['context_build_id'];
      delete copy.explain.determinism!['packet_hash'];
      return JSON.stringify(copy);
    };
    const first = await t.engram.compose(request);
    t.clock.advance(60_000);
    expect(withoutBuild(await t.engram.compose(request))).toBe(withoutBuild(first));
  });

  it('stores every build and replays it byte-identically after the stores moved on', async () => {
    await seed();
    const original = await t.engram.compose({ scope, purpose: 'planner', cues: { query: 'Atlas venue' } });
    const buildId = original.explain.determinism!['context_build_id'] as string;
    expect(buildId).toMatch(/^ctx_/);
    expect((await t.engram.builds.get(buildId)).packet_hash).toBe(original.explain.determinism!['packet_hash']);
    // The world changes: more turns, a new working state, a superseded preference, an expired note.
    t.clock.advance(60_000);
    await t.engram.commitTurn({
      scope,
      turn_id: 't3',
      messages: [
        { role: 'user', content: 'Actually I prefer detailed answers. The Atlas venue is Hall C now.' },
        { role: 'user', content: 'Temporary: door code 1234.', expires_at: '2026-06-01T12:02:00.000Z' },
      ],
      state_patch: { expected_version: 1, set: { goal: 'Prepare the Atlas launch in Hall C' } },
    });
    await t.engram.items.remember({
      scope,
      type: 'preferences',
      key: 'pref:other:venue',
      value: { scope: 'other', name: 'venue', value: 'Hall C' },
    });
    t.clock.advance(10 * 60_000);
    const replayed = await t.engram.builds.replay(buildId);
    expect(replayed.identical).toBe(true);
    expect(replayed.replay_hash).toBe(replayed.original_hash);
    expect(JSON.stringify(replayed.packet)).toBe(JSON.stringify(original));
    const later = await t.engram.compose({ scope, purpose: 'planner', cues: { query: 'Atlas venue' } });
    expect(later.short_term.working_state.goal).toBe('Prepare the Atlas launch in Hall C');
    const diff = await t.engram.builds.diff(buildId, later.explain.determinism!['context_build_id'] as string);
    expect(diff.same_packet).toBe(false);
    expect(diff.added.length).toBeGreaterThan(0);
    expect(diff.summary.join(' ')).toMatch(/selected only in/);
    expect((await t.engram.builds.list({ user_id: scope.user_id })).map((build) => build.id)).toContain(buildId);
    await expect(t.engram.builds.replay('ctx_01J00000000000000000000000')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('replays a cue search byte-identically after later turns change how rare its words are', async () => {
    await t.engram.commitTurn({
      scope,
      turn_id: 't1',
      messages: [
        { role: 'user', content: 'The walrus sleeps on the ice.' },
        { role: 'user', content: 'A pelican eats fish at noon.' },
        { role: 'user', content: 'Another pelican flies over the bay.' },
      ],
    });
    const request = { scope, purpose: 'responder' as const, cues: { query: 'walrus pelican' } };
    const original = await t.engram.compose(request);
    const buildId = original.explain.determinism!['context_build_id'] as string;
    t.clock.advance(60_000);
    const later = Array.from({ length: 6 }, (_, index) => ({
      role: 'user' as const,
      content: `Walrus number ${index} swims north.`,
    }));
    await t.engram.commitTurn({ scope, turn_id: 't2', messages: later });
    t.clock.advance(60_000);
    const replayed = await t.engram.builds.replay(buildId);
    expect(replayed.packet.short_term.key_quotes!.map((quote) => quote.quote)).toEqual(
      original.short_term.key_quotes!.map((quote) => quote.quote),
    );
    expect(replayed.identical).toBe(true);
  });

  it('replays a cue match of long-term memory byte-identically after later items change how rare its words are', async () => {
    await t.engram.items.remember({
      scope,
      type: 'preferences',
      key: 'pref:other:pet',
      value: { scope: 'other', name: 'pet', value: 'a walrus called Wally' },
    });
    await t.engram.items.remember({
      scope,
      type: 'preferences',
      key: 'pref:other:bird',
      value: { scope: 'other', name: 'bird', value: 'a pelican called Pete' },
    });
    await t.engram.items.remember({
      scope,
      type: 'preferences',
      key: 'pref:other:logo',
      value: { scope: 'other', name: 'logo', value: 'a pelican in blue' },
    });
    const request = { scope, purpose: 'responder' as const, cues: { query: 'walrus pelican' } };
    const original = await t.engram.compose(request);
    const buildId = original.explain.determinism!['context_build_id'] as string;
    t.clock.advance(60_000);
    for (let index = 0; index < 6; index += 1) {
      await t.engram.items.remember({
        scope,
        type: 'preferences',
        key: `pref:other:walrus_${index}`,
        value: { scope: 'other', name: `walrus_${index}`, value: `walrus number ${index}` },
      });
    }
    t.clock.advance(60_000);
    const replayed = await t.engram.builds.replay(buildId);
    expect(replayed.packet.explain.selected).toEqual(original.explain.selected);
    expect(replayed.identical).toBe(true);
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

  it('places a dated event once: as a fact, not again as an episode', async () => {
    await t.engram.commitTurn({
      scope,
      turn_id: 'dated',
      ts: '2026-05-20T09:00:00.000Z',
      messages: [{ role: 'user', content: 'We launch Atlas on 2026-05-28.' }],
    });
    // A cue match makes it a fact; its date (past) makes it a recent episode too.
    const packet = await t.engram.compose({ scope, purpose: 'planner', cues: { query: 'Atlas launch' } });
    const fact = packet.long_term.facts.find((entry) => entry.fact_key.startsWith('event:'));
    expect(fact).toBeDefined();
    expect(packet.long_term.episodes.map((episode) => episode.episode_id)).not.toContain(fact!.fact_id);
    expect(packet.explain.omitted).toContainEqual(
      expect.objectContaining({ item: `episodes:${fact!.fact_id}`, reason: 'duplicate' }),
    );
  });

  it("keeps the user's own profile among the always-shown facts, however many newer profile items there are", async () => {
    await t.engram.commitTurn({ scope, turn_id: 'me', messages: [{ role: 'user', content: 'I live in Lisbon now.' }] });
    const writer = { user_id: scope.user_id, agent_id: scope.agent_id };
    for (let index = 0; index < 25; index += 1) {
      t.clock.advance(1000);
      await t.engram.items.remember({
        scope: writer,
        type: 'profile',
        key: `profile:notes.n${index}`,
        value: { subject: `notes.n${index}`, facts: [{ k: `n${index}`, v: `note ${index}` }] },
      });
    }
    const packet = await t.engram.compose({ scope, purpose: 'responder', cues: { query: 'anything' } });
    expect(packet.long_term.facts.map((fact) => fact.fact_key)).toContain('profile:user');
  });

  it('shows what is still to come, soonest first, whatever the query: in planner packets, and in responder packets with room', async () => {
    // The clock is at 2026-06-01: a trip and a workshop ahead, a task due later, one done, a meeting past.
    await t.engram.commitTurn({
      scope,
      turn_id: 'plans',
      ts: '2026-05-30T09:00:00.000Z',
      messages: [
        { role: 'user', content: 'My trip to Lisbon is on 2026-06-20. The design workshop is on 2026-06-10.' },
      ],
    });
    const writer = { user_id: scope.user_id, agent_id: scope.agent_id };
    await t.engram.items.remember({
      scope: writer,
      type: 'tasks',
      key: 'task:general:renew_passport',
      value: { task_id: 'renew_passport', title: 'Renew my passport', status: 'todo', due: '2026-06-15' },
    });
    await t.engram.items.remember({
      scope: writer,
      type: 'tasks',
      key: 'task:general:book_hotel',
      value: { task_id: 'book_hotel', title: 'Book the hotel', status: 'done', due: '2026-06-12' },
    });
    await t.engram.items.remember({
      scope: writer,
      type: 'events',
      key: 'event:general:2026-05-20:standup',
      value: { date: '2026-05-20', title: 'Team standup' },
    });

    const planner = await t.engram.compose({
      scope,
      purpose: 'planner',
      cues: { query: 'what should I cook tonight' },
    });
    const rendered = renderPacket(planner);
    const part = rendered.slice(
      rendered.indexOf('## Upcoming'),
      rendered.indexOf('\n\n', rendered.indexOf('## Upcoming')),
    );
    expect(part.split('\n').slice(1)).toHaveLength(3);
    const order = ['2026-06-10', 'Renew my passport', '2026-06-20'].map((text) => part.indexOf(text));
    expect(order.every((at) => at > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    // Done tasks and past events are not upcoming.
    expect(part).not.toContain('Book the hotel');
    expect(part).not.toContain('Team standup');
    const rules = planner.explain.selected.flatMap((line) => /ltm\.upcoming\([\d-]+\)/.exec(line) ?? []);
    expect(rules).toEqual(['ltm.upcoming(2026-06-10)', 'ltm.upcoming(2026-06-15)', 'ltm.upcoming(2026-06-20)']);

    // A responder shows them when its budget has room, and says why not when it has none.
    const roomy = await t.engram.compose({
      scope,
      purpose: 'responder',
      cues: { query: 'what should I cook tonight' },
      budget: { max_tokens: 3000 },
    });
    expect(renderPacket(roomy)).toContain('## Upcoming');
    const tight = await t.engram.compose({
      scope,
      purpose: 'responder',
      cues: { query: 'what should I cook tonight' },
      budget: { max_tokens: 256, per_section: { facts: 0 } },
    });
    expect(renderPacket(tight)).not.toContain('## Upcoming');
    expect(tight.explain.omitted.some((entry) => entry.section === 'facts' && entry.item.startsWith('facts:'))).toBe(
      true,
    );

    // Once the day has passed, it is no longer upcoming.
    t.clock.set('2026-06-11T08:00:00.000Z');
    const later = renderPacket(
      await t.engram.compose({ scope, purpose: 'planner', cues: { query: 'what should I cook tonight' } }),
    );
    const laterPart = later.slice(later.indexOf('## Upcoming'));
    expect(laterPart.split('\n\n')[0]).not.toContain('2026-06-10');
  });

  it('gives a question about the user’s present twice the facts allowance of one about the past, and keeps sections a request sets', async () => {
    await seed();
    const ask = (query: string, budget: Record<string, unknown> = { max_tokens: 1000 }) =>
      t.engram.compose({ scope, purpose: 'responder', cues: { query }, budget });
    const sections = (packet: MemoryPacket) => packet.meta.budget.per_section as Record<string, number>;
    const present = await ask('Which venue do I prefer now?');
    const past = await ask('Which venue did I prefer back then?');
    // The policy's split: twice the facts, taken from the summary section, the same total.
    expect(sections(present)['facts']).toBe(2 * sections(past)['facts']!);
    const total = (packet: MemoryPacket) => Object.values(sections(packet)).reduce((sum, tokens) => sum + tokens, 0);
    expect(total(present)).toBe(total(past));
    expect(present.budget_report.max_tokens).toBe(1000);
    // What the packet's sections could spend follows it.
    const lent = (packet: MemoryPacket) =>
      (packet.explain.filters['section_budgets'] as Record<string, number>)['facts']!;
    expect(lent(present)).toBeGreaterThan(lent(past));
    usedWithin(present);
    // A request that sets its own sections keeps them; a named policy can turn the shift off.
    const set = await ask('Which venue do I prefer now?', {
      max_tokens: 1000,
      per_section: { facts: 100, short_term_summary: 600 },
    });
    expect(sections(set)['facts']).toBe(
      sections(
        await ask('Which venue did I prefer back then?', {
          max_tokens: 1000,
          per_section: { facts: 100, short_term_summary: 600 },
        }),
      )['facts'],
    );
    t.engram.registerPolicy({ policy_id: 'flat', purposes: { responder: { present_facts: 1 } } });
    const flat = await t.engram.compose({
      scope,
      purpose: 'responder',
      policy_id: 'flat',
      cues: { query: 'Which venue do I prefer now?' },
      budget: { max_tokens: 1000 },
    });
    expect(sections(flat)['facts']).toBe(sections(past)['facts']);
    expect(() => t.engram.registerPolicy({ policy_id: 'bad', purposes: { responder: { present_facts: 9 } } })).toThrow(
      /purposes.responder.present_facts/,
    );
  });

  it('property: any store, budget, purpose, cue and insights gives a valid packet within budget, without secrets or unvalidated insights for responders', async () => {
    const words = ['atlas', 'venue', 'deadline', 'tea', '中文', '文档', 'budget', CANARY, 'vault', 'launch', 'ACME'];
    const sentence = fc
      .array(fc.constantFrom(...words), { minLength: 1, maxLength: 12 })
      .map((parts) => parts.join(' ') + '.');
    const turnArb = fc.record({
      text: fc.array(sentence, { minLength: 1, maxLength: 4 }).map((parts) => parts.join(' ')),
      secret: fc.boolean(),
      role: fc.constantFrom('user' as const, 'assistant' as const),
      tool: fc.option(fc.dictionary(fc.constantFrom('venue', 'note', 'code'), sentence), { nil: undefined }),
    });
    let run = 0;
    t.engram.registerPolicy({
      policy_id: 'insights-in-responder',
      purposes: {
        responder: { allow_insights_in_responder: true, budget: { per_section: { insights: 300 } } },
        tool: { budget: { per_section: { insights: 200 } } },
      },
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(turnArb, { minLength: 0, maxLength: 8 }),
        fc.constantFrom(...PURPOSES),
        fc.integer({ min: 256, max: 3000 }),
        fc.option(
          fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 4 }).map((parts) => parts.join(' ')),
          { nil: undefined },
        ),
        fc.option(fc.integer({ min: 0, max: 10 }), { nil: undefined }),
        fc.array(
          fc.record({
            type: fc.constantFrom('hypothesis' as const, 'strategy' as const, 'pattern' as const),
            path: fc.constantFrom(...INSIGHT_PATHS),
          }),
          { maxLength: 4 },
        ),
        fc.boolean(),
        fc.array(turnArb, { minLength: 0, maxLength: 4 }),
        async (turns, purpose, maxTokens, query, window, insights, allowInResponder, later) => {
          run += 1;
          const session = { ...scope, session_id: `prop-${run}`, run_id: `prop-run-${run}` };
          for (const [index, entry] of insights.entries()) {
            const added = await t.engram.insights.add({
              scope: { user_id: session.user_id, agent_id: session.agent_id, run_id: session.run_id },
              type: entry.type,
              statement: `insight ${index} about atlas`,
            });
            for (const state of entry.path) await t.engram.insights.update({ insight_id: added.id, state });
          }
          const turnsOf = (entries: typeof turns, prefix: string): CommitTurnRequest[] =>
            entries.map((entry, index) => ({
              scope: session,
              turn_id: `${prefix}-${index}`,
              messages: [
                {
                  role: entry.role,
                  content: entry.secret ? `${entry.text} ${CANARY}` : entry.text.replaceAll(CANARY, 'x'),
                  sensitivity: entry.secret ? 'secret' : 'normal',
                },
              ],
              ...(entry.tool === undefined
                ? {}
                : {
                    tool_results: [
                      {
                        tool_name: 'probe',
                        content: JSON.parse(JSON.stringify(entry.tool).replaceAll(CANARY, 'x')) as Record<
                          string,
                          unknown
                        >,
                      },
                    ],
                  }),
            }));
          if (turns.length > 0) await t.engram.commitTurns(turnsOf(turns, 'turn'));
          const packet = await t.engram.compose({
            scope: session,
            purpose,
            budget: { max_tokens: maxTokens },
            ...(query === undefined ? {} : { cues: { query } }),
            ...(window === undefined ? {} : { conversation_window: window }),
            ...(allowInResponder ? { policy_id: 'insights-in-responder' } : {}),
          });
          assertPacket(packet);
          usedWithin(packet);
          const injected = JSON.stringify([
            packet.short_term,
            packet.long_term,
            packet.insight,
            packet.citations,
            packet.explain,
            packet.budget_report,
          ]);
          expect(injected).not.toContain(CANARY);
          const shownInsights = [
            ...packet.insight.hypotheses,
            ...packet.insight.strategy_sketches,
            ...packet.insight.patterns,
          ];
          expect(shownInsights.every((item) => item.validation_state !== 'rejected')).toBe(true);
          if (purpose === 'responder') {
            // Never an unvalidated insight in a responder packet; validated ones only when the policy allows.
            expect(shownInsights.every((item) => item.validation_state === 'validated')).toBe(true);
            if (!allowInResponder) expect(shownInsights).toEqual([]);
            expect(packet.insight.usage_policy.allow_in_responder).toBe(allowInResponder);
            expect(packet.short_term.working_state).not.toHaveProperty('plan');
          }
          if (purpose === 'tool')
            expect(shownInsights.every((item) => item.validation_state === 'validated')).toBe(true);
          // Every live insight is either in the packet or explained as omitted.
          const live = insights.filter((entry) => entry.path.at(-1) !== 'rejected').length;
          const omittedInsights = packet.explain.omitted.filter((entry) => entry.item.startsWith('insights:')).length;
          expect(shownInsights.length + omittedInsights).toBe(live);
          // Replays byte-identically after the session moved on (later turns may make cue words common).
          t.clock.advance(1000);
          if (later.length > 0) await t.engram.commitTurns(turnsOf(later, 'later'));
          const replayed = await t.engram.builds.replay(packet.explain.determinism!['context_build_id'] as string);
          expect(replayed.identical).toBe(true);
          // The stored packet is the returned one, hash and all.
          expect(
            JSON.stringify(
              (await t.engram.builds.get(packet.explain.determinism!['context_build_id'] as string)).packet,
            ),
          ).toBe(JSON.stringify(packet));
          // Each selected text's real token count matches what was charged for the summary.
          expect(o200kTokenizer.count(packet.short_term.rolling_summary)).toBeLessThanOrEqual(
            packet.budget_report.section_usage['short_term_summary']!,
          );
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('named policies', () => {
  it('applies a registered policy to its purpose, records it for replay, and refuses unknown ids', async () => {
    await seed();
    t.engram.registerPolicy({
      policy_id: 'tight',
      purposes: { responder: { budget: { max_tokens: 600 }, key_quotes: 1, query_quotes: 1 } },
    });
    const packet = await t.engram.compose({
      scope,
      purpose: 'responder',
      policy_id: 'tight',
      cues: { query: 'Atlas' },
    });
    expect(packet.meta.policy_id).toBe('tight');
    expect(packet.budget_report.max_tokens).toBe(600);
    expect(packet.explain.filters['key_quotes_top_k']).toBe(1);
    // The planner has no overrides in this policy: its defaults apply.
    expect((await t.engram.compose({ scope, purpose: 'planner', policy_id: 'tight' })).budget_report.max_tokens).toBe(
      4000,
    );
    // Replay uses the policy the build recorded, even after the policy changes.
    t.engram.registerPolicy({ policy_id: 'tight', purposes: { responder: { budget: { max_tokens: 300 } } } });
    expect((await t.engram.builds.replay(packet.explain.determinism!['context_build_id'] as string)).identical).toBe(
      true,
    );
    await expect(t.engram.compose({ scope, purpose: 'responder', policy_id: 'nope' })).rejects.toMatchObject({
      field: 'policy_id',
      rule: 'registered',
    });
    expect(() =>
      t.engram.registerPolicy({ policy_id: 'bad', purposes: { responder: { budget: { max_tokens: 10 } } } }),
    ).toThrow(/purposes.responder.budget.max_tokens/);
    expect(() => t.engram.registerPolicy({ policy_id: 'default', purposes: {} })).toThrow(/reserved|built-in/);
  });
});
