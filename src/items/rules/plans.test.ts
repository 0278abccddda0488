import { describe, expect, it } from 'vitest';

import type { ItemCandidate } from '../../spec/items.js';
import { DEFAULT_GATE } from '../gate.js';
import { findDates } from './dates.js';
import { TEST_TS } from './fact-test-kit.js';
import { createRuleExtractor } from './index.js';

/** Each candidate as "action key value" for one user message, with the scope's known keys. */
function changes(text: string, known: readonly string[] = [], role: 'user' | 'assistant' = 'user'): string[] {
  const out = createRuleExtractor().extract({
    events: [{ event_id: 'e', kind: 'message', role, text, ts: TEST_TS }],
    known_keys: [...known],
  }) as ItemCandidate[];
  return out
    .filter((candidate) => candidate.type !== 'entities' && candidate.type !== 'profile')
    .map((candidate) => `${candidate.action} ${candidate.key} ${JSON.stringify(candidate.value)}`);
}

const keys = (lines: readonly string[]) => lines.map((line) => line.split(' ').slice(0, 2).join(' '));

describe('dated plans', () => {
  it.each([
    ["We're taking a trip to Porto from 4 to 9 April with the kids.", 'upsert event:general:2026-04-04:trip_porto'],
    ['Can you book a table at Noma for Thursday the 26th?', 'upsert event:general:2026-02-26:table_noma'],
    ['My brother turns 40 on 3 May and we throw the party on Saturday 2 May.', 'upsert event:general:2026-05-02:party'],
    ['our housewarming is on the 14th of March', 'upsert event:general:2026-03-14:housewarming'],
    [
      'planning Oaxaca with my partner, we fly out 14 May for ten days!!',
      'upsert event:general:2026-05-14:planning_oaxaca_partner',
    ],
    ['五一要去看演唱会', 'upsert event:general:2026-05-01:演唱会'],
  ])('%s', (text, expected) => {
    expect(keys(changes(text))).toContain(expected);
  });

  it("keeps the assistant's dates only when it records something done, never its echo of the user's plan or its suggestion", () => {
    expect(changes('Got it: design workshop, Lisbon, 15 December.', [], 'assistant')).toEqual([]);
    expect(changes('You could fly out on 12 March and come back on the 19th.', [], 'assistant')).toEqual([]);
    expect(changes('好的，中文公告将在 2026-12-01 同步发布。', [], 'assistant')).toEqual([]);
    expect(keys(changes("I've booked your table at Noma for 14 March.", [], 'assistant'))).toEqual([
      'upsert event:general:2026-03-14:table_noma',
    ]);
    expect(keys(changes('Your dentist appointment is confirmed for 3 March.', [], 'assistant'))).toEqual([
      'upsert event:general:2026-03-03:appointment',
    ]);
    expect(keys(changes('已经帮你预约了3月2号的复查。', [], 'assistant'))).toEqual([
      'upsert event:general:2026-03-02:预约',
    ]);
  });

  it('keeps a booking the assistant records as made past the retention gate, however the record opens, and as the plan the user asked for', () => {
    const recorded = (text: string, known: readonly string[] = []) =>
      (
        createRuleExtractor().extract({
          events: [{ event_id: 'e', kind: 'message', role: 'assistant', text, ts: TEST_TS }],
          known_keys: [...known],
        }) as ItemCandidate[]
      ).filter((candidate) => candidate.type === 'events');
    for (const text of [
      'Registered: Swiss Red Cross first aid refresher, Sat 9 May, 09:00–16:00, Zurich Oerlikon.',
      "I've booked your table at Noma for 14 March.",
      "You're all booked: pottery class, Thursday 12 March, 18:00.",
    ]) {
      const [event] = recorded(text);
      expect(event?.confidence, text).toBeGreaterThanOrEqual(DEFAULT_GATE.mayThreshold);
    }
    expect(recorded('Registered: Swiss Red Cross first aid refresher, Sat 9 May.').map((event) => event.key)).toEqual([
      'event:general:2026-05-09:refresher',
    ]);
    // The confirmation of the user's request is that request's plan, not a second one named after another word of it.
    expect(
      recorded("Booked: Steirereck im Stadtpark, Sat 28 March, 19:30, table for 4 under 'Weber'.", [
        'event:general:2026-03-28:table_steirereck',
      ]).map((event) => event.key),
    ).toEqual(['event:general:2026-03-28:table_steirereck']);
  });

  it('moves a plan the assistant records as moved, and never on its suggestion', () => {
    const known = ['event:general:2026-05-09:refresher', 'event:general:2026-05-09:shift'];
    expect(
      keys(
        changes(
          'Done: moved to the Swiss Red Cross first aid refresher on Sat 16 May, 09:00–16:00.',
          known,
          'assistant',
        ),
      ),
    ).toEqual(['upsert event:general:2026-05-16:refresher', 'retract event:general:2026-05-09:refresher']);
    expect(
      changes(
        'Done: moved to the Swiss Red Cross first aid refresher on Sat 16 May, 09:00–16:00.',
        known,
        'assistant',
      )[0],
    ).toContain('"title":"Swiss Red Cross first aid refresher on Sat 16 May, 09:00–16:00"');
    expect(changes('You could move the first aid refresher to Sat 16 May instead.', known, 'assistant')).toEqual([]);
  });

  it('reads a habit moved to another weekday as no dated plan', () => {
    expect(
      keys(changes('Petra changed jobs so our sauna night moved from Wednesday to Thursday now')).filter((line) =>
        line.includes('event:'),
      ),
    ).toEqual([]);
    expect(keys(changes('we moved the party from 2 May to 9 May', ['event:general:2026-05-02:party']))).toContain(
      'upsert event:general:2026-05-09:party',
    );
  });

  it('names a plan by its occasion and place, never by a day of the week', () => {
    expect(
      keys(changes("my brother works Fridays now, so we moved the lunch at my parents' from Friday to Saturday", [])),
    ).not.toContainEqual(expect.stringContaining('fridays'));
  });

  it('reads no plan from a question that books nothing, nor from a day without an occasion or a doing of the user', () => {
    expect(changes('Can you tell me what is on at the cinema on Friday?')).toEqual([]);
    expect(changes('the invoice says 14 May at the top.')).toEqual([]);
  });

  it('reads the first day of a range and a weekday before its date', () => {
    expect(findDates('from 8 to 15 october', 'en', '2026-02-18').map((mention) => mention.date)).toEqual([
      '2026-10-08',
    ]);
    expect(findDates('on saturday 2 may, not sunday', 'en', '2026-02-18').map((mention) => mention.date)).toEqual([
      '2026-05-02',
      '2026-02-22',
    ]);
    expect(findDates('the 4th of may', 'en', '2026-02-18').map((mention) => mention.date)).toEqual(['2026-05-04']);
  });
});

describe('plans moved', () => {
  const party = 'event:general:2026-05-02:party_ana';

  it.each([
    ["we've pushed Ana's party from 2 May to 16 May", 'event:general:2026-05-16:party_ana'],
    ['the party is now 16 May instead of 2 May', 'event:general:2026-05-16:party_ana'],
  ])('%s ends the old day and holds the new one', (text, moved) => {
    const out = keys(changes(text, [party]));
    expect(out).toEqual([`retract ${party}`, `upsert ${moved}`]);
  });

  it('moves a plan to the day a correction gives, under its own name', () => {
    const out = changes("sorry, I told you 2 May before — it's actually 9 May, I misread the invite", [
      party,
      'event:general:2026-03-01:dentist',
    ]);
    expect(keys(out)).toEqual([`retract ${party}`, 'upsert event:general:2026-05-09:party_ana']);
    expect(out[1]).toContain('"title":"party ana on 9 May"');
  });

  it.each([
    "It's actually 9 May, I think.",
    'I told you 2 May and it really is 2 May, actually.',
    "I said 3 May to the florist, it's actually a quiet week for me.",
  ])('corrects no plan: %s', (text) => {
    expect(keys(changes(text, [party])).filter((line) => line.startsWith('retract'))).toEqual([]);
  });

  it('proposes each plan a cancellation fits equally for review, and cancels none', () => {
    const out = createRuleExtractor().extract({
      events: [{ event_id: 'e', kind: 'message', role: 'user', text: 'the trip is off, sadly.', ts: TEST_TS }],
      known_keys: ['event:general:2026-06-06:trip_porto', 'event:general:2026-08-01:trip_rome'],
    }) as ItemCandidate[];
    expect(out.map((candidate) => [candidate.key, candidate.value['status'], candidate.review !== undefined])).toEqual([
      ['event:general:2026-06-06:trip_porto', 'cancelled', true],
      ['event:general:2026-08-01:trip_rome', 'cancelled', true],
    ]);
  });

  it('moves a plan from the day it is no longer on', () => {
    const visit = 'event:general:2026-05-15:visit_vancouver';
    expect(
      keys(
        changes(
          "my parents changed their flights, not 15 to 25 May anymore, now they're coming in June instead, 3rd to 13th",
          [visit],
        ),
      ),
    ).toEqual([`retract ${visit}`, 'upsert event:general:2026-06-03:visit_vancouver']);
  });

  it('moves a plan named by its words when the old day goes unsaid', () => {
    expect(
      keys(changes('they rescheduled the Lisbon trip to 20 June', ['event:general:2026-06-06:trip_lisbon', party])),
    ).toEqual(['retract event:general:2026-06-06:trip_lisbon', 'upsert event:general:2026-06-20:trip_lisbon']);
  });

  it('keeps the old day out of the moved plan', () => {
    const [, moved] = changes("we've pushed Ana's party from 2 May to 16 May", [party]);
    expect(moved).not.toContain('2 May');
  });

  it('moves a booking to another hour of its day', () => {
    const [moved] = changes('could you move the Noma booking from 19:30 to 21:00?', [
      'event:general:2026-02-26:table_noma',
    ]);
    expect(moved).toContain('upsert event:general:2026-02-26:table_noma');
    expect(moved).toContain('"time":"21:00"');
    expect(moved).not.toContain('19:30');
  });

  it('moves a Chinese plan', () => {
    expect(keys(changes('签证没下来，5月3号走不了，机票改到了6月1号', ['event:general:2026-05-03:出发']))).toEqual([
      'retract event:general:2026-05-03:出发',
      'upsert event:general:2026-06-01:出发',
    ]);
  });

  it.each([
    ['The movers come on 2 May, the party is on 16 May.', [party]],
    ['Should we move the party from 2 May to 16 May?', [party]],
    ['If the venue is booked we move it to 16 May.', []],
  ])('moves nothing: %s', (text, known) => {
    expect(changes(text, known).filter((line) => line.startsWith('retract'))).toEqual([]);
  });

  it('takes nothing the assistant says', () => {
    expect(
      changes("I've moved the party from 2 May to 16 May in your calendar.", [party], 'assistant').filter((line) =>
        line.includes('2026-05-16'),
      ),
    ).toEqual([]);
  });
});

describe('plans called off', () => {
  const trip = 'event:general:2026-04-04:trip_porto';

  it.each([
    'The Porto trip is off, the car broke down.',
    'we cancelled Porto because of the strike',
    'sadly the trip to Porto has been called off',
    // Called off by someone else: who or what names the plan.
    'the airline cancelled our trip to Porto, refund pending',
  ])('%s', (text) => {
    expect(changes(text, [trip, 'event:general:2026-03-01:dinner_nadia'])).toEqual([
      `upsert ${trip} {"status":"cancelled","cancelled_on":"2026-02-18"}`,
    ]);
  });

  it('calls off a plan named by who called it off', () => {
    expect(changes('Sigur Rós cancelled the whole tour.', ['event:general:2026-04-09:tickets_sigur_rós'])).toEqual([
      'upsert event:general:2026-04-09:tickets_sigur_rós {"status":"cancelled","cancelled_on":"2026-02-18"}',
    ]);
    expect(changes('my boss cancelled the meeting', [trip])).toEqual([]);
  });

  it('calls off a goal', () => {
    expect(keys(changes('the marathon plan is off, my knee is done for', ['goal:general:run_marathon']))).toEqual([
      'upsert goal:general:run_marathon',
    ]);
  });

  it('retracts a task no longer needed', () => {
    const known = ['task:general:renew_gym_membership', 'task:general:book_dentist'];
    expect(changes("not renewing the gym membership anymore, I'm moving", known)).toEqual([
      'retract task:general:renew_gym_membership {}',
    ]);
    expect(changes('The gym membership is no longer needed.', known)).toEqual([
      'retract task:general:renew_gym_membership {}',
    ]);
  });

  it('calls off a Chinese plan', () => {
    expect(keys(changes('演唱会因为台风取消了', ['event:general:2026-05-01:演唱会']))).toEqual([
      'upsert event:general:2026-05-01:演唱会',
    ]);
  });

  it.each([
    ['The heating is off again.', [trip]],
    ['The Porto trip is on!', [trip]],
    ['Is the Porto trip cancelled?', [trip]],
  ])('calls off nothing: %s', (text, known) => {
    expect(changes(text, known).filter((line) => line.includes('cancelled') || line.startsWith('retract'))).toEqual([]);
  });
});
