// Long-term memory items on SQLite: item versions (the truth), their chunks (derived: text, scoped
// full-text entry, vector) and the queries over them. Used by SqliteStorage inside its transactions.

import type Database from 'better-sqlite3';
import { LRUCache } from 'lru-cache';

import { NotFoundError } from '../../spec/errors.js';
import { ITEM_STATUSES, type MemoryItem } from '../../spec/items.js';
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
import { termStats } from '../../util/bm25-stats.js';
import { ownerPrefix } from '../../util/scope-token.js';
import { deepFreeze } from '../../util/read-only.js';
import { fromBlob } from '../../util/vectors.js';
import type { Row } from '../shared/rows.js';
import { BOUND_LIMIT, placeholders } from '../shared/rows.js';
import { ITEM_SELECT, itemFilters, itemFromValues, itemValues } from '../shared/item-rows.js';
import { activeKeysQuery, ITEM_SQL, itemStatusChanged, itemVectorsQuery, setStatusValues } from '../shared/item-sql.js';
import { firstPassing } from '../shared/first-passing.js';
import { FtsIndex } from './fts-index.js';

/** Index ranges read by one statement (SQLite allows 500 parts in a compound SELECT). */
const MAX_RANGES = 500;

/**
 * The statement of an item list by keys or ids, with its parameters. A list by keys reads the key
 * index: without table statistics (a store is never ANALYZEd) SQLite took the owner's index instead
 * and read every active item of the owner (100,000 items: 41 ms against 0.1 ms).
 *
 * @example
 * const { sql, params } = filteredListStatement({ tenant_id: 't', owners: ['u:u1'], keys: ['profile:user'], limit: 5 }, true);
 */
export function filteredListStatement(query: ItemQuery, descending: boolean): { sql: string; params: unknown[] } {
  const { where, params } = itemFilters(query, '');
  if (query.cursor !== undefined) {
    where.push(descending ? 'id < ?' : 'id > ?');
    params.push(query.cursor);
  }
  const index = query.ids === undefined && query.keys !== undefined ? ' INDEXED BY items_by_key' : '';
  // `+id` keeps SQLite off the id index (it would walk the tenant in id order).
  const sql = `SELECT ${ITEM_SELECT} FROM memory_items${index} WHERE ${where.join(' AND ')} ORDER BY +id ${descending ? 'DESC' : 'ASC'} ${BOUND_LIMIT}`;
  return { sql, params: [...params, query.limit] };
}

/** The key of a kept item version. */
const versionKey = (tenantId: string, itemId: string): string => `${tenantId}\u0000${itemId}`;

export class ItemStore {
  private readonly fts: FtsIndex;
  private readonly s;
  // Item versions read lately, as their rows hold them now, frozen (every caller is given the same
  // object). A version's row changes only by its status, its kept token count or its deletion, each of
  // which forgets it here (`forget`), by erasure (`changed`), or by another connection's commit (PRAGMA
  // data_version), which forgets them all. A user composed for again and again (planner, tool and
  // responder each turn) reads the same always-relevant items, procedures and episodes each time, and
  // every user of an agent its procedures: building their rows was most of a listing.
  private readonly versions: LRUCache<string, MemoryItem> | null;
  private versionsAt: number | undefined;

  /** `keptSearchTerms`: see FtsIndex; `keptItems`: how many item versions are kept between reads (0: none). */
  constructor(
    private readonly db: Database.Database,
    private readonly cached: (sql: string) => Database.Statement,
    keptSearchTerms: number,
    keptItems: number,
  ) {
    this.fts = new FtsIndex(db, 'items_fts', keptSearchTerms);
    this.versions = keptItems > 0 ? new LRUCache<string, MemoryItem>({ max: keptItems }) : null;
    this.s = {
      insert: db.prepare(ITEM_SQL.insert),
      status: db.prepare(ITEM_SQL.status),
      setStatus: db.prepare(ITEM_SQL.setStatus),
      deleteItem: db.prepare(ITEM_SQL.deleteItem),
      chunk: db.prepare('SELECT seq FROM memory_chunks WHERE tenant_id = ? AND item_id = ?'),
      insertChunk: db.prepare(
        'INSERT INTO memory_chunks (tenant_id, item_id, owner, text, embedding_status, term_stats) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      deleteChunk: db.prepare('DELETE FROM memory_chunks WHERE seq = ?'),
      ownerHasChunks: db.prepare('SELECT 1 FROM memory_chunks WHERE tenant_id = ? AND owner = ? LIMIT 1').pluck(),
      dataVersion: db.prepare('PRAGMA data_version').pluck(),
    };
  }

  /** The kept versions, all forgotten first if another connection has committed since the last read. */
  private keptVersions(): LRUCache<string, MemoryItem> | null {
    if (this.versions === null) return null;
    const version = this.s.dataVersion.get() as number;
    if (version !== this.versionsAt) this.versions.clear();
    this.versionsAt = version;
    return this.versions;
  }

  /**
   * The versions of `ids` that exist, in the order of `ids`: kept ones as they are, the others read
   * in one statement and kept (not inside a transaction, which may still roll back what it read).
   * With `rowids` (each id's row number, as the statement that found the ids read it from an index
   * entry) the others are read by number, without looking each id up again.
   */
  private versionsOf(tenantId: string, ids: readonly string[], rowids?: readonly number[]): MemoryItem[] {
    const kept = this.keptVersions();
    const found = new Map<string, MemoryItem>();
    const missing: Array<string | number> = [];
    for (const [index, id] of ids.entries()) {
      const item = kept?.get(versionKey(tenantId, id));
      if (item === undefined) missing.push(rowids === undefined ? id : rowids[index]!);
      else found.set(id, item);
    }
    if (missing.length > 0) {
      const keep = kept !== null && !this.db.inTransaction;
      const sql =
        rowids === undefined
          ? `SELECT ${ITEM_SELECT} FROM memory_items WHERE tenant_id = ? AND id IN (${placeholders(missing)})`
          : `SELECT ${ITEM_SELECT} FROM memory_items WHERE seq IN (${placeholders(missing)})`;
      for (const row of rowids === undefined ? this.raw(sql, tenantId, ...missing) : this.raw(sql, ...missing)) {
        const item = itemFromValues(row);
        found.set(item.id, item);
        if (keep) kept.set(versionKey(tenantId, item.id), deepFreeze(item));
      }
    }
    const out: MemoryItem[] = [];
    for (const id of ids) {
      const item = found.get(id);
      if (item !== undefined) out.push(item);
    }
    return out;
  }

  /** A version's row changed on this connection (its status or kept token count) or was deleted. */
  forget(tenantId: string, itemId: string): void {
    this.versions?.delete(versionKey(tenantId, itemId));
  }

  /** The rows of a statement as arrays of values, in the order of its columns. */
  private raw(sql: string, ...params: unknown[]): unknown[][] {
    return this.cached(sql)
      .raw()
      .all(...params) as unknown[][];
  }

  /** Inserts an item version with the tokens compose charges for its text (null: not counted). */
  putItem(op: PutItemOp, textTokens: number | null): void {
    this.s.insert.run(...itemValues(op.item, textTokens));
  }

  /** As on PostgreSQL: the update holds only at the status the writer read; the status is read on a miss. */
  setStatus(op: SetItemStatusOp): void {
    if (this.s.setStatus.run(...setStatusValues(op)).changes === 1) {
      this.forget(op.tenant_id, op.item_id);
      return;
    }
    const row = this.s.status.get(op.tenant_id, op.item_id) as Row | undefined;
    if (row === undefined) throw new NotFoundError('item_id', op.item_id);
    throw itemStatusChanged(op, row['status']);
  }

  deleteItem(op: DeleteItemOp): void {
    this.removeChunk(op.tenant_id, op.item_id);
    this.s.deleteItem.run(op.tenant_id, op.item_id);
    this.forget(op.tenant_id, op.item_id);
  }

  putChunk(op: PutChunkOp): void {
    this.removeChunk(op.tenant_id, op.item_id);
    if (op.text === null) return;
    const stats = op.search_text === null ? null : termStats(op.search_text);
    const info = this.s.insertChunk.run(op.tenant_id, op.item_id, op.owner, op.text, op.embedding_status, stats);
    if (op.search_text !== null)
      this.fts.add(info.lastInsertRowid, ownerPrefix(op.tenant_id, op.owner), op.search_text);
  }

  private removeChunk(tenantId: string, itemId: string): void {
    const row = this.s.chunk.get(tenantId, itemId) as Row | undefined;
    if (row === undefined) return;
    this.fts.delete(row['seq'] as number);
    this.s.deleteChunk.run(row['seq']);
  }

  /** Rows and full-text entries changed by statements of another class (erasure). */
  changed(): void {
    this.fts.changed();
    this.versions?.clear();
  }

  getItem(tenantId: string, itemId: string): MemoryItem | null {
    return this.versionsOf(tenantId, [itemId])[0] ?? null;
  }

  listItems(query: ItemQuery): MemoryItem[] {
    const descending = query.order === 'desc';
    if (query.keys !== undefined || query.ids !== undefined) return this.listFiltered(query, descending);
    // Without keys, one index range per owner × status (× type) is read in id order from the covering
    // index and merged, then only the page's rows are read: a page costs its size, not a scan of the
    // tenant (SQLite would otherwise walk the tenant by id) nor the rows of every range. The ranges
    // are read by one statement (a UNION ALL of one subquery each): a statement per range cost twice
    // as much for the dozen ranges of a compose. As of a past time every status is read (a version
    // current then may be superseded now), each range stopping at its newest versions current then.
    const statuses = query.active_at === undefined ? (query.statuses ?? ITEM_STATUSES) : ITEM_STATUSES;
    const types = query.types ?? [undefined];
    const ranges: string[] = [];
    const params: unknown[] = [];
    for (const owner of query.owners) {
      for (const status of statuses) {
        for (const type of types) {
          const where = ['tenant_id = ?', 'owner = ?', 'status = ?'];
          params.push(query.tenant_id, owner, status);
          if (type !== undefined) {
            where.push('type = ?');
            params.push(type);
          }
          if (query.as_of !== undefined) {
            where.push('recorded_at <= ?');
            params.push(query.as_of);
          }
          if (query.active_at !== undefined) {
            where.push('recorded_at <= ? AND (ended_at IS NULL OR ended_at > ?)');
            params.push(query.active_at, query.active_at);
          }
          if (query.cursor !== undefined) {
            where.push(descending ? 'id < ?' : 'id > ?');
            params.push(query.cursor);
          }
          ranges.push(
            `SELECT * FROM (SELECT id, seq FROM memory_items WHERE ${where.join(' AND ')} ORDER BY id ${descending ? 'DESC' : 'ASC'} ${BOUND_LIMIT})`,
          );
          params.push(query.limit);
        }
      }
    }
    // Each entry of the index also holds its row's number: the page's rows are read by it, not looked up by id again.
    const entries: Array<[string, number]> = [];
    // Every range binds as many values; a statement holds at most 500 (SQLite's compound limit).
    const perRange = params.length / Math.max(1, ranges.length);
    for (let start = 0; start < ranges.length; start += MAX_RANGES) {
      const sql = ranges.slice(start, start + MAX_RANGES).join(' UNION ALL ');
      for (const entry of this.cached(sql)
        .raw()
        .all(...params.slice(start * perRange, (start + MAX_RANGES) * perRange)) as Array<[string, number]>)
        entries.push(entry);
    }
    entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    if (descending) entries.reverse();
    const page = entries.slice(0, query.limit);
    if (page.length === 0) return [];
    return this.versionsOf(
      query.tenant_id,
      page.map(([id]) => id),
      page.map(([, rowid]) => rowid),
    );
  }

  private listFiltered(query: ItemQuery, descending: boolean): MemoryItem[] {
    const { sql, params } = filteredListStatement(query, descending);
    return this.raw(sql, ...params).map((row) => itemFromValues(row));
  }

  activeKeys(tenantId: string, owners: readonly string[], limit: number): string[] {
    const { sql, params } = activeKeysQuery(tenantId, owners, limit);
    return (this.cached(sql).all(...params) as Row[]).map((row) => row['key'] as string);
  }

  async searchItems(query: ItemSearchQuery): Promise<ItemSearchHit[]> {
    if (query.terms.length === 0) return [];
    // An owner without chunks has no full-text entries: its words are not looked up (one index probe
    // instead of one per word; a compose's tenant-level owner often holds nothing).
    const owners = query.owners.filter((owner) => this.s.ownerHasChunks.get(query.tenant_id, owner) !== undefined);
    if (owners.length === 0) return [];
    // Items current at a past time are ranked by the chunks recorded by then, as a compose then ranked them.
    const ranked = this.fts.rank(
      owners.map((owner) => ownerPrefix(query.tenant_id, owner)),
      query.terms,
      undefined,
      query.active_at,
    );
    const { where, params } = itemFilters(query, 'i.');
    // CROSS JOIN fixes the order (the few ranked chunks first, then their items by key); `+` stops
    // SQLite from scanning every chunk of the tenant instead.
    return firstPassing(
      ranked,
      query.limit,
      (seqs) => {
        // The chunks whose items pass the filters, then those items as listings build them (kept ones as they are).
        const sql = `SELECT c.seq, i.id, i.seq FROM memory_chunks c
          CROSS JOIN memory_items i ON i.tenant_id = +c.tenant_id AND i.id = c.item_id WHERE c.seq IN (${placeholders(seqs)}) AND ${where.join(' AND ')}`;
        const passing = this.raw(sql, ...seqs, ...params) as Array<[number, string, number]>;
        const items = new Map(
          this.versionsOf(
            query.tenant_id,
            passing.map(([, id]) => id),
            passing.map(([, , rowid]) => rowid),
          ).map((item) => [item.id, item]),
        );
        const bySeq = new Map<number, MemoryItem>();
        for (const [seq, id] of passing) {
          const item = items.get(id);
          if (item !== undefined) bySeq.set(seq, item);
        }
        return bySeq;
      },
      (item, score): ItemSearchHit => ({ item, score }),
    );
  }

  itemVectors(query: Omit<ItemQuery, 'cursor' | 'limit' | 'keys' | 'ids' | 'as_of'>): VectorCandidate[] {
    const { sql, params } = itemVectorsQuery(query);
    return (this.cached(sql).all(...params) as Row[]).map((row) => ({
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
    const seqs = (this.db.prepare('SELECT seq FROM memory_chunks WHERE tenant_id = ?').all(tenantId) as Row[]).map(
      (row) => row['seq'] as number,
    );
    for (const seq of seqs) {
      this.fts.delete(seq);
      this.s.deleteChunk.run(seq);
    }
  }
}
