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
    expect(
      item('tasks', 'task:general:breathe', { title: 'take deep breaths', status: 'todo' }, ['evt_bot']).assistantOnly,
    ).toBe(true);
    expect(item('profile', 'profile:user', { location: 'Lisbon' }).status).toBeNull();
    // A plan kept as a goal or event says its state when its value names one.
    expect(
      item('goals', 'goal:plans:coimbra', { name: 'coimbra', description: 'trip to Coimbra', status: 'cancelled' })
        .status,
    ).toBe('cancelled');
    expect(
      holds([item('goals', 'goal:plans:coimbra', { description: 'trip to Coimbra', status: 'cancelled' })], {
        kind: 'plan',
        value: 'Coimbra',
        status: 'cancelled',
      }),
    ).toBe(true);
    // A dated event without a status is a plan still on: it holds an open plan, not a done one.
    const dinner = item('events', 'event:general:2026-03-21:dinner', {
      scope: 'general',
      date: '2026-03-21',
      title: 'retirement dinner at Casa Ximena',
    });
    expect(holds([dinner], { kind: 'plan', value: 'Casa Ximena', status: 'open' })).toBe(true);
    expect(holds([dinner], { kind: 'plan', value: 'Casa Ximena', status: 'done' })).toBe(false);
  });

  it('holds an expected fact in any item, a stale one only in a current fact, and a task only in its state', () => {
    const items = [
      item('profile', 'profile:user', { location: 'Lisbon' }),
      item('events', 'event:general:move', { summary: 'moved from Berlin' }),
      item('tasks', 'task:general:passport', { title: 'renew passport', status: 'todo' }),
    ];
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
    expect(
      holds(
        [...other, item('tasks', 'task:general:apply_bursary', { title: 'apply for the bursary', status: 'todo' })],
        cancelled,
        retracted,
      ),
    ).toBe(false);
    // Nothing retracted, or a retracted item of another type or another task: not held.
    expect(holds(other, cancelled)).toBe(false);
    expect(
      holds(other, cancelled, [item('goals', 'goal:general:bursary', { description: 'bursary', status: 'active' })]),
    ).toBe(false);
    expect(
      holds(other, cancelled, [item('tasks', 'task:general:gym', { title: 'cancel the gym', status: 'todo' })]),
    ).toBe(false);
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
    expect(
      finalState([
        { expect: [loc('Berlin')], stale: [] },
        { expect: [], stale: [loc('Berlin')] },
        { expect: [loc('Berlin')], stale: [] },
      ]).stale,
    ).toEqual([]);
  });

  it('judges each current item: right, stale, advice, the assistant’s words, or junk', () => {
    const expected = { current: [loc('Lisbon')], stale: [loc('Berlin')], advice: ['deep breaths'] };
    expect(judge(item('profile', 'profile:user', { location: 'Lisbon' }), expected)).toBe('right');
    expect(judge(item('profile', 'profile:user', { location: 'Berlin' }), expected)).toBe('stale');
    expect(judge(item('tasks', 'task:general:breathe', { title: 'take deep breaths' }, ['evt_bot']), expected)).toBe(
      'advice',
    );
    expect(judge(item('tasks', 'task:general:pack', { title: 'pack wallet' }, ['evt_bot']), expected)).toBe(
      'assistant',
    );
    expect(judge(item('entities', 'entity:topic:brave', { name: 'brave' }), expected)).toBe('junk');
  });

  it('finds the right memory anywhere in the rendered packet and counts stale and assistant facts shown as current', () => {
    const fact = (notes: string, sources: string[], status: 'active' | 'deprecated' = 'active') => ({
      fact_id: 'mem_1',
      fact_key: 'profile:user',
      value: {},
      status,
      sources,
      notes,
    });
    const packet = {
      long_term: {
        facts: [
          fact('location: Berlin', ['evt_user']),
          fact('location: Berlin', ['evt_user'], 'deprecated'),
          fact('Task: pack wallet', ['evt_bot']),
        ],
        procedures: [],
        episodes: [],
      },
    };
    const context = { asked: '2026-05-02', current: ['Lisbon'] };
    const answer = answerOf(
      packet as never,
      '## Facts\n- location: Lisbon',
      { show: ['lisbon'], not_current: [{ value: 'Berlin' }] },
      userSaid,
      context,
    );
    // Lisbon is in the rendered text but in no current fact.
    expect(answer).toEqual({ right: true, as_fact: false, stale_shown: 1, assistant_shown: 1 });
    expect(
      answerOf(packet as never, 'location: Berlin', { show: ['Berlin'], not_current: [] }, userSaid, context).as_fact,
    ).toBe(true);
    expect(
      answerOf(packet as never, '', { show: [], not_current: [{ value: 'Berlin' }] }, userSaid, context).as_fact,
    ).toBeNull();
    expect(
      answerOf(packet as never, 'nothing here', { show: ['Lisbon'], not_current: [] }, userSaid, context).right,
    ).toBe(false);
  });

  it('reads a dated event before the day asked as history, never a stale value shown as current, nor a stale value inside a current one or about another fact', () => {
    const event = (date: string, title: string) => ({
      fact_id: `mem_${date}`,
      fact_key: `event:general:${date}:plan`,
      value: { scope: 'general', date, title },
      status: 'active',
      sources: ['evt_user'],
      notes: `${date}: ${title}`,
    });
    const profile = (notes: string) => ({
      fact_id: 'mem_p',
      fact_key: 'profile:user',
      value: {},
      status: 'active',
      sources: ['evt_user'],
      notes,
    });
    const packetOf = (...facts: unknown[]) => ({ long_term: { facts, procedures: [], episodes: [] } }) as never;
    const asked = { asked: '2026-05-02', current: ['Lisbon', '墨尔本大学'] };
    // "I'm resigning from Infosys tomorrow", said in February, is what happened then.
    expect(
      answerOf(
        packetOf(event('2026-02-10', "I'm resigning from Infosys tomorrow")),
        '',
        { show: [], not_current: [{ value: 'Infosys' }] },
        userSaid,
        asked,
      ).stale_shown,
    ).toBe(0);
    // A plan still to come that names the old value shows it as current.
    expect(
      answerOf(
        packetOf(event('2026-06-10', 'leaving Infosys party')),
        '',
        { show: [], not_current: [{ value: 'Infosys' }] },
        userSaid,
        asked,
      ).stale_shown,
    ).toBe(1);
    // History still answers: it is a memory, not a quoted passage.
    expect(
      answerOf(
        packetOf(event('2026-01-11', 'my birthday is on 11 January')),
        '',
        { show: ['11 January'], not_current: [] },
        userSaid,
        asked,
      ).as_fact,
    ).toBe(true);
    // 墨尔本 (the old city) inside 墨尔本大学 (where the user studied, still true).
    expect(
      answerOf(
        packetOf(profile('education: 墨尔本大学')),
        '',
        { show: [], not_current: [{ value: '墨尔本' }] },
        userSaid,
        asked,
      ).stale_shown,
    ).toBe(0);
    expect(
      answerOf(
        packetOf(profile('location: 墨尔本; education: 墨尔本大学')),
        '',
        { show: [], not_current: [{ value: '墨尔本' }] },
        userSaid,
        asked,
      ).stale_shown,
    ).toBe(1);
    // "9 May" is stale for the course, not for a shift on that day.
    const stale = [{ value: '9 May', about: 'first aid' }];
    expect(
      answerOf(
        packetOf(event('2026-05-09', 'I have a shift on 9 May')),
        '',
        { show: [], not_current: stale },
        userSaid,
        asked,
      ).stale_shown,
    ).toBe(0);
    expect(
      answerOf(
        packetOf(event('2026-05-09', 'first aid refresher, Sat 9 May')),
        '',
        { show: [], not_current: stale },
        userSaid,
        asked,
      ).stale_shown,
    ).toBe(1);
  });

  it('reads a fact by what the packet shows of it: a value its shortened text leaves out is not shown', () => {
    const cut = {
      fact_id: 'mem_p',
      fact_key: 'profile:user',
      value: {
        subject: 'user',
        facts: [
          { k: 'location', v: 'Lisbon' },
          { k: 'pet:bolt', v: 'dog Bolt' },
        ],
      },
      status: 'active',
      sources: ['evt_user'],
      notes: 'location: Lisbon',
    };
    const packet = { long_term: { facts: [cut], procedures: [], episodes: [] } } as never;
    const context = { asked: '2026-05-02', current: [] };
    expect(answerOf(packet, 'location: Lisbon', { show: ['Bolt'], not_current: [] }, userSaid, context).as_fact).toBe(
      false,
    );
    expect(answerOf(packet, 'location: Lisbon', { show: ['Lisbon'], not_current: [] }, userSaid, context).as_fact).toBe(
      true,
    );
  });
});

describe('loadCorpus', () => {
  function corpus(files: Record<string, unknown>) {
    const dir = mkdtempSync(join(tmpdir(), 'engram-corpus-'));
    for (const [name, data] of Object.entries(files)) writeFileSync(join(dir, name), JSON.stringify(data));
    return { dir: `${dir}/`, done: () => rmSync(dir, { recursive: true, force: true }) };
  }
  const turn = {
    user: 'We moved to Lisbon!',
    assistant: 'Congratulations!',
    expect: [{ kind: 'location', value: 'Lisbon' }],
  };
  const conversation = {
    id: 'en-1',
    kinds: ['location'],
    sessions: [{ start: '2026-03-02T09:00:00Z', turns: [turn] }],
    questions: [{ ask: 'Where am I based?', show: ['Lisbon'] }],
  };

  it('reads a stale value as a string or as { value, about }', () => {
    const question = {
      ask: 'What is on in May?',
      show: ['16 May'],
      not_current: ['Berlin', { value: '9 May', about: 'first aid' }],
    };
    const { dir, done } = corpus({ 'en-a.json': [{ ...conversation, questions: [question] }] });
    try {
      expect(loadCorpus(dir)[0]!.questions[0]!.not_current).toEqual([
        { value: 'Berlin' },
        { value: '9 May', about: 'first aid' },
      ]);
    } finally {
      done();
    }
  });

  it('reads every file, with its language from the name', () => {
    const { dir, done } = corpus({ 'en-a.json': [conversation], 'zh-a.json': [{ ...conversation, id: 'zh-1' }] });
    try {
      const loaded = loadCorpus(dir);
      expect(loaded.map((entry) => [entry.id, entry.language])).toEqual([
        ['en-1', 'en'],
        ['zh-1', 'zh'],
      ]);
      expect(loaded[0]!.sessions[0]!.turns[0]!).toMatchObject({ stale: [], advice: [] });
      expect(loaded[0]!.questions[0]!.not_current).toEqual([]);
    } finally {
      done();
    }
  });

  it('refuses an unknown kind, a value the turn does not say, sessions out of order, and a repeated id, naming the place', () => {
    const cases: Array<[unknown, RegExp]> = [
      [
        [
          {
            ...conversation,
            sessions: [
              { start: '2026-03-02T09:00:00Z', turns: [{ ...turn, expect: [{ kind: 'city', value: 'Lisbon' }] }] },
            ],
          },
        ],
        /expect\[0\]\.kind: must be one of/u,
      ],
      [
        [
          {
            ...conversation,
            sessions: [
              { start: '2026-03-02T09:00:00Z', turns: [{ ...turn, expect: [{ kind: 'location', value: 'Porto' }] }] },
            ],
          },
        ],
        /"Porto" is not in the turn's messages/u,
      ],
      [
        [{ ...conversation, sessions: [conversation.sessions[0], conversation.sessions[0]] }],
        /sessions\[1\]\.start: sessions must be in time order/u,
      ],
      [[conversation, conversation], /conversation id en-1 is used twice/u],
      [
        [{ ...conversation, questions: [{ ask: 'Where?', show: ['Lisbon'], not_current: [{ value: 'Berlin' }] }] }],
        /questions\[0\]\.not_current\[0\]\.about: must be a non-empty string/u,
      ],
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
