// The fit of a static table's rows to sentence vectors (scripts/sentence-fit.ts), on problems whose
// answer is known.

import { describe, expect, it } from 'vitest';

import { fitSentenceRows, type PieceBag } from '../scripts/sentence-fit.js';

/** A seeded generator (mulberry32), so every run fits the same problem. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Sentences of 3–7 random pieces and each one's mean row under `rows`. */
function problem(rows: Float64Array, pieces: number, d: number, count: number, next: () => number) {
  const sentences: PieceBag[] = Array.from({ length: count }, () =>
    Array.from({ length: 3 + Math.floor(next() * 5) }, () => Math.floor(next() * pieces)),
  );
  const targets = new Float64Array(count * d);
  sentences.forEach((bag, sentence) => {
    for (const id of bag) for (let k = 0; k < d; k += 1) targets[sentence * d + k]! += rows[id * d + k]! / bag.length;
  });
  return { sentences, targets };
}

function distance(a: Float64Array, b: Float64Array): number {
  return Math.sqrt(a.reduce((sum, value, index) => sum + (value - b[index]!) ** 2, 0));
}

describe('fitSentenceRows', () => {
  const pieces = 40;
  const d = 4;
  const next = random(7);
  const truth = Float64Array.from({ length: pieces * d }, () => next() * 2 - 1);
  const { sentences, targets } = problem(truth, pieces, d, 400, next);

  it('finds the rows that gave the sentences their vectors, from rows that knew nothing of them', () => {
    const start = Float64Array.from({ length: pieces * d }, () => next() * 2 - 1);
    const { rows, residuals } = fitSentenceRows({
      start,
      dimensions: d,
      sentences,
      targets,
      lambda: 1e-6,
      iterations: 60,
    });
    expect(distance(rows, truth)).toBeLessThan(0.01 * distance(start, truth));
    expect(residuals.at(-1)!).toBeLessThan(residuals[0]! * 1e-3);
  });

  it('scales the start to the sentences first, and a strong pull keeps it there', () => {
    const start = truth.map((value) => value / 3);
    const { rows, scale } = fitSentenceRows({ start, dimensions: d, sentences, targets, lambda: 1e6, iterations: 10 });
    expect(scale).toBeCloseTo(3, 6);
    expect(distance(rows, truth)).toBeLessThan(1e-6);
  });

  it('leaves a piece no sentence holds at its scaled start, and skips empty sentences', () => {
    const start = Float64Array.from({ length: (pieces + 1) * d }, (_, index) =>
      index < pieces * d ? truth[index]! : 5,
    );
    const withEmpty = [...sentences, []];
    const padded = new Float64Array(withEmpty.length * d);
    padded.set(targets);
    const { rows } = fitSentenceRows({
      start,
      dimensions: d,
      sentences: withEmpty,
      targets: padded,
      lambda: 0.1,
      iterations: 30,
    });
    expect(Array.from(rows.subarray(pieces * d))).toEqual([5, 5, 5, 5].map((value) => expect.closeTo(value, 6)));
  });

  it('gives the same rows byte for byte for the same input', () => {
    const input = {
      start: truth.map((value) => value * 0.5),
      dimensions: d,
      sentences,
      targets,
      lambda: 0.1,
      iterations: 20,
    };
    expect(Buffer.from(fitSentenceRows(input).rows.buffer)).toEqual(Buffer.from(fitSentenceRows(input).rows.buffer));
  });
});
