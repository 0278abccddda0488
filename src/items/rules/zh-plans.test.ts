import { describe, expect, it } from 'vitest';

import type { ItemCandidate } from '../../spec/items.js';
import { createRuleExtractor } from './index.js';

// Wednesday 2026-02-18.
const TS = '2026-02-18T10:00:00Z';

function events(text: string): Array<readonly [unknown, unknown]> {
  const out = createRuleExtractor().extract({ events: [{ event_id: 'evt_1', kind: 'message', role: 'user', text, ts: TS }] }) as ItemCandidate[];
  return out.filter((candidate) => candidate.type === 'events').map((candidate) => [candidate.value['date'], candidate.value['title']] as const);
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
