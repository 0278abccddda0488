// The default tokenizer: OpenAI's o200k_base BPE from gpt-tokenizer, run locally. Special-token
// strings inside user text are counted as ordinary text, never rejected.

import { countTokens, encode, decode } from 'gpt-tokenizer/encoding/o200k_base';

import type { Tokenizer } from '../spec/tokenizer.js';

const asText = { disallowedSpecial: new Set<string>() };

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
    return text === '' ? 0 : countTokens(text, asText);
  },
  truncate(text: string, maxTokens: number): string {
    if (maxTokens <= 0) return '';
    const tokens = encode(text, asText);
    if (tokens.length <= maxTokens) return text;
    // Cutting a token list can split a multi-byte character; drop the replacement characters left behind.
    return decode(tokens.slice(0, maxTokens)).replace(/\uFFFD+$/u, '');
  },
};
