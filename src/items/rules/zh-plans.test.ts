import { describe, expect, it } from 'vitest';

import type { ItemCandidate } from '../../spec/items.js';
import { createRuleExtractor } from './index.js';

// Wednesday 2026-02-18.
const TS = '2026-02-18T10:00:00Z';

function events(text: string): Array<readonly [unknown, unknown]> {
  const out = createRuleExtractor().extract({
    events: [{ event_id: 'evt_1', kind: 'message', role: 'user', text, ts: TS }],
  }) as ItemCandidate[];
  return out
    .filter((candidate) => candidate.type === 'events')
    .map((candidate) => [candidate.value['date'], candidate.value['title']] as const);
}

describe('zh.event.dated: plans and occasions on a date', () => {
  it.each([
    ['6月3号要去厦门玩几天！', '2026-06-03'],
    ['机票改到了7月20号出发。', '2026-07-20'],
    ['5月8号是我们结婚三周年。', '2026-05-08'],
    ['驾照科目一约在3月9号考。', '2026-03-09'],
    ['牙医让我3月2号去复查。', '2026-03-02'],
  ])('%s', (text, date) => {
    expect(events(text)).toEqual([[date, text.replace(/[。！]+$/u, '')]]);
  });

  it.each(['3月12号天气不错。', '明天再聊。'])('is no event without an occasion: %s', (text) => {
    expect(events(text)).toEqual([]);
  });
});

describe('plans corrected and done', () => {
  const changes = (text: string, known: readonly string[]) =>
    (
      createRuleExtractor().extract({
        events: [{ event_id: 'evt_1', kind: 'message', role: 'user', text, ts: TS }],
        known_keys: [...known],
      }) as ItemCandidate[]
    )
      .filter((candidate) => candidate.type === 'events')
      .map((candidate) => `${candidate.action} ${candidate.key} ${String(candidate.value['status'] ?? '')}`.trim());

  it('moves a day said wrong to the right one', () => {
    expect(
      changes('完了，我把她生日记错了，是8月7号，不是7月8号，差点翻车', ['event:general:2026-07-08:生日']),
    ).toEqual(['retract event:general:2026-07-08:生日', 'upsert event:general:2026-08-07:生日']);
  });

  it('keeps what a plan no longer is out of its title', () => {
    expect(events('闺蜜婚礼地点换了，不在巴厘岛办了，改到隔壁的龙目岛，日子还是8月22号')).toEqual([
      ['2026-08-22', '闺蜜婚礼地点换了，改到隔壁的龙目岛，日子还是8月22号'],
    ]);
  });

  it('ends the day a plan was held on when it is told again, changed, on another day', () => {
    const wedding = '闺蜜婚礼地点换了，不在巴厘岛办了，改到隔壁的龙目岛，日子还是8月22号';
    expect(changes(wedding, ['event:general:2026-08-01:婚礼'])).toEqual([
      'upsert event:general:2026-08-22:婚礼',
      'retract event:general:2026-08-01:婚礼',
    ]);
    expect(changes('we changed the offsite: it is on 14 May now', ['event:general:2026-05-07:offsite'])).toEqual([
      'upsert event:general:2026-05-14:offsite',
      'retract event:general:2026-05-07:offsite',
    ]);
    // Without a word of change it is another occasion of the same name; two known of that name: which one is unclear.
    expect(changes('the offsite is on 14 May', ['event:general:2026-05-07:offsite'])).toEqual([
      'upsert event:general:2026-05-14:offsite',
    ]);
    expect(changes(wedding, ['event:general:2026-08-01:婚礼', 'event:general:2026-05-01:婚礼'])).toEqual([
      'upsert event:general:2026-08-22:婚礼',
    ]);
  });

  it('marks a plan whose day has come done, in Chinese and English', () => {
    expect(changes('科目二过了！满分！', ['event:general:2026-02-16:科目二'])).toEqual([
      'upsert event:general:2026-02-16:科目二 done',
    ]);
    expect(
      changes('the interview went really well, they liked my portfolio', ['event:general:2026-02-17:interview_acme']),
    ).toEqual(['upsert event:general:2026-02-17:interview_acme done']);
    // Not before its day: "the booking is done" says it was made.
    expect(changes('科目二过了！', ['event:general:2026-03-16:科目二'])).toEqual([]);
  });
});
