// Token counts kept with event and item rows: what compose charges for the text it shows of each,
// counted once when the row is written instead of on every compose that reads it.

import type { EventRecord } from './event.js';
import type { MemoryItem } from './items.js';

/**
 * Counts, when a row is written, the tokens compose charges for the text it shows of an event or
 * an item version. The runtime gives one to the store it opens (`textTokenCounter` in
 * src/composer/text-tokens.ts, for the built-in o200k_base tokenizer only); an adapter stores what
 * it returns with the row (null: not counted) and attaches it to the records it reads back.
 */
export interface TextTokenCounter {
  event(event: EventRecord): number | null;
  item(item: MemoryItem): number | null;
}

// Kept beside the record rather than in it: the count is no field of the record (an API response, an
// export or an equality check never sees it), and a copy of the record simply has none.
const counts = new WeakMap<object, number>();

/**
 * Attaches the stored count of a record an adapter read (nothing for a null count).
 *
 * @example
 * withTextTokens(eventFromValues(row), row[TEXT_TOKENS_AT] as number | null)
 */
export function withTextTokens<T extends EventRecord | MemoryItem>(record: T, tokens: number | null): T {
  if (tokens !== null) counts.set(record, tokens);
  return record;
}

/**
 * The count stored with a record, or undefined when its row holds none (written before counts were
 * kept, or by a store that keeps none).
 *
 * @example
 * storedTextTokens(event) ?? countItNow(event)
 */
export function storedTextTokens(record: EventRecord | MemoryItem): number | undefined {
  return counts.get(record);
}
