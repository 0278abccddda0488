// Filling a search limit from ranked full-text candidates, shared by the SQL adapters.

import type { RankedRow } from '../../util/bm25.js';

/** Rows read beyond those still missing by the first page; each further page reads five times more. */
const FIRST_MARGIN = 2;
const MAX_PAGE = 100;

/**
 * The first `limit` ranked rows that pass the caller's filters, in rank order. Rows are read a page
 * at a time: what is still missing and a margin (2 rows on the first page, since filters rarely
 * reject; 10, then 50 on the pages after a page that came up short; at most 100 rows a page), so a
 * search reads about as many rows as it returns.
 *
 * @example
 * const hits = await firstPassing(ranked, 10, (rows) => readRows(rows), (row, score) => ({ row, score }));
 */
export async function firstPassing<R, T>(
  ranked: readonly RankedRow[],
  limit: number,
  read: (rows: number[]) => Map<number, R> | Promise<Map<number, R>>,
  make: (row: R, score: number) => T,
): Promise<T[]> {
  const hits: T[] = [];
  let start = 0;
  let margin = FIRST_MARGIN;
  while (start < ranked.length && hits.length < limit) {
    const size = Math.min(MAX_PAGE, limit - hits.length + margin);
    const page = ranked.slice(start, start + size);
    start += size;
    margin *= 5;
    const rows = await read(page.map((entry) => entry.row));
    for (const entry of page) {
      const row = rows.get(entry.row);
      if (row !== undefined && hits.length < limit) hits.push(make(row, entry.score));
    }
  }
  return hits;
}
