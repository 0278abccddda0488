// One FTS5 table of scoped words (`<prefix>_<word>`), as used for events and for item chunks:
// add and remove entries, and rank the rows of some scopes for some query words by BM25, now or as
// the store stood at a past time (a replay ranks with what the index held then).

import type Database from 'better-sqlite3';
import { LRUCache } from 'lru-cache';

import { BOUND_LIMIT } from '../shared/rows.js';
import {
  CANDIDATES_PER_TERM,
  FREQUENCY_CAP,
  MAX_SEARCH_TERMS,
  rankBm25,
  type RankedRow,
  type RowTerms,
  type TermMatches,
} from '../../util/bm25.js';
import { readTermStats, termKey } from '../../util/bm25-stats.js';
import { scopedText } from '../../util/scope-token.js';

// Candidates are the newest matches of each word in each scope (CANDIDATES_PER_TERM); a word
// matched by more rows than that is counted up to FREQUENCY_CAP, enough to rank its rarity.
/** Candidates' counts kept per searched word kept (a search reads a few hundred rows' counts). */
const KEPT_ROWS_PER_TERM = 16;

/** A quoted FTS5 string: the query language never sees the user's characters as syntax. */
function ftsString(term: string): string {
  return `"${term.replace(/"/g, '""')}"`;
}

type IndexTable = 'events_fts' | 'items_fts';

/**
 * Each index's rows joined to the record that holds their recording time (`r.recorded_at`): an
 * event, or the item of a chunk. The index comes first, then each row by its key.
 */
const RECORDED: Readonly<Record<IndexTable, string>> = {
  events_fts: 'events_fts CROSS JOIN events r ON r.seq = events_fts.rowid',
  items_fts:
    'items_fts CROSS JOIN memory_chunks c ON c.seq = items_fts.rowid CROSS JOIN memory_items r ON r.tenant_id = c.tenant_id AND r.id = c.item_id',
};

/**
 * The word counts of the rows of a JSON list of keys, with a length to fall back on where none were
 * kept: an event's token count; a chunk has none.
 */
const COUNTS: Readonly<Record<IndexTable, string>> = {
  events_fts: 'SELECT r.seq, r.term_stats, r.text_tokens FROM json_each(?) AS k CROSS JOIN events r ON r.seq = k.value',
  items_fts: 'SELECT r.seq, r.term_stats, NULL FROM json_each(?) AS k CROSS JOIN memory_chunks r ON r.seq = k.value',
};

/** The statements that read a word's rows and count them: of the whole index, or of rows recorded by a time. */
interface TermReads {
  rows: Database.Statement;
  count: Database.Statement;
}

/**
 * A word's newest rows and how many rows hold it (counted up to FREQUENCY_CAP), with the rows' word
 * counts once a search has read them (kept with the rows: the next search reads neither).
 */
interface TermRows {
  rows: number[];
  documentFrequency: number;
  counts?: RowTerms[];
}

/** The counts of a row that has none: of average length, each word said once. */
const UNKNOWN: RowTerms = { length: null, repeated: null };

export class FtsIndex {
  private readonly insert: Database.Statement;
  private readonly remove: Database.Statement;
  private readonly now: TermReads;
  private readonly recordedBy: TermReads;
  private readonly counts: Database.Statement;
  private readonly clear: Database.Statement;
  private readonly dataVersion: Database.Statement;
  // The rows of the words searched lately, as the index holds them now: emptied by every change this
  // connection makes to the index (`changed`) and whenever another connection has committed since the
  // last search (PRAGMA data_version), so a search reads what it would read without them. A user who
  // is composed for again and again asks for the same words; their lookups were most of a search.
  private readonly kept: LRUCache<string, TermRows> | null;
  // The word counts of rows ranked lately. A row's counts change only when its entry is replaced or
  // removed (`delete`), which forgets them, as does a commit by another connection (a removed row's
  // key may be taken again); new rows leave them as they are.
  private readonly keptCounts: LRUCache<number, RowTerms> | null;
  private keptAt: number | undefined;

  /** `keptTerms`: how many searched words' rows are kept between searches (0: none). */
  constructor(
    private readonly db: Database.Database,
    table: IndexTable,
    keptTerms: number,
  ) {
    this.kept = keptTerms > 0 ? new LRUCache<string, TermRows>({ max: keptTerms }) : null;
    this.keptCounts = keptTerms > 0 ? new LRUCache<number, RowTerms>({ max: keptTerms * KEPT_ROWS_PER_TERM }) : null;
    this.insert = db.prepare(`INSERT INTO ${table} (rowid, text) VALUES (?, ?)`);
    this.remove = db.prepare(`DELETE FROM ${table} WHERE rowid = ?`);
    this.now = {
      rows: db.prepare(`SELECT rowid FROM ${table} WHERE ${table} MATCH ? ORDER BY rowid DESC ${BOUND_LIMIT}`).pluck(),
      count: db
        .prepare(`SELECT count(*) FROM (SELECT rowid FROM ${table} WHERE ${table} MATCH ? ${BOUND_LIMIT})`)
        .pluck(),
    };
    const recorded = `FROM ${RECORDED[table]} WHERE ${table} MATCH ? AND r.recorded_at <= ?`;
    this.recordedBy = {
      rows: db.prepare(`SELECT ${table}.rowid ${recorded} ORDER BY ${table}.rowid DESC ${BOUND_LIMIT}`).pluck(),
      count: db.prepare(`SELECT count(*) FROM (SELECT 1 ${recorded} ${BOUND_LIMIT})`).pluck(),
    };
    this.counts = db.prepare(COUNTS[table]).raw();
    this.clear = db.prepare(`DELETE FROM ${table}`);
    this.dataVersion = db.prepare('PRAGMA data_version').pluck();
  }

  /** Indexes the words of `searchText` (space-separated) under a scope prefix. */
  add(rowid: number | bigint, prefix: string, searchText: string): void {
    this.insert.run(rowid, scopedText(prefix, searchText));
    if (this.kept !== null && this.kept.size > 0) this.kept.clear();
  }

  delete(rowid: number | bigint): void {
    this.remove.run(rowid);
    this.keptCounts?.delete(Number(rowid));
    if (this.kept !== null && this.kept.size > 0) this.kept.clear();
  }

  deleteAll(): void {
    this.clear.run();
    this.changed();
  }

  /** Forgets what is kept: the index changed (also by statements of another store class, as erasure's). */
  changed(): void {
    if (this.kept !== null && this.kept.size > 0) this.kept.clear();
    if (this.keptCounts !== null && this.keptCounts.size > 0) this.keptCounts.clear();
  }

  /**
   * Rows of the given scopes (holding `scopeSize` rows, when known) that match any of the words,
   * best first. With `recordedBy`, only rows recorded at or before that time are read and counted:
   * the ranking the index gave then, whatever was added since.
   */
  rank(prefixes: readonly string[], terms: readonly string[], scopeSize?: number, recordedBy?: string): RankedRow[] {
    if (this.kept !== null) {
      const version = this.dataVersion.get() as number;
      if (version !== this.keptAt) this.changed();
      this.keptAt = version;
    }
    const read: TermRows[] = [];
    const matches: TermMatches[] = terms.slice(0, MAX_SEARCH_TERMS).map((term) => {
      const rows: number[] = [];
      let documentFrequency = 0;
      for (const prefix of prefixes) {
        const found = this.termRows(`${prefix}_${term}`, recordedBy);
        read.push(found);
        rows.push(...found.rows);
        documentFrequency += found.documentFrequency;
      }
      return { key: termKey(term), rows, documentFrequency };
    });
    return rankBm25(matches, this.rowTerms(read), scopeSize);
  }

  /**
   * The word counts of every candidate row: those a word's rows carry, then kept ones as they are,
   * then the others read in one statement; all kept (not inside a transaction, which may still roll
   * back the rows it read).
   */
  private rowTerms(read: readonly TermRows[]): Map<number, RowTerms> {
    const found = new Map<number, RowTerms>();
    const missing: number[] = [];
    for (const { rows, counts } of read) {
      for (const [index, row] of rows.entries()) {
        if (counts !== undefined) found.set(row, counts[index]!);
        else if (!found.has(row)) {
          const kept = this.keptCounts?.get(row);
          if (kept === undefined) missing.push(row);
          found.set(row, kept ?? UNKNOWN);
        }
      }
    }
    const keep = this.keptCounts !== null && !this.db.inTransaction;
    if (missing.length > 0) {
      for (const [row, stats, tokens] of this.counts.all(JSON.stringify(missing)) as Array<
        [number, unknown, unknown]
      >) {
        const terms = readTermStats(stats, tokens);
        found.set(row, terms);
        if (keep) this.keptCounts.set(row, terms);
      }
    }
    if (keep) for (const entry of read) entry.counts ??= entry.rows.map((row) => found.get(row)!);
    return found;
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
          found = {
            rows,
            documentFrequency:
              rows.length < CANDIDATES_PER_TERM ? rows.length : (this.now.count.get(match, FREQUENCY_CAP) as number),
          };
          this.kept?.set(token, found);
        }
        return found;
      }
      const rows = this.recordedBy.rows.all(match, recordedBy, CANDIDATES_PER_TERM) as number[];
      return {
        rows,
        documentFrequency:
          rows.length < CANDIDATES_PER_TERM
            ? rows.length
            : (this.recordedBy.count.get(match, recordedBy, FREQUENCY_CAP) as number),
      };
    } catch (error) {
      if (error instanceof Error && /fts5: /.test(error.message)) return { rows: [], documentFrequency: 0 };
      throw error;
    }
  }
}
