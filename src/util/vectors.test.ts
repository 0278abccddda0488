import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { EngramError } from '../spec/errors.js';
import { dot, fromBlob, normalise, toBlob, topK } from './vectors.js';

function naiveTopK(query: Float32Array, candidates: Array<{ id: string; vector: Float32Array }>, k: number) {
  return candidates
    .map(({ id, vector }) => ({ id, score: dot(query, vector) }))
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .slice(0, k);
}

describe('normalise', () => {
  it('scales to unit length without changing direction, from numbers or float32', () => {
    const unit = normalise([3, 4]);
    expect(unit).toBeInstanceOf(Float32Array);
    expect([...unit]).toEqual([Math.fround(0.6), Math.fround(0.8)]);
    const input = new Float32Array([0, -2, 0, 0, 0]);
    expect([...normalise(input)]).toEqual([0, -1, 0, 0, 0]);
    expect([...input]).toEqual([0, -2, 0, 0, 0]);
  });

  it('leaves a zero vector at zero instead of dividing by zero', () => {
    expect([...normalise([0, 0, 0])]).toEqual([0, 0, 0]);
  });
});

describe('dot', () => {
  it('is the cosine of unit vectors, for every length (the unrolled loop and its tail)', () => {
    for (let length = 1; length <= 9; length += 1) {
      const a = normalise(Array.from({ length }, (_, index) => index + 1));
      const b = normalise(Array.from({ length }, (_, index) => (index % 2 === 0 ? 1 : -1)));
      const expected = a.reduce((sum, value, index) => sum + value * b[index]!, 0);
      expect(dot(a, b)).toBeCloseTo(expected, 6);
      expect(dot(a, a)).toBeCloseTo(1, 6);
    }
    expect(dot(normalise([1, 1]), normalise([1, 0]))).toBeCloseTo(Math.SQRT1_2, 6);
  });

  it('refuses vectors of different dimensions', () => {
    const error = (() => {
      try {
        dot(new Float32Array(3), new Float32Array(4));
      } catch (caught) {
        return caught;
      }
    })();
    expect(EngramError.isInstance(error) && error.code).toBe('INTERNAL');
  });
});

describe('toBlob / fromBlob', () => {
  it('writes little-endian float32 and reads it back exactly', () => {
    expect([...toBlob(new Float32Array([1, -2]))]).toEqual([0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x00, 0xc0]);
    const vector = new Float32Array([0.1, -0.5, 3.25, Number.MIN_VALUE, 1e30]);
    expect([...fromBlob(toBlob(vector))]).toEqual([...vector]);
  });

  it('copies in both directions, so later writes to one side do not leak into the other', () => {
    const vector = new Float32Array([1, 2]);
    const blob = toBlob(vector);
    vector[0] = 9;
    expect(fromBlob(blob)[0]).toBe(1);
    const back = fromBlob(blob);
    blob.fill(0);
    expect(back[1]).toBe(2);
  });

  it('reads bytes at an odd offset (as drivers hand out slices of a larger buffer)', () => {
    const bytes = toBlob(new Float32Array([1.5, -7]));
    const shifted = Buffer.alloc(bytes.length + 1);
    bytes.copy(shifted, 1);
    expect([...fromBlob(shifted.subarray(1))]).toEqual([1.5, -7]);
    expect([...fromBlob(new Uint8Array(shifted.buffer, shifted.byteOffset + 1, 8))]).toEqual([1.5, -7]);
  });

  it('writes only the viewed part of a subarray', () => {
    const whole = new Float32Array([1, 2, 3, 4]);
    expect([...fromBlob(toBlob(whole.subarray(1, 3)))]).toEqual([2, 3]);
  });

  it('rejects a byte length that is not a multiple of 4', () => {
    expect(() => fromBlob(Buffer.alloc(6))).toThrow(/multiple of 4 bytes, got 6/);
  });
});

describe('topK', () => {
  const vectors = (rows: number[][]) => rows.map((row, index) => ({ id: `id${index}`, vector: normalise(row) }));

  it('returns the k most similar ids, highest first, with their scores', () => {
    const candidates = vectors([
      [0, 1],
      [1, 1],
      [1, 0.1],
      [-1, 0],
      [1, 0],
    ]);
    const result = topK(normalise([1, 0]), candidates, 3);
    expect(result.map((hit) => hit.id)).toEqual(['id4', 'id2', 'id1']);
    expect(result[0]!.score).toBeCloseTo(1, 6);
    expect(result[2]!.score).toBeCloseTo(Math.SQRT1_2, 6);
  });

  it('breaks ties by id, whatever the input order', () => {
    const same = normalise([1, 0]);
    const candidates = ['c', 'a', 'd', 'b'].map((id) => ({ id, vector: same }));
    expect(topK(same, candidates, 2).map((hit) => hit.id)).toEqual(['a', 'b']);
    expect(topK(same, candidates, 10).map((hit) => hit.id)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('handles k of 0, k above the candidate count, and no candidates', () => {
    const candidates = vectors([
      [1, 0],
      [0, 1],
    ]);
    expect(topK(normalise([1, 0]), candidates, 0)).toEqual([]);
    expect(topK(normalise([1, 0]), candidates, 5).map((hit) => hit.id)).toEqual(['id0', 'id1']);
    expect(topK(normalise([1, 0]), [], 3)).toEqual([]);
    expect(() => topK(normalise([1, 0]), candidates, -1)).toThrow(/non-negative integer/);
    expect(() => topK(normalise([1, 0]), candidates, 1.5)).toThrow(/non-negative integer/);
  });

  it('agrees with a full sort on random data, including duplicate scores', () => {
    const row = fc.array(fc.integer({ min: -3, max: 3 }), { minLength: 4, maxLength: 4 });
    fc.assert(
      fc.property(fc.array(row, { maxLength: 60 }), row, fc.integer({ min: 0, max: 70 }), (rows, queryRow, k) => {
        const candidates = rows.map((values, index) => ({
          id: `r${String(index).padStart(2, '0')}`,
          vector: normalise(values),
        }));
        const query = normalise(queryRow);
        const got = topK(query, candidates, k);
        const expected = naiveTopK(query, candidates, k);
        expect(got.map((hit) => hit.id)).toEqual(expected.map((hit) => hit.id));
      }),
      { numRuns: 300 },
    );
  });
});
