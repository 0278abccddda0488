import { describe, expect, it } from 'vitest';

import { bestSnippet, cueMatcher } from './best-sentence.js';

const pool = [
  'Thanks for the tip, Caroline. Doing research and readying myself emotionally makes sense.',
  'Thanks, Caroline!',
  'Glad you agree, Caroline.',
  'Researching adoption agencies has been a dream.',
];

describe('the sentence a passage shows for the cues', () => {
  it('prefers the sentence with the rarer term, and finds a term by its stem', () => {
    const matcher = cueMatcher(['caroline', 'research'], pool);
    expect(bestSnippet(pool[0]!, matcher, 0)).toBe('Doing research and readying myself emotionally makes sense.');
    expect(bestSnippet('I was researching it. Caroline called.', matcher, 0)).toBe('I was researching it.');
  });

  it('matches at word starts only, so a stem inside another word does not count', () => {
    const matcher = cueMatcher(['art'], ['I love art classes.', 'We start at nine.']);
    expect(bestSnippet('We start at nine. Art is fun.', matcher, 0)).toBe('Art is fun.');
    expect(bestSnippet('We start at nine.', matcher, 0)).toBeUndefined();
  });

  it('finds Chinese terms anywhere in the sentence', () => {
    const matcher = cueMatcher(['中文'], ['我更喜欢用中文写文档。']);
    expect(bestSnippet('今天很忙。我更喜欢用中文写文档。', matcher, 0)).toBe('我更喜欢用中文写文档。');
  });

  it('takes the first of equally good sentences, and nothing without cue terms', () => {
    const matcher = cueMatcher(['tea'], ['Tea at noon. Tea at five.']);
    expect(bestSnippet('Tea at noon. Tea at five.', matcher, 0)).toBe('Tea at noon.');
    expect(bestSnippet('Tea at noon.', cueMatcher([], []), 0)).toBeUndefined();
  });
});

describe('the snippet a passage shows for the cues', () => {
  const text =
    'Hey Mel! The concert last night was great. It was Matt Patterson, he is so talented. Anyway, how are the kids doing these days?';

  it('widens the best sentence with the sentences after it, then before it, within the words allowed', () => {
    const matcher = cueMatcher(['concert'], [text]);
    expect(bestSnippet(text, matcher, 6)).toBe('The concert last night was great.');
    expect(bestSnippet(text, matcher, 14)).toBe(
      'The concert last night was great. It was Matt Patterson, he is so talented.',
    );
    expect(bestSnippet(text, matcher, 16)).toBe(
      'Hey Mel! The concert last night was great. It was Matt Patterson, he is so talented.',
    );
    expect(bestSnippet(text, matcher, 100)).toBe(text);
    // The best sentence is shown even when it alone is longer than the words allowed.
    expect(bestSnippet(text, matcher, 2)).toBe('The concert last night was great.');
  });

  it('keeps Chinese sentences as written, and gives nothing without a cue term', () => {
    const chinese = '今天很忙。我更喜欢用中文写文档。谢谢！';
    expect(bestSnippet(chinese, cueMatcher(['中文'], [chinese]), 40)).toBe(chinese);
    expect(bestSnippet(text, cueMatcher(['tea'], [text]), 40)).toBeUndefined();
  });
});
