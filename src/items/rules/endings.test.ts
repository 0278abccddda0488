import { describe, expect, it } from 'vitest';

import type { ItemCandidate } from '../../spec/items.js';
import { mergeValue } from '../values.js';
import { factsFrom, TEST_TS } from './fact-test-kit.js';
import { createRuleExtractor } from './index.js';

function extract(
  text: string,
  role: 'user' | 'assistant' = 'user',
  knownKeys: readonly string[] = ['profile:user'],
): ItemCandidate[] {
  return createRuleExtractor().extract({
    events: [{ event_id: 'evt_1', kind: 'message', role, text, ts: TEST_TS }],
    known_keys: knownKeys,
  }) as ItemCandidate[];
}

const ended = (text: string, role: 'user' | 'assistant' = 'user') =>
  factsFrom('en.profile.end', text, role).map((fact) => [fact['k'], fact['was']]);

describe('facts the user ends', () => {
  it.each([
    ['I finally sold my old Vespa last month.', '*:old_vespa', 'old Vespa'],
    ['gave away the rowing machine, never used it', '*:rowing_machine', 'rowing machine'],
    ['We traded in the minivan for something smaller.', '*:minivan', 'minivan'],
    ['I stopped going to the climbing gym after the injury.', '*:climbing_gym', 'climbing gym'],
    ["I've given up the evening runs.", '*:evening_runs', 'evening runs'],
    ['no more ballet classes for me, my knees said no', '*:ballet_classes', 'ballet classes'],
    ["So I'm cycling to work now instead of taking the bus.", '*:taking_the_bus', 'taking the bus'],
    ['my GP took me off the beta blockers.', '*:beta_blockers', 'beta blockers'],
    ['I left Siemens in January.', '*:siemens', 'Siemens'],
    ['got the transfer to the Porto team, left Lisbon two weeks ago and already miss it', '*:lisbon', 'Lisbon'],
    ['new flat, new commute; left Leeds in March', '*:leeds', 'Leeds'],
    ['handed in my notice as a night porter yesterday', '*:night_porter', 'night porter'],
    ['So long Hamburg, hello Vienna!', '*:hamburg', 'Hamburg'],
    ['sad news: Biscuit passed away on Sunday.', '*:biscuit', 'Biscuit'],
    // A pet gone to another home ends only a pet of that name: people go back to places too.
    ["update: Kiwi went back to my mum's — turns out I was just bird-sitting, he's hers", 'pet:kiwi', 'Kiwi'],
    ['Rex went back to his owners yesterday', 'pet:rex', 'Rex'],
    ['we had to rehome Biscuit, my son is allergic', 'pet:biscuit', 'Biscuit'],
    ["Turns out Whiskers isn't actually ours, he belongs to the neighbours.", '*:whiskers', 'Whiskers'],
    ['I quit my job last week and I feel free.', 'employer', 'job'],
    ["so it turns out I'm not actually diabetic, just borderline", '*:diabetic', 'diabetic'],
    ["I'm not really a vegetarian, I only skip meat when my flatmate cooks.", '*:vegetarian', 'vegetarian'],
    ["Good news, I'm NOT allergic to penicillin after all.", '*:allergic_to_penicillin', 'allergic to penicillin'],
  ])('%s', (text, k, was) => {
    expect(ended(text)).toEqual([[k, was]]);
  });

  it('ends the partner, whoever it was, on a break-up', () => {
    expect(ended('We broke up in the summer.').map(([k]) => k)).toEqual([
      'family:partner',
      'family:boyfriend',
      'family:girlfriend',
      'family:wife',
      'family:husband',
      'family:fiance',
    ]);
  });

  it.each([
    'If I sold my bike I could afford the trip.',
    'I would quit the choir if I had the nerve.',
    "I'm thinking about giving up coffee, I stopped tea already.",
    'My brother sold his motorbike.',
    'You should stop going to the gym so late.',
    'I dropped my phone in the sink.',
    'I have no more than ten minutes.',
    "I stopped eating it, it's too salty.",
    "I'm not vegetarian, what should I order?",
    'Go past the church, left Main Street and then right.',
    'my cousin, who left Dublin last year, is visiting.',
    "I'm not really sure what to cook tonight.",
    "I'm not actually a fan of rom-coms.",
    "You're not actually lactose intolerant, it was the iron tablets.",
    "My sister isn't vegan after all.",
    'Ana went back to her desk after lunch.',
  ])('ends nothing: %s', (text) => {
    expect(ended(text)).toEqual([]);
  });

  it('ends what a denied state names when no rule states it ("not working as … anymore")', () => {
    const denied = factsFrom(
      'en.retraction',
      "I'm not working as a courier anymore, I do the bakery's accounts now.",
    ).map((fact) => [fact['k'], fact['was']]);
    expect(denied).toEqual([['*:courier', 'courier']]);
    expect(factsFrom('en.retraction', "I'm not sure anymore.")).toEqual([]);
  });

  it('ends nothing the assistant says', () => {
    expect(ended('I sold my car last year.', 'assistant')).toEqual([]);
  });

  it('ends nothing when there is no profile yet', () => {
    expect(
      extract('I sold my car last year.', 'user', []).filter((candidate) => candidate.rule === 'en.profile.end'),
    ).toEqual([]);
  });

  it('takes the ended fact out of the current profile and keeps a new one stated beside it', () => {
    const current = {
      subject: 'user',
      facts: [
        { k: 'possession:motorbike', v: 'old Vespa motorbike' },
        { k: 'location', v: 'Turin' },
      ],
    };
    const out = extract('I sold my Vespa and moved to Milan.').filter((candidate) => candidate.type === 'profile');
    const merged = out.reduce(
      (value, candidate) => mergeValue('profile', value, candidate.value),
      current as Record<string, unknown>,
    );
    expect(merged['facts']).toEqual([{ k: 'location', v: 'Milan', since: '2026-02-18' }]);
  });
});
