// Rows of the `memory_items` table, shared by the SQL adapters: the column order, values to bind,
// item versions read back from raw rows, and the WHERE clauses of an item query.

import type { MemoryItem } from '../../spec/items.js';
import { ownerOf } from '../../spec/items.js';
import type { ItemQuery } from '../../spec/storage.js';
import { withTextTokens } from '../../spec/text-tokens.js';
import { json, placeholders, textTokensOf } from './rows.js';

export const ITEM_COLUMNS = [
  'tenant_id',
  'id',
  'owner',
  'user_id',
  'agent_id',
  'scope_level',
  'type',
  'key',
  'value',
  'confidence',
  'status',
  'sensitivity',
  'valid_from',
  'valid_to',
  'salience',
  'version',
  'supersedes',
  'source_event_ids',
  'evidence_refs',
  'provenance',
  'tags',
  'entities',
  'recorded_at',
  'updated_at',
  'ended_at',
  'text_tokens',
] as const;

/** The values of an item version in the order of ITEM_COLUMNS, with the tokens compose charges for its text (null: not counted). */
export function itemValues(item: MemoryItem, textTokens: number | null): unknown[] {
  return [
    item.tenant_id,
    item.id,
    ownerOf(item.scope_level, item.user_id, item.agent_id),
    item.user_id,
    item.agent_id,
    item.scope_level,
    item.type,
    item.key,
    JSON.stringify(item.value),
    item.confidence,
    item.status,
    item.sensitivity,
    item.valid_from,
    item.valid_to,
    JSON.stringify(item.salience),
    item.version,
    item.supersedes,
    JSON.stringify(item.source_event_ids),
    JSON.stringify(item.evidence_refs),
    JSON.stringify(item.provenance),
    JSON.stringify(item.tags),
    JSON.stringify(item.entities),
    item.recorded_at,
    item.updated_at,
    item.ended_at,
    textTokens,
  ];
}

/** The item columns in the order `itemFromValues` reads them. */
export const ITEM_SELECT = ITEM_COLUMNS.join(', ');
export const ITEM_AT = Object.fromEntries(ITEM_COLUMNS.map((column, index) => [column, index])) as Record<
  (typeof ITEM_COLUMNS)[number],
  number
>;

/**
 * An item version from the values of a raw row that holds `ITEM_SELECT` from position `at` (raw rows
 * skip building an object per row; an item row has 26 columns).
 */
export function itemFromValues(values: readonly unknown[], at = 0): MemoryItem {
  // Every item row read goes through here: positions are read directly, no helper per column.
  const item: MemoryItem = {
    id: values[at + ITEM_AT.id] as string,
    tenant_id: values[at + ITEM_AT.tenant_id] as string,
    user_id: (values[at + ITEM_AT.user_id] as string | null) ?? null,
    agent_id: (values[at + ITEM_AT.agent_id] as string | null) ?? null,
    scope_level: values[at + ITEM_AT.scope_level] as MemoryItem['scope_level'],
    type: values[at + ITEM_AT.type] as MemoryItem['type'],
    key: values[at + ITEM_AT.key] as string,
    value: json(values[at + ITEM_AT.value]) as MemoryItem['value'],
    confidence: values[at + ITEM_AT.confidence] as number,
    status: values[at + ITEM_AT.status] as MemoryItem['status'],
    sensitivity: values[at + ITEM_AT.sensitivity] as MemoryItem['sensitivity'],
    valid_from: (values[at + ITEM_AT.valid_from] as string | null) ?? null,
    valid_to: (values[at + ITEM_AT.valid_to] as string | null) ?? null,
    salience: json(values[at + ITEM_AT.salience]) as MemoryItem['salience'],
    version: values[at + ITEM_AT.version] as number,
    supersedes: (values[at + ITEM_AT.supersedes] as string | null) ?? null,
    source_event_ids: json(values[at + ITEM_AT.source_event_ids]) as string[],
    evidence_refs: json(values[at + ITEM_AT.evidence_refs]) as MemoryItem['evidence_refs'],
    provenance: json(values[at + ITEM_AT.provenance]) as MemoryItem['provenance'],
    tags: json(values[at + ITEM_AT.tags]) as string[],
    entities: json(values[at + ITEM_AT.entities]) as string[],
    recorded_at: values[at + ITEM_AT.recorded_at] as string,
    updated_at: values[at + ITEM_AT.updated_at] as string,
    ended_at: (values[at + ITEM_AT.ended_at] as string | null) ?? null,
  };
  return withTextTokens(item, textTokensOf(values[at + ITEM_AT.text_tokens]));
}

/**
 * Extra conditions on the chunks (alias `c`) of a vector read: only vectors of the query's model, and
 * only those stored before its bound (a replay compares what its original compared). Vectors stored
 * before their time was recorded (NULL) count as stored long ago.
 */
export function chunkVectorFilters(query: Pick<ItemQuery, 'vectors_before' | 'vector_model'>): {
  sql: string;
  params: unknown[];
} {
  let sql = '';
  const params: unknown[] = [];
  if (query.vector_model !== undefined) {
    sql += ' AND c.vector_model = ?';
    params.push(query.vector_model);
  }
  if (query.vectors_before !== undefined) {
    sql += ' AND (c.vector_at IS NULL OR c.vector_at < ?)';
    params.push(query.vectors_before);
  }
  return { sql, params };
}

/** WHERE clauses for an item query. */
export function itemFilters(
  query: Omit<ItemQuery, 'limit' | 'cursor'>,
  prefix: string,
): { where: string[]; params: unknown[] } {
  const where = [`${prefix}tenant_id = ?`, `${prefix}owner IN (${placeholders(query.owners)})`];
  const params: unknown[] = [query.tenant_id, ...query.owners];
  const lists: Array<[string, readonly unknown[] | undefined]> = [
    ['type', query.types],
    // A time-travel query decides currency by time, not by today's status.
    ['status', query.active_at === undefined ? query.statuses : undefined],
    ['key', query.keys],
    ['id', query.ids],
  ];
  for (const [column, values] of lists) {
    if (values === undefined) continue;
    where.push(values.length === 0 ? 'FALSE' : `${prefix}${column} IN (${placeholders(values)})`);
    params.push(...values);
  }
  if (query.as_of !== undefined) {
    where.push(`${prefix}recorded_at <= ?`);
    params.push(query.as_of);
  }
  if (query.active_at !== undefined) {
    // As of a past time: the versions that were current then, whatever their status is now.
    where.push(`${prefix}recorded_at <= ? AND (${prefix}ended_at IS NULL OR ${prefix}ended_at > ?)`);
    params.push(query.active_at, query.active_at);
  }
  return { where, params };
}
