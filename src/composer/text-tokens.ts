// What compose charges for the handle and text of an event's or item version's line, counted once
// when the row is written. A line is `handle + label + ' ' + text` (item-text.ts); the count kept
// with a row is that of its handle (`[VKY2P2]`) plus that of its text after the space, in the
// rendering that takes more (as it is, or escaped for XML), and compose adds the label's tokens. The
// sum is exact: the o200k pre-tokenizer starts a new piece after the handle's `]` when a space or a
// digit follows, and after a label ending in `:` when a space follows, so the pieces, and with them
// the tokens, of the line are those of its three parts (text-tokens.test.ts checks it).
//
// A kept count is only as good as the text it was made from: a change to how these lines read
// (the handle, quotedText, contentText, describeValue) needs a migration that clears `text_tokens`,
// after which compose counts those rows itself again.

import type { EventRecord } from '../spec/event.js';
import type { MemoryItem } from '../spec/items.js';
import type { TextTokenCounter } from '../spec/text-tokens.js';
import type { Tokenizer } from '../spec/tokenizer.js';
import { contentText } from '../events/content-text.js';
import { NEVER_SHARED } from '../events/sensitivity.js';
import { describeValue } from '../items/values.js';
import { o200kTokenizer } from '../util/tokenizer.js';
import { citationHandle, quotedText } from './item-text.js';
import { promptTokenizer } from './packet-builder.js';

/** The kinds of events compose shows as lines (conversation window, cue passages). */
const SHOWN_KINDS: ReadonlySet<EventRecord['kind']> = new Set(['message', 'tool_result']);

/** The text of an event as its lines show it whole (before any cut). */
export function eventBody(event: EventRecord): string {
  return quotedText(contentText(event.content));
}

/** The text of an item version as its fact, episode or procedure line shows it whole. */
export function itemBody(item: MemoryItem): string {
  return describeValue(item.type, item.value);
}

/** The tokens of a record's handle and of its whole text after the joining space. */
export function recordTokens(tokenizer: Tokenizer, id: string, body: string): number {
  return tokenizer.count(`[${citationHandle(id)}]`) + tokenizer.count(` ${body}`);
}

/**
 * The counter the runtime gives the store it opens: the built-in tokenizer's counts of the lines
 * compose shows (none for events it never shows). Counts of another tokenizer are not kept: a store
 * does not know which tokenizer reads it next.
 *
 * @example
 * await openSqliteStorage({ path, textTokens: textTokenCounter() });
 */
export function textTokenCounter(): TextTokenCounter {
  const tokenizer = promptTokenizer(o200kTokenizer);
  return {
    event: (event) =>
      SHOWN_KINDS.has(event.kind) && !NEVER_SHARED.includes(event.sensitivity)
        ? recordTokens(tokenizer, event.id, eventBody(event))
        : null,
    item: (item) => recordTokens(tokenizer, item.id, itemBody(item)),
  };
}
