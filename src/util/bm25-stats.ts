// The per-row word counts BM25 ranks with, kept beside each indexed row as one short text: the row's
// length in words, then each word it says twice or more with its count ("37 tea 3 releas 2"). Words
// are counted by their indexed form (diacritics folded, Porter-stemmed), the form a search matches.

import { LRUCache } from 'lru-cache';
import { stemmer } from 'stemmer';

import type { RowTerms } from './bm25.js';
import { STOPWORDS } from './stopwords.js';

/**
 * Every scope prefix is a consonant and 15 digits (util/scope-token.ts); the stemmer reads a word
 * after any of them alike, so a word's form after this one is its form in every scope.
 */
const PREFIX_SHAPE = 'k000000000000000';
/** SQLite's porter tokenizer passes longer tokens (prefix included) through unstemmed (FTS5_PORTER_MAX_TOKEN). */
const PORTER_MAX_BYTES = 64;
const LATIN_MARKS = /(?<=\p{Script=Latin})\p{M}+/gu;

// Stemming is a few regular expressions a word; a store indexes the same vocabulary over and over.
const keys = new LRUCache<string, string>({ max: 50_000 });

/**
 * The form a word is indexed and matched by, without its scope prefix: Latin diacritics folded,
 * then Porter-stemmed as the whole scoped token is (unless that token is over 64 bytes).
 *
 * @example
 * termKey('releases') // 'releas'
 */
export function termKey(word: string): string {
  let key = keys.get(word);
  if (key === undefined) {
    const token = `${PREFIX_SHAPE}_${word.normalize('NFD').replace(LATIN_MARKS, '').normalize('NFC')}`;
    key = (Buffer.byteLength(token) > PORTER_MAX_BYTES ? token : stemmer(token)).slice(PREFIX_SHAPE.length + 1);
    keys.set(word, key);
  }
  return key;
}

/**
 * The counts kept for a search text (words separated by spaces): its length in words, then the
 * indexed forms said twice or more, in code-unit order. Function words are left out of the counts
 * (queries leave them out), not of the length.
 *
 * @example
 * termStats('tea and more tea and teas') // '6 tea 3'
 */
export function termStats(searchText: string): string {
  let length = 0;
  const counts = new Map<string, number>();
  for (const word of searchText.split(' ')) {
    if (word === '') continue;
    length += 1;
    if (STOPWORDS.has(word)) continue;
    const key = termKey(word);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const repeated = [...counts].filter(([, count]) => count > 1).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return [String(length), ...repeated.flatMap(([key, count]) => [key, String(count)])].join(' ');
}

/**
 * A row's counts as stored (`termStats`), or, for a row indexed before counts were kept (null), its
 * length from `fallbackLength` (its token count, when it has one) with each word said once. A length
 * of another shape is read as missing, and so is the count of a word written otherwise: ranking
 * degrades, a search never fails on derived data.
 *
 * @example
 * readTermStats('6 tea 3', null).repeated?.get('tea') // 3
 * readTermStats(null, 12) // { length: 12, repeated: null }
 */
export function readTermStats(stats: unknown, fallbackLength: unknown): RowTerms {
  if (typeof stats === 'string') {
    const space = stats.indexOf(' ');
    const length = count(space === -1 ? stats : stats.slice(0, space));
    if (length !== null) return { length, repeated: space === -1 ? null : new StoredRepeats(stats, space + 1) };
  }
  const length = Number(fallbackLength ?? Number.NaN);
  return { length: Number.isSafeInteger(length) && length > 0 ? length : null, repeated: null };
}

/**
 * The repeated words of stored counts, read from the text when first asked for a word it holds: a
 * search reads the counts of hundreds of candidates, most of which say the words they match once.
 * Read, they stay read with the row's counts the store keeps between searches.
 */
class StoredRepeats {
  private counts: Map<string, number> | undefined;

  constructor(
    private readonly text: string,
    private readonly from: number,
  ) {}

  get(key: string): number | undefined {
    if (this.counts === undefined) {
      // One native search settles a word the row does not repeat.
      if (key === '' || this.text.indexOf(key, this.from) === -1) return undefined;
      this.counts = new Map();
      const parts = this.text.slice(this.from).split(' ');
      for (let index = 0; index + 1 < parts.length; index += 2) {
        const times = count(parts[index + 1]!);
        if (parts[index] !== '' && times !== null) this.counts.set(parts[index]!, times);
      }
    }
    return this.counts.get(key);
  }
}

/** A whole number of at least 1 written in decimal digits (as termStats writes it), else null. */
function count(text: string): number | null {
  if (text.length === 0 || text.length > 9 || text.charCodeAt(0) === 48) return null;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < 48 || code > 57) return null;
  }
  return Number(text);
}
