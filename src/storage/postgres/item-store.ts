// Long-term memory items on PostgreSQL: item versions (the truth), their chunks (derived: text,
// scoped word index, vector) and the queries over them, with vectors compared by pgvector's HNSW
// index when the extension is there and by an exact scan in the process when it is not.

import { NotFoundError } from '../../spec/errors.js';
import type { MemoryItem } from '../../spec/items.js';
import type {
  DeleteItemOp,
  ItemQuery,
  ItemSearchHit,
  ItemSearchQuery,
  NearestItem,
  NearestItemsQuery,
  PutChunkOp,
  PutItemOp,
  SetItemStatusOp,
  VectorCandidate,
} from '../../spec/storage.js';
import { termStats } from '../../util/bm25-stats.js';
import { ownerPrefix } from '../../util/scope-token.js';
import { fromBlob } from '../../util/vectors.js';
import { exactNearest } from '../shared/exact-nearest.js';
import { firstPassing } from '../shared/first-passing.js';
import {
  chunkVectorFilters,
  ITEM_COLUMNS,
  ITEM_SELECT,
  itemFilters,
  itemFromValues,
  itemValues,
} from '../shared/item-rows.js';
import { activeKeysQuery, ITEM_SQL, itemStatusChanged, itemVectorsQuery, setStatusValues } from '../shared/item-sql.js';
import { placeholders } from '../shared/rows.js';
import type { Sql, SqlPool } from './client.js';
import { scopedLexemes, WordIndex } from './word-index.js';

/** pgvector's text form of a vector. */
export function vectorLiteral(vector: Float32Array): string {
  return `[${Array.from(vector).join(',')}]`;
}

export class PgItemStore {
  private readonly index = new WordIndex('memory_chunks');
  /** Dimensions whose HNSW index this process has made sure of. */
  private readonly indexedDimensions = new Set<number>();

  constructor(
    private readonly pool: SqlPool,
    /** pgvector is installed: chunks also keep an `embedding vector` column under HNSW indexes. */
    private readonly pgvector: boolean,
  ) {}

  /** Inserts an item version with the tokens compose charges for its text (null: not counted). */
  async putItem(tx: Sql, op: PutItemOp, textTokens: number | null): Promise<void> {
    await tx.run(ITEM_SQL.insert, itemValues(op.item, textTokens));
  }

  async setStatus(tx: Sql, op: SetItemStatusOp): Promise<void> {
    const changed = await tx.run(ITEM_SQL.setStatus, setStatusValues(op));
    if (changed === 1) return;
    const rows = await tx.rows(ITEM_SQL.status, [op.tenant_id, op.item_id]);
    if (rows.length === 0) throw new NotFoundError('item_id', op.item_id);
    throw itemStatusChanged(op, rows[0]!['status']);
  }

  async deleteItem(tx: Sql, op: DeleteItemOp): Promise<void> {
    await tx.run('DELETE FROM memory_chunks WHERE tenant_id = ? AND item_id = ?', [op.tenant_id, op.item_id]);
    await tx.run(ITEM_SQL.deleteItem, [op.tenant_id, op.item_id]);
  }

  async putChunk(tx: Sql, op: PutChunkOp): Promise<void> {
    await tx.run('DELETE FROM memory_chunks WHERE tenant_id = ? AND item_id = ?', [op.tenant_id, op.item_id]);
    if (op.text === null) return;
    const lexemes = op.search_text === null ? null : scopedLexemes(ownerPrefix(op.tenant_id, op.owner), op.search_text);
    const stats = op.search_text === null ? null : termStats(op.search_text);
    await tx.run(
      `INSERT INTO memory_chunks (tenant_id, item_id, owner, text, search, embedding_status, term_stats)
       VALUES (?, ?, ?, ?, CASE WHEN ?::text[] IS NULL THEN NULL ELSE array_to_tsvector(?::text[]) END, ?, ?)`,
      [op.tenant_id, op.item_id, op.owner, op.text, lexemes, lexemes, op.embedding_status, stats],
    );
  }

  async getItem(tenantId: string, itemId: string): Promise<MemoryItem | null> {
    const rows = await this.pool.arrays(`SELECT ${ITEM_SELECT} FROM memory_items WHERE tenant_id = ? AND id = ?`, [
      tenantId,
      itemId,
    ]);
    return rows.length === 0 ? null : itemFromValues(rows[0]!);
  }

  async listItems(query: ItemQuery): Promise<MemoryItem[]> {
    const { where, params } = itemFilters(query, '');
    const descending = query.order === 'desc';
    if (query.cursor !== undefined) {
      where.push(descending ? 'id < ?' : 'id > ?');
      params.push(query.cursor);
    }
    const sql = `SELECT ${ITEM_SELECT} FROM memory_items WHERE ${where.join(' AND ')} ORDER BY id ${descending ? 'DESC' : 'ASC'} LIMIT ?`;
    return (await this.pool.arrays(sql, [...params, query.limit])).map((row) => itemFromValues(row));
  }

  async activeKeys(tenantId: string, owners: readonly string[], limit: number): Promise<string[]> {
    if (owners.length === 0) return [];
    const { sql, params } = activeKeysQuery(tenantId, owners, limit);
    return (await this.pool.arrays(sql, params)).map((row) => row[0] as string);
  }

  async searchItems(query: ItemSearchQuery): Promise<ItemSearchHit[]> {
    if (query.terms.length === 0 || query.owners.length === 0) return [];
    const prefixes = query.owners.map((owner) => ownerPrefix(query.tenant_id, owner));
    // Items current at a past time are ranked by the chunks recorded by then, as a compose then ranked them.
    const ranked = await this.index.rank(this.pool, prefixes, query.terms, undefined, query.active_at);
    const { where, params } = itemFilters(query, 'i.');
    return firstPassing(
      ranked,
      query.limit,
      async (seqs) => {
        const sql = `SELECT c.seq, ${ITEM_COLUMNS.map((column) => `i.${column}`).join(', ')} FROM memory_chunks c
          JOIN memory_items i ON i.tenant_id = c.tenant_id AND i.id = c.item_id
          WHERE c.tenant_id = ? AND c.seq IN (${placeholders(seqs)}) AND ${where.join(' AND ')}`;
        const rows = await this.pool.arrays(sql, [query.tenant_id, ...seqs, ...params]);
        return new Map(rows.map((row) => [Number(row[0]), row]));
      },
      (row, score): ItemSearchHit => ({ item: itemFromValues(row, 1), score }),
    );
  }

  async itemVectors(query: Omit<ItemQuery, 'cursor' | 'limit' | 'keys' | 'ids' | 'as_of'>): Promise<VectorCandidate[]> {
    if (query.owners.length === 0) return [];
    const { sql, params } = itemVectorsQuery(query);
    const rows = await this.pool.arrays(sql, params);
    return rows.map((row) => ({ item_id: row[0] as string, vector: fromBlob(row[1] as Buffer) }));
  }

  async nearestItems(query: NearestItemsQuery): Promise<NearestItem[]> {
    const { vector, limit, ...visible } = query;
    if (visible.owners.length === 0 || limit < 1) return [];
    if (!this.pgvector) return exactNearest(vector, await this.itemVectors(visible), limit);
    const dimensions = vector.length;
    const { where, params } = itemFilters(visible, 'i.');
    const bound = chunkVectorFilters(visible);
    const distance = `c.embedding::vector(${dimensions}) <=> ?::vector(${dimensions})`;
    const sql = `SELECT c.item_id, 1 - (${distance}) AS similarity
      FROM memory_chunks c JOIN memory_items i ON i.tenant_id = c.tenant_id AND i.id = c.item_id
      WHERE c.tenant_id = ? AND c.owner IN (${placeholders(visible.owners)}) AND c.embedding IS NOT NULL
        AND vector_dims(c.embedding) = ${dimensions}${bound.sql} AND ${where.join(' AND ')}
      ORDER BY ${distance}, c.item_id LIMIT ?`;
    const literal = vectorLiteral(vector);
    // The index is walked until enough rows pass the scope's filters (pgvector's iterative scan).
    return this.pool.transaction(async (tx) => {
      await tx.exec(
        `SET LOCAL hnsw.iterative_scan = relaxed_order; SET LOCAL hnsw.ef_search = ${Math.max(40, Math.min(1000, limit * 2))}`,
      );
      const rows = await tx.arrays(sql, [
        literal,
        query.tenant_id,
        ...visible.owners,
        ...bound.params,
        ...params,
        literal,
        limit,
      ]);
      // relaxed_order may return neighbours slightly out of order: sort them by their distance.
      return rows
        .map((row) => ({ item_id: row[0] as string, similarity: Number(row[1]) }))
        .sort((a, b) => b.similarity - a.similarity || (a.item_id < b.item_id ? -1 : 1));
    });
  }

  /**
   * Every item version, of one tenant or all. Tenant first, then seq, along items_by_seq; SQLite
   * reads in seq order alone (its rowid). Within a tenant the two agree, and the contract names no
   * order across tenants.
   */
  async allItems(tenantId: string | undefined): Promise<MemoryItem[]> {
    const sql = `SELECT ${ITEM_SELECT} FROM memory_items${tenantId === undefined ? '' : ' WHERE tenant_id = ?'} ORDER BY tenant_id, seq`;
    return (await this.pool.arrays(sql, tenantId === undefined ? [] : [tenantId])).map((row) => itemFromValues(row));
  }

  async clearIndex(tenantId: string | undefined): Promise<void> {
    if (tenantId === undefined) await this.pool.run('DELETE FROM memory_chunks');
    else await this.pool.run('DELETE FROM memory_chunks WHERE tenant_id = ?', [tenantId]);
  }

  /**
   * An HNSW index (cosine) for vectors of one dimension: models differ in size, and pgvector indexes
   * need a fixed one, so each size gets a partial expression index the first time it is stored.
   */
  async ensureVectorIndex(dimensions: number): Promise<void> {
    if (this.indexedDimensions.has(dimensions)) return;
    try {
      await this.pool.exec(
        `CREATE INDEX IF NOT EXISTS chunks_hnsw_${dimensions} ON memory_chunks
         USING hnsw ((embedding::vector(${dimensions})) vector_cosine_ops) WHERE vector_dims(embedding) = ${dimensions}`,
      );
    } catch (error) {
      // Another process creating the same index at the same moment: it exists now.
      if ((error as { code?: string }).code !== '23505' && (error as { code?: string }).code !== '42P07') throw error;
    }
    this.indexedDimensions.add(dimensions);
  }
}
