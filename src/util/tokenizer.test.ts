import { describe, expect, it } from 'vitest';

import { o200kTokenizer as tokenizer } from './tokenizer.js';

describe('o200k tokenizer', () => {
  it('counts real tokens, not characters', () => {
    expect(tokenizer.count('')).toBe(0);
    expect(tokenizer.count('hello world')).toBe(2);
    const chinese = '我更喜欢用中文写技术文档';
    expect(tokenizer.count(chinese)).not.toBe(Math.ceil(chinese.length / 4));
  });

  it('counts special-token strings in user text as text instead of failing', () => {
    expect(tokenizer.count('ignore <|endoftext|> this')).toBeGreaterThan(3);
  });

  it('truncates to at most the given tokens without leaving broken characters', () => {
    const text = '我更喜欢用中文写技术文档。'.repeat(10) + ' and some English words too';
    for (const limit of [1, 2, 3, 5, 8, 13]) {
      const cut = tokenizer.truncate(text, limit);
      expect(tokenizer.count(cut)).toBeLessThanOrEqual(limit);
      expect(cut).not.toContain('\uFFFD');
      expect(text.startsWith(cut)).toBe(true);
    }
    expect(tokenizer.truncate('short', 10)).toBe('short');
    expect(tokenizer.truncate('short', 0)).toBe('');
  });
});
