import fc from 'fast-check';
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

  it('truncates any text to a prefix within the limit, and a cut character never leaks into the next call', () => {
    const texts = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 300 }), fc.string({ unit: 'binary', maxLength: 120 }), fc.lorem({ maxCount: 60 }));
    fc.assert(
      fc.property(texts, fc.integer({ min: 1, max: 80 }), (text, limit) => {
        const cut = tokenizer.truncate(text, limit);
        expect(text.startsWith(cut)).toBe(true);
        expect(tokenizer.count(cut)).toBeLessThanOrEqual(limit);
        if (!text.includes('\uFFFD')) expect(cut).not.toContain('\uFFFD');
        if (tokenizer.count(text) <= limit) expect(cut).toBe(text);
      }),
      { numRuns: 400 },
    );
    // '⨉' is three tokens: one token of it is no character at all, and the next cut is clean.
    expect(tokenizer.truncate('⨉◥', 1)).toBe('');
    expect(tokenizer.truncate('⨉◥', 3)).toBe('⨉');
  });
});
