import { describe, expect, it } from 'vitest';

import type { ItemCandidate } from '../../spec/items.js';
import { createRuleExtractor } from './index.js';

// Wednesday 2026-02-18.
const TS = '2026-02-18T10:00:00Z';

function extract(
  texts: readonly string[],
  knownKeys: readonly string[] = [],
  role: 'user' | 'assistant' = 'user',
): ItemCandidate[] {
  const events = texts.map((text, index) => ({
    event_id: `evt_${index + 1}`,
    kind: 'message' as const,
    role,
    text,
    ts: TS,
  }));
  return createRuleExtractor().extract({ events, known_keys: knownKeys }) as ItemCandidate[];
}
const one = (text: string) => extract([text]).filter((candidate) => candidate.type !== 'entities');

describe('profile facts', () => {
  it.each([
    ['My name is Alice Chen.', [{ k: 'name', v: 'Alice Chen' }]],
    [
      "I'm a data scientist at Acme Labs.",
      [
        { k: 'role', v: 'data scientist' },
        { k: 'employer', v: 'Acme Labs' },
      ],
    ],
    ['I live in Lisbon, Portugal.', [{ k: 'location', v: 'Lisbon, Portugal' }]],
    ["I'm from Brazil.", [{ k: 'origin', v: 'Brazil' }]],
    ['I just moved to Berlin.', [{ k: 'location', v: 'Berlin', since: '2026-02-18' }]],
  ])('%s', (text, facts) => {
    expect(one(text).map((candidate) => [candidate.key, candidate.value])).toEqual([
      ['profile:user', { subject: 'user', facts }],
    ]);
  });

  it.each([
    ['We moved from Berlin to Lisbon last week.', [{ k: 'location', v: 'Lisbon', since: '2026-02-18' }]],
    ["I'm in Galway now!", [{ k: 'location', v: 'Galway', since: '2026-02-18' }]],
    ['The rent here in Pune is wild.', [{ k: 'location', v: 'Pune' }]],
    ['My wife Hannah says hi.', [{ k: 'family:wife', v: 'wife Hannah' }]],
    ['My sister is called Ana.', [{ k: 'family:sister:ana', v: 'sister Ana' }]],
    ['Our lab Biscuit keeps escaping.', [{ k: 'pet:biscuit', v: 'lab Biscuit' }]],
    ['We adopted a beagle called Lola.', [{ k: 'pet:lola', v: 'beagle Lola' }]],
    ["I'm allergic to peanuts.", [{ k: 'allergy:peanuts', v: 'allergic to peanuts' }]],
    ["I'm lactose intolerant.", [{ k: 'intolerance:lactose', v: 'lactose intolerant' }]],
    ['I have type 1 diabetes.', [{ k: 'health:type_1_diabetes', v: 'type 1 diabetes' }]],
    ["I'm vegetarian.", [{ k: 'diet', v: 'vegetarian', since: '2026-02-18' }]],
    ["I don't drink alcohol at all.", [{ k: 'avoids:alcohol', v: 'no alcohol' }]],
    ['Eh, not a fan of jazz honestly.', [{ k: 'taste:jazz', v: 'dislikes jazz' }]],
    ['I love Texas BBQ more than life.', [{ k: 'taste:texas_bbq', v: 'likes Texas BBQ' }]],
    ["I can't stand durian.", [{ k: 'taste:durian', v: 'dislikes durian' }]],
    ['I accepted a job at Porsche, so goodbye BMW.', [{ k: 'employer', v: 'Porsche', since: '2026-02-18' }]],
    [
      'I joined a firm called Taller Norte as a project lead.',
      [{ k: 'employer', v: 'Taller Norte', since: '2026-02-18' }],
    ],
  ])('a personal fact: %s', (text, facts) => {
    expect(
      one(text)
        .filter((candidate) => candidate.type === 'profile')
        .map((candidate) => candidate.value),
    ).toEqual([{ subject: 'user', facts }]);
  });

  it('reads a statement that chat runs into a lower-case question', () => {
    const facts = one('I have mild asthma. any tips for running in the cold?').filter(
      (candidate) => candidate.type === 'profile',
    );
    expect(facts.map((candidate) => candidate.value)).toEqual([
      { subject: 'user', facts: [{ k: 'health:asthma', v: 'asthma' }] },
    ]);
  });

  it.each([
    "I'm not vegetarian anymore.",
    "I don't eat much these days.",
    'My mum always says so.',
    'Is my dog allowed in?',
    "I'm in a meeting now.",
    'I like it a lot.',
    "I'm into it.",
    'I love that you remembered.',
  ])('is not a personal fact: %s', (text) => {
    expect(one(text).filter((candidate) => candidate.type === 'profile')).toEqual([]);
  });

  it.each(["I'm a bit tired.", "I'm a big fan of yours.", "I'm from the data team."])(
    'is not a profile fact: %s',
    (text) => {
      expect(one(text)).toEqual([]);
    },
  );

  it('puts all facts of one input in one candidate', () => {
    const out = extract(['My name is Alice.', 'I live in Porto.']);
    expect(out.filter((candidate) => candidate.type === 'profile')).toHaveLength(2);
  });
});

describe('goals', () => {
  it.each([
    [
      'My goal is to ship the memory runtime by June 1.',
      'goal:general:ship_memory_runtime',
      { description: 'ship the memory runtime', due: '2026-06-01' },
    ],
    [
      'Our goal for Atlas is to reach 1000 users.',
      'goal:atlas:reach_1000_users',
      { project: 'Atlas', description: 'reach 1000 users' },
    ],
    ['I want to learn Rust by the end of the year.', 'goal:general:learn_rust', { due: '2026-12-31' }],
    ['We aim to cut latency in half.', 'goal:general:cut_latency_half', { status: 'active' }],
    ['我的目标是年底前发布1.0版本。', 'goal:general:发布1_0版本', { description: '发布1.0版本', due: '2026-12-31' }],
  ])('%s', (text, key, value) => {
    expect(one(text)).toEqual([expect.objectContaining({ key, gate: 'may', value: expect.objectContaining(value) })]);
  });

  it('needs a date for a want to be a goal', () => {
    expect(one('I want to learn Rust.')).toEqual([]);
  });
});

describe('tasks', () => {
  it.each([
    ['TODO: write the release notes', 'task:general:write_release_notes', { status: 'todo' }],
    ['Remind me to renew the domain next Monday.', 'task:general:renew_domain', { due: '2026-02-23' }],
    ["Don't forget to email the investors.", 'task:general:email_investors', { title: 'email the investors' }],
    ['We must migrate the database by 2026-03-01.', 'task:general:migrate_database', { due: '2026-03-01' }],
    ['待办：整理会议纪要', 'task:general:整理会议纪要', { status: 'todo' }],
    ['我需要在周五之前提交报告。', 'task:general:提交报告', { due: '2026-02-20' }],
    ['提醒我明天给王总打电话。', 'task:general:给王总打电话', { due: '2026-02-19' }],
  ])('%s', (text, key, value) => {
    expect(one(text)).toEqual([expect.objectContaining({ key, gate: 'must', value: expect.objectContaining(value) })]);
  });

  it('is not a task without enough of a title', () => {
    expect(one('I need to sleep.')).toEqual([]);
    expect(one('我需要休息。')).toEqual([]);
  });

  it.each([
    ['The docs update is done.', 'done', undefined],
    ['I finished updating the docs.', 'done', undefined],
    ['Mark update docs as done.', 'done', undefined],
    ['The docs update is blocked on the API review.', 'blocked', ['blocked on the API review']],
    ["I'm working on the docs update.", 'doing', undefined],
  ])('moves a known task: %s', (text, status, notes) => {
    const out = extract([text], ['task:general:update_docs', 'task:general:update_tests']);
    expect(out).toEqual([
      expect.objectContaining({
        key: 'task:general:update_docs',
        value: notes === undefined ? { task_id: 'update_docs', status } : { task_id: 'update_docs', status, notes },
      }),
    ]);
  });

  it('lands a status change on a task of another project when that is the only match', () => {
    expect(
      extract(['The changelog is done.'], ['task:atlas:write_changelog']).map((candidate) => candidate.key),
    ).toEqual(['task:atlas:write_changelog']);
  });

  it('proposes each reading for review when several open tasks fit a status change equally', () => {
    const out = extract(
      ['The insurance is renewed.'],
      ['task:general:renew_car_insurance', 'task:general:renew_home_insurance'],
    ).filter((candidate) => candidate.type === 'tasks');
    expect(out.map((candidate) => [candidate.key, candidate.value['status'], candidate.review !== undefined])).toEqual([
      ['task:general:renew_car_insurance', 'done', true],
      ['task:general:renew_home_insurance', 'done', true],
    ]);
    expect(out[0]!.review).toContain('matches 2 open tasks');
  });

  it('moves no task named by a pronoun', () => {
    expect(
      extract(
        ["Whenever I'm working on one, it's like I'm connecting back with myself."],
        ['task:general:back_work'],
      ).filter((candidate) => candidate.type === 'tasks'),
    ).toEqual([]);
  });

  it('closes no task when a person came, or with what is still to do', () => {
    const known = ['task:general:call_sister_about_visit', 'task:general:renew_passport_trip'];
    expect(
      extract(['my sister came over for dinner.'], known).filter((candidate) => candidate.type === 'tasks'),
    ).toEqual([]);
    expect(
      extract(['then Tom came by with the visit plans.'], known).filter((candidate) => candidate.type === 'tasks'),
    ).toEqual([]);
    expect(
      extract(['the new passport form came, I need to fill it in.'], known).filter(
        (candidate) => candidate.type === 'tasks' && candidate.value['status'] === 'done',
      ),
    ).toEqual([]);
  });

  it('creates no task for a status change that names no known task', () => {
    expect(one('The billing migration is done.')).toEqual([]);
    expect(one('The report is done.')).toEqual([]);
    expect(one("I'm working on a new idea.")).toEqual([]);
  });

  it.each([
    ['I renewed my passport yesterday, so the passport task is done.', 'task:general:renew_passport_trip'],
    ['car insurance done too.', 'task:general:sort_car_insurance_renewal'],
    ['The performance reviews were submitted on Thursday.', 'task:general:finish_performance_reviews'],
    ['finally returned the library books.', 'task:general:return_library_books'],
    ['PASSPORT CAME this morning!!', 'task:general:renew_passport_trip'],
    ['laptop is back with a new screen, 180 euros ugh.', 'task:general:take_laptop_repair_week'],
    ['speech is already written anyway, kept it short and sweet', 'task:general:write_short_speech_lunch_after'],
    ['and the pen from the engraver is picked up already, looks great', 'task:general:pick_up_farewell_gift_engraver'],
    ['the oud is restrung, the man in the souq did it in one day.', 'task:general:get_restrung_wedding_gig'],
    ['bought new bike lights finally, clip-on LEDs.', 'task:general:bike_lights_fixed_dark_evenings'],
    ['the new bank card finally arrived!', 'task:general:order_new_bank_card'],
  ])('closes the open task a done statement names: %s', (text, key) => {
    const known = [
      'task:general:renew_passport_trip',
      'task:general:sort_car_insurance_renewal',
      'task:general:finish_performance_reviews',
      'task:general:return_library_books',
      'task:general:take_laptop_repair_week',
      'task:general:write_short_speech_lunch_after',
      'task:general:pick_up_farewell_gift_engraver',
      'task:general:get_restrung_wedding_gig',
      'task:general:bike_lights_fixed_dark_evenings',
      'task:general:order_new_bank_card',
    ];
    const out = extract([text], known).filter((candidate) => candidate.type === 'tasks');
    expect(out.map((candidate) => [candidate.key, candidate.value['status']])).toEqual([[key, 'done']]);
  });

  it('reads Chinese status changes against Chinese titles', () => {
    expect(
      extract(['我需要更新文档。', '文档更新完成了。']).map((candidate) => [candidate.key, candidate.value['status']]),
    ).toEqual([
      ['task:general:更新文档', 'todo'],
      ['task:general:更新文档', 'done'],
    ]);
    expect(extract(['更新文档被阻塞了，因为在等设计稿。'], ['task:general:更新文档'])[0]!.value).toEqual({
      task_id: '更新文档',
      status: 'blocked',
      notes: ['blocked on 在等设计稿'],
    });
  });
});

describe('decisions', () => {
  it.each([
    ['We decided to use Postgres for storage.', 'decision:general:storage', 'use Postgres for storage'],
    ["Let's go with SQLite for storage.", 'decision:general:storage', 'go with SQLite for storage'],
    ["Let's pick a date and go hiking.", 'decision:general:date_go_hiking', 'pick a date and go hiking'],
    ["We'll use Vercel.", 'decision:general:hosting', 'use Vercel'],
    ['I chose MIT for the license.', 'decision:general:license', 'chose MIT for the license'],
    ['We went with Postgres for storage.', 'decision:general:storage', 'went with Postgres for storage'],
    // A dash between spaces ends the clause decided.
    ['I decided to run for office again - even though I lost last time.', 'decision:general:office', 'run for office'],
    [
      'I picked out a blue dress for the wedding.',
      'decision:general:wedding',
      'picked out a blue dress for the wedding',
    ],
    [
      'I chose to go to networking events to make things happen.',
      'decision:general:go_networking_events',
      'chose to go to networking events to make things happen',
    ],
    ['Decision: ship weekly releases.', 'decision:general:ship_weekly_releases', 'ship weekly releases'],
    ['我们决定用Postgres做存储。', 'decision:general:存储', '用Postgres做存储'],
    ['我们用Vitest做测试。', 'decision:general:测试', '用Vitest做测试'],
  ])('%s', (text, key, decision) => {
    expect(one(text)).toEqual([
      expect.objectContaining({
        key,
        gate: 'must',
        value: expect.objectContaining({ decision, made_at: '2026-02-18' }),
      }),
    ]);
  });

  it('is not a decision when asked', () => {
    expect(one('Should we use Postgres for storage?')).toEqual([]);
  });

  // A verb of choosing that means something else, a choice that is a bare pronoun, company.
  it.each([
    'I picked up a few new recipes at the market.',
    "I chose them 'cause they help LGBTQ+ folks with adoption.",
    'We went with my parents to the lake last weekend.',
    'I went with friends to the concert.',
    'I picked it because it was cheap.',
  ])('%s is no decision', (text) => {
    expect(one(text).filter((candidate) => candidate.type === 'decisions')).toEqual([]);
  });
});

describe('dated events', () => {
  it.each([
    ['The Atlas launch is on 2026-12-01.', 'event:general:2026-12-01:launch'],
    ['On 8 May 2023 we shipped the first beta.', 'event:general:2023-05-08:ship'],
    ['We have a design review next Friday for project Atlas.', 'event:atlas:2026-02-27:review'],
    ['明天下午开会。', 'event:general:2026-02-19:开会'],
  ])('%s', (text, key) => {
    expect(one(text)).toEqual([expect.objectContaining({ key, gate: 'may' })]);
  });

  it('needs an event word beside a relative date', () => {
    expect(one('I will look at it tomorrow.')).toEqual([]);
  });

  it('leaves the date of a task on the task', () => {
    expect(one('I need to finish the launch checklist by Friday.').map((candidate) => candidate.type)).toEqual([
      'tasks',
    ]);
  });
});

describe('names', () => {
  it('keeps names said twice or emphasised, at low confidence', () => {
    const out = extract(['I met Dana Scully yesterday.', 'Dana Scully will lead **Project Atlas** with Mulder.']);
    const names = out.filter((candidate) => candidate.rule === 'any.entity.name');
    expect(names.map((candidate) => [candidate.key, candidate.confidence, candidate.gate])).toEqual([
      ['entity:person:dana_scully', 0.5, 'may'],
      ['entity:topic:project_atlas', 0.6, 'may'],
    ]);
    expect(names[0]!.source_event_ids).toEqual(['evt_1', 'evt_2']);
    expect(names[0]!.evidence_refs).toEqual([
      { kind: 'event', ref: 'evt_1', span: [6, 17] },
      { kind: 'event', ref: 'evt_2', span: [0, 11] },
    ]);
  });

  it('does not keep a name said once', () => {
    expect(extract(['I met Dana yesterday.']).filter((candidate) => candidate.rule === 'any.entity.name')).toEqual([]);
  });
});
