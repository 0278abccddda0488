import { describe, expect, it } from 'vitest';

import type { ItemCandidate } from '../../spec/items.js';
import { createRuleExtractor } from './index.js';

// Wednesday 2026-02-18: "Friday" is 2026-02-20, "tomorrow" 2026-02-19, "next Monday" 2026-02-23.
const TS = '2026-02-18T10:00:00Z';

function tasks(text: string, role: 'user' | 'assistant' = 'user'): Array<readonly [string, string, unknown, unknown]> {
  const events = [{ event_id: 'evt_1', kind: 'message' as const, role, text, ts: TS }];
  const out = createRuleExtractor().extract({ events }) as ItemCandidate[];
  return out
    .filter((candidate) => candidate.type === 'tasks')
    .map((candidate) => [candidate.rule, candidate.key, candidate.value['title'], candidate.value['due']] as const);
}

describe("the assistant's words", () => {
  it.each([
    'I need to find a dog-friendly spot soon so I can get exploring again!',
    "Don't forget to renew your passport before the trip.",
    'TODO: book the train, pack the charger.',
    'Remind me to check the weather on Friday.',
  ])('make no task of the user: %s', (text) => {
    expect(tasks(text, 'assistant')).toEqual([]);
  });
});

describe('en.task.need-to', () => {
  it.each([
    [
      'I need to update the onboarding docs by Friday.',
      'task:general:update_onboarding_docs',
      'update the onboarding docs',
      '2026-02-20',
    ],
    ['I have to renew my passport.', 'task:general:renew_passport', 'renew my passport', undefined],
    ["I've got to finish the slides for Monday.", 'task:general:finish_slides', 'finish the slides', '2026-02-23'],
    ['I have got to call the landlord.', 'task:general:call_landlord', 'call the landlord', undefined],
    [
      'We need to get the word out about the chili cook-off.',
      'task:general:word_chili_cook_off',
      'get the word out about the chili cook-off',
      undefined,
    ],
    [
      'I still have to review the pull request.',
      'task:general:review_pull_request',
      'review the pull request',
      undefined,
    ],
    [
      'We must migrate the database by 2026-03-01.',
      'task:general:migrate_database',
      'migrate the database',
      '2026-03-01',
    ],
    ['I need to do the laundry tonight.', 'task:general:laundry', 'do the laundry', '2026-02-18'],
    [
      'I just realized I need to renew my car insurance.',
      'task:general:renew_car_insurance',
      'renew my car insurance',
      undefined,
    ],
    [
      'Need to take the laptop in for repair this week, I have a deadline',
      'task:general:take_laptop_repair_week',
      'take the laptop in for repair this week',
      undefined,
    ],
    [
      "I have to give a 10 minute talk at a conference and I'm terrified.",
      'task:general:give_10_minute_talk_conference',
      'give a 10 minute talk at a conference',
      undefined,
    ],
    // A place or time after the verb: a plan.
    [
      'I have to stay at the office until 8 tonight.',
      'task:general:stay_office_8',
      'stay at the office until 8',
      '2026-02-18',
    ],
    ['I need to be at the airport by 6.', 'task:general:airport_6', 'be at the airport by 6', undefined],
    [
      'I need to keep the receipts for my taxes.',
      'task:general:keep_receipts_taxes',
      'keep the receipts for my taxes',
      undefined,
    ],
    // "keep" with a thing ending in -ing is no frame of mind.
    [
      'I need to keep everything in one folder for the accountant.',
      'task:general:keep_everything_one_folder_accountant',
      'keep everything in one folder for the accountant',
      undefined,
    ],
    [
      'I need to keep building the app this week.',
      'task:general:keep_building_app_week',
      'keep building the app this week',
      undefined,
    ],
  ])('is a task: %s', (text, key, title, due) => {
    expect(tasks(text)).toEqual([['en.task.need-to', key, title, due]]);
  });

  it.each([
    // Past: "got to" is a chance taken, "had to" and "needed to" are done.
    'Almost as silly as when I got to feed a horse a carrot.',
    'Last Monday I got to teach people vegan ice cream recipes on my own cooking show!',
    'We got to see some epic spots.',
    'I had to cancel the trip to Lisbon.',
    'I needed to call the bank about my card.',
    // A noun phrase or a wh-clause around "have to do": a remark, not a to-do.
    'It made me think how much work we still have to do for LGBTQ rights.',
    "That's what we have to do for the kids.",
    'All I need to do is sign the lease.',
    "There's so much I need to learn about gardening.",
    'The amount of work we have to do for the festival is huge.',
    // Conditions, general remarks, questions without a question mark, reported words.
    "It's tough when we have to confront our own health challenges.",
    "If I have to redo the whole report, I'll quit.",
    'Do we have to bring anything to the party.',
    "It's reminding me we need to fix things up in our community.",
    // Guesses and reactions.
    'I must have left my keys at the office.',
    // A thing not named.
    'ok I need to correct something lol.',
    'I have to tell you something.',
    'Need to know if the shop is open.',
    'anyway, gotta get back to work now.',
    'Got to meet the whole team today, so fun.',
    'I must be getting old these days.',
    'I need to try baking that!',
    'I have to check that out.',
    'I have to tell you about my trip.',
    // A frame of mind to keep.
    "Gotta stay resilient and focused, that's key!",
    'Gotta stay strong and keep making a difference, even in challenging times.',
    'Gotta stay safe on the trip.',
    'We need to show our support however we can.',
    'Gotta focus on success and why I started.',
    'I need to be patient with myself.',
    'I have to keep pushing.',
  ])('is not a task: %s', (text) => {
    expect(tasks(text)).toEqual([]);
  });
});

describe('joined tasks', () => {
  it('makes one task of each errand joined in one obligation', () => {
    expect(tasks('I need to return the library books by Friday, and renew my bus pass.').map(([, key]) => key)).toEqual(
      ['task:general:return_library_books', 'task:general:renew_bus_pass'],
    );
    expect(tasks('we have to book the vet and also order more cat food').map(([, , title]) => title)).toEqual([
      'book the vet',
      'order more cat food',
    ]);
  });

  it('keeps one task when the second verb shares the object or is no errand', () => {
    expect(tasks('I need to clean and paint the fence.')).toHaveLength(1);
    expect(tasks('I have to finish the essay and relax a bit.')).toHaveLength(1);
  });
});

describe('en.task.remind', () => {
  it.each([
    ['Remind me to renew the domain next Monday.', 'task:general:renew_domain', 'renew the domain', '2026-02-23'],
    [
      'Please remind me about the dentist appointment.',
      'task:general:dentist_appointment',
      'dentist appointment',
      undefined,
    ],
    ['Can you remind me to send the invoice on Friday?', 'task:general:send_invoice', 'send the invoice', '2026-02-20'],
    ['Could you please remind me to water the plants?', 'task:general:water_plants', 'water the plants', undefined],
    ['Oh, and remind me to book the flights.', 'task:general:book_flights', 'book the flights', undefined],
    ['Remind me tomorrow to call the bank.', 'task:general:call_bank', 'call the bank', '2026-02-19'],
    ["Don't forget to email the investors.", 'task:general:email_investors', 'email the investors', undefined],
    ['Don\u2019t forget to email the investors.', 'task:general:email_investors', 'email the investors', undefined],
    ['Please do not forget about the budget review.', 'task:general:budget_review', 'budget review', undefined],
    ["Don't let me forget the slides for the demo.", 'task:general:slides_demo', 'slides for the demo', undefined],
    [
      "Don't forget to take photos of the receipts.",
      'task:general:take_photos_receipts',
      'take photos of the receipts',
      undefined,
    ],
  ])('is a task: %s', (text, key, title, due) => {
    expect(tasks(text)).toEqual([['en.task.remind', key, title, due]]);
  });

  it.each([
    // "Remind me of" is a memory, not a request; neither is a thing or person reminding the speaker.
    'These figurines I bought yesterday remind me of family love.',
    'It reminds me of family love.',
    'Remind me of that day.',
    'They were an important part of my wedding decor and always remind me of that day.',
    'Moments like these remind me to appreciate the ones I love.',
    'That reminded me to call my sister.',
    'I have a painting in my room to remind me to stay true and be a leader in everything I do.',
    'They motivate me and remind me why I am doing this.',
    "Your pup is so cute, remind me what's their name?",
    // "Don't forget" as advice or a kind word, or without anything to do.
    "Don't forget to enjoy the journey.",
    "Reach for your goals and don't forget to enjoy the journey.",
    "Don't forget to take care of yourself and have some fun too!",
    "Don't forget to take it easy and look after yourself.",
    "And don't forget to stay positive and motivate others.",
    "Don't forget to take some nice pictures!",
    "Don't forget the details!",
    "Rejections suck, but don't forget they don't define you.",
    "I don't forget to water the plants.",
  ])('is not a task: %s', (text) => {
    expect(tasks(text)).toEqual([]);
  });
});

describe('en.task.joined', () => {
  it('takes a second thing to do said a sentence after the first', () => {
    expect(
      tasks('I need to get the gutters cleared. and file my tax return by end of October, always leave it late').map(
        ([rule, key]) => [rule, key],
      ),
    ).toEqual([
      ['en.task.need-to', 'task:general:gutters_cleared'],
      ['en.task.joined', 'task:general:file_tax_return'],
    ]);
  });

  it('is no task without a first one', () => {
    expect(tasks('and file the report with the rest, the boss said.')).toEqual([]);
  });
});

describe('en.task.list', () => {
  it('takes each thing of a list of things to do', () => {
    expect(
      tasks(
        "ok adulting list for jan: renew my passport, get the boiler serviced, and pay the deposit for Mira's place at the nursery. what order??",
      ).map(([rule, key]) => [rule, key]),
    ).toEqual([
      ['en.task.list', 'task:general:renew_passport'],
      ['en.task.list', 'task:general:boiler_serviced'],
      ['en.task.list', 'task:general:pay_deposit_mira_place_nursery'],
    ]);
    expect(
      tasks(
        'stuff hanging over me: the insurance claim for the burst pipe, clearing the gutters before the next storm',
      ).map(([, key]) => key),
    ).toEqual(['task:general:insurance_claim_burst_pipe', 'task:general:clearing_gutters_next_storm']);
  });

  it("is no list of the user's without one", () => {
    expect(tasks('The list of things I love: rain, books and tea.')).toEqual([]);
    expect(tasks('here is the to-do list: you pick.')).toEqual([]);
  });
});
