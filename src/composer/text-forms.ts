// The degradation ladder of a piece of text: raw (bounded), quote (the part that matters), summary
// (a short cut) and ref (nothing but the citation id, which the item carries anyway).

import type { Tokenizer } from '../spec/tokenizer.js';
import { lazyForm, type Level } from './packet-builder.js';

export interface TextFormLimits {
  raw: number;
  quote: number;
  summary: number;
}

export const TEXT_LIMITS: TextFormLimits = { raw: 400, quote: 60, summary: 16 };

function cut(text: string, maxTokens: number, tokenizer: Tokenizer): string {
  const head = tokenizer.truncate(text, maxTokens);
  return head.length < text.length ? `${head.trimEnd()}…` : text;
}

/**
 * The forms of `text`, richest first. The raw form is cut now; the quote and summary forms only when
 * they are read (most items fit raw). A form equal to the one before it is skipped by the builder.
 * `quote` may give the part that matters most (the best sentence), found only when a quote or
 * summary form is read; without it, or when it finds none, they cut the start of the text.
 * `sentenceOnly` gives only the quote and summary forms. `wholeTokens`, the tokens of the whole text as
 * its line shows it (text-tokens.ts), spares the cut of a text within the raw limit.
 *
 * @example
 * textForms('a long message …', o200kTokenizer).map((form) => form.level) // ['raw', 'quote', 'summary', 'ref']
 */
export function textForms(
  text: string,
  tokenizer: Tokenizer,
  limits: TextFormLimits = TEXT_LIMITS,
  quote?: () => string | undefined,
  options: { sentenceOnly?: boolean; wholeTokens?: number | undefined } = {},
): Array<{ level: Level; readonly value: string }> {
  let found: string | undefined;
  const quoted = () => (found ??= quote?.() ?? text);
  const shorter = [
    lazyForm('quote', () => cut(quoted(), limits.quote, tokenizer)),
    lazyForm('summary', () => cut(quoted(), limits.summary, tokenizer)),
  ];
  // Only the quote and summary forms, both cut when first read.
  if (options.sentenceOnly === true) return shorter;
  const { wholeTokens } = options;
  return [
    {
      level: 'raw',
      value: wholeTokens !== undefined && wholeTokens <= limits.raw ? text : cut(text, limits.raw, tokenizer),
    },
    ...shorter,
    { level: 'ref', value: '' },
  ];
}
