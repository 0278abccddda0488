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
    const texts = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 300 }),
      fc.string({ unit: 'binary', maxLength: 120 }),
      fc.lorem({ maxCount: 60 }),
    );
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

  it('counts and cuts a text with a run too long to merge by its bytes, without stalling', () => {
    // Merging a run of 300,000 letters took minutes: such a text costs its UTF-8 bytes instead.
    for (const run of [
      'x'.repeat(300_000),
      '\u00e9'.repeat(300_000),
      '.'.repeat(300_000),
      `see ${'ab'.repeat(200)} here`,
    ]) {
      const bytes = Buffer.byteLength(run, 'utf8');
      expect(tokenizer.count(run)).toBe(bytes);
      const cut = tokenizer.truncate(run, 100);
      expect(run.startsWith(cut)).toBe(true);
      expect(Buffer.byteLength(cut, 'utf8')).toBeLessThanOrEqual(100);
      expect(tokenizer.count(cut)).toBeLessThanOrEqual(100);
      expect(cut).not.toContain('\uFFFD');
    }
    // A run shorter than that is merged as before: real tokens, far fewer than its bytes.
    expect(tokenizer.count('ab'.repeat(127))).toBeLessThan(254);
  }, 20_000);

  it('counts every group of one to three ASCII digits as one token, which its count key relies on', () => {
    for (let length = 1; length <= 3; length += 1) {
      for (let value = 0; value < 10 ** length; value += 1)
        expect(tokenizer.count(String(value).padStart(length, '0'))).toBe(1);
    }
  });

  it('gives texts of the same count key the same count', () => {
    const countKey = tokenizer.countKey!;
    expect(countKey('2026-11-25T22:45:25.407Z')).toBe('0000-00-00T00:00:00.000Z');
    // A numeric character that is not an ASCII digit may share a group with digits: such a text is its own key.
    expect(countKey('1\u0662 3')).toBe('1\u0662 3');
    const pieces = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 12 }),
      fc.stringMatching(/^[0-9]{1,9}$/),
      fc.constantFrom(' ', '.', '-', ':', 'T', 'e', '\n', '\u0662', '½', '&', 'é'),
    );
    fc.assert(
      fc.property(
        fc.array(pieces, { maxLength: 16 }),
        fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 1, maxLength: 8 }),
        (parts, digits) => {
          const text = parts.join('');
          let next = 0;
          const other = text.replace(/[0-9]/g, () => String(digits[next++ % digits.length]));
          // Texts of one key: the same count.
          if (countKey(other) === countKey(text)) expect(tokenizer.count(other)).toBe(tokenizer.count(text));
          expect(tokenizer.count(countKey(text))).toBe(tokenizer.count(text));
        },
      ),
      { numRuns: 500 },
    );
  });
});
