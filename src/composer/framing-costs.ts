// What a packet's rendering adds around its items, in tokens, in the format that takes more of
// them (Markdown or XML): the packet's title, each part's heading, each group's heading (a day of
// key quotes) and each item's line. The builder charges them as it places items, so the estimate
// bounds both renderings.

import type { Tokenizer } from '../spec/tokenizer.js';
import { blockFraming, groupFraming, type BlockTag, type RenderFormat } from './render.js';
import { cachedCount } from './text-tokens.js';

/** What rendering adds to each item: a bullet (or indentation) and a line break. */
const RENDER_LINE = 2;

/** Tokens of framing pieces in the format that takes more of them (each piece counted on its own). */
export function framingCost(tokenizer: Tokenizer, pieces: Record<RenderFormat, string[]>): number {
  const sum = (texts: readonly string[]) => texts.reduce((total, text) => total + cachedCount(tokenizer, text), 0);
  return Math.max(sum(pieces.markdown), sum(pieces.xml));
}

/** Tokens of each heading, by tokenizer and heading (a part's, or a day's: a few hundred a year). */
const HEADING_COSTS = new Map<string, number>();

/** Tokens of a heading's framing, counted once per tokenizer. */
function cachedHeadingCost(
  tokenizer: Tokenizer,
  heading: string,
  pieces: () => Record<RenderFormat, string[]>,
): number {
  const key = `${tokenizer.name}\u0000${heading}`;
  let tokens = HEADING_COSTS.get(key);
  if (tokens === undefined) {
    tokens = framingCost(tokenizer, pieces());
    HEADING_COSTS.set(key, tokens);
  }
  return tokens;
}

/** Tokens a rendered part adds once (its heading or tag pair), in the format that takes more. */
function headingCost(tokenizer: Tokenizer, block: BlockTag): number {
  return cachedHeadingCost(tokenizer, `part:${block}`, () => blockFraming(block));
}

/** Tokens a group's heading line adds inside its part, in the format that takes more. */
function groupHeadingCost(tokenizer: Tokenizer, heading: string): number {
  return cachedHeadingCost(tokenizer, `group:${heading}`, () => groupFraming(heading));
}

/**
 * Tokens an item adds beyond its text: its line, its part's heading when the part is not shown yet
 * (`newPart`), and its group's heading when it is the group's first (`newGroup`, a day of key quotes).
 *
 * @example
 * itemFramingCost(tokenizer, 'key_quotes', { newPart: true, group: '2023-08-23:', newGroup: true })
 */
export function itemFramingCost(
  tokenizer: Tokenizer,
  block: BlockTag,
  at: { newPart: boolean; group?: string | undefined; newGroup: boolean },
): number {
  const part = at.newPart ? headingCost(tokenizer, block) : 0;
  const heading = at.group === undefined || !at.newGroup ? 0 : groupHeadingCost(tokenizer, at.group);
  return RENDER_LINE + part + heading;
}
