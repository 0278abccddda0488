import { describe, expect, it } from 'vitest';

import { BM25_PARAMETERS, inverseDocumentFrequency, rankBm25, type RowTerms, type TermMatches } from './bm25.js';

const row = (length: number | null, repeated?: Record<string, number>): RowTerms => ({
  length,
  repeated: repeated === undefined ? null : new Map(Object.entries(repeated)),
});

const word = (key: string, rows: number[], documentFrequency = rows.length): TermMatches => ({
  key,
  rows,
  documentFrequency,
});

describe('rankBm25', () => {
  it('ranks a short row above a long one that matches the same words once', () => {
    const rows = new Map([
      [1, row(12)],
      [2, row(300)],
    ]);
    const ranked = rankBm25([word('tea', [2, 1]), word('kyoto', [2, 1])], rows, 50);
    expect(ranked.map((entry) => entry.row)).toEqual([1, 2]);
    expect(ranked[0]!.score).toBeGreaterThan(ranked[1]!.score * 1.5);
  });

  it('counts a word said three times above once at equal length, with diminishing returns', () => {
    const rows = new Map([
      [1, row(20)],
      [2, row(20, { tea: 3 })],
      [3, row(20, { tea: 9 })],
    ]);
    const ranked = rankBm25([word('tea', [3, 2, 1])], rows, 50);
    expect(ranked.map((entry) => entry.row)).toEqual([3, 2, 1]);
    const [nine, three, once] = ranked.map((entry) => entry.score) as [number, number, number];
    // Saturation: never more than (k1 + 1) times the weight of one mention.
    expect(three - once).toBeGreaterThan(nine - three);
    expect(nine / once).toBeLessThan(BM25_PARAMETERS.k1 + 1);
  });

  it('weighs a word by its rarity within the scope it was counted in', () => {
    expect(inverseDocumentFrequency(1, 4)).toBeCloseTo(Math.log(1 + 3.5 / 1.5), 12);
    const rows = new Map([
      [1, row(5)],
      [2, row(5)],
      [3, row(5)],
    ]);
    // In a scope of four rows, a word three rows hold weighs less than one a single row holds.
    const ranked = rankBm25([word('pear', [3, 2]), word('quince', [1])], rows, 4);
    expect(ranked[0]!.row).toBe(1);
    // The same matches in a scope of thousands: both words are rare, their weights close.
    const wide = rankBm25([word('pear', [3, 2]), word('quince', [1])], rows, 5000);
    expect(wide[0]!.row).toBe(1);
    expect(wide[0]!.score / wide[1]!.score).toBeLessThan(ranked[0]!.score / ranked[1]!.score);
    // A frequency above the stated size (counts capped differently) never yields a negative weight.
    expect(rankBm25([word('pear', [3], 9)], rows, 4)[0]!.score).toBeGreaterThan(0);
  });

  it('breaks ties by the newer row and rounds scores to 1e-6, the same on every run', () => {
    const rows = new Map([
      [4, row(7)],
      [9, row(7)],
      [6, row(7)],
    ]);
    const terms = [word('plum', [9, 6, 4]), word('jam', [9, 6, 4])];
    const ranked = rankBm25(terms, rows, 30);
    expect(ranked.map((entry) => entry.row)).toEqual([9, 6, 4]);
    for (const entry of ranked) expect(Math.round(entry.score * 1e6) / 1e6).toBe(entry.score);
    expect(rankBm25(terms, new Map([...rows].reverse()), 30)).toEqual(ranked);
  });

  it('treats a row of unknown length as of average length, and a row without counts as saying each word once', () => {
    const known = new Map([
      [1, row(10)],
      [2, row(30)],
      [3, row(null)],
    ]);
    const ranked = rankBm25([word('fig', [3, 2, 1])], known, 100);
    // Average of the known lengths is 20: the unknown row sits between the short and the long one.
    expect(ranked.map((entry) => entry.row)).toEqual([1, 3, 2]);
    // A candidate missing from the counts altogether ranks as one of unknown length.
    const missing = rankBm25([word('fig', [3, 2, 1])], new Map([...known].filter(([key]) => key !== 3)), 100);
    expect(missing).toEqual(ranked);
  });

  it('sets the average length from the candidates, so a replay that reads the same candidates ranks the same', () => {
    const rows = new Map([
      [1, row(4)],
      [2, row(8)],
    ]);
    const alone = rankBm25([word('kiwi', [2, 1])], rows, 10);
    // A later, unmatched row changes nothing; a matched one joins the average.
    const withLater = rankBm25([word('kiwi', [2, 1])], new Map([...rows, [3, row(400)]]), 10);
    expect(withLater).toEqual(alone);
    expect(
      rankBm25([word('kiwi', [3, 2, 1])], new Map([...rows, [3, row(400)]]), 10).find((entry) => entry.row === 1)!
        .score,
    ).not.toBe(alone[1]!.score);
  });

  it('without a scope size, takes one well above the largest frequency', () => {
    const rows = new Map([[1, row(3)]]);
    expect(rankBm25([word('date', [1])], rows)[0]!.score).toBe(rankBm25([word('date', [1])], rows, 1000)[0]!.score);
    expect(rankBm25([], rows)).toEqual([]);
  });
});
