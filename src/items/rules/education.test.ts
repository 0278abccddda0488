import { describe, expect, it } from 'vitest';

import { factsFrom } from './fact-test-kit.js';

const studies = (text: string, role: 'user' | 'assistant' = 'user') => factsFrom('en.profile.education', text, role);

describe('education', () => {
  it.each([
    [
      "I'm doing a master's in urban planning at TU Wien, first semester.",
      'education:tu_wien',
      "master's in urban planning at TU Wien",
    ],
    ['second-year law student at Trinity here, exams soon', 'education:trinity', 'second-year law student at Trinity'],
    [
      'I studied geology at the University of Otago.',
      'education:university_of_otago',
      'geology at the University of Otago',
    ],
    ['I graduated from Leeds in 2019.', 'education:leeds', 'graduated from Leeds'],
    ['I got into Sciences Po!!!', 'education:sciences_po', 'Sciences Po'],
    [
      'I just got accepted to the nursing programme at Dalhousie.',
      'education:dalhousie',
      'nursing programme at Dalhousie',
    ],
    ['I passed the B2 exam last week.', 'education:b2_exam', 'B2 exam'],
    [
      'I take pottery classes at the community college, Thursdays.',
      'education:pottery_classes_community',
      'pottery classes at the community college',
    ],
    ["I'm preparing for the GMAT in March.", 'education:gmat', 'GMAT'],
    // "in marine…" is no month: the field stays in the phrase.
    [
      "Quick context: I'm doing a PhD in marine biology at Uppsala, 2nd year.",
      'education:uppsala',
      'PhD in marine biology at Uppsala',
    ],
    ['I have a PhD in physics, but I work in data now.', 'education:phd_physics', 'PhD in physics'],
    ["I've got a master's in nursing.", 'education:master_nursing', "master's in nursing"],
    ["I'm learning Japanese for our trip next year.", 'education:learning_japanese', 'learning Japanese'],
    // A field of study by its name.
    ["I'm studying law at Edinburgh.", 'education:edinburgh', 'law at Edinburgh'],
    ["I'm majoring in economics.", 'education:economics', 'economics'],
  ])('%s', (text, k, v) => {
    expect(studies(text)).toEqual([{ k, v, since: '2026-02-18' }]);
  });

  it.each([
    "I'm doing the dishes.",
    'I got a cold.',
    'I passed the salt.',
    "I'm taking the train.",
    'My son studies medicine in Riga.',
    "If I got into Oxford I'd go.",
    "I'm thinking about doing a PhD.",
    'I have a question about my PhD.',
    "I'm learning a lot from this job.",
    "I'm taking law into my own hands.",
    "I'm studying the menu.",
    'Last weekend I got to volunteer at a career fair at a local school.',
    'On Friday, I got great news - I finally got the apartment near the university!',
  ])('is no study: %s', (text) => {
    expect(studies(text)).toEqual([]);
  });

  it('keeps nothing the assistant studied', () => {
    expect(studies('I studied this at university too.', 'assistant')).toEqual([]);
  });
});
