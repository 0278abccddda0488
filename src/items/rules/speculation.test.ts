import { describe, expect, it } from 'vitest';

import type { ItemCandidate } from '../../spec/items.js';
import { TEST_TS } from './fact-test-kit.js';
import { createRuleExtractor } from './index.js';
import { hedgedSpans, readingOf, silenceOf } from './speculation.js';

const silence = (text: string) => silenceOf(text.toLowerCase(), /\p{Script=Han}/u.test(text));

describe('silenceOf', () => {
  it.each([
    ['Hi!', 'small_talk'],
    ['Hello there, thanks a lot!', 'small_talk'],
    ['ok cool', 'small_talk'],
    ['How are you doing?', 'small_talk'],
    ['你好！', 'small_talk'],
    ['好的，谢谢！', 'small_talk'],
    ['Ugh, this is broken again', 'venting'],
    ['I hate Mondays', 'venting'],
    ['烦死了', 'venting'],
    ['Maybe we use Redis', 'speculation'],
    ['I think the launch is on Friday', 'speculation'],
    ['It might be the cache', 'speculation'],
    ['We may switch later', 'speculation'],
    ['You may want to book early', 'speculation'],
    ["I'm not sure about Postgres", 'speculation'],
    ['也许用Redis', 'speculation'],
    ['我觉得可以', 'speculation'],
    ['大概下周', 'speculation'],
  ])('%s → %s', (text, reason) => {
    expect(silence(text)).toBe(reason);
  });

  it.each([
    'Thanks, please update the docs.',
    'I hate long answers.',
    'The launch is on 8 May 2026.',
    'My dad turns 60 on the 2nd of May.',
    'We fly out in May and come back in June.',
    'The fair is in early May.',
    'May 3 works for me.',
    'Hi Alice, we decided to use Postgres.',
    '请尽可能简洁。',
    '我更喜欢用中文写技术文档。',
  ])('lets rules read: %s', (text) => {
    expect(silence(text)).toBeUndefined();
  });
});

/** The words a hedge leaves for the rules: the sentence with its governed spans dropped. */
function unhedged(text: string): string {
  const lower = text.toLowerCase();
  let out = lower;
  for (const [from, to] of hedgedSpans(lower, /\p{Script=Han}/u.test(text)).reverse())
    out = out.slice(0, from) + out.slice(to);
  return out.replace(/\s+/g, ' ').trim();
}

/** Every candidate's key and value for one user message. */
function extracted(text: string): string[] {
  const out = createRuleExtractor().extract({
    events: [{ event_id: 'e', kind: 'message', role: 'user', text, ts: TEST_TS }],
    known_keys: ['profile:user'],
  }) as ItemCandidate[];
  return out
    .filter((candidate) => candidate.type !== 'entities')
    .map((candidate) => `${candidate.key} ${JSON.stringify(candidate.value)}`);
}

describe('hedges govern their clause', () => {
  it.each([
    ['I get headaches, probably once a week, from the screen', 'i get headaches,, from the screen'],
    ['We moved to Tromsø, perhaps for good', 'we moved to tromsø,'],
    ['I have a cat and maybe a second one soon', 'i have a cat and'],
    ['I live in Oslo, but I think we will move to Bergen', 'i live in oslo, but'],
    ['so vegan I guess', 'so vegan'],
    ['It might be the cache', ''],
    ['I think the launch is on Friday, and the demo on Monday', ''],
    ['I guess so.', '.'],
    ['我在杭州上班，可能明年换工作', '我在杭州上班，'],
    ['我觉得他会搬到上海', ''],
  ])('%s → "%s"', (text, left) => {
    expect(unhedged(text)).toBe(left);
  });

  it('still gives the retention gate its reason, and silences small talk and venting whole', () => {
    expect(silenceOf('i live in oslo, maybe for good', false)).toBe('speculation');
    expect(readingOf('thanks so much!', false)).toEqual({ silence: 'small_talk' });
    expect(readingOf('ugh, this is broken again', false)).toEqual({ silence: 'venting' });
  });

  it('silences venting after a statement in its own clause only', () => {
    const lower = 'laptop is back with a new screen, 180 euros ugh.';
    const reading = readingOf(lower, false);
    expect(reading.silence).toBeUndefined();
    expect(reading.silence === undefined ? reading.hedged.map(([start, end]) => lower.slice(start, end)) : []).toEqual([
      ' 180 euros ugh',
    ]);
    expect(extracted('I moved to Lisbon last month, the rent is insane ugh').join('\n')).toContain('Lisbon');
    expect(extracted('期末周要崩溃了，我在武汉大学读大二，学的土木工程').join('\n')).toContain('武汉大学');
    expect(readingOf('i live in oslo', false)).toEqual({ hedged: [] });
  });

  it.each([
    ['I suffer from migraines, maybe three a month, mostly at work.', 'health:migraines'],
    ['Gave up meat in January, so vegetarian I suppose.', 'vegetarian'],
    ['I work as a translator, probably not for long though.', 'translator'],
    ['这周要把签证材料交了，使馆好像周五关门', '签证材料'],
  ])('keeps the fact outside the hedge: %s', (text, held) => {
    expect(extracted(text).join('\n')).toContain(held);
  });

  it.each([
    'Maybe I will adopt a dog called Rex.',
    'I think I might be allergic to cats.',
    'Perhaps we should move to Lisbon next year.',
    'If I ever get a dog I will call him Rex.',
    'Do I have to renew my passport, maybe?',
    '如果我以后养狗，就叫它旺财',
    '我可能下个月搬到上海',
    'Not sure yet, I think my sister is moving to Lyon.',
  ])('states nothing: %s', (text) => {
    expect(extracted(text)).toEqual([]);
  });
});
