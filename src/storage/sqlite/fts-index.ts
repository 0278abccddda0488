// One FTS5 table of scoped words (`<prefix>_<word>`), as used for events and for item chunks:
// add and remove entries, and rank the rows of some scopes for some query words.

import type Database from 'better-sqlite3';

import { BOUND_LIMIT } from '../shared/rows.js';
import { scopedText } from '../../util/scope-token.js';
import { rankByMatchedTerms, type RankedRow } from '../../util/term-rank.js';

// Candidates are the newest matches of each word in each scope; a word matched by more rows than
// that is counted up to a cap, which is enough to rank its rarity (a word in a thousand of a scope's
// rows is common; counting further costs more than it tells).
const MAX_SEARCH_TERMS = 16;
const CANDIDATES_PER_TERM = 200;
const FREQUENCY_CAP = 1000;

/** A quoted FTS5 string: the query language never sees the user's characters as syntax. */
function ftsString(term: string): string {
  return `"${term.replace(/"/g, '""')}"`;
}

/** Scoped words looked up by one statement (a UNION ALL part each; SQLite allows 500 parts). */
const WORDS_PER_STATEMENT = 500;

interface WordMatches {
  rows: number[];
  documentFrequency: number;
}

function isFtsError(error: unknown): boolean {
  return error instanceof Error && /fts5: /.test(error.message);
}

export class FtsIndex {
  private readonly insert: Database.Statement;
  private readonly remove: Database.Statement;
  private readonly clear: Database.Statement;
  /** Statements reading the rows (or the counts) of n words at once, by kind and n. */
  private readonly batches = new Map<string, Database.Statement>();

  constructor(
    private readonly db: Database.Database,
    private readonly table: 'events_fts' | 'items_fts',
  ) {
    this.insert = db.prepare(`INSERT INTO ${table} (rowid, text) VALUES (?, ?)`);
    this.remove = db.prepare(`DELETE FROM ${table} WHERE rowid = ?`);
    this.clear = db.prepare(`DELETE FROM ${table}`);
  }

  /** Indexes the words of `searchText` (space-separated) under a scope prefix. */
  add(rowid: number | bigint, prefix: string, searchText: string): void {
    this.insert.run(rowid, scopedText(prefix, searchText));
  }

  delete(rowid: number | bigint): void {
    this.remove.run(rowid);
  }

  deleteAll(): void {
    this.clear.run();
  }

  /** Rows of the given scopes (holding `scopeSize` rows, when known) that match any of the words, best first. */
  rank(prefixes: readonly string[], terms: readonly string[], scopeSize?: number): RankedRow[] {
    const words = terms.slice(0, MAX_SEARCH_TERMS);
    const found: WordMatches[] = [];
    const tokens = words.flatMap((term) => prefixes.map((prefix) => ftsString(`${prefix}_${term}`)));
    for (let start = 0; start < tokens.length; start += WORDS_PER_STATEMENT) found.push(...this.wordRows(tokens.slice(start, start + WORDS_PER_STATEMENT)));
    // A word's matches in each scope add up: a row belongs to one scope only.
    const matches = words.map((_, index) => {
      const rows: number[] = [];
      let documentFrequency = 0;
      for (const scope of found.slice(index * prefixes.length, (index + 1) * prefixes.length)) {
        rows.push(...scope.rows);
        documentFrequency += scope.documentFrequency;
      }
      return { rows, documentFrequency };
    });
    return rankByMatchedTerms(matches, scopeSize);
  }

  /** The part of a UNION ALL reading the newest rows of the word bound at `index`. */
  private rowsOf(index: number): string {
    return `SELECT ${index}, rowid FROM (SELECT rowid FROM ${this.table} WHERE ${this.table} MATCH ? ORDER BY rowid DESC ${BOUND_LIMIT})`;
  }

  /** The part of a UNION ALL counting the rows of the word bound at `index`, up to a cap. */
  private countOf(index: number): string {
    return `SELECT ${index}, count(*) FROM (SELECT rowid FROM ${this.table} WHERE ${this.table} MATCH ? ${BOUND_LIMIT})`;
  }

  private batch(kind: 'rows' | 'count', size: number): Database.Statement {
    const key = `${kind}${size}`;
    let statement = this.batches.get(key);
    if (statement === undefined) {
      const part = kind === 'rows' ? (index: number) => this.rowsOf(index) : (index: number) => this.countOf(index);
      statement = this.db.prepare(Array.from({ length: size }, (_, index) => part(index)).join(' UNION ALL ')).raw();
      this.batches.set(key, statement);
    }
    return statement;
  }

  /**
   * The newest rows of each scoped word and how many rows hold it (counted up to a cap), read for
   * all the words by one statement (and one more for the counts of words with more rows than the
   * candidates). A word the index tokenizer would split (it cannot match as one token) has no rows;
   * such a word fails the whole statement, so the words are then read one at a time.
   */
  private wordRows(matches: readonly string[]): WordMatches[] {
    if (matches.length === 0) return [];
    let rows: unknown[][];
    try {
      rows = this.batch('rows', matches.length).all(...matches.flatMap((match) => [match, CANDIDATES_PER_TERM])) as unknown[][];
    } catch (error) {
      if (!isFtsError(error)) throw error;
      return matches.length === 1 ? [{ rows: [], documentFrequency: 0 }] : matches.flatMap((match) => this.wordRows([match]));
    }
    const found: WordMatches[] = matches.map(() => ({ rows: [], documentFrequency: 0 }));
    for (const [index, rowid] of rows) found[index as number]!.rows.push(rowid as number);
    for (const entry of found) entry.documentFrequency = entry.rows.length;
    const full = matches.flatMap((match, index) => (found[index]!.rows.length === CANDIDATES_PER_TERM ? [{ match, index }] : []));
    if (full.length > 0) {
      const counts = this.batch('count', full.length).all(...full.flatMap(({ match }) => [match, FREQUENCY_CAP])) as unknown[][];
      for (const [part, count] of counts) found[full[part as number]!.index]!.documentFrequency = count as number;
    }
    return found;
  }
}
