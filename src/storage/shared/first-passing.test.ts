import { describe, expect, it } from 'vitest';

import type { RankedRow } from '../../util/bm25.js';
import { firstPassing } from './first-passing.js';

/** 500 ranked rows (row n scores 500 - n); `passes` decides which the filters keep; every read is logged. */
function search(passes: (row: number) => boolean) {
  const ranked: RankedRow[] = Array.from({ length: 500 }, (_, row) => ({ row, score: 500 - row }));
  const reads: number[][] = [];
  const read = (rows: number[]) => {
    reads.push(rows);
    return new Map(rows.filter(passes).map((row) => [row, `row ${row}`]));
  };
  return { ranked, reads, read, make: (value: string, score: number) => ({ value, score }) };
}

describe('firstPassing', () => {
  it('returns the first rows that pass, in rank order, reading barely more rows than it returns', async () => {
    const { ranked, reads, read, make } = search(() => true);
    const hits = await firstPassing(ranked, 40, read, make);
    expect(hits.map((hit) => hit.value)).toEqual(Array.from({ length: 40 }, (_, row) => `row ${row}`));
    expect(hits[0]!.score).toBe(500);
    expect(reads).toHaveLength(1);
    expect(reads[0]!.length).toBeLessThanOrEqual(42);
  });

  it('reads further pages when the filters reject rows, and skips the rejected ones', async () => {
    // Only every seventh row passes: the first page comes up short.
    const { ranked, reads, read, make } = search((row) => row % 7 === 0);
    const hits = await firstPassing(ranked, 20, read, make);
    expect(hits.map((hit) => hit.value)).toEqual(Array.from({ length: 20 }, (_, index) => `row ${index * 7}`));
    expect(reads.length).toBeGreaterThan(1);
    // Pages follow each other without gaps or overlaps, and none exceeds 100 rows.
    expect(reads.flat()).toEqual(Array.from({ length: reads.flat().length }, (_, row) => row));
    for (const page of reads) expect(page.length).toBeLessThanOrEqual(100);
  });

  it('returns what passes when the candidates run out before the limit', async () => {
    const { ranked, reads, read, make } = search((row) => row >= 495);
    const hits = await firstPassing(ranked, 10, read, make);
    expect(hits.map((hit) => hit.value)).toEqual(['row 495', 'row 496', 'row 497', 'row 498', 'row 499']);
    expect(reads.flat()).toHaveLength(500);
  });

  it('reads nothing for a zero limit or no candidates', async () => {
    const { ranked, reads, read, make } = search(() => true);
    expect(await firstPassing(ranked, 0, read, make)).toEqual([]);
    expect(await firstPassing([], 5, read, make)).toEqual([]);
    expect(reads).toEqual([]);
  });
});
