// Full-text search of long-term items in the storage conformance suite: the words of an item's chunk,
// scoped to owners and tenant, ranked as of a past time, with filters; a chunk replaced or removed,
// and the item index cleared and rebuilt. Registered by describeStorageConformance.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { StorageAdapter } from '../index.js';
import type { ItemSearchQuery } from '../spec/storage.js';
import { queryTerms } from '../util/segment.js';
import { agentItem, chunk, embedQueued, ids, item, put, sorted, VISIBLE } from './item-records.js';
import type { ConformanceInitializer } from './conformance-initializer.js';

const T1 = '2026-06-01T10:00:00.000Z';
const T2 = '2026-06-01T10:30:00.000Z';
const T3 = '2026-06-01T11:00:00.000Z';
const NOW = '2026-06-01T12:00:00.000Z';
const LEASE_END = '2026-06-01T12:05:00.000Z';

/**
 * Registers the item search tests for one adapter.
 *
 * @example
 * describeItemSearchConformance('sqlite', init);
 */
export function describeItemSearchConformance(name: string, init: ConformanceInitializer): void {
  describe(`storage conformance: ${name}: item search`, () => {
    let storage: StorageAdapter;
    beforeEach(async () => {
      storage = await init.create();
    });
    afterEach(async () => {
      await init.destroy(storage);
    });

    const search = (terms: string[], query: Partial<ItemSearchQuery> = {}) =>
      storage.items
        .search({ tenant_id: 't1', owners: VISIBLE, terms, limit: 10, ...query })
        .then((hits) => hits.map((hit) => hit.item.id));
    const embed = (vectors: Record<string, number[]>) => embedQueued(storage, vectors, NOW, LEASE_END);

    it('finds items by the words of their chunk, scoped to owners and tenant, the item matching more words first', async () => {
      const both = item({ key: 'checklist' });
      const notes = item({ key: 'notes' });
      const plan = agentItem();
      const theirs = item({ user_id: 'u2' });
      const otherTenant = item({ tenant_id: 't2' });
      await storage.write([
        ...put(both, 'The release checklist lives in docs'),
        ...put(notes, 'release notes for the spring'),
        ...put(plan, 'the release plan'),
        ...put(theirs, 'release checklist of someone else'),
        ...put(otherTenant, 'release checklist elsewhere'),
      ]);
      const hits = await storage.items.search({
        tenant_id: 't1',
        owners: VISIBLE,
        terms: queryTerms('release checklist'),
        limit: 10,
      });
      expect(hits.map((hit) => hit.item.id)[0]).toBe(both.id);
      expect(sorted(hits.slice(1).map((hit) => hit.item.id))).toEqual(sorted([notes.id, plan.id]));
      expect(hits[0]!.item).toEqual(both);
      expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
      expect(await search(queryTerms('release checklist'), { limit: 1 })).toEqual([both.id]);
      expect(sorted(await search(['release'], { owners: ['u:u1'] }))).toEqual(sorted([both.id, notes.id]));
      expect(await search(['release'], { owners: ['u:u2'] })).toEqual([theirs.id]);
      expect(await search(['release'], { tenant_id: 't2', owners: ['u:u1'] })).toEqual([otherTenant.id]);
      expect(await search(['release'], { owners: [] })).toEqual([]);
      expect(await search([])).toEqual([]);
    });

    it('ranks a search of items current at a past time by the chunks recorded by then', async () => {
      const walrus = item({ key: 'pet' });
      const pelicans = [item({ key: 'bird' }), item({ key: 'logo' })];
      // Chunks of equal length: only the rarity of their words sets them apart.
      await storage.write([
        ...put(walrus, 'walrus ice'),
        ...put(pelicans[0]!, 'pelican one'),
        ...put(pelicans[1]!, 'pelican two'),
      ]);
      const scored = (query: Partial<ItemSearchQuery> = {}) =>
        storage.items
          .search({ tenant_id: 't1', owners: VISIBLE, terms: ['walrus', 'pelican'], limit: 10, ...query })
          .then((hits) => hits.map((hit) => [hit.item.id, hit.score]));
      const before = await scored();
      expect(before[0]![0]).toBe(walrus.id);
      // Later, the rarer word becomes the common one, in more chunks than a word's candidates.
      await storage.write(
        Array.from({ length: 230 }, (_, index) =>
          put(item({ key: `walrus_${index}`, recorded_at: T3, updated_at: T3 }), `walrus ${index}`),
        ).flat(),
      );
      expect((await scored())[0]![0]).not.toBe(walrus.id);
      expect(await scored({ active_at: T2 })).toEqual(before);
    });

    it('finds Chinese words', async () => {
      const chinese = item({ key: 'writing' });
      await storage.write([
        ...put(chinese, '我更喜欢用中文写技术文档。'),
        ...put(item({ key: 'english' }), 'technical documents in English'),
      ]);
      expect(await search(queryTerms('中文'))).toEqual([chinese.id]);
      expect(await search(queryTerms('技术文档'))).toEqual([chinese.id]);
    });

    it('treats full-text and SQL syntax in search terms as plain words', async () => {
      const fox = item();
      await storage.write(put(fox, "the quick or slow fox, don't snake_case"));
      // A wildcard, a prefix, an operator or a quote is a word no chunk has, never a pattern.
      for (const terms of [
        ['qui*'],
        ['%'],
        ['_'],
        ['"'],
        ["'"],
        ['\\'],
        ['near('],
        ['col:umn'],
        ["'; drop table memory_items; --"],
      ]) {
        expect(await search(terms)).toEqual([]);
      }
      for (const terms of [['x" or "1"="1'], ['fox OR'], ['"fox"'], ['fox', 'AND', 'NOT'], ['é̈']]) {
        await expect(search(terms)).resolves.toBeInstanceOf(Array);
      }
      // A word the index would split in two (col:umn) matches nothing, and the other words still count.
      for (const terms of [
        ['or'],
        ['snake_case'],
        ["don't"],
        ['fox', ';--', 'near(', '%', '\\'],
        ['col:umn', 'fox'],
        ['fox', 'e-mail'],
      ]) {
        expect(await search(terms)).toEqual([fox.id]);
      }
      expect(await storage.items.get('t1', fox.id)).toEqual(fox);
    });

    it('replaces an item chunk, and removes it when its text is null', async () => {
      const fruit = item();
      await storage.write(put(fruit, 'apple'));
      await storage.write([chunk(fruit, 'banana')]);
      expect(await search(['apple'])).toEqual([]);
      expect(await search(['banana'])).toEqual([fruit.id]);
      expect(await storage.service.embeddingBacklog()).toBe(1);
      await storage.write([chunk(fruit, null)]);
      expect(await search(['banana'])).toEqual([]);
      expect(await storage.service.embeddingBacklog()).toBe(0);
      expect(await storage.items.get('t1', fruit.id)).toEqual(fruit);
    });

    it('applies status, type and time filters to search', async () => {
      const old = item({ recorded_at: T1, status: 'superseded', ended_at: T3 });
      const current = item({ version: 2, supersedes: old.id, recorded_at: T3 });
      const procedure = agentItem({ key: 'procedure:fig:pick' });
      await storage.write([...put(old, 'fig jam'), ...put(current, 'fig tart'), ...put(procedure, 'pick a fig')]);
      expect(sorted(await search(['fig']))).toEqual(sorted([old.id, current.id, procedure.id]));
      expect(sorted(await search(['fig'], { statuses: ['active'] }))).toEqual(sorted([current.id, procedure.id]));
      expect(await search(['fig'], { statuses: ['superseded'] })).toEqual([old.id]);
      expect(await search(['fig'], { types: ['procedure'] })).toEqual([procedure.id]);
      expect(sorted(await search(['fig'], { active_at: T2 }))).toEqual(sorted([old.id, procedure.id]));
    });

    it('fills a search limit from lower-ranked matches when filters reject the best ones', async () => {
      // The best 40 matches (both words) are superseded: the store must read past them.
      const stale = Array.from({ length: 40 }, (_, index) =>
        put(item({ key: `stale-${index}`, status: 'superseded', ended_at: T2 }), 'fig harvest'),
      );
      const live = Array.from({ length: 5 }, (_, index) => item({ key: `live-${index}` }));
      await storage.write([...stale.flat(), ...live.flatMap((record) => put(record, 'fig'))]);
      const hits = await search(['fig', 'harvest'], { statuses: ['active'], limit: 3 });
      expect(hits).toHaveLength(3);
      expect(hits.every((id) => ids(live).includes(id))).toBe(true);
    });

    it('clears the item index of one tenant or of all, and lists every version to rebuild it', async () => {
      const v1 = item({ status: 'superseded', ended_at: T3 });
      const v2 = item({ version: 2, supersedes: v1.id, recorded_at: T3 });
      const theirs = item({ tenant_id: 't2' });
      await storage.write([...put(v1, 'plum'), ...put(v2, 'plum'), ...put(theirs, 'plum')]);
      await embed({ [v2.id]: [1, 0], [theirs.id]: [0, 1] });
      await storage.items.clearIndex('t1');
      expect(await search(['plum'])).toEqual([]);
      expect(await storage.items.vectors({ tenant_id: 't1', owners: VISIBLE })).toEqual([]);
      expect(await search(['plum'], { tenant_id: 't2' })).toEqual([theirs.id]);
      expect((await storage.items.vectors({ tenant_id: 't2', owners: VISIBLE })).map((entry) => entry.item_id)).toEqual(
        [theirs.id],
      );
      // The items stay; rebuilding their chunks makes them searchable again.
      const versions = await storage.items.forReindex('t1');
      expect(sorted(ids(versions))).toEqual(sorted([v1.id, v2.id]));
      expect(versions.find((version) => version.id === v1.id)).toEqual(v1);
      await storage.write(versions.map((version) => chunk(version, 'plum')));
      expect(sorted(await search(['plum']))).toEqual(sorted([v1.id, v2.id]));
      await storage.items.clearIndex(undefined);
      expect(await search(['plum'])).toEqual([]);
      expect(await search(['plum'], { tenant_id: 't2' })).toEqual([]);
      expect(await storage.service.embeddingBacklog()).toBe(0);
      expect(sorted(ids(await storage.items.forReindex(undefined)))).toEqual(sorted([v1.id, v2.id, theirs.id]));
    });
  });
}
