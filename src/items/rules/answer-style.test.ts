import { describe, expect, it } from 'vitest';

import type { ItemCandidate } from '../../spec/items.js';
import { aboutOneAnswer } from './answer-style.js';
import { TEST_TS } from './fact-test-kit.js';
import { createRuleExtractor } from './index.js';

function preferences(text: string, role: 'user' | 'assistant' = 'user'): string[] {
  const out = createRuleExtractor().extract({
    events: [{ event_id: 'e', kind: 'message', role, text, ts: TEST_TS }],
  }) as ItemCandidate[];
  return out
    .filter((candidate) => candidate.type === 'preferences')
    .map((candidate) => `${candidate.key} = ${String(candidate.value['value'])}`);
}

describe('standing answer preferences', () => {
  it.each([
    ['could you reply in Portuguese from now on?', 'pref:writing:language = Portuguese'],
    ['you can talk to me in Dutch, it is easier for me', 'pref:writing:language = Dutch'],
    ['Hey! can you answer in German? my English is rusty', 'pref:writing:language = German'],
    ['please use plain English with me', 'pref:writing:language = plain English'],
    ['keep it brief', 'pref:writing:length = brief'],
    ['can you keep your answers shorter, five lines max?', 'pref:writing:length = shorter (five lines max)'],
    ['numbered lists pls', 'pref:writing:format = numbered lists'],
    ['more casual please', 'pref:writing:tone = more casual'],
    ['no emojis thanks', 'pref:writing:emoji = no emojis'],
    ['can you use emoji more often? it feels warmer', 'pref:writing:emoji = emoji more often'],
    [
      'could you always give the short answer first, details after?',
      'pref:writing:order = the short answer first, details after',
    ],
    ['from now on start with a two-line summary at the top', 'pref:writing:summary = two-line summary at the top'],
    ['could you give temperatures in celsius? I never remember fahrenheit', 'pref:writing:units = celsius'],
    ['can you walk through proofs step by step in general?', 'pref:writing:explanations = step by step'],
    ['以后都用英文回复我', 'pref:writing:language = 英文'],
    ['回答精简点', 'pref:writing:length = 精简'],
    ['以后分点回答', 'pref:writing:format = 分点'],
    ['你回答先说结论吧', 'pref:writing:order = 先说结论'],
  ])('%s → %s', (text, expected) => {
    expect(preferences(text)).toContain(expected);
  });

  it('lets a new instruction replace the old by its key', () => {
    const [first] = preferences('keep replies short please');
    const [second] = preferences('from now on, make your answers detailed');
    expect(first?.split(' = ')[0]).toBe(second?.split(' = ')[0]);
  });

  it.each([
    'can you make this one shorter?',
    'could you put that in a table?',
    'please make it more formal',
    'rewrite the email in French',
    'can you translate this into Spanish?',
    'do it again but shorter',
    'do you always answer in English?',
    'my boss wants replies in bullet points',
    'I write my thesis in Swedish',
    'the menu was in Italian',
    'a formal dinner on Friday',
    'I prefer my steak medium rare',
    '把这段改成表格',
    '这个写详细一点',
    '我用英文写论文',
    '我朋友喜欢用表格',
  ])('is not a standing answer preference: %s', (text) => {
    expect(preferences(text).filter((line) => line.startsWith('pref:writing:'))).toEqual([]);
  });

  it('keeps nothing the assistant says it will do', () => {
    expect(preferences("Sure, I'll keep replies short from now on.", 'assistant')).toEqual([]);
  });

  it('tells a request about one answer from one about all of them', () => {
    expect(aboutOneAnswer('make this one shorter', 'en')).toBe(true);
    expect(aboutOneAnswer('make this one shorter, and always do that from now on', 'en')).toBe(false);
    expect(aboutOneAnswer('这次写短一点', 'zh')).toBe(true);
    expect(aboutOneAnswer('以后都写短一点', 'zh')).toBe(false);
  });
});
