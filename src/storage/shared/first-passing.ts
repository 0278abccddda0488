// Filling a search limit from ranked full-text candidates, shared by the SQL adapters.

import type { RankedRow } from '../../util/term-rank.js';

/**
 * The first `limit` ranked rows that pass the caller's filters, in rank order. Rows are read a page
 * at a time (a first page ten rows larger than the limit, since filters rarely reject, then 100), so
 * a search reads about as many rows as it returns.
 */
export async function firstPassing<R, T>(
  ranked: readonly RankedRow[],
  limit: number,
  read: (rows: number[]) => Map<number, R> | Promise<Map<number, R>>,
  make: (row: R, score: number) => T,
): Promise<T[]> {
  const hits: T[] = [];
  let start = 0;
  while (start < ranked.length && hits.length < limit) {
    const size = start === 0 ? Math.min(100, limit + 10) : 100;
    const page = ranked.slice(start, start + size);
    start += size;
    const rows = await read(page.map((entry) => entry.row));
    for (const entry of page) {
      const row = rows.get(entry.row);
      if (row !== undefined && hits.length < limit) hits.push(make(row, entry.score));
    }
  }
  return hits;
}
