// Ranking of full-text candidates by which query terms they match, weighted by each term's rarity
// (BM25's inverse document frequency with binary term frequency). Stores compute the matches per
// term within the caller's scope, so the cost follows the scope, never the size of the whole table.

export interface TermMatches {
  /** Row keys that contain the term, newest (largest) first. */
  rows: readonly number[];
  /** How many rows of the scope contain the term (at least `rows.length`). */
  documentFrequency: number;
}

export interface RankedRow {
  row: number;
  score: number;
}

/**
 * Rows ranked by the summed rarity of the terms they match; ties go to the newer row.
 *
 * @example
 * rankByMatchedTerms([{ rows: [9, 4], documentFrequency: 2 }, { rows: [4], documentFrequency: 1 }])[0].row // 4
 */
export function rankByMatchedTerms(terms: readonly TermMatches[]): RankedRow[] {
  const largest = Math.max(1, ...terms.map((term) => term.documentFrequency));
  // The scope's size is not known without counting it; any N well above the largest frequency
  // keeps the order of rarities, which is all the ranking needs.
  const documents = Math.max(1000, largest * 10);
  const scores = new Map<number, number>();
  for (const term of terms) {
    const df = term.documentFrequency;
    const idf = Math.log(1 + (documents - df + 0.5) / (df + 0.5));
    for (const row of term.rows) scores.set(row, (scores.get(row) ?? 0) + idf);
  }
  return [...scores.entries()]
    .map(([row, score]) => ({ row, score: Math.round(score * 1e6) / 1e6 }))
    .sort((a, b) => b.score - a.score || b.row - a.row);
}
