import { describe, expect, it } from 'vitest';

import { cutForModel, USE_LITE_MAX_CODE_POINTS, USE_LITE_MAX_TOKENS } from './use-lite-input.js';

describe('cutForModel', () => {
  it('leaves a text of at most 128 words and 2,048 code points as it is', () => {
    const text = Array.from({ length: USE_LITE_MAX_TOKENS }, (_, index) => `word${index}`).join(' ');
    expect(cutForModel(text)).toBe(text);
    expect(cutForModel('')).toBe('');
    expect(cutForModel('I prefer tea in the morning')).toBe('I prefer tea in the morning');
  });

  it('keeps the first 128 space-separated words of a longer text', () => {
    const words = Array.from({ length: 4000 }, (_, index) => `w${index}`);
    const cut = cutForModel(words.join(' '));
    expect(cut).toBe(words.slice(0, USE_LITE_MAX_TOKENS).join(' '));
    expect(cutForModel('word '.repeat(5000)).length).toBe(639);
  });

  it('counts every space as a word boundary, as the tokenizer does (each space starts a token)', () => {
    const text = `a${'  b'.repeat(200)}`;
    const cut = cutForModel(text);
    expect(cut.split(' ')).toHaveLength(USE_LITE_MAX_TOKENS);
    expect(text.startsWith(cut)).toBe(true);
  });

  it('cuts a run without spaces at 2,048 code points, never inside a surrogate pair', () => {
    expect(cutForModel('x'.repeat(20_000))).toBe('x'.repeat(USE_LITE_MAX_CODE_POINTS));
    const emoji = '😀'.repeat(3000);
    const cut = cutForModel(emoji);
    expect([...cut]).toHaveLength(USE_LITE_MAX_CODE_POINTS);
    expect(cut).toBe('😀'.repeat(USE_LITE_MAX_CODE_POINTS));
    const chinese = '我们周五发布新版本'.repeat(1000);
    expect(cutForModel(chinese)).toBe(chinese.slice(0, USE_LITE_MAX_CODE_POINTS));
  });

  it('cuts a 20,000-character text in well under a millisecond', () => {
    const text = 'the user said they prefer green tea in the morning '.repeat(400);
    const started = performance.now();
    for (let round = 0; round < 100; round += 1) cutForModel(text);
    expect((performance.now() - started) / 100).toBeLessThan(1);
  });
});
