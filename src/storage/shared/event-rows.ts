// Rows of the `events` table: the column order, values to bind, records read back, and the WHERE
// clauses shared by every event query.

import { EngramError, ValidationError } from '../../spec/errors.js';
import type { EventNeighbours, EventPosition, EventQuery, NeighbourQuery } from '../../spec/storage.js';
import type { EventFlags, EventRecord } from '../../spec/event.js';
import type { SqlQuery } from './list-queries.js';
import { withTextTokens } from '../../spec/text-tokens.js';
import { BOUND_LIMIT, json, textTokensOf } from './rows.js';

export type { Row } from './rows.js';

export const EVENT_COLUMNS = [
  'tenant_id',
  'id',
  'user_id',
  'agent_id',
  'session_id',
  'run_id',
  'turn_id',
  'kind',
  'marker',
  'role',
  'speaker',
  'content_type',
  'content',
  'sensitivity',
  'embeddable',
  'embedding_status',
  'resonance_links',
  'tags',
  'snapshot_ref',
  'namespace',
  'thread_id',
  'ts',
  'recorded_at',
  'expires_at',
  'origin_metadata',
  'text_tokens',
] as const;

const EVENT_FLAG_FIELDS = new Set(['embedding_status']);
const EMBEDDING_STATUSES = new Set(['pending', 'processing', 'done', 'skipped']);

/**
 * The embedding status a flag update sets, or null when it sets none. Any field but a status flag
 * is refused (APPEND_ONLY_VIOLATION), and so is an unknown status.
 */
export function checkedEmbeddingStatus(flags: EventFlags): string | null {
  for (const field of Object.keys(flags)) {
    if (!EVENT_FLAG_FIELDS.has(field)) {
      throw new EngramError('APPEND_ONLY_VIOLATION', `${field}: events are append-only; only status flags may change`, {
        field,
      });
    }
  }
  if (flags.embedding_status === undefined) return null;
  if (!EMBEDDING_STATUSES.has(flags.embedding_status)) {
    throw ValidationError.of('embedding_status', 'enum', `must be one of ${[...EMBEDDING_STATUSES].join(', ')}`);
  }
  return flags.embedding_status;
}

/** The event columns in EVENT_COLUMNS order, for raw reads. */
export const EVENT_SELECT = EVENT_COLUMNS.join(', ');
const AT = Object.fromEntries(EVENT_COLUMNS.map((column, index) => [column, index])) as Record<
  (typeof EVENT_COLUMNS)[number],
  number
>;

/**
 * An event record from the values of a raw row that holds `EVENT_SELECT` from position `at` (raw
 * rows skip building an object per row).
 */
export function eventFromValues(values: readonly unknown[], at = 0): EventRecord {
  // Every event row read goes through here: positions are read directly, no helper per column.
  const event: EventRecord = {
    id: values[at + AT.id] as string,
    namespace: values[at + AT.namespace] as string,
    thread_id: (values[at + AT.thread_id] as string | null) ?? null,
    speaker: (values[at + AT.speaker] as string | null) ?? null,
    role: values[at + AT.role] as EventRecord['role'],
    content_type: values[at + AT.content_type] as EventRecord['content_type'],
    content: json(values[at + AT.content]),
    sensitivity: values[at + AT.sensitivity] as EventRecord['sensitivity'],
    embeddable: values[at + AT.embeddable] === 1,
    embedding_status: values[at + AT.embedding_status] as EventRecord['embedding_status'],
    resonance_links: json(values[at + AT.resonance_links]),
    tags: json(values[at + AT.tags]),
    snapshot_ref: (values[at + AT.snapshot_ref] as string | null) ?? null,
    created_at: values[at + AT.ts] as string,
    expires_at: (values[at + AT.expires_at] as string | null) ?? null,
    origin_metadata: json(values[at + AT.origin_metadata]),
    tenant_id: values[at + AT.tenant_id] as string,
    user_id: values[at + AT.user_id] as string,
    agent_id: values[at + AT.agent_id] as string,
    session_id: values[at + AT.session_id] as string,
    run_id: values[at + AT.run_id] as string,
    turn_id: (values[at + AT.turn_id] as string | null) ?? null,
    kind: values[at + AT.kind] as EventRecord['kind'],
    marker: (values[at + AT.marker] as EventRecord['marker']) ?? null,
    ts: values[at + AT.ts] as string,
    recorded_at: values[at + AT.recorded_at] as string,
  };
  return withTextTokens(event, textTokensOf(values[at + AT.text_tokens]));
}

/**
 * The values of an event in the order of EVENT_COLUMNS (positional parameters bind fastest), with the
 * tokens compose charges for its text (null: not counted).
 */
export function eventValues(event: EventRecord, textTokens: number | null): unknown[] {
  return [
    event.tenant_id,
    event.id,
    event.user_id,
    event.agent_id,
    event.session_id,
    event.run_id,
    event.turn_id,
    event.kind,
    event.marker,
    event.role,
    event.speaker,
    event.content_type,
    JSON.stringify(event.content),
    event.sensitivity,
    event.embeddable ? 1 : 0,
    event.embedding_status,
    JSON.stringify(event.resonance_links),
    JSON.stringify(event.tags),
    event.snapshot_ref,
    event.namespace,
    event.thread_id,
    event.ts,
    event.recorded_at,
    event.expires_at,
    JSON.stringify(event.origin_metadata),
    textTokens,
  ];
}

/**
 * A page of every event of one tenant (or of all), in (tenant, id) order after a position, read
 * along the (tenant_id, id) key.
 *
 * @example
 * const { sql, params } = eventsForReindexQuery('default', undefined, 500);
 */
export function eventsForReindexQuery(
  tenantId: string | undefined,
  after: EventPosition | undefined,
  limit: number,
): SqlQuery {
  const where: string[] = [];
  const params: unknown[] = [];
  if (tenantId !== undefined) {
    where.push('tenant_id = ?');
    params.push(tenantId);
    if (after !== undefined && after.tenant_id === tenantId) {
      where.push('id > ?');
      params.push(after.id);
    }
  } else if (after !== undefined) {
    where.push('(tenant_id, id) > (?, ?)');
    params.push(after.tenant_id, after.id);
  }
  return {
    sql: `SELECT ${EVENT_SELECT} FROM events${where.length === 0 ? '' : ` WHERE ${where.join(' AND ')}`} ORDER BY tenant_id, id ${BOUND_LIMIT}`,
    params: [...params, limit],
  };
}

/** WHERE clauses (and their parameters) for an event query; `prefix` qualifies the columns. */
export function eventFilters(query: Omit<EventQuery, 'limit' | 'order' | 'cursor'>, prefix: string) {
  const where = [`${prefix}tenant_id = ?`];
  const params: unknown[] = [query.tenant_id];
  if (query.include_expired !== true) {
    where.push(`(${prefix}expires_at IS NULL OR ${prefix}expires_at > ?)`);
    params.push(query.now);
  }
  for (const column of ['user_id', 'agent_id', 'session_id', 'run_id'] as const) {
    const value = query[column];
    if (value !== undefined) {
      where.push(`${prefix}${column} = ?`);
      params.push(value);
    }
  }
  if (query.as_of !== undefined) {
    where.push(`${prefix}recorded_at <= ?`);
    params.push(query.as_of);
  }
  if (query.ts_from !== undefined) {
    where.push(`${prefix}ts >= ?`);
    params.push(query.ts_from);
  }
  if (query.ts_to !== undefined) {
    where.push(`${prefix}ts <= ?`);
    params.push(query.ts_to);
  }
  if (query.ids !== undefined) {
    where.push(query.ids.length === 0 ? 'FALSE' : `${prefix}id IN (${query.ids.map(() => '?').join(', ')})`);
    params.push(...query.ids);
  }
  if (query.kinds !== undefined && query.kinds.length > 0) {
    where.push(`${prefix}kind IN (${query.kinds.map(() => '?').join(', ')})`);
    params.push(...query.kinds);
  }
  if (query.exclude_sensitivity !== undefined && query.exclude_sensitivity.length > 0) {
    where.push(`${prefix}sensitivity NOT IN (${query.exclude_sensitivity.map(() => '?').join(', ')})`);
    params.push(...query.exclude_sensitivity);
  }
  return { where, params };
}

/**
 * One statement for the neighbours of every anchor: per anchor, the nearest passing event before
 * it and the two nearest after it in its session (each an index range of one or two rows), tagged
 * with its slot (anchor index × 2, + 1 for after). Valid SQL on SQLite and PostgreSQL.
 */
export function neighbourStatement(query: NeighbourQuery): { sql: string; params: unknown[] } {
  const { where, params: filterParams } = eventFilters(query, '');
  const parts: string[] = [];
  const params: unknown[] = [];
  for (const [index, anchor] of query.anchors.entries()) {
    for (const [side, comparison, order, rows] of [
      [0, '<', 'DESC', 1],
      [1, '>', 'ASC', 2],
    ] as const) {
      const slot = index * 2 + side;
      parts.push(
        `SELECT * FROM (SELECT ${slot} AS slot, ${EVENT_SELECT} FROM events WHERE ${where.join(' AND ')} AND session_id = ? AND id ${comparison} ? ORDER BY id ${order} LIMIT ${rows}) AS n${slot}`,
      );
      params.push(...filterParams, anchor.session_id, anchor.id);
    }
  }
  return { sql: parts.join(' UNION ALL '), params };
}

/** The neighbours of each anchor from the rows of `neighbourStatement` (slot first, then the event). */
export function neighboursFromRows(query: NeighbourQuery, rows: ReadonlyArray<readonly unknown[]>): EventNeighbours[] {
  const found = new Map<number, EventRecord[]>();
  for (const row of rows) {
    const slot = Number(row[0]);
    found.set(slot, [...(found.get(slot) ?? []), eventFromValues(row, 1)]);
  }
  return query.anchors.map((anchor, index) => {
    // A UNION ALL keeps no order of its own: the rows after an anchor are put in id order here.
    const [after = null, twoAfter = null] = (found.get(index * 2 + 1) ?? []).sort(byEventId);
    return { anchor_id: anchor.id, before: found.get(index * 2)?.[0] ?? null, after, twoAfter };
  });
}

function byEventId(a: EventRecord, b: EventRecord): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
