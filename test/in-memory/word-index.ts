// The full-text index of the in-memory store: the words of each indexed row (an event, an item's
// chunk) by scope, in their indexed form (termKey), with the row's counts (termStats). A search
// ranks as the SQL stores do, with engram's rankBm25 and the same candidates: each query word's
// newest CANDIDATES_PER_TERM rows in each scope, its frequency counted up to FREQUENCY_CAP.

import {
  CANDIDATES_PER_TERM,
  FREQUENCY_CAP,
  MAX_SEARCH_TERMS,
  rankBm25,
  readTermStats,
  termKey,
  termStats,
  type RankedRow,
  type RowTerms,
  type TermMatches,
} from '../../src/index.js';
import type { Journal } from './journal.js';

/** An indexed row: its scope, its distinct words, its counts and when it was recorded (null: never). */
interface IndexedRow {
  scope: string;
  words: string[];
  terms: RowTerms;
  recordedAt: string | null;
}

export class WordIndex {
  private readonly rows = new Map<number, IndexedRow>();
  /** Scope → word → the rows holding it, in ascending order. */
  private readonly postings = new Map<string, Map<string, number[]>>();

  constructor(private readonly journal: Journal) {}

  /** Indexes the words of a search text (space-separated) for a row of a scope. */
  add(row: number, scope: string, searchText: string, recordedAt: string | null): void {
    const words = new Set<string>();
    for (const word of searchText.split(' ')) if (word !== '') words.add(termKey(word));
    this.attach(row, { scope, words: [...words], terms: readTermStats(termStats(searchText), null), recordedAt });
    this.journal.onUndo(() => this.detach(row));
  }

  /** Removes a row's words (nothing when it has none). */
  remove(row: number): void {
    const indexed = this.rows.get(row);
    if (indexed === undefined) return;
    this.detach(row);
    this.journal.onUndo(() => this.attach(row, indexed));
  }

  /**
   * Rows of the scopes holding any of the words, best first (rankBm25, `scopeSize` rows in the
   * scopes when known). With `recordedBy`, only rows recorded by then are read and counted: the
   * ranking the index gave then, whatever was added since.
   */
  rank(
    scopes: readonly string[],
    terms: readonly string[],
    scopeSize: number | undefined,
    recordedBy?: string,
  ): RankedRow[] {
    const matches: TermMatches[] = [];
    const candidates = new Map<number, RowTerms>();
    for (const term of terms.slice(0, MAX_SEARCH_TERMS)) {
      const word = termKey(term);
      const rows: number[] = [];
      let documentFrequency = 0;
      for (const scope of scopes) {
        const holding = this.postings.get(scope)?.get(word) ?? [];
        // Newest first: a word's candidates are its newest rows, its frequency counted up to a cap.
        let frequency = 0;
        for (let index = holding.length - 1; index >= 0 && frequency < FREQUENCY_CAP; index -= 1) {
          const row = holding[index]!;
          const indexed = this.rows.get(row)!;
          if (recordedBy !== undefined && (indexed.recordedAt === null || indexed.recordedAt > recordedBy)) continue;
          frequency += 1;
          if (frequency > CANDIDATES_PER_TERM) continue;
          rows.push(row);
          candidates.set(row, indexed.terms);
        }
        documentFrequency += frequency;
      }
      matches.push({ key: word, rows, documentFrequency });
    }
    return rankBm25(matches, candidates, scopeSize);
  }

  private attach(row: number, indexed: IndexedRow): void {
    this.rows.set(row, indexed);
    let words = this.postings.get(indexed.scope);
    if (words === undefined) this.postings.set(indexed.scope, (words = new Map()));
    for (const word of indexed.words) {
      let holding = words.get(word);
      if (holding === undefined) words.set(word, (holding = []));
      // Rows come newest last, but an event indexed again (or a row put back) keeps its number.
      let at = holding.length;
      while (at > 0 && holding[at - 1]! > row) at -= 1;
      holding.splice(at, 0, row);
    }
  }

  private detach(row: number): void {
    const indexed = this.rows.get(row);
    if (indexed === undefined) return;
    this.rows.delete(row);
    const words = this.postings.get(indexed.scope)!;
    for (const word of indexed.words) {
      const holding = words.get(word)!;
      holding.splice(holding.lastIndexOf(row), 1);
      if (holding.length === 0) words.delete(word);
    }
    if (words.size === 0) this.postings.delete(indexed.scope);
  }
}
