// The token counts of the events and item versions a write holds, made before its transaction: a
// count takes microseconds a row, which the write lock need not wait for.

import type { AppendEventOp, PutItemOp, WriteOp } from '../../spec/storage.js';
import type { TextTokenCounter } from '../../spec/text-tokens.js';

/** The count of each event and item version of `ops` its counter gives (none without a counter). */
export type TextCounts = ReadonlyMap<AppendEventOp | PutItemOp, number>;

const NONE: TextCounts = new Map();

/**
 * Counts the texts of the rows a write adds.
 *
 * @example
 * const counts = countTexts(ops, textTokens); // then counts.get(op) ?? null for each row
 */
export function countTexts(ops: readonly WriteOp[], counter: TextTokenCounter | undefined): TextCounts {
  if (counter === undefined) return NONE;
  const counts = new Map<AppendEventOp | PutItemOp, number>();
  for (const op of ops) {
    if (op.op === 'append_event') {
      const tokens = counter.event(op.event);
      if (tokens !== null) counts.set(op, tokens);
    } else if (op.op === 'put_item') {
      const tokens = counter.item(op.item);
      if (tokens !== null) counts.set(op, tokens);
    }
  }
  return counts;
}
