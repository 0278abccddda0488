// Hybrid search over long-term memory: full text (scoped word index), vectors (when the visible
// items have embeddings), recency and salience/confidence, fused by reciprocal rank. Each hit keeps
// its per-signal ranks and scores, so a result can be explained. Works before embeddings exist.

import type { ItemStatus, MemoryItem, MemoryType, ScopeLevel } from '../spec/items.js';
import { ownerOf, visibleOwners } from '../spec/items.js';
import type { ItemQuery, NearestItem, StorageAdapter } from '../spec/storage.js';
import { searchTerms } from '../util/word-forms.js';
import { topK } from '../util/vectors.js';

export interface SearchFilters {
  status?: ItemStatus[];
  time_range?: { start?: string; end?: string };
  tags?: string[];
  entities?: string[];
  scope_levels?: ScopeLevel[];
}

export interface SearchRequest {
  scope: { tenant_id: string; user_id: string; agent_id?: string };
  query: string;
  types?: MemoryType[];
  k: number;
  filters?: SearchFilters;
  /** Search the versions that were current at this time (for replaying a past packet). */
  active_at?: string;
  /** How many candidates each signal contributes to the fusion (default 100). */
  candidates?: number;
  /** Compare only vectors stored strictly before this time (a packet's time: its replay compares the same ones). */
  vectors_before?: string;
  /** Compare only vectors of this model (`provider:modelId`). */
  vector_model?: string;
}

export interface SignalScores {
  full_text: { rank: number; score: number } | null;
  vector: { rank: number; similarity: number } | null;
  recency: { rank: number; recorded_at: string };
  salience: { rank: number; value: number };
}

export interface SearchHit {
  item: MemoryItem;
  /** The fused score (reciprocal rank fusion); comparable within one result list. */
  score: number;
  signals: SignalScores;
}

/**
 * Reciprocal rank fusion (k = 60). Text and vectors weigh 1, each scaled by how strong the hit is
 * against the best hit of its signal (a match of one rare word of five counts less than a match of
 * all five); recency and salience only break near-ties.
 */
const RRF_K = 60;
const WEIGHTS = { full_text: 1, vector: 1, recency: 0.1, salience: 0.1 };
const CANDIDATES = 100;

export type QueryEmbedder = (text: string) => Promise<Float32Array | null>;

function importance(item: MemoryItem): number {
  const { consequence, emotional_charge: charge, reusability } = item.salience;
  return Math.round(item.confidence * (0.5 + (consequence + charge + reusability) / 3) * 1e6) / 1e6;
}

function passes(item: MemoryItem, filters: SearchFilters | undefined): boolean {
  if (filters === undefined) return true;
  const range = filters.time_range;
  if (range?.start !== undefined && item.recorded_at < range.start) return false;
  if (range?.end !== undefined && item.recorded_at > range.end) return false;
  const lower = (values: readonly string[]) => values.map((value) => value.toLowerCase());
  if (
    filters.tags !== undefined &&
    filters.tags.length > 0 &&
    !lower(item.tags).some((tag) => lower(filters.tags!).includes(tag))
  )
    return false;
  if (filters.entities !== undefined && filters.entities.length > 0) {
    // An item names an entity in its `entities`, or is that entity (its canonical name or an alias).
    const names = lower(item.entities);
    if (item.type === 'entities') {
      names.push(String(item.value['canonical'] ?? '').toLowerCase());
      if (Array.isArray(item.value['aliases'])) names.push(...lower(item.value['aliases'].map(String)));
    }
    const wanted = lower(filters.entities);
    if (!wanted.some((entity) => names.some((name) => name === entity || name.split(/[/\s]/u).includes(entity))))
      return false;
  }
  return true;
}

/**
 * The visible items nearest to the query's embedding. A store with a vector index answers itself;
 * otherwise the visible vectors are read first, so a scope without any skips embedding the query.
 * Vectors of another model (after the configuration changed) are left out until re-embedded.
 */
async function nearest(
  storage: StorageAdapter,
  embedQuery: QueryEmbedder,
  text: string,
  base: Omit<ItemQuery, 'cursor' | 'limit' | 'keys' | 'ids' | 'as_of'>,
  limit: number,
): Promise<NearestItem[]> {
  if (storage.capabilities.vectorSearch === 'index') {
    const vector = await embedQuery(text);
    return vector === null ? [] : storage.items.nearest({ ...base, vector, limit });
  }
  const candidates = await storage.items.vectors(base);
  const vector = candidates.length > 0 ? await embedQuery(text) : null;
  if (vector === null) return [];
  const comparable = candidates.filter((candidate) => candidate.vector.length === vector.length);
  return topK(
    vector,
    comparable.map((candidate) => ({ id: candidate.item_id, vector: candidate.vector })),
    limit,
  ).map((hit) => ({
    item_id: hit.id,
    similarity: hit.score,
  }));
}

/**
 * Searches the items visible to a user (their own, their agent's, the tenant's).
 *
 * @example
 * const hits = await hybridSearch(storage, embedQuery, { scope, query: 'what tone do I like?', k: 5 });
 */
export async function hybridSearch(
  storage: StorageAdapter,
  embedQuery: QueryEmbedder | undefined,
  request: SearchRequest,
): Promise<SearchHit[]> {
  const { scope, filters } = request;
  const levels = filters?.scope_levels;
  const owners = visibleOwners(scope.user_id, scope.agent_id).filter(
    (owner) =>
      levels === undefined || levels.some((level) => ownerOf(level, scope.user_id, scope.agent_id ?? null) === owner),
  );
  const statuses = filters?.status ?? ['active'];
  const base = {
    tenant_id: scope.tenant_id,
    owners,
    ...(request.active_at === undefined ? { statuses } : { active_at: request.active_at }),
    ...(request.types === undefined ? {} : { types: request.types }),
  };

  const pool = request.candidates ?? CANDIDATES;
  const textHits = await storage.items.search({ ...base, terms: searchTerms(request.query), limit: pool });
  const vectorBase = {
    ...base,
    ...(request.vectors_before === undefined ? {} : { vectors_before: request.vectors_before }),
    ...(request.vector_model === undefined ? {} : { vector_model: request.vector_model }),
  };
  const items = new Map(textHits.map((hit) => [hit.item.id, hit.item]));
  const vectorRanks = new Map<string, { rank: number; similarity: number }>();
  if (embedQuery !== undefined) {
    for (const [index, hit] of (await nearest(storage, embedQuery, request.query, vectorBase, pool)).entries()) {
      vectorRanks.set(hit.item_id, { rank: index + 1, similarity: Math.round(hit.similarity * 1e6) / 1e6 });
    }
    const missing = [...vectorRanks.keys()].filter((id) => !items.has(id));
    if (missing.length > 0) {
      for (const item of await storage.items.list({ ...base, ids: missing, limit: missing.length }))
        items.set(item.id, item);
    }
  }
  return fuse(
    [...items.values()].filter((item) => passes(item, filters)),
    new Map(textHits.map((hit, index) => [hit.item.id, { rank: index + 1, score: Math.round(hit.score * 1e6) / 1e6 }])),
    vectorRanks,
    request.k,
  );
}

function fuse(
  candidates: MemoryItem[],
  textRanks: ReadonlyMap<string, { rank: number; score: number }>,
  vectorRanks: ReadonlyMap<string, { rank: number; similarity: number }>,
  k: number,
): SearchHit[] {
  // One version per key: the newest that matched.
  const newest = new Map<string, MemoryItem>();
  for (const item of candidates) {
    const id = `${ownerOf(item.scope_level, item.user_id, item.agent_id)}\u0000${item.key}`;
    const known = newest.get(id);
    if (known === undefined || item.version > known.version) newest.set(id, item);
  }
  const unique = [...newest.values()];
  const recency = denseRanks(unique, (item) => item.recorded_at);
  const salience = denseRanks(unique, importance);
  const bestText = Math.max(0, ...[...textRanks.values()].map((hit) => hit.score));
  const bestVector = Math.max(0, ...[...vectorRanks.values()].map((hit) => hit.similarity));
  const hits = unique.map((item): SearchHit => {
    const text = textRanks.get(item.id) ?? null;
    const vector = vectorRanks.get(item.id) ?? null;
    const signals: SignalScores = {
      full_text: text,
      vector,
      recency: { rank: recency.get(item.id)!, recorded_at: item.recorded_at },
      salience: { rank: salience.get(item.id)!, value: importance(item) },
    };
    let score = WEIGHTS.recency / (RRF_K + signals.recency.rank) + WEIGHTS.salience / (RRF_K + signals.salience.rank);
    if (text !== null && bestText > 0) score += (WEIGHTS.full_text * (text.score / bestText)) / (RRF_K + text.rank);
    if (vector !== null && bestVector > 0)
      score += (WEIGHTS.vector * Math.max(0, vector.similarity / bestVector)) / (RRF_K + vector.rank);
    return { item, score: Math.round(score * 1e6) / 1e6, signals };
  });
  return hits.sort((a, b) => b.score - a.score || (a.item.id < b.item.id ? 1 : -1)).slice(0, k);
}

/** Ranks by a value, highest first; equal values share a rank, so ties give no one an edge. */
function denseRanks<T extends { id: string }>(
  items: readonly T[],
  valueOf: (item: T) => number | string,
): Map<string, number> {
  const values = [...new Set(items.map(valueOf))].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0));
  const rankOf = new Map(values.map((value, index) => [value, index + 1]));
  return new Map(items.map((item) => [item.id, rankOf.get(valueOf(item))!]));
}
