// Full-text search on PostgreSQL: a `tsvector` column of scoped words (`<prefix>_<word>`, the same
// Intl.Segmenter words the SQLite store indexes) under a GIN index. The lexemes are built here, not
// by a text-search configuration, so both stores see the same tokens: Latin diacritics folded, then
// the whole scoped token Porter-stemmed unless it is longer than 64 bytes — what SQLite's
// `porter unicode61 remove_diacritics 2` tokenizer does to the same token.

import { stemmer } from 'stemmer';

import { rankByMatchedTerms, type RankedRow, type TermMatches } from '../../util/term-rank.js';
import type { Sql } from './client.js';

// The same candidate limits as the SQLite index (src/storage/sqlite/fts-index.ts).
const MAX_SEARCH_TERMS = 16;
const CANDIDATES_PER_TERM = 200;
const FREQUENCY_CAP = 1000;
/** SQLite's porter tokenizer passes longer tokens through unstemmed (FTS5_PORTER_MAX_TOKEN). */
const PORTER_MAX_BYTES = 64;

const LATIN_MARKS = /(?<=\p{Script=Latin})\p{M}+/gu;

/**
 * The lexeme a word of a scope is indexed and searched as.
 *
 * @example
 * scopedLexeme('k069541920532125', 'releases') // 'k069541920532125_releas'
 */
export function scopedLexeme(prefix: string, word: string): string {
  const token = `${prefix}_${word.normalize('NFD').replace(LATIN_MARKS, '').normalize('NFC')}`;
  return Buffer.byteLength(token) > PORTER_MAX_BYTES ? token : stemmer(token);
}

/** The lexemes of a space-separated search text under a scope prefix. */
export function scopedLexemes(prefix: string, searchText: string): string[] {
  const out = new Set<string>();
  for (const word of searchText.split(' ')) if (word !== '') out.add(scopedLexeme(prefix, word));
  return [...out];
}

/** A tsquery matching any of the lexemes; each is quoted, so no character of it is query syntax. */
function anyOf(lexemes: readonly string[]): string {
  return lexemes.map((value) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`).join(' | ');
}

/**
 * Each table's rows (`x`) with the time they were recorded: an event's own, or the time the item of
 * a chunk was recorded.
 */
const RECORDED: Readonly<Record<'events' | 'memory_chunks', { from: string; column: string }>> = {
  events: { from: 'events x', column: 'x.recorded_at' },
  memory_chunks: { from: 'memory_chunks x JOIN memory_items r ON r.tenant_id = x.tenant_id AND r.id = x.item_id', column: 'r.recorded_at' },
};

/** The scoped word index of one table (`events` or `memory_chunks`, column `search`, key `seq`). */
export class WordIndex {
  constructor(private readonly table: 'events' | 'memory_chunks') {}

  /**
   * Rows of the given scopes (their prefixes name the tenant) that hold any of the words, best first. One round trip reads
   * the newest candidates of every word; a second counts the words that filled their candidates. `scopeSize`, when
   * given, is read alongside (see rankByMatchedTerms). With `recordedBy`, only rows recorded at or before that time are
   * read and counted: the ranking the index gave then, whatever was added since.
   */
  async rank(sql: Sql, prefixes: readonly string[], terms: readonly string[], scopeSize?: Promise<number>, recordedBy?: string): Promise<RankedRow[]> {
    const [matches, size] = await Promise.all([this.matches(sql, prefixes, terms, recordedBy), scopeSize]);
    return rankByMatchedTerms(matches, size);
  }

  /** The rows holding a word (the query's first parameter), of those recorded by a time (its second) when asked. */
  private matching(recordedBy: string | undefined): string {
    if (recordedBy === undefined) return `SELECT seq FROM ${this.table} WHERE search @@ ?::tsquery`;
    const { from, column } = RECORDED[this.table];
    return `SELECT x.seq FROM ${from} WHERE x.search @@ ?::tsquery AND ${column} <= ?`;
  }

  /** The newest rows of each word (in the given scopes) and how many rows hold it, counted up to a cap. */
  private async matches(sql: Sql, prefixes: readonly string[], terms: readonly string[], recordedBy: string | undefined): Promise<TermMatches[]> {
    const queries = terms.slice(0, MAX_SEARCH_TERMS).map((term) => anyOf(prefixes.map((prefix) => scopedLexeme(prefix, term))));
    if (queries.length === 0) return [];
    const matching = this.matching(recordedBy);
    const bound = (query: string, limit: number) => (recordedBy === undefined ? [query, limit] : [query, recordedBy, limit]);
    const perTerm = queries.map(
      // The GIN index finds the word's rows, then the newest are kept (OFFSET 0 keeps the match
      // inside). The lexemes carry the tenant's scope prefix, so no tenant_id test is needed here; one
      // would let the planner walk the tenant's rows testing each (readers filter by tenant after).
      (_, index) => `SELECT ${index} AS term, seq FROM (SELECT seq FROM (${matching} OFFSET 0) AS m${index} ORDER BY seq DESC LIMIT ?) AS t${index}`,
    );
    const found = await sql.arrays(perTerm.join(' UNION ALL '), queries.flatMap((query) => bound(query, CANDIDATES_PER_TERM)));
    const rows: number[][] = queries.map(() => []);
    for (const [term, seq] of found) rows[Number(term)]!.push(Number(seq));
    for (const list of rows) list.sort((a, b) => b - a);
    const frequency = rows.map((list) => list.length);
    const full = queries.flatMap((query, index) => (rows[index]!.length === CANDIDATES_PER_TERM ? [{ index, query }] : []));
    if (full.length > 0) {
      const counts = full.map(
        ({ index }) => `SELECT ${index} AS term, count(*) AS n FROM (${matching} LIMIT ?) AS c${index}`,
      );
      const counted = await sql.arrays(counts.join(' UNION ALL '), full.flatMap(({ query }) => bound(query, FREQUENCY_CAP)));
      for (const [term, n] of counted) frequency[Number(term)] = Number(n);
    }
    return rows.map((list, index) => ({ rows: list, documentFrequency: frequency[index]! }));
  }
}
