// Long-term memory items on SQLite: item versions (the truth), their chunks (derived: text, scoped
// full-text entry, vector) and the queries over them. Used by SqliteStorage inside its transactions.

import type Database from 'better-sqlite3';

import { EngramError, NotFoundError } from '../../spec/errors.js';
import type { MemoryItem } from '../../spec/items.js';
import type {
  DeleteItemOp,
  ItemQuery,
  ItemSearchHit,
  ItemSearchQuery,
  PutChunkOp,
  PutItemOp,
  SetItemStatusOp,
  VectorCandidate,
} from '../../spec/storage.js';
import { ownerOf } from '../../spec/items.js';
import { ownerPrefix } from '../../util/scope-token.js';
import { fromBlob } from '../../util/vectors.js';
import type { Row } from './event-rows.js';
import { firstPassing, FtsIndex } from './fts-index.js';

const ITEM_COLUMNS = [
  'tenant_id', 'id', 'owner', 'user_id', 'agent_id', 'scope_level', 'type', 'key', 'value', 'confidence', 'status',
  'sensitivity', 'valid_from', 'valid_to', 'salience', 'version', 'supersedes', 'source_event_ids', 'evidence_refs',
  'provenance', 'tags', 'entities', 'recorded_at', 'updated_at', 'ended_at',
] as const;

function itemValues(item: MemoryItem): unknown[] {
  return [
    item.tenant_id, item.id, ownerOf(item.scope_level, item.user_id, item.agent_id), item.user_id, item.agent_id,
    item.scope_level, item.type, item.key, JSON.stringify(item.value), item.confidence, item.status, item.sensitivity,
    item.valid_from, item.valid_to, JSON.stringify(item.salience), item.version, item.supersedes,
    JSON.stringify(item.source_event_ids), JSON.stringify(item.evidence_refs), JSON.stringify(item.provenance),
    JSON.stringify(item.tags), JSON.stringify(item.entities), item.recorded_at, item.updated_at, item.ended_at,
  ];
}

/** The item columns in the order `itemFromValues` reads them. */
export const ITEM_SELECT = ITEM_COLUMNS.join(', ');
const AT = Object.fromEntries(ITEM_COLUMNS.map((column, index) => [column, index])) as Record<(typeof ITEM_COLUMNS)[number], number>;

/**
 * An item version from the values of a raw row that holds `ITEM_SELECT` from position `at` (raw rows
 * skip building an object per row; an item row has 25 columns).
 */
export function itemFromValues(values: readonly unknown[], at = 0): MemoryItem {
  const value = (column: keyof typeof AT): unknown => values[at + AT[column]];
  const json = <T>(column: keyof typeof AT): T => JSON.parse(value(column) as string) as T;
  return {
    id: value('id') as string,
    tenant_id: value('tenant_id') as string,
    user_id: (value('user_id') as string | null) ?? null,
    agent_id: (value('agent_id') as string | null) ?? null,
    scope_level: value('scope_level') as MemoryItem['scope_level'],
    type: value('type') as MemoryItem['type'],
    key: value('key') as string,
    value: json('value'),
    confidence: value('confidence') as number,
    status: value('status') as MemoryItem['status'],
    sensitivity: value('sensitivity') as MemoryItem['sensitivity'],
    valid_from: (value('valid_from') as string | null) ?? null,
    valid_to: (value('valid_to') as string | null) ?? null,
    salience: json('salience'),
    version: value('version') as number,
    supersedes: (value('supersedes') as string | null) ?? null,
    source_event_ids: json('source_event_ids'),
    evidence_refs: json('evidence_refs'),
    provenance: json('provenance'),
    tags: json('tags'),
    entities: json('entities'),
    recorded_at: value('recorded_at') as string,
    updated_at: value('updated_at') as string,
    ended_at: (value('ended_at') as string | null) ?? null,
  };
}

function placeholders(values: readonly unknown[]): string {
  return values.map(() => '?').join(', ');
}

/** WHERE clauses for an item query. */
function itemFilters(query: Omit<ItemQuery, 'limit' | 'cursor'>, prefix: string): { where: string[]; params: unknown[] } {
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
    where.push(values.length === 0 ? '0' : `${prefix}${column} IN (${placeholders(values)})`);
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

export class ItemStore {
  private readonly fts: FtsIndex;
  private readonly s;

  constructor(
    private readonly db: Database.Database,
    private readonly cached: (sql: string) => Database.Statement,
  ) {
    this.fts = new FtsIndex(db, 'items_fts');
    this.s = {
      insert: db.prepare(`INSERT INTO memory_items (${ITEM_COLUMNS.join(', ')}) VALUES (${placeholders(ITEM_COLUMNS)})`),
      status: db.prepare('SELECT status FROM memory_items WHERE tenant_id = ? AND id = ?'),
      setStatus: db.prepare('UPDATE memory_items SET status = ?, ended_at = ?, updated_at = ? WHERE tenant_id = ? AND id = ?'),
      deleteItem: db.prepare('DELETE FROM memory_items WHERE tenant_id = ? AND id = ?'),
      chunk: db.prepare('SELECT seq FROM memory_chunks WHERE tenant_id = ? AND item_id = ?'),
      insertChunk: db.prepare(
        'INSERT INTO memory_chunks (tenant_id, item_id, owner, text, embedding_status) VALUES (?, ?, ?, ?, ?)',
      ),
      deleteChunk: db.prepare('DELETE FROM memory_chunks WHERE seq = ?'),
      getItem: db.prepare(`SELECT ${ITEM_SELECT} FROM memory_items WHERE tenant_id = ? AND id = ?`).raw(),
    };
  }

  /** The rows of a statement as arrays of values, in the order of its columns. */
  private raw(sql: string, ...params: unknown[]): unknown[][] {
    return this.cached(sql).raw().all(...params) as unknown[][];
  }

  putItem(op: PutItemOp): void {
    this.s.insert.run(...itemValues(op.item));
  }

  setStatus(op: SetItemStatusOp): void {
    const row = this.s.status.get(op.tenant_id, op.item_id) as Row | undefined;
    if (row === undefined) throw new NotFoundError('item_id', op.item_id);
    if (row['status'] !== op.expected_status) {
      throw new EngramError('STATE_VERSION_CONFLICT', `item_id: ${op.item_id} is ${String(row['status'])}, not ${op.expected_status}; another writer changed it`, {
        field: 'item_id',
        details: { expected_status: op.expected_status, status: row['status'] },
      });
    }
    this.s.setStatus.run(op.status, op.ended_at, op.updated_at, op.tenant_id, op.item_id);
  }

  deleteItem(op: DeleteItemOp): void {
    this.removeChunk(op.tenant_id, op.item_id);
    this.s.deleteItem.run(op.tenant_id, op.item_id);
  }

  putChunk(op: PutChunkOp): void {
    this.removeChunk(op.tenant_id, op.item_id);
    if (op.text === null) return;
    const info = this.s.insertChunk.run(op.tenant_id, op.item_id, op.owner, op.text, op.embedding_status);
    if (op.search_text !== null) this.fts.add(info.lastInsertRowid, ownerPrefix(op.tenant_id, op.owner), op.search_text);
  }

  private removeChunk(tenantId: string, itemId: string): void {
    const row = this.s.chunk.get(tenantId, itemId) as Row | undefined;
    if (row === undefined) return;
    this.fts.delete(row['seq'] as number);
    this.s.deleteChunk.run(row['seq']);
  }

  getItem(tenantId: string, itemId: string): MemoryItem | null {
    const row = this.s.getItem.get(tenantId, itemId) as unknown[] | undefined;
    return row === undefined ? null : itemFromValues(row);
  }

  listItems(query: ItemQuery): MemoryItem[] {
    const descending = query.order === 'desc';
    if (query.keys !== undefined || query.ids !== undefined || query.active_at !== undefined) return this.listFiltered(query, descending);
    // Without keys, one index range per owner × status (× type) is read in id order from the covering
    // index and merged, then only the page's rows are read: a page costs its size, not a scan of the
    // tenant (SQLite would otherwise walk the tenant by id) nor the rows of every range.
    const owners = query.owners;
    const statuses = query.statuses ?? ['active', 'superseded', 'retracted'];
    const types = query.types ?? [undefined];
    const ids: string[] = [];
    for (const owner of owners) {
      for (const status of statuses) {
        for (const type of types) {
          const where = ['tenant_id = ?', 'owner = ?', 'status = ?'];
          const params: unknown[] = [query.tenant_id, owner, status];
          if (type !== undefined) {
            where.push('type = ?');
            params.push(type);
          }
          if (query.as_of !== undefined) {
            where.push('recorded_at <= ?');
            params.push(query.as_of);
          }
          if (query.cursor !== undefined) {
            where.push(descending ? 'id < ?' : 'id > ?');
            params.push(query.cursor);
          }
          const sql = `SELECT id FROM memory_items WHERE ${where.join(' AND ')} ORDER BY id ${descending ? 'DESC' : 'ASC'} LIMIT ?`;
          for (const row of this.cached(sql).pluck().all(...params, query.limit) as string[]) ids.push(row);
        }
      }
    }
    ids.sort();
    if (descending) ids.reverse();
    const page = ids.slice(0, query.limit);
    if (page.length === 0) return [];
    const sql = `SELECT ${ITEM_SELECT} FROM memory_items WHERE tenant_id = ? AND id IN (${placeholders(page)})`;
    const items = new Map(this.raw(sql, query.tenant_id, ...page).map((row) => [row[AT.id] as string, row]));
    return page.map((id) => itemFromValues(items.get(id)!));
  }

  private listFiltered(query: ItemQuery, descending: boolean): MemoryItem[] {
    const { where, params } = itemFilters(query, '');
    if (query.cursor !== undefined) {
      where.push(descending ? 'id < ?' : 'id > ?');
      params.push(query.cursor);
    }
    // `+id` keeps SQLite on the key (or owner) index instead of walking the tenant in id order.
    const sql = `SELECT ${ITEM_SELECT} FROM memory_items WHERE ${where.join(' AND ')} ORDER BY +id ${descending ? 'DESC' : 'ASC'} LIMIT ?`;
    return this.raw(sql, ...params, query.limit).map((row) => itemFromValues(row));
  }

  activeKeys(tenantId: string, owners: readonly string[], limit: number): string[] {
    const sql = `SELECT key FROM memory_items WHERE tenant_id = ? AND owner IN (${placeholders(owners)}) AND status = 'active' GROUP BY key ORDER BY max(seq) DESC LIMIT ?`;
    return (this.cached(sql).all(tenantId, ...owners, limit) as Row[]).map((row) => row['key'] as string);
  }

  searchItems(query: ItemSearchQuery): ItemSearchHit[] {
    if (query.terms.length === 0 || query.owners.length === 0) return [];
    const ranked = this.fts.rank(query.owners.map((owner) => ownerPrefix(query.tenant_id, owner)), query.terms);
    const { where, params } = itemFilters(query, 'i.');
    // CROSS JOIN fixes the order (the few ranked chunks first, then their items by key); `+` stops
    // SQLite from scanning every chunk of the tenant instead.
    return firstPassing(
      ranked,
      query.limit,
      (seqs) => {
        const sql = `SELECT c.seq, ${ITEM_COLUMNS.map((column) => `i.${column}`).join(', ')} FROM memory_chunks c
          CROSS JOIN memory_items i ON i.tenant_id = +c.tenant_id AND i.id = c.item_id WHERE c.seq IN (${placeholders(seqs)}) AND ${where.join(' AND ')}`;
        return new Map(this.raw(sql, ...seqs, ...params).map((row) => [row[0] as number, row]));
      },
      (row, score): ItemSearchHit => ({ item: itemFromValues(row, 1), score }),
    );
  }

  itemVectors(query: Omit<ItemQuery, 'cursor' | 'limit' | 'keys' | 'ids' | 'as_of'>): VectorCandidate[] {
    const { where, params } = itemFilters(query, 'i.');
    const sql = `SELECT c.item_id, c.vector FROM memory_chunks c JOIN memory_items i ON i.tenant_id = c.tenant_id AND i.id = c.item_id
      WHERE c.tenant_id = ? AND c.owner IN (${placeholders(query.owners)}) AND c.vector IS NOT NULL AND ${where.join(' AND ')}`;
    return (this.cached(sql).all(query.tenant_id, ...query.owners, ...params) as Row[]).map((row) => ({
      item_id: row['item_id'] as string,
      vector: fromBlob(row['vector'] as Buffer),
    }));
  }

  allItems(tenantId: string | undefined): MemoryItem[] {
    const sql = `SELECT ${ITEM_SELECT} FROM memory_items${tenantId === undefined ? '' : ' WHERE tenant_id = ?'} ORDER BY seq`;
    return (tenantId === undefined ? this.raw(sql) : this.raw(sql, tenantId)).map((row) => itemFromValues(row));
  }

  clearIndex(tenantId: string | undefined): void {
    if (tenantId === undefined) {
      this.fts.deleteAll();
      this.db.prepare('DELETE FROM memory_chunks').run();
      return;
    }
    const seqs = (this.db.prepare('SELECT seq FROM memory_chunks WHERE tenant_id = ?').all(tenantId) as Row[]).map((row) => row['seq'] as number);
    for (const seq of seqs) {
      this.fts.delete(seq);
      this.s.deleteChunk.run(seq);
    }
  }
}
