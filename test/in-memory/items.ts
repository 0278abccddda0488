// Long-term items in the in-memory store: item versions (never rewritten but for their status),
// their chunks (derived: text, full-text entry, vector, embedding work) and the reads of the items
// area: pages by owner, type, status, key, id and time, words ranked by BM25, vectors compared exactly.

import {
  ConflictError,
  exactNearest,
  NotFoundError,
  ownerOf,
  type DeleteItemOp,
  type ItemQuery,
  type ItemSearchHit,
  type ItemSearchQuery,
  type ItemStorage,
  type MemoryItem,
  type NearestItem,
  type NearestItemsQuery,
  type PutChunkOp,
  type PutItemOp,
  type PutTextTokensOp,
  type SetItemStatusOp,
  type VectorCandidate,
} from '../../src/index.js';
import {
  copy,
  itemOut,
  keys,
  pageById,
  recordConflict,
  type ChunkRow,
  type ItemRow,
  type MemoryState,
} from './state.js';

/** The filters of an item read (ItemQuery without its page). */
type ItemFilters = Omit<ItemQuery, 'limit' | 'cursor' | 'order'>;

/** True when a version passes the filters; a read as of a past time decides currency by time, not status. */
function passes(row: ItemRow, q: ItemFilters): boolean {
  const { item } = row;
  if (item.tenant_id !== q.tenant_id || !q.owners.includes(row.owner)) return false;
  if (q.types !== undefined && !q.types.includes(item.type)) return false;
  if (q.active_at === undefined && q.statuses !== undefined && !q.statuses.includes(item.status)) return false;
  if (q.keys !== undefined && !q.keys.includes(item.key)) return false;
  if (q.ids !== undefined && !q.ids.includes(item.id)) return false;
  if (q.as_of !== undefined && item.recorded_at > q.as_of) return false;
  const at = q.active_at;
  return at === undefined || (item.recorded_at <= at && (item.ended_at === null || item.ended_at > at));
}

/** Deletes an item version's chunk with its full-text entry and vector (nothing when it has none). */
function removeChunk(state: MemoryState, tenantId: string, itemId: string): void {
  const chunk = state.chunks.delete(keys.byId(tenantId, itemId));
  if (chunk !== undefined) state.chunkWords.remove(chunk.seq);
}

/** The writes of item versions and their chunks (inside a write's transaction). */
export class ItemWrites {
  constructor(private readonly state: MemoryState) {}

  putItem(op: PutItemOp): void {
    const { item } = op;
    const row = {
      seq: this.state.nextSeq(),
      item: copy(item),
      owner: ownerOf(item.scope_level, item.user_id, item.agent_id),
      tokens: this.state.textTokens?.item(item) ?? null,
    };
    this.state.items.insert(keys.byId(item.tenant_id, item.id), row, () =>
      recordConflict('memory_items', 'id', item.id),
    );
  }

  /** Changes a version's status only from the one its writer read, so two writers cannot both supersede it. */
  setStatus(op: SetItemStatusOp): void {
    const row = this.state.items.get(keys.byId(op.tenant_id, op.item_id));
    if (row === undefined) throw new NotFoundError('item_id', op.item_id);
    if (row.item.status !== op.expected_status)
      throw new ConflictError(
        `item_id: ${op.item_id} is ${row.item.status}, not ${op.expected_status}; another writer changed it`,
        {
          field: 'item_id',
          origin: 'concurrent',
          details: { expected_status: op.expected_status, status: row.item.status },
        },
      );
    this.replace(row, { item: { ...row.item, status: op.status, ended_at: op.ended_at, updated_at: op.updated_at } });
  }

  /** Replaces what an item version keeps beside it (a token count, its sources after an erase). */
  replace(row: ItemRow, change: Partial<ItemRow>): void {
    this.state.items.put(keys.byId(row.item.tenant_id, row.item.id), { ...row, ...change });
  }

  putTokens(op: PutTextTokensOp): void {
    const row = this.state.items.get(keys.byId(op.tenant_id, op.id));
    if (row === undefined) throw new NotFoundError('item_id', op.id);
    this.replace(row, { tokens: op.text_tokens });
  }

  deleteItem(op: DeleteItemOp): void {
    removeChunk(this.state, op.tenant_id, op.item_id);
    this.state.items.delete(keys.byId(op.tenant_id, op.item_id));
  }

  /** Replaces an item version's chunk: a new row with its words indexed and its embedding to do (or none). */
  putChunk(op: PutChunkOp): void {
    removeChunk(this.state, op.tenant_id, op.item_id);
    if (op.text === null) return;
    const seq = this.state.nextSeq();
    const chunk: ChunkRow = {
      seq,
      tenant_id: op.tenant_id,
      item_id: op.item_id,
      owner: op.owner,
      text: op.text,
      status: op.embedding_status,
      lease: null,
      vector: null,
    };
    this.state.chunks.put(keys.byId(op.tenant_id, op.item_id), chunk);
    if (op.search_text === null) return;
    // A search as of a past time reads the chunks of the items recorded by then.
    const recordedAt = this.state.items.get(keys.byId(op.tenant_id, op.item_id))?.item.recorded_at ?? null;
    this.state.chunkWords.add(seq, keys.chunkScope(op.tenant_id, op.owner), op.search_text, recordedAt);
  }
}

/** The items area of the storage contract: what a caller is given. */
export class ItemArea implements ItemStorage {
  constructor(private readonly state: MemoryState) {}

  async get(tenantId: string, itemId: string): Promise<MemoryItem | null> {
    const row = this.state.items.get(keys.byId(tenantId, itemId));
    return row === undefined ? null : itemOut(row);
  }

  async list(query: ItemQuery): Promise<MemoryItem[]> {
    const passing = this.state.items.values().filter((row) => passes(row, query));
    return pageById(passing, (row) => row.item.id, query).map(itemOut);
  }

  async activeKeys(tenantId: string, owners: readonly string[], limit: number): Promise<string[]> {
    // The last version written of each key comes last: keys by their newest active version, newest first.
    const newest = new Map<string, number>();
    for (const row of this.state.items.values())
      if (row.item.tenant_id === tenantId && owners.includes(row.owner) && row.item.status === 'active')
        newest.set(row.item.key, row.seq);
    return [...newest]
      .sort(([, a], [, b]) => b - a)
      .slice(0, limit)
      .map(([key]) => key);
  }

  async search(query: ItemSearchQuery): Promise<ItemSearchHit[]> {
    if (query.terms.length === 0) return [];
    // Items current at a past time are ranked by the chunks of items recorded by then.
    const ranked = this.state.chunkWords.rank(
      query.owners.map((owner) => keys.chunkScope(query.tenant_id, owner)),
      query.terms,
      undefined,
      query.active_at,
    );
    const hits: ItemSearchHit[] = [];
    for (const { row, score } of ranked) {
      if (hits.length >= query.limit) break;
      const chunk = this.state.chunks.atSeq(row);
      const version = chunk && this.state.items.get(keys.byId(chunk.tenant_id, chunk.item_id));
      if (version !== undefined && passes(version, query)) hits.push({ item: itemOut(version), score });
    }
    return hits;
  }

  async vectors(query: Omit<ItemQuery, 'cursor' | 'limit' | 'keys' | 'ids' | 'as_of'>): Promise<VectorCandidate[]> {
    const found: VectorCandidate[] = [];
    for (const chunk of this.state.chunks.values()) {
      const stored = chunk.vector;
      if (stored === null || chunk.tenant_id !== query.tenant_id || !query.owners.includes(chunk.owner)) continue;
      if (query.vector_model !== undefined && stored.model !== query.vector_model) continue;
      if (query.vectors_before !== undefined && stored.at >= query.vectors_before) continue;
      const version = this.state.items.get(keys.byId(chunk.tenant_id, chunk.item_id));
      if (version !== undefined && passes(version, query))
        found.push({ item_id: chunk.item_id, vector: copy(stored.values) });
    }
    return found;
  }

  /** An exact scan: every visible vector of the query's dimension compared. */
  async nearest(query: NearestItemsQuery): Promise<NearestItem[]> {
    const { vector, limit, ...visible } = query;
    return exactNearest(vector, await this.vectors(visible), limit);
  }

  async forReindex(tenantId: string | undefined): Promise<MemoryItem[]> {
    return this.state.items
      .values()
      .filter((row) => tenantId === undefined || row.item.tenant_id === tenantId)
      .map(itemOut);
  }

  async clearIndex(tenantId: string | undefined): Promise<void> {
    this.state.journal.run(() => {
      for (const chunk of this.state.chunks.values())
        if (tenantId === undefined || chunk.tenant_id === tenantId)
          removeChunk(this.state, chunk.tenant_id, chunk.item_id);
    });
  }
}
