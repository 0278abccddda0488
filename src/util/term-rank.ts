// Ranking of full-text candidates by which query terms they match, weighted by each term's rarity
// (BM25's inverse document frequency with binary term frequency). Stores compute the matches per
// term, and the size of the caller's scope, within that scope (both counted up to a cap), so the
// cost follows the scope, never the size of the whole table.

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

/** Stores count a scope's rows up to this many: ten times their cap on a term's frequency. */
export const SCOPE_SIZE_CAP = 10_000;

/**
 * Rows ranked by the summed rarity of the terms they match; ties go to the newer row. `scopeSize`
 * is how many rows the scope holds (counted up to SCOPE_SIZE_CAP), without it a size well above
 * the largest frequency.
 *
 * @example
 * rankByMatchedTerms([{ rows: [9, 4], documentFrequency: 2 }, { rows: [4], documentFrequency: 1 }])[0].row // 4
 */
export function rankByMatchedTerms(terms: readonly TermMatches[], scopeSize?: number): RankedRow[] {
  const largest = Math.max(1, ...terms.map((term) => term.documentFrequency));
  // The rarity of a term is relative to the scope: in a small scope a word in half its rows (a
  // name in a two-person conversation) says little, which a nominal size of thousands would hide.
  const documents = scopeSize === undefined ? Math.max(1000, largest * 10) : Math.max(scopeSize, largest);
  // One entry per row, its score summed over the terms it matches (a row is in each term's list once).
  const entries = new Map<number, RankedRow>();
  for (const term of terms) {
    const df = term.documentFrequency;
    const idf = Math.log(1 + (documents - df + 0.5) / (df + 0.5));
    for (const row of term.rows) {
      const entry = entries.get(row);
      if (entry === undefined) entries.set(row, { row, score: idf });
      else entry.score += idf;
    }
  }
  const ranked = [...entries.values()];
  for (const entry of ranked) entry.score = Math.round(entry.score * 1e6) / 1e6;
  return ranked.sort((a, b) => b.score - a.score || b.row - a.row);
}
