import { describe, expect, it } from 'vitest';

import { factsFrom } from './fact-test-kit.js';

const facts = (text: string, role: 'user' | 'assistant' = 'user') => factsFrom('en.profile.possession', text, role);

describe('possessions', () => {
  it.each([
    ['We just bought a used Skoda Octavia, so road trips are back on.', 'possession:car', 'used Skoda Octavia'],
    ['I have a Surface Laptop 5 but the battery is dying.', 'possession:laptop', 'Surface Laptop 5'],
    ["I've got an old upright piano in the hallway.", 'possession:piano', 'old upright piano'],
    ['I drive a Kia Niro, how far can it go in the cold?', 'possession:car', 'Kia Niro'],
    // A named thing called the user's own, whatever the verb; money spent on a thing buys it.
    ['my Dell XPS from 2018 is getting slow', 'possession:laptop', 'Dell XPS'],
    ['our 2011 Subaru Outback makes a horrible grinding noise', 'possession:car', '2011 Subaru Outback'],
    // A part of the thing: the thing is the user's.
    ["My ThinkPad's screen cracked yesterday, the cat knocked it off the desk", 'possession:laptop', 'ThinkPad'],
    ['spent some of it on a Roland FP-30X so I can practise at night', 'possession:piano', 'Roland FP-30X'],
    ['treated myself to a Fujifilm X100V this week!', 'possession:camera', 'Fujifilm X100V'],
    ['I finally caved and ordered an e-bike for the hills.', 'possession:bike', 'e-bike'],
    ['We live on a converted houseboat near Utrecht.', 'possession:boat', 'converted houseboat'],
    [
      'I picked up a drone last month, a DJI Mini 3, and the footage is lovely.',
      'possession:drone',
      'drone, DJI Mini 3',
    ],
    ['Swapped the Nikon at a market stall for a Leica M6!', 'possession:camera', 'Leica M6'],
  ])('%s', (text, k, v) => {
    expect(facts(text)).toEqual([{ k, v, since: '2026-02-18' }]);
  });

  it.each([
    'I have a question about my car insurance.',
    'If I ever get a car I will learn to drive properly.',
    "I'm saving up for a camera.",
    'I got a job at the museum!',
    'My brother bought a Tesla.',
    'I have a bad cold.',
    'You should get a dehumidifier or a heat pump.',
    'Should I buy a Kindle or a Kobo?',
    'I want to buy a new bike.',
  ])('is no possession: %s', (text) => {
    expect(facts(text)).toEqual([]);
  });

  it("keeps no thing someone else owns, one parted with, one named only by its kind, or more of a name than the thing ('car insurance')", () => {
    for (const text of [
      "trying to sell my mum's old Yamaha upright piano",
      "my brother's Honda broke down again",
      'I sold my Vespa last week',
      'my laptop died',
      'my car insurance is due',
      'My brother bought a Tesla.',
    ])
      expect(facts(text), text).toEqual([]);
  });

  it('keeps nothing the assistant says it has', () => {
    expect(facts('I have a laptop with the same issue.', 'assistant')).toEqual([]);
  });
});
