import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { loadCorpus, type CorpusFact } from './memory-corpus.js';
import { answerOf, finalState, heldItem, holds, holdsStale, judge } from './memory-score.js';

const loc = (value: string): CorpusFact => ({ kind: 'location', value });
const user = new Set(['evt_user']);
const userSaid = (id: string) => user.has(id);

function item(type: string, key: string, value: Record<string, unknown>, sources = ['evt_user']) {
  return heldItem({ id: `mem_${key}`, type: type as never, key, value, source_event_ids: sources }, userSaid);
}

describe('memory scoring', () => {
  it('reads what an item shows: key, value and sentence; a task its state; whose words it holds', () => {
    const task = item('tasks', 'task:general:renew_passport', { title: 'renew my passport', status: 'done' });
    expect(task.text).toContain('passport');
    expect(task.status).toBe('done');
    expect(task.assistantOnly).toBe(false);
    expect(item('tasks', 'task:general:breathe', { title: 'take deep breaths', status: 'todo' }, ['evt_bot']).assistantOnly).toBe(true);
    expect(item('profile', 'profile:user', { location: 'Lisbon' }).status).toBeNull();
    // A plan kept as a goal or event says its state when its value names one.
    expect(item('goals', 'goal:plans:coimbra', { name: 'coimbra', description: 'trip to Coimbra', status: 'cancelled' }).status).toBe('cancelled');
    expect(holds([item('goals', 'goal:plans:coimbra', { description: 'trip to Coimbra', status: 'cancelled' })], { kind: 'plan', value: 'Coimbra', status: 'cancelled' })).toBe(true);
    // A dated event without a status is a plan still on: it holds an open plan, not a done one.
    const dinner = item('events', 'event:general:2026-03-21:dinner', { scope: 'general', date: '2026-03-21', title: 'retirement dinner at Casa Ximena' });
    expect(holds([dinner], { kind: 'plan', value: 'Casa Ximena', status: 'open' })).toBe(true);
    expect(holds([dinner], { kind: 'plan', value: 'Casa Ximena', status: 'done' })).toBe(false);
  });

  it('holds an expected fact in any item, a stale one only in a current fact, and a task only in its state', () => {
    const items = [item('profile', 'profile:user', { location: 'Lisbon' }), item('events', 'event:general:move', { summary: 'moved from Berlin' }), item('tasks', 'task:general:passport', { title: 'renew passport', status: 'todo' })];
    expect(holds(items, loc('lisbon'))).toBe(true);
    expect(holds(items, loc('Porto'))).toBe(false);
    // Berlin survives only in an episode: history, not a current fact.
    expect(holdsStale(items, loc('Berlin'))).toBe(false);
    expect(holdsStale(items, { kind: 'task', value: 'passport', status: 'open' })).toBe(true);
    expect(holds(items, { kind: 'task', value: 'passport', status: 'done' })).toBe(false);
  });

  it('holds a cancelled task once it is retracted, and only when no current task still names it', () => {
    const cancelled = { kind: 'task' as const, value: 'bursary', status: 'cancelled' as const };
    const retracted = [item('tasks', 'task:general:apply_bursary', { title: 'apply for the bursary', status: 'todo' })];
    const other = [item('profile', 'profile:user', { location: 'Durban' })];
    expect(holds(other, cancelled, retracted)).toBe(true);
    // Still open as a current task: not cancelled, whatever was retracted before.
    expect(holds([...other, item('tasks', 'task:general:apply_bursary', { title: 'apply for the bursary', status: 'todo' })], cancelled, retracted)).toBe(false);
    // Nothing retracted, or a retracted item of another type or another task: not held.
    expect(holds(other, cancelled)).toBe(false);
    expect(holds(other, cancelled, [item('goals', 'goal:general:bursary', { description: 'bursary', status: 'active' })])).toBe(false);
    expect(holds(other, cancelled, [item('tasks', 'task:general:gym', { title: 'cancel the gym', status: 'todo' })])).toBe(false);
    // Only a cancelled task reads retracted versions: a done task must be current.
    expect(holds(other, { ...cancelled, status: 'done' }, retracted)).toBe(false);
  });

  it('keeps the last word on each value: a value made stale is stale unless expected again', () => {
    const state = finalState([
      { expect: [loc('Berlin')], stale: [] },
      { expect: [loc('Lisbon')], stale: [loc('Berlin')] },
      { expect: [{ kind: 'pet', value: 'Max' }], stale: [] },
    ]);
    expect(state.current.map((fact) => fact.value)).toEqual(['Lisbon', 'Max']);
    expect(state.stale.map((fact) => fact.value)).toEqual(['Berlin']);
    expect(finalState([{ expect: [loc('Berlin')], stale: [] }, { expect: [], stale: [loc('Berlin')] }, { expect: [loc('Berlin')], stale: [] }]).stale).toEqual([]);
  });

  it('judges each current item: right, stale, advice, the assistant’s words, or junk', () => {
    const expected = { current: [loc('Lisbon')], stale: [loc('Berlin')], advice: ['deep breaths'] };
    expect(judge(item('profile', 'profile:user', { location: 'Lisbon' }), expected)).toBe('right');
    expect(judge(item('profile', 'profile:user', { location: 'Berlin' }), expected)).toBe('stale');
    expect(judge(item('tasks', 'task:general:breathe', { title: 'take deep breaths' }, ['evt_bot']), expected)).toBe('advice');
    expect(judge(item('tasks', 'task:general:pack', { title: 'pack wallet' }, ['evt_bot']), expected)).toBe('assistant');
    expect(judge(item('entities', 'entity:topic:brave', { name: 'brave' }), expected)).toBe('junk');
  });

  it('finds the right memory anywhere in the rendered packet and counts stale and assistant facts shown as current', () => {
    const fact = (notes: string, sources: string[], status: 'active' | 'deprecated' = 'active') => ({ fact_id: 'mem_1', fact_key: 'profile:user', value: {}, status, sources, notes });
    const packet = { long_term: { facts: [fact('location: Berlin', ['evt_user']), fact('location: Berlin', ['evt_user'], 'deprecated'), fact('Task: pack wallet', ['evt_bot'])], procedures: [], episodes: [] } };
    const answer = answerOf(packet as never, '## Facts\n- location: Lisbon', { show: ['lisbon'], not_current: ['Berlin'] }, userSaid);
    // Lisbon is in the rendered text but in no current fact.
    expect(answer).toEqual({ right: true, as_fact: false, stale_shown: 1, assistant_shown: 1 });
    expect(answerOf(packet as never, 'location: Berlin', { show: ['Berlin'], not_current: [] }, userSaid).as_fact).toBe(true);
    expect(answerOf(packet as never, '', { show: [], not_current: ['Berlin'] }, userSaid).as_fact).toBeNull();
    expect(answerOf(packet as never, 'nothing here', { show: ['Lisbon'], not_current: [] }, userSaid).right).toBe(false);
  });
});

describe('loadCorpus', () => {
  function corpus(files: Record<string, unknown>) {
    const dir = mkdtempSync(join(tmpdir(), 'engram-corpus-'));
    for (const [name, data] of Object.entries(files)) writeFileSync(join(dir, name), JSON.stringify(data));
    return { dir: `${dir}/`, done: () => rmSync(dir, { recursive: true, force: true }) };
  }
  const turn = { user: 'We moved to Lisbon!', assistant: 'Congratulations!', expect: [{ kind: 'location', value: 'Lisbon' }] };
  const conversation = { id: 'en-1', kinds: ['location'], sessions: [{ start: '2026-03-02T09:00:00Z', turns: [turn] }], questions: [{ ask: 'Where am I based?', show: ['Lisbon'] }] };

  it('reads every file, with its language from the name', () => {
    const { dir, done } = corpus({ 'en-a.json': [conversation], 'zh-a.json': [{ ...conversation, id: 'zh-1' }] });
    try {
      const loaded = loadCorpus(dir);
      expect(loaded.map((entry) => [entry.id, entry.language])).toEqual([
        ['en-1', 'en'],
        ['zh-1', 'zh'],
      ]);
      expect(loaded[0]!.sessions[0]!.turns[0]!).toMatchObject({ stale: [], advice: [] });
    } finally {
      done();
    }
  });

  it('refuses an unknown kind, a value the turn does not say, sessions out of order, and a repeated id, naming the place', () => {
    const cases: Array<[unknown, RegExp]> = [
      [[{ ...conversation, sessions: [{ start: '2026-03-02T09:00:00Z', turns: [{ ...turn, expect: [{ kind: 'city', value: 'Lisbon' }] }] }] }], /expect\[0\]\.kind: must be one of/u],
      [[{ ...conversation, sessions: [{ start: '2026-03-02T09:00:00Z', turns: [{ ...turn, expect: [{ kind: 'location', value: 'Porto' }] }] }] }], /"Porto" is not in the turn's messages/u],
      [[{ ...conversation, sessions: [conversation.sessions[0], conversation.sessions[0]] }], /sessions\[1\]\.start: sessions must be in time order/u],
      [[conversation, conversation], /conversation id en-1 is used twice/u],
    ];
    for (const [data, message] of cases) {
      const { dir, done } = corpus({ 'en-a.json': data });
      try {
        expect(() => loadCorpus(dir)).toThrow(message);
      } finally {
        done();
      }
    }
  });
});
