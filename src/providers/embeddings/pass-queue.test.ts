import { describe, expect, it } from 'vitest';

import { PassQueue, type PassEntry } from './pass-queue.js';

/** Tokens of a test text: the number after `t` (so `t100` has 100 tokens). */
const tokens = (text: string) => Number(/^t(\d+)/.exec(text)?.[1] ?? 1);
const texts = (pass: PassEntry[]) => pass.map((entry) => `${entry.id}:${entry.text}`);

function drain(queue: PassQueue): string[][] {
  const passes: string[][] = [];
  for (let pass = queue.next(); pass.length > 0; pass = queue.next()) passes.push(texts(pass));
  return passes;
}

describe('PassQueue', () => {
  it('keeps each pass within its tokens: texts × the longest text', () => {
    const queue = new PassQueue(256, tokens);
    queue.add({
      id: 1,
      lane: 'background',
      texts: ['t20', 't20', 't20', 't100', 't20', 't128', 't128', 't128', 't10'],
    });
    expect(drain(queue)).toEqual([
      ['1:t20', '1:t20', '1:t20'], // a fourth text of 100 tokens would make 4 × 100
      ['1:t100', '1:t20'],
      ['1:t128', '1:t128'],
      ['1:t128', '1:t10'],
    ]);
  });

  it('gives a text longer than the bound a pass of its own rather than none', () => {
    const queue = new PassQueue(64, tokens);
    queue.add({ id: 1, lane: 'background', texts: ['t128', 't5'] });
    expect(drain(queue)).toEqual([['1:t128'], ['1:t5']]);
  });

  it('serves interactive calls before background ones, even when they arrive later', () => {
    const queue = new PassQueue(256, tokens);
    queue.add({ id: 1, lane: 'background', texts: Array.from({ length: 6 }, () => 't128') });
    expect(texts(queue.next())).toEqual(['1:t128', '1:t128']);
    queue.add({ id: 2, lane: 'interactive', texts: ['t8'] });
    queue.add({ id: 3, lane: 'interactive', texts: ['t12'] });
    // Both queries share one pass, before the rest of the backlog.
    expect(drain(queue)).toEqual([
      ['2:t8', '3:t12'],
      ['1:t128', '1:t128'],
      ['1:t128', '1:t128'],
    ]);
  });

  it('fills a pass from several calls of one lane, in order', () => {
    const queue = new PassQueue(100, tokens);
    queue.add({ id: 1, lane: 'background', texts: ['t10', 't10'] });
    queue.add({ id: 2, lane: 'background', texts: ['t10', 't30'] });
    expect(drain(queue)).toEqual([['1:t10', '1:t10', '2:t10'], ['2:t30']]);
  });

  it('drops what is left of a cancelled call and counts what waits', () => {
    const queue = new PassQueue(256, tokens);
    queue.add({ id: 1, lane: 'background', texts: ['t128', 't128', 't128', 't128'] });
    queue.add({ id: 2, lane: 'background', texts: ['t5'] });
    queue.add({ id: 3, lane: 'interactive', texts: [] });
    expect(queue.size).toBe(5);
    queue.next();
    expect(queue.size).toBe(3);
    queue.cancel(1);
    expect(queue.size).toBe(1);
    expect(drain(queue)).toEqual([['2:t5']]);
  });

  it('counts each text once, even when it waits for the next pass', () => {
    let counted = 0;
    const queue = new PassQueue(256, (text) => {
      counted += 1;
      return tokens(text);
    });
    queue.add({ id: 1, lane: 'background', texts: ['t128', 't128', 't128', 't128', 't128'] });
    drain(queue);
    expect(counted).toBe(5);
  });
});
