import { describe, expect, it } from 'vitest';

import type { ItemCandidate } from '../../spec/items.js';
import { mergeValue } from '../values.js';
import { factsFrom, TEST_TS } from './fact-test-kit.js';
import { createRuleExtractor } from './index.js';

const replaced = (text: string, role: 'user' | 'assistant' = 'user') =>
  factsFrom('en.profile.replace', text, role).map((fact) => [fact['k'], fact['was'], fact['now']]);

describe('facts the user changes by naming the old value and the new', () => {
  it.each([
    ['Our choir practice got moved from Tuesday to Thursday.', '*:tuesday', 'Tuesday', 'Thursday'],
    ['we switched book club from Mondays to Wednesdays because of the new baby', '*:monday', 'Monday', 'Wednesday'],
    ['my physio rescheduled the sessions from Friday to Monday, annoying', '*:friday', 'Friday', 'Monday'],
    ['Sorry, I said 5 March earlier, it is actually 15 March.', '*:5_march', '5 March', '15 March'],
    ["oh wait I told you June 4th but it's actually June 14th", '*:june_4th', 'June 4th', 'June 14th'],
    ["The party is not on 9 May, it's on 19 May.", '*:9_may', '9 May', '19 May'],
  ])('%s', (text, k, was, now) => {
    expect(replaced(text)).toEqual([[k, was, now]]);
  });

  it.each([
    'I work from Monday to Friday.',
    'The festival runs from Thursday to Sunday this year.',
    'Should we move the dinner from Friday to Saturday?',
    'If they moved it from Monday to Tuesday I could come.',
    "It's actually June 14th.",
    'I moved from Berlin to Lisbon.',
    'I said June 4th and it is June 4th, nothing actually changed.',
  ])('changes nothing: %s', (text) => {
    expect(replaced(text)).toEqual([]);
  });

  it('changes nothing the assistant says', () => {
    expect(replaced("I've moved your reminder from Monday to Tuesday.", 'assistant')).toEqual([]);
  });

  it('keeps the changed fact under its k with the new value', () => {
    const current = {
      subject: 'user',
      facts: [
        { k: 'routine:pottery', v: 'pottery class every Wednesday evening' },
        { k: 'location', v: 'Leeds' },
      ],
    };
    const out = createRuleExtractor().extract({
      events: [
        {
          event_id: 'evt_1',
          kind: 'message',
          role: 'user',
          text: 'heads up, pottery moved from Wednesday to Thursday.',
          ts: TEST_TS,
        },
      ],
      known_keys: ['profile:user'],
    }) as ItemCandidate[];
    const merged = out
      .filter((candidate) => candidate.type === 'profile')
      .reduce((value, candidate) => mergeValue('profile', value, candidate.value), current as Record<string, unknown>);
    expect(merged['facts']).toEqual([
      { k: 'routine:pottery', v: 'pottery class every Thursday evening', since: '2026-02-18' },
      { k: 'location', v: 'Leeds' },
    ]);
  });

  it('swaps a Chinese date the user corrects in the fact that holds it, and nothing without a correction', () => {
    const zh = (text: string) =>
      factsFrom('zh.profile.replace', text).map((fact) => [fact['k'], fact['was'], fact['now']]);
    expect(zh('完了，我把她生日记错了，是8月7号，不是7月8号，差点翻车')).toEqual([['*:7月8号', '7月8号', '8月7号']]);
    expect(zh('我记错了，不是3月5号，是3月15号')).toEqual([['*:3月5号', '3月5号', '3月15号']]);
    expect(zh('等一下我前天说错了，朵朵是8月16号生日，不是6月18号😂')).toEqual([['*:6月18号', '6月18号', '8月16号']]);
    expect(zh('是8月7号，不是7月8号')).toEqual([]);
    const current = { subject: 'user', facts: [{ k: 'birthday:girlfriend', v: '女朋友苏苏生日7月8号' }] };
    const [swap] = createRuleExtractor().extract({
      events: [
        {
          event_id: 'evt_1',
          kind: 'message',
          role: 'user',
          text: '我把她生日记错了，是8月7号，不是7月8号',
          ts: TEST_TS,
        },
      ],
      known_keys: ['profile:user'],
    }) as ItemCandidate[];
    expect(mergeValue('profile', current, swap!.value)['facts']).toEqual([
      { k: 'birthday:girlfriend', v: '女朋友苏苏生日8月7号', since: '2026-02-18' },
    ]);
  });
});
