import { describe, expect, it } from 'vitest';

import { silenceOf } from './speculation.js';

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

  it.each(['Thanks, please update the docs.', 'I hate long answers.', 'The launch is on 8 May 2026.', 'My dad turns 60 on the 2nd of May.', 'We fly out in May and come back in June.', 'The fair is in early May.', 'May 3 works for me.', 'Hi Alice, we decided to use Postgres.', '请尽可能简洁。', '我更喜欢用中文写技术文档。'])(
    'lets rules read: %s',
    (text) => {
      expect(silence(text)).toBeUndefined();
    },
  );
});
