import { describe, expect, it } from 'vitest';

import type { ItemCandidate } from '../../spec/items.js';
import { createRuleExtractor } from './index.js';

const TS = '2026-02-18T10:00:00Z';

function preferences(text: string): Array<[string, unknown, string]> {
  const out = createRuleExtractor().extract({
    events: [{ event_id: 'evt_1', kind: 'message', role: 'user', text, ts: TS }],
  }) as ItemCandidate[];
  return out
    .filter((candidate) => candidate.type === 'preferences')
    .map((candidate) => [candidate.key, candidate.value['value'], candidate.rule]);
}

describe('preference rules', () => {
  it.each([
    ['I prefer a casual tone in my emails.', 'pref:writing:tone', 'casual', 'en.preference.prefer'],
    ['I prefer tea over coffee.', 'pref:other:drink', 'tea', 'en.preference.prefer'],
    ['I prefer 4 spaces for indentation.', 'pref:coding:indent', '4 spaces', 'en.preference.prefer'],
    // The topic word wins over a value word of another topic ("professional" is also a tone).
    ['I prefer a professional theme.', 'pref:ui:theme', 'professional', 'en.preference.prefer'],
    [
      'For commit messages, I prefer the imperative mood.',
      'pref:coding:commit_messages',
      'imperative mood',
      'en.preference.prefer',
    ],
    ["I'd prefer not to use emojis.", 'pref:writing:emoji', 'no emojis', 'en.preference.prefer'],
    ['My favourite editor is Neovim.', 'pref:tools:editor', 'Neovim', 'en.preference.favourite'],
    ["I'd rather have coffee than tea.", 'pref:other:drink', 'coffee', 'en.preference.rather'],
    ['Always answer in English.', 'pref:writing:language', 'English', 'en.preference.always'],
    ['Never use emojis.', 'pref:writing:emoji', 'no emojis', 'en.preference.always'],
    ['Please write in Chinese.', 'pref:writing:language', 'Chinese', 'en.preference.please'],
    ['Please keep answers short.', 'pref:writing:length', 'short', 'en.preference.please'],
    ['Could you please use dark mode?', 'pref:ui:theme', 'dark mode', 'en.preference.please'],
    ["Don't use semicolons.", 'pref:coding:semicolons', 'no semicolons', 'en.preference.dont'],
    ['I love green tea.', 'pref:other:drink', 'green tea', 'en.preference.like'],
    ['I hate long answers.', 'pref:writing:length', 'no long answers', 'en.preference.like'],
    ['我更喜欢用中文写技术文档。', 'pref:writing:language', '中文', 'zh.preference.gengxihuan'],
    ['我更喜欢正式的语气。', 'pref:writing:tone', '正式', 'zh.preference.gengxihuan'],
    ['我喜欢喝绿茶。', 'pref:other:drink', '绿茶', 'zh.preference.xihuan'],
    ['请用中文回答。', 'pref:writing:language', '中文', 'zh.preference.qingyong'],
    ['请用深色模式。', 'pref:ui:theme', '深色模式', 'zh.preference.qingyong'],
    ['始终用英文写提交信息。', 'pref:writing:language', '英文', 'zh.preference.always'],
    ['不要用表情符号。', 'pref:writing:emoji', '不要表情符号', 'zh.preference.buyao'],
    ['以后回答都用表格。', 'pref:writing:format', '表格', 'zh.preference.always'],
  ])('%s → %s = %s', (text, key, value, rule) => {
    expect(preferences(text)).toEqual([[key, value, rule]]);
  });

  it('keeps the priority of instructions above that of likes', () => {
    const [instruction] = createRuleExtractor().extract({
      events: [{ event_id: 'e', kind: 'message', role: 'user', text: 'Never use emojis.', ts: TS }],
    }) as ItemCandidate[];
    const [like] = createRuleExtractor().extract({
      events: [{ event_id: 'e', kind: 'message', role: 'user', text: 'I like green tea.', ts: TS }],
    }) as ItemCandidate[];
    expect(instruction!.value['priority']).toBe(0.9);
    expect(like!.value['priority']).toBe(0.6);
    expect(like!.confidence).toBeLessThan(instruction!.confidence);
  });

  it.each([
    'I like this idea.',
    'I love it when a plan comes together.',
    "I'd like to see the logs.",
    'Use the staging server.',
    "Don't forget the milk.",
    '我喜欢这个想法。',
    '不要担心。',
    '以后回答不用那么正式了。',
  ])('is not a preference: %s', (text) => {
    expect(preferences(text)).toEqual([]);
  });
});
