// BM25 ranking of full-text candidates: each query word a row matches adds its rarity in the
// searched scope, weighed by how often the row says it (saturating) and by the row's length against
// the average length of the candidates. Pure: the same candidates always rank the same, to the digit.

export interface TermMatches {
  /** The word as rows count it (`termKey`): its counts in a row's `repeated` are under this key. */
  key: string;
  /** Row keys that contain the word, newest (largest) first. */
  rows: readonly number[];
  /** How many rows of the scope contain the word (at least `rows.length`). */
  documentFrequency: number;
}

/** What a candidate row says, as far as ranking needs it. */
export interface RowTerms {
  /** How many words the row holds; null when unknown (it then counts as of average length). */
  length: number | null;
  /** The words the row holds twice or more, with their counts; a matched word it lacks is there once. */
  repeated: RepeatedWords | null;
}

/** How many times a row says the words it says twice or more (a Map will do). */
export interface RepeatedWords {
  get(key: string): number | undefined;
}

export interface RankedRow {
  row: number;
  score: number;
}

/** How fast a repeated word stops adding (`k1`), and how much a row's length matters (`b`, 0 to 1). */
export interface Bm25Parameters {
  k1: number;
  b: number;
}

/**
 * The parameters stores rank with. A `b` below the usual 0.75: in conversations the turns that
 * answer a question run longer than the average turn (LoCoMo: 35 words against 25), and 0.6 costs
 * them almost nothing there, while a long reply that mentions a word in passing still counts for
 * far less than a short turn about it.
 */
export const BM25_PARAMETERS: Readonly<Bm25Parameters> = { k1: 1.2, b: 0.6 };

/** A candidate being scored, with its counts. */
interface Entry {
  row: number;
  score: number;
  stats: RowTerms;
}

/** The counts of a candidate the caller has none for: of average length, each word said once. */
const UNKNOWN: RowTerms = { length: null, repeated: null };

/**
 * How many words of a query a store ranks by: the first ones (queryTerms lists a query's words in
 * order, without repeats).
 *
 * @example
 * terms.slice(0, MAX_SEARCH_TERMS)
 */
export const MAX_SEARCH_TERMS = 16;

/**
 * A word's candidates in one scope: the newest rows that hold it, at most this many. A word held by
 * more rows is common in the scope, and its older rows are not ranked for it.
 *
 * @example
 * const candidates = rowsHolding(word).slice(-CANDIDATES_PER_TERM).reverse(); // newest first
 */
export const CANDIDATES_PER_TERM = 200;

/**
 * How far a store counts the rows of a scope that hold a word (its document frequency): enough to
 * tell its rarity (a word in a thousand of a scope's rows is common; counting further costs more
 * than it tells).
 *
 * @example
 * const documentFrequency = Math.min(rowsHolding(word).length, FREQUENCY_CAP);
 */
export const FREQUENCY_CAP = 1000;

/**
 * How far a store counts the rows of a scope (`scopeSize` of rankBm25): ten times its cap on a
 * word's frequency.
 *
 * @example
 * const scopeSize = Math.min(eventsOfAgent, SCOPE_SIZE_CAP);
 */
export const SCOPE_SIZE_CAP = 10_000;

/**
 * The rarity of a word held by `documentFrequency` of `documents` rows (BM25's inverse document
 * frequency, never negative).
 *
 * @example
 * inverseDocumentFrequency(1, 4) // 1.2039728043259361
 */
export function inverseDocumentFrequency(documentFrequency: number, documents: number): number {
  return Math.log(1 + (documents - documentFrequency + 0.5) / (documentFrequency + 0.5));
}

/**
 * Rows ranked by BM25, best first; ties go to the newer (larger) row. `rows` gives each candidate's
 * length and repeated words (a candidate missing from it is of average length and says each matched
 * word once). `scopeSize` is how many rows the scope holds (counted up to SCOPE_SIZE_CAP); without
 * it, a size well above the largest frequency. Scores are rounded to 1e-6, so that a replay that
 * reads the same rows gives the same bytes.
 *
 * @example
 * const rows = new Map([[9, { length: 40, repeated: null }], [4, { length: 3, repeated: null }]]);
 * rankBm25([{ key: 'tea', rows: [9, 4], documentFrequency: 2 }], rows)[0].row // 4: the shorter row
 */
export function rankBm25(
  terms: readonly TermMatches[],
  rows: ReadonlyMap<number, RowTerms>,
  scopeSize?: number,
  parameters: Readonly<Bm25Parameters> = BM25_PARAMETERS,
): RankedRow[] {
  const { k1, b } = parameters;
  const largest = Math.max(1, ...terms.map((term) => term.documentFrequency));
  // The rarity of a word is relative to the scope: in a small scope a word in half its rows (a
  // name in a two-person conversation) says little, which a nominal size of thousands would hide.
  const documents = scopeSize === undefined ? Math.max(1000, largest * 10) : Math.max(scopeSize, largest);
  // One entry per candidate with its counts, its score summed over the words it matches (a row is in
  // each word's list once). The candidates, not the scope, set the average length: a search as of a
  // past time reads the candidates the index held then, so the average is what it was then.
  const entries = new Map<number, Entry>();
  let total = 0;
  let known = 0;
  for (const term of terms) {
    for (const row of term.rows) {
      if (entries.has(row)) continue;
      const stats = rows.get(row) ?? UNKNOWN;
      entries.set(row, { row, score: 0, stats });
      // Lengths are whole numbers: the sum is exact in any order.
      if (stats.length !== null && stats.length > 0) {
        total += stats.length;
        known += 1;
      }
    }
  }
  const average = known === 0 ? 1 : total / known;
  for (const term of terms) {
    const idf = inverseDocumentFrequency(term.documentFrequency, documents);
    for (const row of term.rows) {
      const entry = entries.get(row)!;
      const { length, repeated } = entry.stats;
      const frequency = repeated?.get(term.key) ?? 1;
      const relative = length === null || length <= 0 ? 1 : length / average;
      entry.score += (idf * frequency * (k1 + 1)) / (frequency + k1 * (1 - b + b * relative));
    }
  }
  const ranked: RankedRow[] = [];
  for (const entry of entries.values()) ranked.push({ row: entry.row, score: Math.round(entry.score * 1e6) / 1e6 });
  return ranked.sort((first, second) => second.score - first.score || second.row - first.row);
}
