// Repeated searches and reads in the storage conformance suite: a search or an item read asked again
// after a write sees the store as it is then, whatever an adapter keeps between them: new events and
// chunks, a chunk replaced, an item's status or token count changed, an item deleted, expired events
// purged (their words no longer count), an erasure; and what a caller does to a record it was given
// does not change what the next read gives.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { StorageAdapter } from '../index.js';
import { ownerOf, type MemoryItem } from '../spec/items.js';
import { storedTextTokens } from '../spec/text-tokens.js';
import { searchText } from '../util/segment.js';
import { appendEvent as append, eventRecord as event } from './event-record.js';
import { item } from './item-conformance.js';
import type { ConformanceInitializer } from './conformance-initializer.js';

const NOW = '2026-06-01T12:00:00.000Z';
const user = { tenant_id: 't1', user_id: 'u1', agent_id: 'a1' };

/** The chunk of an item with `text` as its words. */
function chunk(record: MemoryItem, text: string) {
  return {
    op: 'put_chunk' as const,
    tenant_id: 't1',
    item_id: record.id,
    owner: ownerOf(record.scope_level, record.user_id, record.agent_id),
    text,
    search_text: searchText(text),
    embedding_status: 'skipped' as const,
  };
}

/**
 * Registers the repeated-search tests for one adapter.
 *
 * @example
 * describeSearchFreshnessConformance('sqlite', init);
 */
export function describeSearchFreshnessConformance(name: string, init: ConformanceInitializer): void {
  describe(`repeated search conformance: ${name}`, () => {
    let storage: StorageAdapter;
    beforeEach(async () => {
      storage = await init.create();
    });
    afterEach(() => init.destroy(storage));

    const events = (terms: string[]) =>
      storage.events
        .search({ ...user, terms, now: NOW, limit: 10 })
        .then((hits) => hits.map((hit) => [hit.event.content, hit.score]));
    const items = (terms: string[]) =>
      storage.items
        .search({ tenant_id: 't1', owners: ['u:u1', 'a:a1', 't'], statuses: ['active'], terms, limit: 10 })
        .then((hits) => hits.map((hit) => hit.item.key));

    it('sees events appended and purged between two searches, their words counted as they are then', async () => {
      await storage.write([append(event({ content: 'walnut pecan' })), append(event({ content: 'walnut bread' }))]);
      const first = await events(['walnut', 'pecan']);
      expect(first.map(([content]) => content)).toEqual(['walnut pecan', 'walnut bread']);

      // Searched as of a time before it expires, the new event is found and its words count.
      await storage.write([append(event({ content: 'pecan pie', expires_at: '2026-06-01T12:30:00.000Z' }))]);
      const second = await events(['walnut', 'pecan']);
      expect(second.map(([content]) => content)).toEqual(['walnut pecan', 'pecan pie', 'walnut bread']);
      expect(second[0]![1]).not.toBe(first[0]![1]);

      expect(await storage.maintenance.purgeExpired('2026-06-01T13:00:00.000Z')).toBe(1);
      // With the expired event gone, the words weigh what they weighed before it came.
      expect(await events(['walnut', 'pecan'])).toEqual(first);

      // The same after a session of the user is erased.
      await storage.write([append(event({ content: 'pecan brittle', session_id: 's2' }))]);
      expect(await events(['walnut', 'pecan'])).not.toEqual(first);
      await storage.maintenance.erase({ tenant_id: 't1', user_id: 'u1', session_id: 's2' });
      expect(await events(['walnut', 'pecan'])).toEqual(first);
    });

    it('sees chunks written, replaced and deleted between two searches, and nothing after an erasure', async () => {
      const jam = item({ key: 'jam' });
      await storage.write([{ op: 'put_item', item: jam }, chunk(jam, 'apricot jam')]);
      expect(await items(['apricot'])).toEqual(['jam']);

      const tart = item({ key: 'tart' });
      await storage.write([{ op: 'put_item', item: tart }, chunk(tart, 'apricot tart'), chunk(jam, 'plum jam')]);
      expect(await items(['apricot'])).toEqual(['tart']);
      expect(await items(['plum'])).toEqual(['jam']);

      await storage.write([{ op: 'delete_item', tenant_id: 't1', item_id: tart.id }]);
      expect(await items(['apricot'])).toEqual([]);

      await storage.write([append(event({ content: 'plum harvest' }))]);
      expect(await events(['plum'])).toHaveLength(1);
      await storage.maintenance.erase({ tenant_id: 't1', user_id: 'u1' });
      expect(await items(['plum'])).toEqual([]);
      expect(await events(['plum'])).toEqual([]);
    });

    const listed = (statuses: MemoryItem['status'][] = ['active']) =>
      storage.items
        .list({ tenant_id: 't1', owners: ['u:u1', 'a:a1', 't'], statuses, order: 'desc', limit: 10 })
        .then((found) => found.map((record) => `${record.key}:${record.status}`));

    it('reads item versions as their rows are now: after a status change, a token count, a deletion and an erasure', async () => {
      const tea = item({ key: 'tea' });
      const cup = item({ key: 'cup' });
      await storage.write([{ op: 'put_item', item: tea }, chunk(tea, 'oolong tea'), { op: 'put_item', item: cup }]);
      const found = () =>
        storage.items
          .search({
            tenant_id: 't1',
            owners: ['u:u1'],
            statuses: ['active', 'superseded'],
            terms: ['oolong'],
            limit: 5,
          })
          .then((hits) => hits.map((hit) => hit.item.status));
      expect(await listed()).toEqual(['cup:active', 'tea:active']);
      expect((await storage.items.get('t1', tea.id))?.status).toBe('active');
      expect(await found()).toEqual(['active']);

      await storage.write([
        {
          op: 'set_item_status',
          tenant_id: 't1',
          item_id: tea.id,
          expected_status: 'active',
          status: 'superseded',
          ended_at: NOW,
          updated_at: NOW,
        },
      ]);
      expect(await listed()).toEqual(['cup:active']);
      expect(await listed(['active', 'superseded'])).toEqual(['cup:active', 'tea:superseded']);
      expect(await storage.items.get('t1', tea.id)).toMatchObject({
        status: 'superseded',
        ended_at: NOW,
        updated_at: NOW,
      });
      expect(await found()).toEqual(['superseded']);

      await storage.write([{ op: 'put_text_tokens', tenant_id: 't1', target: 'item', id: cup.id, text_tokens: 7 }]);
      expect(storedTextTokens((await storage.items.get('t1', cup.id))!)).toBe(7);
      await storage.write([{ op: 'put_text_tokens', tenant_id: 't1', target: 'item', id: cup.id, text_tokens: 9 }]);
      const [listedCup] = await storage.items.list({
        tenant_id: 't1',
        owners: ['u:u1'],
        statuses: ['active'],
        limit: 1,
      });
      expect(storedTextTokens(listedCup!)).toBe(9);

      await storage.write([{ op: 'delete_item', tenant_id: 't1', item_id: cup.id }]);
      expect(await storage.items.get('t1', cup.id)).toBeNull();
      expect(await listed(['active', 'superseded'])).toEqual(['tea:superseded']);

      await storage.maintenance.erase({ tenant_id: 't1', user_id: 'u1' });
      expect(await storage.items.get('t1', tea.id)).toBeNull();
      expect(await listed(['active', 'superseded'])).toEqual([]);
    });

    it('gives the next read the item as stored, whatever a caller did to the one it was given', async () => {
      const tea = item({ key: 'tea', value: { name: 'sencha', notes: { origin: 'shizuoka' } }, tags: ['green'] });
      await storage.write([{ op: 'put_item', item: tea }]);
      const stored = structuredClone(await storage.items.get('t1', tea.id));
      const [given] = await storage.items.list({ tenant_id: 't1', owners: ['u:u1'], statuses: ['active'], limit: 1 });
      const changes = [
        () => ((given!.value['notes'] as Record<string, unknown>)['origin'] = 'uji'),
        () => (given!.value['name'] = 'matcha'),
        () => given!.tags.push('black'),
        () => (given!.status = 'retracted'),
      ];
      // An adapter may give read-only records (a change then throws) or records of the caller's own.
      for (const change of changes) {
        try {
          change();
        } catch (error) {
          expect(error).toBeInstanceOf(TypeError);
        }
      }
      expect(await storage.items.get('t1', tea.id)).toEqual(stored);
      expect(await storage.items.list({ tenant_id: 't1', owners: ['u:u1'], statuses: ['active'], limit: 1 })).toEqual([
        stored,
      ]);
    });
  });
}
