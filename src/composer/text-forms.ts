// The degradation ladder of a piece of text: raw (bounded), quote (the part that matters), summary
// (a short cut) and ref (nothing but the citation id, which the item carries anyway).

import type { Tokenizer } from '../spec/tokenizer.js';
import type { Level } from './packet-builder.js';

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
 * The forms of `text`, richest first, without repeats. `quote` may be given (the sentence that
 * matters most); otherwise it is the start of the text.
 *
 * @example
 * textForms('a long message …', o200kTokenizer).map((form) => form.level) // ['raw', 'quote', 'summary', 'ref']
 */
export function textForms(
  text: string,
  tokenizer: Tokenizer,
  limits: TextFormLimits = TEXT_LIMITS,
  quote?: string,
): Array<{ level: Level; value: string }> {
  const forms: Array<{ level: Level; value: string }> = [{ level: 'raw', value: cut(text, limits.raw, tokenizer) }];
  const quoted = cut(quote ?? text, limits.quote, tokenizer);
  if (quoted !== forms[0]!.value) forms.push({ level: 'quote', value: quoted });
  const summary = cut(quote ?? text, limits.summary, tokenizer);
  if (summary !== forms[forms.length - 1]!.value) forms.push({ level: 'summary', value: summary });
  forms.push({ level: 'ref', value: '' });
  return forms;
}
