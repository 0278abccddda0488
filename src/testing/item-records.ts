// The long-term items the storage conformance suites write: an item version of t1/u1 with any field
// overridden, its chunk, the owners user u1 sees, and the embedding of queued chunks with given
// vectors.

import type { StorageAdapter, WriteOp } from '../index.js';
import { newId } from '../index.js';
import { ownerOf, type MemoryItem } from '../spec/items.js';
import type { EmbeddingResult, PutChunkOp } from '../spec/storage.js';
import { searchText } from '../util/segment.js';
import { normalise } from '../util/vectors.js';

const T1 = '2026-06-01T10:00:00.000Z';

/**
 * What user u1 talking to agent a1 sees: their items, the agent's, the tenant's.
 *
 * @example
 * await storage.items.list({ tenant_id: 't1', owners: VISIBLE, limit: 10 });
 */
export const VISIBLE = ['u:u1', 'a:a1', 't'];

/**
 * An active user-level preference of t1/u1 (learned with agent a1), with any field overridden.
 *
 * @example
 * await storage.write([{ op: 'put_item', item: item({ key: 'shell', status: 'superseded' }) }]);
 */
export function item(overrides: Partial<MemoryItem> = {}): MemoryItem {
  return {
    id: newId('mem'),
    tenant_id: 't1',
    user_id: 'u1',
    agent_id: 'a1',
    scope_level: 'user',
    type: 'preferences',
    key: 'editor',
    value: { name: 'vim' },
    confidence: 0.9,
    status: 'active',
    sensitivity: 'normal',
    valid_from: null,
    valid_to: null,
    salience: { consequence: 0.2, emotional_charge: 0.1, reusability: 0.8 },
    version: 1,
    supersedes: null,
    source_event_ids: [],
    evidence_refs: [],
    provenance: { extractor: 'rules', rule: 'test' },
    tags: [],
    entities: [],
    recorded_at: T1,
    updated_at: T1,
    ended_at: null,
    ...overrides,
  };
}

/**
 * An agent-level procedure of agent a1, with any field overridden.
 *
 * @example
 * const procedure = agentItem({ key: 'procedure:fig:pick' });
 */
export const agentItem = (overrides: Partial<MemoryItem> = {}) =>
  item({ scope_level: 'agent', user_id: null, type: 'procedure', key: 'procedure:deploy:rollback', ...overrides });

/**
 * The chunk of an item with `text` as its words (no chunk with `null`).
 *
 * @example
 * await storage.write([chunk(record, 'banana')]);
 */
export function chunk(
  record: MemoryItem,
  text: string | null,
  embedding_status: PutChunkOp['embedding_status'] = 'pending',
): PutChunkOp {
  const owner = ownerOf(record.scope_level, record.user_id, record.agent_id);
  return {
    op: 'put_chunk',
    tenant_id: record.tenant_id,
    item_id: record.id,
    owner,
    text,
    search_text: text === null ? null : searchText(text),
    embedding_status,
  };
}

/**
 * The item and its chunk (by default its key as text).
 *
 * @example
 * await storage.write(put(record, 'apple'));
 */
export const put = (record: MemoryItem, text: string = record.key): WriteOp[] => [
  { op: 'put_item', item: record },
  chunk(record, text),
];

/**
 * The ids of rows, in their order.
 *
 * @example
 * expect(ids(await storage.items.forReindex('t1'))).toEqual([first.id]);
 */
export const ids = (rows: ReadonlyArray<{ id: string }>) => rows.map((row) => row.id);

/**
 * A sorted copy, for results whose order a test does not fix.
 *
 * @example
 * expect(sorted(found)).toEqual(sorted([a.id, b.id]));
 */
export const sorted = (values: readonly string[]) => [...values].sort();

/**
 * Claims every queued chunk at `now` and stores the vector given for its item (skipped when there is none).
 *
 * @example
 * await embedQueued(storage, { [record.id]: [1, 0] }, NOW, LEASE_END);
 */
export async function embedQueued(
  storage: StorageAdapter,
  vectors: Record<string, number[]>,
  now: string,
  leaseEnd: string,
): Promise<void> {
  const work = await storage.service.claimEmbeddingWork(100, now, leaseEnd);
  const results = work.map((entry): EmbeddingResult => {
    const values = vectors[entry.id];
    return {
      target: entry.target,
      tenant_id: entry.tenant_id,
      id: entry.id,
      vector: values === undefined ? null : normalise(values),
    };
  });
  await storage.service.completeEmbeddingWork(results, 'test:model', now);
}
