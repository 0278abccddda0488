// The embedding queue and stored vectors in the storage conformance suite: chunks and events claimed
// under a lease and completed, the exact vectors of visible items, and the nearest item versions by
// cosine similarity. Registered by describeStorageConformance.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { StorageAdapter } from '../index.js';
import type { MemoryItem } from '../spec/items.js';
import type { ItemQuery, NearestItemsQuery } from '../spec/storage.js';
import { dot, normalise } from '../util/vectors.js';
import { eventRecord } from './event-record.js';
import { agentItem, chunk, embedQueued, ids, item, put, sorted, VISIBLE } from './item-records.js';
import type { ConformanceInitializer } from './conformance-initializer.js';

const T3 = '2026-06-01T11:00:00.000Z';
const T4 = '2026-06-01T11:30:00.000Z';
const NOW = '2026-06-01T12:00:00.000Z';
const LEASE_END = '2026-06-01T12:05:00.000Z';
const AFTER_LEASE = '2026-06-01T12:06:00.000Z';

/**
 * Registers the embedding queue and vector tests for one adapter.
 *
 * @example
 * describeEmbeddingConformance('sqlite', init);
 */
export function describeEmbeddingConformance(name: string, init: ConformanceInitializer): void {
  describe(`storage conformance: ${name}: embeddings and vectors`, () => {
    let storage: StorageAdapter;
    beforeEach(async () => {
      storage = await init.create();
    });
    afterEach(async () => {
      await init.destroy(storage);
    });

    const nearest = (vector: number[], query: Partial<NearestItemsQuery> = {}) =>
      storage.items.nearest({
        tenant_id: 't1',
        owners: VISIBLE,
        statuses: ['active'],
        vector: normalise(vector),
        limit: 10,
        ...query,
      });
    const embed = (vectors: Record<string, number[]>) => embedQueued(storage, vectors, NOW, LEASE_END);

    it('queues embeddings: chunks before events, one claim at a time until the lease ends, done when completed', async () => {
      const first = item({ key: 'first' });
      const second = item({ key: 'second' });
      const unembedded = item({ key: 'unembedded' });
      const event = eventRecord({ content: 'embed me' });
      await storage.write([
        { op: 'append_event', event, search_text: null },
        {
          op: 'append_event',
          event: eventRecord({ embeddable: false, embedding_status: 'skipped' }),
          search_text: null,
        },
        ...put(first, 'first chunk'),
        ...put(second, 'second chunk'),
        { op: 'put_item', item: unembedded },
        chunk(unembedded, 'not embedded', 'skipped'),
      ]);
      expect(await storage.service.embeddingBacklog()).toBe(3);
      const claimed = await storage.service.claimEmbeddingWork(2, NOW, LEASE_END);
      expect(claimed.map((work) => work.target)).toEqual(['chunk', 'chunk']);
      expect(sorted(claimed.map((work) => work.id))).toEqual(sorted([first.id, second.id]));
      expect(claimed.find((work) => work.id === first.id)).toMatchObject({ tenant_id: 't1', text: 'first chunk' });
      const rest = await storage.service.claimEmbeddingWork(5, NOW, LEASE_END);
      expect(rest).toHaveLength(1);
      expect(rest[0]).toMatchObject({
        target: 'event',
        tenant_id: 't1',
        id: event.id,
        event: { id: event.id, content: 'embed me' },
      });
      // Claimed work is in progress: nobody else takes it before the lease ends, and it is still backlog.
      expect(await storage.service.claimEmbeddingWork(5, NOW, LEASE_END)).toEqual([]);
      expect(await storage.service.embeddingBacklog()).toBe(3);
      // The worker died: after its lease the same work is claimed again.
      const again = await storage.service.claimEmbeddingWork(5, AFTER_LEASE, '2026-06-01T12:15:00.000Z');
      expect(again.map((work) => work.target)).toEqual(['chunk', 'chunk', 'event']);
      await storage.service.completeEmbeddingWork(
        [
          { target: 'chunk', tenant_id: 't1', id: first.id, vector: normalise([1, 2, 3]) },
          { target: 'chunk', tenant_id: 't1', id: second.id, vector: null },
          { target: 'event', tenant_id: 't1', id: event.id, vector: normalise([3, 2, 1]) },
        ],
        'test:model',
        AFTER_LEASE,
      );
      expect(await storage.service.embeddingBacklog()).toBe(0);
      // A skipped text has no vector, so it is no model's.
      expect(await storage.service.vectorModels()).toEqual([{ model: 'test:model', events: 1, chunks: 1 }]);
      expect(
        await storage.service.claimEmbeddingWork(5, '2026-06-02T00:00:00.000Z', '2026-06-02T00:05:00.000Z'),
      ).toEqual([]);
      // Skipped text has no vector.
      expect((await storage.items.vectors({ tenant_id: 't1', owners: VISIBLE })).map((entry) => entry.item_id)).toEqual(
        [first.id],
      );
    });

    it('queues an event for a vector again when it is reindexed for a model it has no vector of', async () => {
      const kept = eventRecord({ content: 'kept under the old model' });
      const moved = eventRecord({ content: 'embedded again' });
      const unembeddable = eventRecord({ embeddable: false, embedding_status: 'skipped' });
      const waiting = eventRecord({ content: 'never embedded' });
      await storage.write(
        [kept, moved, unembeddable].map((event) => ({ op: 'append_event' as const, event, search_text: null })),
      );
      const claimed = await storage.service.claimEmbeddingWork(5, NOW, LEASE_END);
      await storage.service.completeEmbeddingWork(
        claimed.map((work) => ({ target: 'event' as const, tenant_id: 't1', id: work.id, vector: normalise([1, 2]) })),
        'test:old',
        NOW,
      );
      await storage.write([{ op: 'append_event', event: waiting, search_text: null }]);
      expect(await storage.service.embeddingBacklog()).toBe(1);
      expect(await storage.service.vectorModels()).toEqual([{ model: 'test:old', events: 2, chunks: 0 }]);
      const reindex = (event: { id: string }, model: string) => ({
        op: 'index_event' as const,
        tenant_id: 't1',
        event_id: event.id,
        search_text: 'words',
        embedding_model: model,
      });
      await storage.write([
        reindex(kept, 'test:old'),
        reindex(moved, 'test:new'),
        reindex(unembeddable, 'test:new'),
        reindex(waiting, 'test:new'),
        { op: 'index_event', tenant_id: 't1', event_id: kept.id, search_text: 'no model named' },
      ]);
      // The event with a vector of the model and the skipped one stay as they were; the pending one is counted once.
      expect(await storage.service.embeddingBacklog()).toBe(2);
      const again = await storage.service.claimEmbeddingWork(5, AFTER_LEASE, '2026-06-01T12:15:00.000Z');
      expect(sorted(again.map((work) => work.id))).toEqual(sorted([moved.id, waiting.id]));
      await storage.service.completeEmbeddingWork(
        again.map((work) => ({ target: 'event' as const, tenant_id: 't1', id: work.id, vector: normalise([2, 1]) })),
        'test:new',
        AFTER_LEASE,
      );
      await storage.write([reindex(moved, 'test:new')]);
      expect(await storage.service.embeddingBacklog()).toBe(0);
      // Each event's vector is the last one stored for it: the one embedded again is the new model's only.
      const ours = [
        { model: 'test:new', events: 2, chunks: 0 },
        { model: 'test:old', events: 1, chunks: 0 },
      ];
      expect(await storage.service.vectorModels()).toEqual(ours);
      // Another tenant's vectors count for the store, not for this tenant.
      const elsewhere = eventRecord({ tenant_id: 't2', content: 'another tenant' });
      await storage.write([{ op: 'append_event', event: elsewhere, search_text: null }]);
      const theirs = await storage.service.claimEmbeddingWork(5, AFTER_LEASE, '2026-06-01T12:15:00.000Z');
      expect(theirs.map((work) => work.id)).toEqual([elsewhere.id]);
      await storage.service.completeEmbeddingWork(
        [{ target: 'event', tenant_id: 't2', id: elsewhere.id, vector: normalise([1, 1]) }],
        'test:old',
        AFTER_LEASE,
      );
      expect(await storage.service.vectorModels('t1')).toEqual(ours);
      expect(await storage.service.vectorModels('t2')).toEqual([{ model: 'test:old', events: 1, chunks: 0 }]);
      expect(await storage.service.vectorModels()).toEqual([ours[0], { model: 'test:old', events: 2, chunks: 0 }]);
      expect((await storage.events.get('t1', moved.id, AFTER_LEASE))?.embedding_status).toBe('done');
      expect((await storage.events.get('t1', unembeddable.id, AFTER_LEASE))?.embedding_status).toBe('skipped');
    });

    it('returns the exact stored vectors of visible items only', async () => {
      const mine = item();
      const agents = agentItem();
      const old = item({ key: 'old', status: 'superseded', ended_at: T3 });
      const theirs = item({ user_id: 'u2' });
      const otherTenant = item({ tenant_id: 't2' });
      const records = [mine, agents, old, theirs, otherTenant];
      await storage.write(records.flatMap((record) => put(record)));
      const values = Object.fromEntries(
        records.map((record, index) => [record.id, [0.1 * (index + 1), -1 / 3, Math.PI, 1e-7]]),
      );
      await embed(values);
      const vectors = async (query: Partial<Omit<ItemQuery, 'cursor' | 'limit' | 'keys' | 'ids' | 'as_of'>>) => {
        const found = await storage.items.vectors({ tenant_id: 't1', owners: VISIBLE, ...query });
        return Object.fromEntries(found.map((entry) => [entry.item_id, Array.from(entry.vector)]));
      };
      const stored = (record: MemoryItem) => [record.id, Array.from(normalise(values[record.id]!))];
      expect(await vectors({ statuses: ['active'] })).toEqual(Object.fromEntries([stored(mine), stored(agents)]));
      expect(await vectors({})).toEqual(Object.fromEntries([stored(mine), stored(agents), stored(old)]));
      expect(await vectors({ active_at: T4 })).toEqual(Object.fromEntries([stored(mine), stored(agents)]));
      expect(await vectors({ owners: ['u:u2'] })).toEqual(Object.fromEntries([stored(theirs)]));
      expect(await vectors({ tenant_id: 't2' })).toEqual(Object.fromEntries([stored(otherTenant)]));
      expect(await vectors({ types: ['procedure'] })).toEqual(Object.fromEntries([stored(agents)]));
    });

    it('finds the visible item versions nearest to a vector by cosine similarity, best first', async () => {
      const close = item({ key: 'close' });
      const diagonal = item({ key: 'diagonal' });
      const procedure = agentItem();
      const opposite = item({ key: 'opposite' });
      const old = item({ key: 'old', status: 'superseded', ended_at: T3 });
      const threeDimensions = item({ key: 'three-dimensions' });
      const theirs = item({ user_id: 'u2', key: 'theirs' });
      const otherTenant = item({ tenant_id: 't2', key: 'other-tenant' });
      const space = new Map<MemoryItem, number[]>([
        [close, [1, 0.3, 0, 0]],
        [diagonal, [1, 1, 0.2, 0]],
        [procedure, [0.2, 1, 0, 0]],
        [opposite, [-1, 0.2, 0, 0.1]],
        [old, [1, 0.05, 0, 0]],
        [threeDimensions, [1, 0, 0]],
        [theirs, [1, 0, 0, 0]],
        [otherTenant, [1, 0, 0, 0]],
      ]);
      await storage.write([...space.keys()].flatMap((record) => put(record)));
      await embed(Object.fromEntries([...space].map(([record, vector]) => [record.id, vector])));
      const expectNearest = async (vector: number[], query: Partial<NearestItemsQuery>, expected: MemoryItem[]) => {
        const hits = await nearest(vector, query);
        expect(hits.map((hit) => hit.item_id)).toEqual(ids(expected));
        hits.forEach((hit, index) =>
          expect(hit.similarity).toBeCloseTo(dot(normalise(vector), normalise(space.get(expected[index]!)!)), 4),
        );
      };
      const query = [1, 0, 0, 0];
      await expectNearest(query, {}, [close, diagonal, procedure, opposite]);
      await expectNearest(query, { statuses: undefined, limit: 2 }, [old, close]);
      await expectNearest(query, { types: ['procedure'] }, [procedure]);
      await expectNearest(query, { owners: ['u:u2'] }, [theirs]);
      await expectNearest(query, { tenant_id: 't2' }, [otherTenant]);
      // Only vectors of the query's dimension are compared.
      await expectNearest([0, 1, 0], {}, [threeDimensions]);
    });
  });
}
