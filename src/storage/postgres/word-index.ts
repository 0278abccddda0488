// Full-text search on PostgreSQL: a `tsvector` column of scoped words (`<prefix>_<word>`, the same
// Intl.Segmenter words the SQLite store indexes) under a GIN index. The lexemes are built here, not
// by a text-search configuration, so both stores see the same words: Latin diacritics folded and
// ASCII words Porter-stemmed, as SQLite's `porter unicode61 remove_diacritics 2` tokenizer does.

import { stemmer } from 'stemmer';

import { rankByMatchedTerms, type RankedRow } from '../../util/term-rank.js';
import type { Sql } from './client.js';

// The same candidate limits as the SQLite index (src/storage/sqlite/fts-index.ts).
const MAX_SEARCH_TERMS = 16;
const CANDIDATES_PER_TERM = 200;
const FREQUENCY_CAP = 1000;

const LATIN_MARKS = /(?<=\p{Script=Latin})\p{M}+/gu;

/**
 * The lexeme a word is indexed and searched as.
 *
 * @example
 * lexeme('Café') // 'cafe';  lexeme('releases') // 'releas'
 */
export function lexeme(word: string): string {
  const folded = word.normalize('NFD').replace(LATIN_MARKS, '').normalize('NFC');
  return /^[a-z]{3,}$/.test(folded) ? stemmer(folded) : folded;
}

/** The lexemes of a space-separated search text under a scope prefix. */
export function scopedLexemes(prefix: string, searchText: string): string[] {
  const out = new Set<string>();
  for (const word of searchText.split(' ')) if (word !== '') out.add(`${prefix}_${lexeme(word)}`);
  return [...out];
}

/** A tsquery matching any of the lexemes; each is quoted, so no character of it is query syntax. */
function anyOf(lexemes: readonly string[]): string {
  return lexemes.map((value) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`).join(' | ');
}

/** The scoped word index of one table (`events` or `memory_chunks`, column `search`, key `seq`). */
export class WordIndex {
  constructor(private readonly table: 'events' | 'memory_chunks') {}

  /** Rows of the given scopes of a tenant that hold any of the words, best first. */
  async rank(sql: Sql, tenantId: string, prefixes: readonly string[], terms: readonly string[]): Promise<RankedRow[]> {
    const matches = [];
    for (const term of terms.slice(0, MAX_SEARCH_TERMS)) {
      const word = lexeme(term);
      const query = anyOf(prefixes.map((prefix) => `${prefix}_${word}`));
      const rows = (
        await sql.arrays(`SELECT seq FROM ${this.table} WHERE tenant_id = ? AND search @@ ?::tsquery ORDER BY seq DESC LIMIT ?`, [
          tenantId,
          query,
          CANDIDATES_PER_TERM,
        ])
      ).map((row) => Number(row[0]));
      let documentFrequency = rows.length;
      if (rows.length === CANDIDATES_PER_TERM) {
        const counted = await sql.arrays(
          `SELECT count(*) FROM (SELECT 1 FROM ${this.table} WHERE tenant_id = ? AND search @@ ?::tsquery LIMIT ?) AS matched`,
          [tenantId, query, FREQUENCY_CAP],
        );
        documentFrequency = Number(counted[0]![0]);
      }
      matches.push({ rows, documentFrequency });
    }
    return rankByMatchedTerms(matches);
  }
}
