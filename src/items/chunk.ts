// The derived chunk of an item (MemoryTypes v0.1 §7): `[type:key]`, then a readable line, then when
// it was updated. Its words go to the full-text index and its text to the embedding model.

import type { MemoryItem } from '../spec/items.js';
import { ownerOf } from '../spec/items.js';
import type { PutChunkOp } from '../spec/storage.js';
import { searchText } from '../util/segment.js';
import { describeValue } from './values.js';

/**
 * The chunk text of an item version.
 *
 * @example
 * chunkText(item) // '[preferences:pref:writing:tone]\nPrefers concise (writing tone)\nUpdated at: 2026-02-20'
 */
export function chunkText(
  item: Pick<MemoryItem, 'type' | 'key' | 'value' | 'updated_at' | 'tags' | 'entities'>,
): string {
  const lines = [`[${item.type}:${item.key}]`, describeValue(item.type, item.value)];
  if (item.entities.length > 0) lines.push(`Entities: ${item.entities.join(', ')}`);
  if (item.tags.length > 0) lines.push(`Tags: ${item.tags.join(', ')}`);
  lines.push(`Updated at: ${item.updated_at.slice(0, 10)}`);
  return lines.join('\n');
}

/**
 * The words the full-text index keeps for an item: its key's parts (split at `:` and `_`) and its
 * readable line, so both "writing tone" and "concise" find `pref:writing:tone`.
 *
 * @example
 * chunkSearchText(item) // 'pref writing tone prefers concise writing tone'
 */
export function chunkSearchText(item: Pick<MemoryItem, 'type' | 'key' | 'value' | 'tags' | 'entities'>): string {
  const keyWords = item.key.replace(/[:_/.-]+/g, ' ');
  return searchText([keyWords, describeValue(item.type, item.value), ...item.entities, ...item.tags].join(' '));
}

/**
 * The part of a chunk worth embedding: its readable lines, without the `[type:key]` locator and
 * the update date, which add cost and no meaning for a vector.
 *
 * @example
 * chunkEmbeddingText('[preferences:pref:ui:theme]\nPrefers dark (ui theme)\nUpdated at: 2026-01-01') // 'Prefers dark (ui theme)'
 */
export function chunkEmbeddingText(text: string): string {
  const lines = text.split('\n').filter((line) => !/^\[[^\]]*\]$/u.test(line) && !line.startsWith('Updated at: '));
  return lines.length === 0 ? text : lines.join('\n');
}

/**
 * The write that (re)builds an item version's chunk: its text, full-text entry and a queued embedding.
 *
 * @example
 * await storage.write([{ op: 'put_item', item }, chunkOp(item)]);
 */
export function chunkOp(item: MemoryItem): PutChunkOp {
  return {
    op: 'put_chunk',
    tenant_id: item.tenant_id,
    item_id: item.id,
    owner: ownerOf(item.scope_level, item.user_id, item.agent_id),
    text: chunkText(item),
    search_text: chunkSearchText(item),
    embedding_status: 'pending',
  };
}
