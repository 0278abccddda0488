// The token counts of the events and item versions a write holds, made before its transaction (a
// count takes microseconds a row, which the write lock need not wait for), and the statement that
// replaces a stored count.

import type { AppendEventOp, PutItemOp, PutTextTokensOp, WriteOp } from '../../spec/storage.js';
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

/**
 * The UPDATE that replaces the count kept with a row (the append-only trigger of events leaves it
 * out), and the field a missing row is reported by.
 *
 * @example
 * const { sql, params, field } = textTokensUpdate(op);
 */
export function textTokensUpdate(op: PutTextTokensOp): {
  sql: string;
  params: unknown[];
  field: 'event_id' | 'item_id';
} {
  const [table, field] =
    op.target === 'event' ? (['events', 'event_id'] as const) : (['memory_items', 'item_id'] as const);
  return {
    sql: `UPDATE ${table} SET text_tokens = ? WHERE tenant_id = ? AND id = ?`,
    params: [op.text_tokens, op.tenant_id, op.id],
    field,
  };
}
