import { describe, expect, it } from 'vitest';

import type { ItemCandidate } from '../../spec/items.js';
import { TEST_TS } from './fact-test-kit.js';
import { createRuleExtractor } from './index.js';

/** The plans told by their time in one user message (said on Wednesday 2026-02-18), as "key | title". */
function plans(text: string, role: 'user' | 'assistant' = 'user'): string[] {
  const out = createRuleExtractor().extract({
    events: [{ event_id: 'e', kind: 'message', role, text, ts: TEST_TS }],
    known_keys: [],
  }) as ItemCandidate[];
  return out
    .filter((candidate) => candidate.rule === 'en.plan.dated' || candidate.rule === 'zh.plan.dated')
    .map((candidate) => `${candidate.key} | ${String(candidate.value['title'])}`);
}

describe('plans told by their time', () => {
  it.each([
    [
      'got tickets for Sigur Rós at the Royal Albert Hall on 9 April!!!',
      'event:general:2026-04-09:tickets_sigur_rós | got tickets for Sigur Rós at the Royal Albert Hall on 9 April',
    ],
    [
      'Planning Zanzibar for July with my cousins — 5 nights in Nungwi.',
      'event:general:2026-07-01:planning_zanzibar_cousins | Planning Zanzibar for July with my cousins',
    ],
    [
      "we're getting 2 guinea pigs for Lucía next weekend",
      "event:general:2026-02-28:getting_2_guinea | we're getting 2 guinea pigs for Lucía next weekend",
    ],
    [
      'booked the train to Mombasa for 14 August, then on to Diani.',
      'event:general:2026-08-14:booked_train_mombasa | booked the train to Mombasa for 14 August',
    ],
    ["we're getting married in June!", "event:general:2026-06-01:wedding | we're getting married in June"],
    [
      '下个月18号要跟男朋友阿杰去领证了！',
      'event:general:2026-03-18:要跟男朋友阿杰去领证 | 下个月18号要跟男朋友阿杰去领证了',
    ],
    ['我是广东人，下个月要去重庆出差一周，怎么活下来啊', 'event:general:2026-03-01:出差 | 下个月要去重庆出差一周'],
  ])('%s', (text, expected) => {
    expect(plans(text)).toEqual([expected]);
  });

  it('leans on the sentence when the clause is little more than its time', () => {
    expect(plans('京都的酒店订好了，11月1号到5号，住在岚山那边')).toEqual([
      'event:general:2026-11-01:京都的酒店订好了_到5号 | 京都的酒店订好了，11月1号到5号，住在岚山那边',
    ]);
  });

  it('reads a time without a year at its nearer occurrence unless the sentence looks ahead', () => {
    // Said in February: the January just past, not next January; "this December" looks ahead.
    expect(plans('I hurt my back lifting a patient in January')).toEqual([]);
    expect(plans("we're thinking of a wedding in december, in Abeokuta")).toHaveLength(1);
    // A weekday alone is the last one unless the sentence looks ahead.
    expect(plans('broke my ankle playing futsal on saturday')).toEqual([]);
    expect(plans("I'm heading to the MCG on saturday for the Carlton game")).toHaveLength(1);
  });

  it("is no plan: the past, a habit, a pleasantry, a hypothetical, a change of plan, someone asked, the assistant's words", () => {
    for (const text of [
      'I was born on 3 July',
      "a client hasn't paid an invoice in 70 days",
      'I go swimming every Friday',
      'talk to you tomorrow!',
      'if we go in May, is it hot?',
      'cancel Friday at Casa Ximena please',
      'where do I keep the battery in winter',
      'Will you be around next week?',
      '闺蜜五一被抓去加班，泉州去不成了',
      '每个周末都去爬山',
      "I'm feeling inspired by autumn",
      // Said in February: last March, last June.
      'update: hurt my back lifting a patient in March, herniated disc.',
      'my sister got married in June, it was lovely',
    ])
      expect(plans(text), text).toEqual([]);
    expect(plans('You could fly out on 12 March.', 'assistant')).toEqual([]);
  });
});

describe('a day told as done', () => {
  /** Every dated event of one user message, said on 2026-02-18, as "key | title". */
  const events = (text: string) =>
    (
      createRuleExtractor().extract({
        events: [{ event_id: 'e', kind: 'message', role: 'user', text, ts: TEST_TS }],
        known_keys: [],
      }) as ItemCandidate[]
    )
      .filter((candidate) => candidate.type === 'events')
      .map((candidate) => `${candidate.key} | ${String(candidate.value['title'])}`);

  it('is no event of today: what was done today is no occasion still to come', () => {
    expect(
      events('Then we had dinner and the kids stayed up far too late, so the whole family is tired today.'),
    ).toEqual([]);
    expect(events('went to the dentist today, all fine')).toEqual([]);
    expect(events('graduation was today!! so proud')).toEqual([]);
  });

  it('keeps what is still to come today', () => {
    expect(events('dinner with Sam today, I booked the table for eight')).toEqual([
      'event:general:2026-02-18:dinner_sam | dinner with Sam today',
    ]);
    expect(events("we had planned dinner for today and we'll still go")).toHaveLength(1);
    // A state told in the past beside it is no doing of the day's.
    expect(events('My surgery is today, I was so nervous all week.')).toEqual([
      'event:general:2026-02-18:surgery | My surgery is today, I was so nervous all week',
    ]);
  });
});
