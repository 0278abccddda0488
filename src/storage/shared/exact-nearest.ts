// Nearest items by an exact scan: every visible chunk vector of the query's dimension compared in
// the process. SQLite always answers this way; PostgreSQL does when pgvector is not installed.

import type { NearestItem, VectorCandidate } from '../../spec/storage.js';
import { topK } from '../../util/vectors.js';

/**
 * The `limit` candidates most similar to `vector` (cosine), best first; vectors of another
 * dimension (another model) are left out.
 *
 * @example
 * exactNearest(query.vector, await items.itemVectors(visible), 10); // [{ item_id, similarity }, …]
 */
export function exactNearest(
  vector: Float32Array,
  candidates: readonly VectorCandidate[],
  limit: number,
): NearestItem[] {
  const comparable = candidates
    .filter((candidate) => candidate.vector.length === vector.length)
    .map((candidate) => ({ id: candidate.item_id, vector: candidate.vector }));
  return topK(vector, comparable, limit).map((hit) => ({ item_id: hit.id, similarity: hit.score }));
}
