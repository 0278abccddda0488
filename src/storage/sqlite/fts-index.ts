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

export class FtsIndex {
  private readonly insert: Database.Statement;
  private readonly remove: Database.Statement;
  private readonly rows: Database.Statement;
  private readonly count: Database.Statement;
  private readonly clear: Database.Statement;

  constructor(db: Database.Database, table: 'events_fts' | 'items_fts') {
    this.insert = db.prepare(`INSERT INTO ${table} (rowid, text) VALUES (?, ?)`);
    this.remove = db.prepare(`DELETE FROM ${table} WHERE rowid = ?`);
    this.rows = db.prepare(`SELECT rowid FROM ${table} WHERE ${table} MATCH ? ORDER BY rowid DESC ${BOUND_LIMIT}`).pluck();
    this.count = db.prepare(`SELECT count(*) FROM (SELECT rowid FROM ${table} WHERE ${table} MATCH ? ${BOUND_LIMIT})`).pluck();
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
    const matches = terms.slice(0, MAX_SEARCH_TERMS).map((term) => {
      const rows: number[] = [];
      let documentFrequency = 0;
      for (const prefix of prefixes) {
        const found = this.termRows(`${prefix}_${term}`);
        rows.push(...found.rows);
        documentFrequency += found.documentFrequency;
      }
      return { rows, documentFrequency };
    });
    return rankByMatchedTerms(matches, scopeSize);
  }

  /**
   * The newest rows holding one scoped word, and how many rows hold it (counted up to a cap). A
   * word the index tokenizer would split (it cannot match as one token) has no rows.
   */
  private termRows(token: string): { rows: number[]; documentFrequency: number } {
    const match = ftsString(token);
    try {
      const rows = this.rows.all(match, CANDIDATES_PER_TERM) as number[];
      const documentFrequency = rows.length < CANDIDATES_PER_TERM ? rows.length : (this.count.get(match, FREQUENCY_CAP) as number);
      return { rows, documentFrequency };
    } catch (error) {
      if (error instanceof Error && /fts5: /.test(error.message)) return { rows: [], documentFrequency: 0 };
      throw error;
    }
  }
}
