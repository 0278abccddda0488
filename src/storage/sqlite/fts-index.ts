// One FTS5 table of scoped words (`<prefix>_<word>`), as used for events and for item chunks:
// add and remove entries, and rank the rows of some scopes for some query words, now or as the
// store stood at a past time (a replay ranks with what the index held then).

import type Database from 'better-sqlite3';
import { LRUCache } from 'lru-cache';

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

/**
 * Each index's rows joined to the record that holds their recording time (`r.recorded_at`): an
 * event, or the item of a chunk. The index comes first, then each row by its key.
 */
const RECORDED: Readonly<Record<'events_fts' | 'items_fts', string>> = {
  events_fts: 'events_fts CROSS JOIN events r ON r.seq = events_fts.rowid',
  items_fts: 'items_fts CROSS JOIN memory_chunks c ON c.seq = items_fts.rowid CROSS JOIN memory_items r ON r.tenant_id = c.tenant_id AND r.id = c.item_id',
};

/** The statements that read a word's rows and count them: of the whole index, or of rows recorded by a time. */
interface TermReads {
  rows: Database.Statement;
  count: Database.Statement;
}

/** A word's newest rows and how many rows hold it (counted up to FREQUENCY_CAP). */
interface TermRows {
  rows: number[];
  documentFrequency: number;
}

export class FtsIndex {
  private readonly insert: Database.Statement;
  private readonly remove: Database.Statement;
  private readonly now: TermReads;
  private readonly recordedBy: TermReads;
  private readonly clear: Database.Statement;
  private readonly dataVersion: Database.Statement;
  // The rows of the words searched lately, as the index holds them now: emptied by every change this
  // connection makes to the index (`changed`) and whenever another connection has committed since the
  // last search (PRAGMA data_version), so a search reads what it would read without them. A user who
  // is composed for again and again asks for the same words; their lookups were most of a search.
  private readonly kept: LRUCache<string, TermRows> | null;
  private keptAt: number | undefined;

  /** `keptTerms`: how many searched words' rows are kept between searches (0: none). */
  constructor(db: Database.Database, table: 'events_fts' | 'items_fts', keptTerms: number) {
    this.kept = keptTerms > 0 ? new LRUCache<string, TermRows>({ max: keptTerms }) : null;
    this.insert = db.prepare(`INSERT INTO ${table} (rowid, text) VALUES (?, ?)`);
    this.remove = db.prepare(`DELETE FROM ${table} WHERE rowid = ?`);
    this.now = {
      rows: db.prepare(`SELECT rowid FROM ${table} WHERE ${table} MATCH ? ORDER BY rowid DESC ${BOUND_LIMIT}`).pluck(),
      count: db.prepare(`SELECT count(*) FROM (SELECT rowid FROM ${table} WHERE ${table} MATCH ? ${BOUND_LIMIT})`).pluck(),
    };
    const recorded = `FROM ${RECORDED[table]} WHERE ${table} MATCH ? AND r.recorded_at <= ?`;
    this.recordedBy = {
      rows: db.prepare(`SELECT ${table}.rowid ${recorded} ORDER BY ${table}.rowid DESC ${BOUND_LIMIT}`).pluck(),
      count: db.prepare(`SELECT count(*) FROM (SELECT 1 ${recorded} ${BOUND_LIMIT})`).pluck(),
    };
    this.clear = db.prepare(`DELETE FROM ${table}`);
    this.dataVersion = db.prepare('PRAGMA data_version').pluck();
  }

  /** Indexes the words of `searchText` (space-separated) under a scope prefix. */
  add(rowid: number | bigint, prefix: string, searchText: string): void {
    this.insert.run(rowid, scopedText(prefix, searchText));
    this.changed();
  }

  delete(rowid: number | bigint): void {
    this.remove.run(rowid);
    this.changed();
  }

  deleteAll(): void {
    this.clear.run();
    this.changed();
  }

  /** Forgets the rows kept for searched words: the index changed (also by statements of another store class, as erasure's). */
  changed(): void {
    if (this.kept !== null && this.kept.size > 0) this.kept.clear();
  }

  /**
   * Rows of the given scopes (holding `scopeSize` rows, when known) that match any of the words,
   * best first. With `recordedBy`, only rows recorded at or before that time are read and counted:
   * the ranking the index gave then, whatever was added since.
   */
  rank(prefixes: readonly string[], terms: readonly string[], scopeSize?: number, recordedBy?: string): RankedRow[] {
    if (recordedBy === undefined && this.kept !== null) {
      const version = this.dataVersion.get() as number;
      if (version !== this.keptAt) this.changed();
      this.keptAt = version;
    }
    const matches = terms.slice(0, MAX_SEARCH_TERMS).map((term) => {
      const rows: number[] = [];
      let documentFrequency = 0;
      for (const prefix of prefixes) {
        const found = this.termRows(`${prefix}_${term}`, recordedBy);
        rows.push(...found.rows);
        documentFrequency += found.documentFrequency;
      }
      return { rows, documentFrequency };
    });
    return rankByMatchedTerms(matches, scopeSize);
  }

  /**
   * The newest rows holding one scoped word, and how many rows hold it (counted up to a cap), of
   * the rows recorded by `recordedBy` when it is given. A word the index tokenizer would split (it
   * cannot match as one token) has no rows.
   */
  private termRows(token: string, recordedBy: string | undefined): TermRows {
    const match = ftsString(token);
    try {
      if (recordedBy === undefined) {
        let found = this.kept?.get(token);
        if (found === undefined) {
          const rows = this.now.rows.all(match, CANDIDATES_PER_TERM) as number[];
          found = { rows, documentFrequency: rows.length < CANDIDATES_PER_TERM ? rows.length : (this.now.count.get(match, FREQUENCY_CAP) as number) };
          this.kept?.set(token, found);
        }
        return found;
      }
      const rows = this.recordedBy.rows.all(match, recordedBy, CANDIDATES_PER_TERM) as number[];
      return { rows, documentFrequency: rows.length < CANDIDATES_PER_TERM ? rows.length : (this.recordedBy.count.get(match, recordedBy, FREQUENCY_CAP) as number) };
    } catch (error) {
      if (error instanceof Error && /fts5: /.test(error.message)) return { rows: [], documentFrequency: 0 };
      throw error;
    }
  }
}
