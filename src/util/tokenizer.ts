// The default tokenizer: OpenAI's o200k_base BPE from gpt-tokenizer, run locally. Special-token
// strings inside user text are counted as ordinary text, never rejected.

import ranks from 'gpt-tokenizer/bpeRanks/o200k_base';
import { countTokens, encodeGenerator, setMergeCacheSize } from 'gpt-tokenizer/encoding/o200k_base';

import type { Tokenizer } from '../spec/tokenizer.js';

const asText = { disallowedSpecial: new Set<string>() };

// The encoder keeps the merges of words outside its vocabulary in an LRU built on a Map (100,000
// entries by default). Once it is full, each eviction walks past the slots that earlier moves and
// deletions left empty: counting 30,000 stored messages after 30,000 others took 17 µs a message
// with the default and 11 µs with a thousand entries, which still keep the words that recur.
const MERGE_CACHE_SIZE = 1000;
setMergeCacheSize(MERGE_CACHE_SIZE);

// The encoder merges each pre-tokenizer piece (a run of letters, of punctuation or of spaces) in
// time quadratic in its length: a run of 16,000 letters takes 90 ms, one of 300,000 minutes. Prose
// seldom holds a run of 256 such characters (scripts written without spaces break at their
// punctuation); a text that does (a pasted blob, a long line of one character) is counted by its
// UTF-8 bytes, an upper bound (no token is shorter than a byte), and cut by bytes, so a budget still
// holds and no input stalls the process.
export const LONG_RUN_CHARS = 256;
const LONG_RUN = /[\p{L}\p{M}]{256}|[^\s\p{L}\p{N}]{256}|\s{256}/u; // runs of LONG_RUN_CHARS

/** Whether a text holds a run too long to merge (see LONG_RUN). */
function hasLongRun(text: string): boolean {
  return text.length >= LONG_RUN_CHARS && LONG_RUN.test(text);
}

/** The UTF-8 bytes each token stands for (the encoding's own table). */
function tokenBytes(token: number): number {
  const value = ranks[token];
  return value === undefined ? 0 : typeof value === 'string' ? Buffer.byteLength(value, 'utf8') : value.length;
}

/**
 * The longest prefix of `text`, in whole characters, within its first `bytes` bytes of UTF-8 (a
 * lone surrogate counts as the three bytes of U+FFFD, as the encoder sees it). Decoding the cut
 * tokens instead would go through gpt-tokenizer's shared streaming decoder, which keeps the bytes
 * of a half character and puts them in front of the next decode.
 */
function prefixWithinBytes(text: string, bytes: number): string {
  let used = 0;
  let index = 0;
  while (index < text.length) {
    const code = text.codePointAt(index)!;
    const width = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    if (used + width > bytes) break;
    used += width;
    index += code >= 0x10000 ? 2 : 1;
  }
  return text.slice(0, index);
}

/** Characters per token of the limit below which `truncate` counts a text whole before encoding it. */
const TRUNCATE_COUNT_FIRST_CHARS = 6;

const DIGIT = /[0-9]/g;
/** A numeric character other than an ASCII digit: a group holding one is counted as it is. */
const OTHER_NUMERIC = /(?![0-9])\p{N}/u;

/**
 * The o200k_base tokenizer (GPT-4o family).
 *
 * @example
 * o200kTokenizer.count('Engram remembers.') // 4
 */
export const o200kTokenizer: Tokenizer = {
  specificationVersion: 'v1',
  name: 'o200k_base',
  count(text: string): number {
    if (text === '') return 0;
    return hasLongRun(text) ? Buffer.byteLength(text, 'utf8') : countTokens(text, asText);
  },
  truncate(text: string, maxTokens: number): string {
    if (maxTokens <= 0) return '';
    // A token holds at least one byte of UTF-8: a text of no more bytes than the limit fits as it is.
    if (text.length <= maxTokens && Buffer.byteLength(text, 'utf8') <= maxTokens) return text;
    if (hasLongRun(text)) return prefixWithinBytes(text, maxTokens);
    // A text that may well fit (a token is ~4 characters of English) is counted first, which is
    // quicker than encoding it token by token; a longer one is encoded only as far as the limit.
    if (text.length <= maxTokens * TRUNCATE_COUNT_FIRST_CHARS && countTokens(text, asText) <= maxTokens) return text;
    // Encodes word by word and stops past the limit: a long text costs what its head costs.
    let tokens = 0;
    let bytes = 0;
    for (const chunk of encodeGenerator(text, asText)) {
      for (const token of chunk) {
        // A cut inside a multi-byte character leaves that character out.
        if (tokens === maxTokens) return prefixWithinBytes(text, bytes);
        tokens += 1;
        bytes += tokenBytes(token);
      }
    }
    return text;
  },
  // The pre-tokenizer cuts a run of numeric characters into groups of one to three from its start,
  // apart from the text around it, and every group of ASCII digits is one token (a test checks all
  // 1,110): which digits they are changes no count. Dates, times and numbers then share their counts.
  // A text with other numeric characters (which may share a group with ASCII digits) is its own key.
  countKey: (text: string): string => (OTHER_NUMERIC.test(text) ? text : text.replace(DIGIT, '0')),
};
