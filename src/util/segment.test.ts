import { describe, expect, it } from 'vitest';

import { queryTerms, searchText, sentences, wellFormed, words } from './segment.js';

describe('segmentation', () => {
  it('splits Chinese into words, not one long token', () => {
    expect(words('我更喜欢用中文写技术文档')).toEqual(expect.arrayContaining(['喜欢', '中文', '技术']));
    expect(searchText('我更喜欢用中文')).toBe('我 更 喜欢 用 中文');
  });

  it('normalises case and width, and drops punctuation', () => {
    expect(words('Hello, ＷＯＲＬＤ!')).toEqual(['hello', 'world']);
    expect(queryTerms('Tea? tea, TEA and coffee')).toEqual(['tea', 'and', 'coffee']);
  });

  it('splits sentences in both languages', () => {
    expect(sentences('I prefer tea. 我更喜欢用中文。好的！')).toEqual(['I prefer tea.', '我更喜欢用中文。', '好的！']);
  });

  it('replaces lone surrogates so text always encodes', () => {
    expect(wellFormed('a\uD800b\uDC00c')).toBe('a\uFFFDb\uFFFDc');
    expect(wellFormed('\u{1F600}')).toBe('\u{1F600}');
    expect(() => words('\uD800 lone')).not.toThrow();
  });
});
