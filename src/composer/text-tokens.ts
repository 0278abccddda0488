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
// after which compose counts those rows itself again. LineCosts is what a compose counts with.

import { LRUCache } from 'lru-cache';

import type { EventRecord } from '../spec/event.js';
import type { MemoryItem } from '../spec/items.js';
import { storedTextTokens, type TextTokenCounter } from '../spec/text-tokens.js';
import type { Tokenizer } from '../spec/tokenizer.js';
import { contentText } from '../events/content-text.js';
import { NEVER_SHARED } from '../events/sensitivity.js';
import { describeValue } from '../items/values.js';
import { o200kTokenizer } from '../util/tokenizer.js';
import { citationHandle, escapeXmlText, joinLine, quotedText, type ItemLine } from './item-text.js';

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

const NEEDS_ESCAPE = /[&<>]/;
/** A label the handle's `]` never joins (a space or digit first) and that ends before the text's space. */
const SEPARABLE_LABEL = /^(?:[ \p{N}].*\S)?$/su;

/** Whether a line's tokens are those of its handle, label and text apart. */
function separable(line: ItemLine): boolean {
  return line.handle !== '' && SEPARABLE_LABEL.test(line.label) && !NEEDS_ESCAPE.test(line.label);
}

/**
 * The tokenizer budgets count with: a text costs the larger of its two renderings, as it is
 * (Markdown) and escaped for XML (`&amp;` and the like take more tokens), so a packet fits its
 * budget in either format. Truncation is the tokenizer's own.
 *
 * @example
 * promptTokenizer(o200kTokenizer).count('Q&A') // the tokens of 'Q&amp;A'
 */
export function promptTokenizer(tokenizer: Tokenizer): Tokenizer {
  return {
    specificationVersion: 'v1',
    name: `${tokenizer.name}+xml`,
    count(text: string): number {
      const plain = tokenizer.count(text);
      return NEEDS_ESCAPE.test(text) ? Math.max(plain, tokenizer.count(escapeXmlText(text))) : plain;
    },
    truncate: (text: string, maxTokens: number): string => tokenizer.truncate(text, maxTokens),
    // Escaping for XML keeps every count key's equivalence: it changes `& < >` only.
    ...(tokenizer.countKey === undefined ? {} : { countKey: tokenizer.countKey }),
  };
}

// Token counts of texts, one cache per tokenizer name, under each text's count key (texts that differ
// only in their digits share one entry with o200k_base: a packet's title with its time, dates,
// numbered keys). An LRU: evicting the oldest entry of a plain Map makes the next eviction walk over
// the slots of every entry deleted before it (microseconds each). Bounded by the characters of its
// keys as well (8M, about 16 MB), since rolling summaries are kilobytes long.
const COST_CACHES = new Map<string, LRUCache<string, number>>();

/**
 * The tokens of a text, through the count cache of its tokenizer.
 *
 * @example
 * cachedCount(o200kTokenizer, '## Facts\n') // 3
 */
export function cachedCount(tokenizer: Tokenizer, text: string): number {
  let cache = COST_CACHES.get(tokenizer.name);
  if (cache === undefined) {
    cache = new LRUCache<string, number>({
      max: 20_000,
      maxSize: 8_000_000,
      sizeCalculation: (_tokens, key) => Math.max(1, key.length),
    });
    COST_CACHES.set(tokenizer.name, cache);
  }
  const key = tokenizer.countKey === undefined ? text : tokenizer.countKey(text);
  let tokens = cache.get(key);
  if (tokens === undefined) {
    tokens = tokenizer.count(text);
    cache.set(key, tokens);
  }
  return tokens;
}

/**
 * What the lines of one packet cost: texts counted as the prompt shows them (promptTokenizer),
 * through the count cache, and a record's handle and whole text as its row keeps them.
 *
 * @example
 * const costs = new LineCosts(o200kTokenizer);
 * costs.lineCost(itemLine.fact(fact), costs.recordTokens(item, itemLine.fact(fact)));
 */
export class LineCosts {
  /** The prompt tokenizer: counts and truncates texts as a prompt shows them. */
  readonly tokenizer: Tokenizer;
  /** Counts kept with rows and summary sentences are the built-in tokenizer's: used only when it is the one counting. */
  readonly keptCounts: boolean;

  constructor(tokenizer: Tokenizer) {
    this.tokenizer = promptTokenizer(tokenizer);
    this.keptCounts = tokenizer === o200kTokenizer;
  }

  /** Tokens of a text as the model will see it (counts are cached: the same items recur across packets). */
  cost(text: string): number {
    return cachedCount(this.tokenizer, text);
  }

  /**
   * Tokens of a record's handle and whole text in its line: as its row keeps them, or counted now;
   * the same number either way.
   */
  recordTokens(record: EventRecord | MemoryItem, line: ItemLine): number {
    return (
      (this.keptCounts ? storedTextTokens(record) : undefined) ?? this.cost(line.handle) + this.cost(` ${line.body}`)
    );
  }

  /**
   * Tokens of a prompt line. Given `recordTokens` (the line shows its record's whole text), they are
   * those plus the label's, which is what the joined line counts; a line whose parts the tokenizer
   * could join across, or with a label the XML rendering escapes, is counted whole.
   */
  lineCost(line: ItemLine, recordTokens?: number): number {
    if (recordTokens === undefined || !separable(line)) return this.cost(joinLine(line));
    return recordTokens + (line.label === '' ? 0 : this.cost(line.label));
  }
}
