// The items area of the storage contract: reading the versions of memory items, by page, by key, by
// words and by vector, and the derived index (chunks, full-text entries, vectors) kept beside them.

import type { ItemStatus, MemoryItem, MemoryType } from '../items.js';

/** Items visible to a caller: owners are `u:<user_id>`, `a:<agent_id>` and `t` (see ownerOf). */
export interface ItemQuery {
  tenant_id: string;
  owners: readonly string[];
  types?: readonly MemoryType[];
  statuses?: readonly ItemStatus[];
  keys?: readonly string[];
  /** Only these item versions. */
  ids?: readonly string[];
  /** Only versions recorded at or before this time. */
  as_of?: string;
  /** Only versions current at this time (recorded by then, not ended by then), whatever their status now. */
  active_at?: string;
  /** Vector reads only: chunk vectors stored strictly before this time (a replay's), of this model. */
  vectors_before?: string;
  vector_model?: string;
  /** Page after (asc) or before (desc) this item id (ids sort in creation order). */
  cursor?: string;
  /** Oldest first (default) or newest first. */
  order?: 'asc' | 'desc';
  limit: number;
}

export interface ItemSearchQuery {
  tenant_id: string;
  owners: readonly string[];
  terms: string[];
  types?: readonly MemoryType[];
  statuses?: readonly ItemStatus[];
  /**
   * Only versions current at this time; words are then ranked by the chunks of items recorded by
   * then (their rarity and newest matches), as a search at that time ranked them.
   */
  active_at?: string;
  limit: number;
}

export interface ItemSearchHit {
  item: MemoryItem;
  score: number;
}

export interface VectorCandidate {
  item_id: string;
  vector: Float32Array;
}

/** The visible item versions nearest to a unit vector; only vectors of its dimension are compared. */
export interface NearestItemsQuery extends Omit<ItemQuery, 'cursor' | 'keys' | 'ids' | 'as_of'> {
  vector: Float32Array;
}

export interface NearestItem {
  item_id: string;
  /** Cosine similarity, in [-1, 1]. */
  similarity: number;
}

/**
 * Reads of memory items and their index (writes go through `StorageAdapter.write`).
 *
 * @example
 * const hits = await storage.items.search({ tenant_id: 'default', owners: ['u:u1', 't'], terms: ['coffee'], limit: 10 });
 */
export interface ItemStorage {
  get(tenantId: string, itemId: string): Promise<MemoryItem | null>;
  /** Item versions matching the query, in creation order (oldest first, or newest first with `order: 'desc'`). */
  list(query: ItemQuery): Promise<MemoryItem[]>;
  /** Keys of the current (active) items of some owners, newest first, at most `limit`. */
  activeKeys(tenantId: string, owners: readonly string[], limit: number): Promise<string[]>;
  /** Full-text search over the chunks of items, best first. */
  search(query: ItemSearchQuery): Promise<ItemSearchHit[]>;
  /** The embedded chunks of visible items, for a vector scan. */
  vectors(query: Omit<ItemQuery, 'cursor' | 'limit' | 'keys' | 'ids' | 'as_of'>): Promise<VectorCandidate[]>;
  /**
   * The `limit` visible item versions whose chunk vectors are nearest to `query.vector` (cosine),
   * best first. With `vectorSearch: 'index'` an approximate index answers (nearly exact); otherwise
   * an exact scan.
   */
  nearest(query: NearestItemsQuery): Promise<NearestItem[]>;
  /** Every item version (of one tenant, or all), for rebuilding the index. */
  forReindex(tenantId: string | undefined): Promise<MemoryItem[]>;
  /** Deletes every chunk, index entry and vector of items (of one tenant, or all). */
  clearIndex(tenantId: string | undefined): Promise<void>;
}
