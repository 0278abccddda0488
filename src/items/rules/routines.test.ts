import { describe, expect, it } from 'vitest';

import { factsFrom } from './fact-test-kit.js';

const facts = (text: string, role: 'user' | 'assistant' = 'user') => factsFrom('en.profile.routine', text, role);

describe('routines', () => {
  it.each([
    [
      'I cycle to the office every weekday unless it pours.',
      'routine:cycl',
      'cycle to the office every weekday unless it pours',
    ],
    ['My sister and I go to the climbing wall on Tuesdays.', 'routine:climb', 'go to the climbing wall on Tuesdays'],
    ['I usually meditate before bed, ten minutes or so.', 'routine:medit', 'meditate before bed'],
    ["I've started rowing on the canal, twice a week.", 'routine:row', 'rowing on the canal twice a week'],
    ['on Sundays I call my grandmother in Porto.', 'routine:call', 'call my grandmother in Porto on Sundays'],
    [
      'we play padel Monday and Wednesday evenings with friends.',
      'routine:padel',
      'play padel Monday and Wednesday evenings with friends',
    ],
    ["I'm doing pilates in the mornings now.", 'routine:pilat', 'doing pilates in the mornings'],
  ])('%s', (text, k, v) => {
    expect(facts(text)).toEqual([{ k, v, since: '2026-02-18' }]);
  });

  it.each([
    'You should go for a run every morning.',
    'I used to swim every day as a kid.',
    'I swam every morning on holiday.',
    'I wish I could surf every weekend.',
    'If I walk every day, will my knee recover?',
    'I miss the sea every single day.',
    'I have to say the pastries every morning were amazing.',
    'My husband runs every evening.',
    'The bakery I go to every Friday closed down.',
    "I'm super thrilled about dancing each day and seeing my students progress.",
  ])('is no routine: %s', (text) => {
    expect(facts(text)).toEqual([]);
  });

  it('keeps nothing the assistant says it does', () => {
    expect(facts('I check the forecast every morning for you.', 'assistant')).toEqual([]);
  });
});
