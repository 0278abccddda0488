// The behaviour every EngramStore shows whatever reaches Engram (the library, or the HTTP client):
// each BaseStore operation through the base class of the real @langchain/langgraph-checkpoint.

import { BaseStore, InvalidNamespaceError } from '@langchain/langgraph-checkpoint';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { Engram } from '../src/index.js';
import type { EngramStore } from '../src/integrations/langgraph/index.js';

export interface StoreUnderTest {
  store: EngramStore;
  /** The Engram behind the store, for looking at what it holds. */
  engram: Engram;
  /** Moves Engram's clock on. */
  advance(ms: number): void;
  destroy(): Promise<void>;
}

const VALUE = {
  text: 'Mira likes ramen, 拉面 and spicy food',
  rating: 5,
  ratio: 0.25,
  nothing: null,
  flags: [true, false, null],
  nested: { deep: { list: [{ a: 1 }, 'two', [3]] }, empty: {} },
  empty: [],
};

/**
 * Runs the store's behaviour tests against stores `create` opens.
 *
 * @example
 * storeConformance('library', async () => ({ store, engram, advance, destroy }));
 */
export function storeConformance(name: string, create: () => Promise<StoreUnderTest>): void {
  describe(`EngramStore (${name})`, () => {
    let t: StoreUnderTest;
    beforeEach(async () => {
      t = await create();
    });
    afterEach(async () => {
      await t.destroy();
    });

    it('is a BaseStore of the real package', () => {
      expect(t.store).toBeInstanceOf(BaseStore);
    });

    it('puts and gets a value exactly, under keys and labels with any characters', async () => {
      const key = 'food: the 100% best.choice';
      await t.store.put(['mira', 'memories', 'meals'], key, VALUE);
      const item = await t.store.get(['mira', 'memories', 'meals'], key);
      expect(item).toMatchObject({ namespace: ['mira', 'memories', 'meals'], key });
      expect(item!.value).toStrictEqual(VALUE);
      expect(item!.createdAt).toBeInstanceOf(Date);
      expect(item!.updatedAt.getTime()).toBe(item!.createdAt.getTime());
      expect(await t.store.get(['mira', 'memories'], key)).toBeNull();
      expect(await t.store.get(['ana', 'memories', 'meals'], key)).toBeNull();
    });

    it('replaces a value whole on a second put and keeps when it was created', async () => {
      await t.store.put(['mira', 'memories'], 'food', { likes: 'ramen', dislikes: 'olives' });
      const first = await t.store.get(['mira', 'memories'], 'food');
      t.advance(60_000);
      await t.store.put(['mira', 'memories'], 'food', { likes: 'pho' });
      const second = await t.store.get(['mira', 'memories'], 'food');
      expect(second!.value).toStrictEqual({ likes: 'pho' });
      expect(second!.createdAt.getTime()).toBe(first!.createdAt.getTime());
      expect(second!.updatedAt.getTime()).toBe(first!.updatedAt.getTime() + 60_000);
      const versions = await t.engram.items.history({
        scope: { user_id: 'mira' },
        key: 'profile:langgraph.memories.food',
      });
      expect(versions.map((version) => version.status)).toEqual(['superseded', 'active']);
    });

    it('deletes an item, keeping its history in Engram, and can put it again', async () => {
      await t.store.put(['mira', 'memories'], 'food', { likes: 'ramen' });
      await t.store.delete(['mira', 'memories'], 'food');
      await t.store.delete(['mira', 'memories'], 'never-written');
      expect(await t.store.get(['mira', 'memories'], 'food')).toBeNull();
      expect(await t.store.search(['mira'])).toEqual([]);
      const versions = await t.engram.items.history({
        scope: { user_id: 'mira' },
        key: 'profile:langgraph.memories.food',
      });
      expect(versions.map((version) => version.status)).toEqual(['retracted']);
      t.advance(1000);
      await t.store.put(['mira', 'memories'], 'food', { likes: 'udon' });
      expect((await t.store.get(['mira', 'memories'], 'food'))!.value).toStrictEqual({ likes: 'udon' });
    });

    it('lists a namespace prefix without a query, newest first, filtered and paged', async () => {
      await t.store.put(['mira', 'memories'], 'food', { kind: 'taste', rating: 5, tags: ['a'] });
      t.advance(1000);
      await t.store.put(['mira', 'memories', 'travel'], 'seat', { kind: 'taste', rating: 3 });
      t.advance(1000);
      await t.store.put(['mira', 'notes'], 'todo', { kind: 'note', rating: 1 });
      await t.store.put(['ana', 'memories'], 'food', { kind: 'taste', rating: 4 });

      const all = await t.store.search(['mira']);
      expect(all.map((item) => item.key)).toEqual(['todo', 'seat', 'food']);
      expect(all.every((item) => item.score === undefined)).toBe(true);
      expect((await t.store.search(['mira', 'memories'])).map((item) => item.key)).toEqual(['seat', 'food']);
      expect((await t.store.search(['mira'], { filter: { kind: 'taste' } })).map((item) => item.key)).toEqual([
        'seat',
        'food',
      ]);
      expect(
        (await t.store.search(['mira'], { filter: { rating: { $gte: 3 }, kind: { $ne: 'note' } } })).map(
          (item) => item.key,
        ),
      ).toEqual(['seat', 'food']);
      expect((await t.store.search(['mira'], { filter: { rating: { $in: [1, 5] } } })).map((item) => item.key)).toEqual(
        ['todo', 'food'],
      );
      expect((await t.store.search(['mira'], { filter: { tags: ['a'] } })).map((item) => item.key)).toEqual(['food']);
      expect((await t.store.search(['mira'], { limit: 1, offset: 1 })).map((item) => item.key)).toEqual(['seat']);
      expect((await t.store.search([])).map((item) => item.namespace[0]).sort()).toEqual([
        'ana',
        'mira',
        'mira',
        'mira',
      ]);
      expect(
        (await t.store.search(['*', 'memories'])).map((item) => `${item.namespace[0]}/${item.key}`).sort(),
      ).toEqual(['ana/food', 'mira/food', 'mira/seat']);
    });

    it('searches with a query through Engram hybrid search, best match first', async () => {
      await t.store.put(['mira', 'memories'], 'food', { text: 'Mira loves spicy ramen' });
      await t.store.put(['mira', 'memories'], 'travel', { text: 'Mira prefers an aisle seat on flights' });
      await t.store.put(['mira', 'notes'], 'ramen-shop', { text: 'The ramen shop closes at nine' });
      const hits = await t.store.search(['mira', 'memories'], { query: 'ramen' });
      expect(hits.map((item) => item.key)).toEqual(['food']);
      expect(hits[0]!.score).toBeGreaterThan(0);
      const everywhere = await t.store.search(['mira'], { query: 'ramen', limit: 5 });
      expect(everywhere.map((item) => item.key).sort()).toEqual(['food', 'ramen-shop']);
      expect(
        await t.store.search(['mira'], { query: 'ramen', filter: { text: 'The ramen shop closes at nine' } }),
      ).toHaveLength(1);
    });

    it('lists namespaces by prefix, suffix, wildcard and depth, paged', async () => {
      await t.store.put(['mira', 'memories'], 'a', { v: 1 });
      await t.store.put(['mira', 'memories', 'travel'], 'b', { v: 2 });
      await t.store.put(['mira', 'notes'], 'c', { v: 3 });
      await t.store.put(['ana', 'memories'], 'd', { v: 4 });
      expect(await t.store.listNamespaces()).toEqual([
        ['ana', 'memories'],
        ['mira', 'memories'],
        ['mira', 'memories', 'travel'],
        ['mira', 'notes'],
      ]);
      expect(await t.store.listNamespaces({ prefix: ['mira'] })).toEqual([
        ['mira', 'memories'],
        ['mira', 'memories', 'travel'],
        ['mira', 'notes'],
      ]);
      expect(await t.store.listNamespaces({ suffix: ['memories'] })).toEqual([
        ['ana', 'memories'],
        ['mira', 'memories'],
      ]);
      expect(await t.store.listNamespaces({ prefix: ['*', 'memories'], maxDepth: 2 })).toEqual([
        ['ana', 'memories'],
        ['mira', 'memories'],
      ]);
      expect(await t.store.listNamespaces({ prefix: ['mira'], limit: 1, offset: 1 })).toEqual([
        ['mira', 'memories', 'travel'],
      ]);
    });

    it('runs a batch in order, one result per operation', async () => {
      const results = await t.store.batch([
        { namespace: ['mira', 'memories'], key: 'food', value: { likes: 'ramen' } },
        { namespace: ['mira', 'memories'], key: 'food' },
        { namespacePrefix: ['mira'], limit: 10, offset: 0 },
        { matchConditions: [{ matchType: 'prefix', path: ['mira'] }], limit: 10, offset: 0 },
        { namespace: ['mira', 'memories'], key: 'food', value: null },
        { namespace: ['mira', 'memories'], key: 'food' },
      ] as const);
      expect(results[0]).toBeUndefined();
      expect(results[1]!.value).toStrictEqual({ likes: 'ramen' });
      expect(results[2].map((item) => item.key)).toEqual(['food']);
      expect(results[3]).toEqual([['mira', 'memories']]);
      expect(results[5]).toBeNull();
    });

    it('keeps items as Engram memory that compose shows, and leaves other profile items out of the store', async () => {
      await t.engram.commitTurn({
        scope: { user_id: 'mira', agent_id: 'assistant', session_id: 's1', run_id: 'r1' },
        turn_id: 't1',
        messages: [{ role: 'user', content: 'I live in Lisbon.' }],
      });
      await t.store.put(['mira', 'memories'], 'food', { likes: 'spicy ramen' });
      const items = await t.engram.items.list({ scope: { user_id: 'mira' }, types: ['profile'] });
      expect(items.map((item) => item.key).sort()).toEqual(['profile:langgraph.memories.food', 'profile:user']);
      expect(await t.store.listNamespaces()).toEqual([['mira', 'memories']]);
      const { text, packet } = await t.store.compose({
        userId: 'mira',
        sessionId: 's2',
        runId: 'r2',
        query: 'what food does mira like?',
      });
      expect(text).toContain('spicy ramen');
      expect(packet.meta.purpose).toBe('responder');
    });

    it('refuses a namespace LangGraph does not allow', async () => {
      await expect(t.store.put(['mira', 'a.b'], 'k', { v: 1 })).rejects.toBeInstanceOf(InvalidNamespaceError);
      await expect(t.store.put([], 'k', { v: 1 })).rejects.toBeInstanceOf(InvalidNamespaceError);
    });
  });
}
