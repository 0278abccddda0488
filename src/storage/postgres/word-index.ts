// Full-text search on PostgreSQL: a `tsvector` column of scoped words (`<prefix>_<word>`, the same
// Intl.Segmenter words the SQLite store indexes) under a GIN index, ranked by BM25. The lexemes are
// built here, not by a text-search configuration, so both stores see the same tokens: Latin
// diacritics folded, then the whole scoped token Porter-stemmed unless it is longer than 64 bytes —
// what SQLite's `porter unicode61 remove_diacritics 2` tokenizer does to the same token.

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
import type { Sql } from './client.js';

/**
 * The lexeme a word of a scope is indexed and searched as: the scope prefix, then the word's
 * indexed form (termKey stems it as it stands in the whole scoped token).
 *
 * @example
 * scopedLexeme('k069541920532125', 'releases') // 'k069541920532125_releas'
 */
export function scopedLexeme(prefix: string, word: string): string {
  return `${prefix}_${termKey(word)}`;
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

type IndexTable = 'events' | 'memory_chunks';

/**
 * Each table's rows (`x`) with the time they were recorded (an event's own, or the time the item of
 * a chunk was recorded) and the length a row without word counts falls back on (an event's token
 * count; a chunk has none).
 */
const RECORDED: Readonly<Record<IndexTable, { from: string; column: string; tokens: string }>> = {
  events: { from: 'events x', column: 'x.recorded_at', tokens: 'x.text_tokens' },
  memory_chunks: {
    from: 'memory_chunks x JOIN memory_items r ON r.tenant_id = x.tenant_id AND r.id = x.item_id',
    column: 'r.recorded_at',
    tokens: 'NULL::integer',
  },
};

/** The candidates of each word, and every candidate's word counts. */
interface Candidates {
  matches: TermMatches[];
  rows: Map<number, RowTerms>;
}

/** The scoped word index of one table (`events` or `memory_chunks`, column `search`, key `seq`). */
export class WordIndex {
  constructor(private readonly table: IndexTable) {}

  /**
   * Rows of the given scopes (their prefixes name the tenant) that hold any of the words, best first (see rankBm25). One
   * round trip reads the newest candidates of every word with their word counts; a second counts the words that filled
   * their candidates. `scopeSize`, when given, is read alongside. With `recordedBy`, only rows recorded at or before
   * that time are read and counted: the ranking the index gave then, whatever was added since.
   */
  async rank(
    sql: Sql,
    prefixes: readonly string[],
    terms: readonly string[],
    scopeSize?: Promise<number>,
    recordedBy?: string,
  ): Promise<RankedRow[]> {
    const [candidates, size] = await Promise.all([this.candidates(sql, prefixes, terms, recordedBy), scopeSize]);
    return rankBm25(candidates.matches, candidates.rows, size);
  }

  /** The rows holding a word (the query's first parameter), of those recorded by a time (its second) when asked. */
  private matching(recordedBy: string | undefined, counts: boolean): string {
    const { from, column, tokens } = RECORDED[this.table];
    const columns = counts ? `x.seq, x.term_stats, ${tokens} AS tokens` : 'x.seq';
    if (recordedBy === undefined) return `SELECT ${columns} FROM ${this.table} x WHERE x.search @@ ?::tsquery`;
    return `SELECT ${columns} FROM ${from} WHERE x.search @@ ?::tsquery AND ${column} <= ?`;
  }

  /** The newest rows of each word (in the given scopes) with their word counts, and how many rows hold it, counted up to a cap. */
  private async candidates(
    sql: Sql,
    prefixes: readonly string[],
    terms: readonly string[],
    recordedBy: string | undefined,
  ): Promise<Candidates> {
    const searched = terms.slice(0, MAX_SEARCH_TERMS);
    const queries = searched.map((term) => anyOf(prefixes.map((prefix) => scopedLexeme(prefix, term))));
    if (queries.length === 0) return { matches: [], rows: new Map() };
    const bound = (query: string, limit: number) =>
      recordedBy === undefined ? [query, limit] : [query, recordedBy, limit];
    const candidates = this.matching(recordedBy, true);
    const perTerm = queries.map(
      // The GIN index finds the word's rows, then the newest are kept (OFFSET 0 keeps the match
      // inside). The lexemes carry the tenant's scope prefix, so no tenant_id test is needed here; one
      // would let the planner walk the tenant's rows testing each (readers filter by tenant after).
      (_, index) =>
        `SELECT ${index} AS term, seq, term_stats, tokens FROM (SELECT * FROM (${candidates} OFFSET 0) AS m${index} ORDER BY seq DESC LIMIT ?) AS t${index}`,
    );
    const found = await sql.arrays(
      perTerm.join(' UNION ALL '),
      queries.flatMap((query) => bound(query, CANDIDATES_PER_TERM)),
    );
    const lists: number[][] = queries.map(() => []);
    const rows = new Map<number, RowTerms>();
    for (const [term, seq, stats, tokens] of found) {
      const row = Number(seq);
      lists[Number(term)]!.push(row);
      if (!rows.has(row)) rows.set(row, readTermStats(stats, tokens));
    }
    for (const list of lists) list.sort((a, b) => b - a);
    const frequency = lists.map((list) => list.length);
    const full = queries.flatMap((query, index) =>
      lists[index]!.length === CANDIDATES_PER_TERM ? [{ index, query }] : [],
    );
    if (full.length > 0) {
      const matching = this.matching(recordedBy, false);
      const counts = full.map(
        ({ index }) => `SELECT ${index} AS term, count(*) AS n FROM (${matching} LIMIT ?) AS c${index}`,
      );
      const counted = await sql.arrays(
        counts.join(' UNION ALL '),
        full.flatMap(({ query }) => bound(query, FREQUENCY_CAP)),
      );
      for (const [term, n] of counted) frequency[Number(term)] = Number(n);
    }
    const matches = lists.map((list, index) => ({
      key: termKey(searched[index]!),
      rows: list,
      documentFrequency: frequency[index]!,
    }));
    return { matches, rows };
  }
}
