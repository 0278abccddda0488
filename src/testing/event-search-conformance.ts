// Full-text search of the event log in the storage conformance suite: words of any script scoped to a
// user, an agent or a session; weighing a word by its rarity in what a scope holds now or held then;
// time filters, syntax as plain words, reindexing and merging the index. Registered by
// describeStorageConformance.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { EventRecord, StorageAdapter } from '../index.js';
import { queryTerms, searchText } from '../util/segment.js';
import { appendEvent as append, eventRecord as event } from './event-record.js';
import { expectCode } from './expect-code.js';
import { item } from './item-records.js';
import type { ConformanceInitializer } from './conformance-initializer.js';

const NOW = '2026-06-01T12:00:00.000Z';
const key = { tenant_id: 't1', user_id: 'u1', agent_id: 'a1', session_id: 's1' };

/**
 * Registers the event search tests for one adapter.
 *
 * @example
 * describeEventSearchConformance('sqlite', init);
 */
export function describeEventSearchConformance(name: string, init: ConformanceInitializer): void {
  describe(`storage conformance: ${name}: event search`, () => {
    let storage: StorageAdapter;
    beforeEach(async () => {
      storage = await init.create();
    });
    afterEach(async () => {
      await init.destroy(storage);
    });

    it('merges its full-text indexes step by step, every search returning what it did before', async () => {
      // Each write adds index entries of its own (SQLite: a segment; PostgreSQL: GIN pending entries).
      for (let batch = 0; batch < 6; batch += 1) {
        await storage.write([
          append(event({ content: `plum batch${batch} first` })),
          append(event({ content: `plum batch${batch} second` })),
        ]);
        const record = item({ key: `fruit:${batch}` });
        await storage.write([
          { op: 'put_item', item: record },
          {
            op: 'put_chunk',
            tenant_id: 't1',
            item_id: record.id,
            owner: 'u:u1',
            text: `plum ${batch}`,
            search_text: searchText(`plum kind${batch}`),
            embedding_status: 'pending',
          },
        ]);
      }
      const reads = async () => ({
        events: (await storage.events.search({ ...key, terms: ['plum', 'batch3'], now: NOW, limit: 20 })).map((hit) => [
          hit.event.id,
          hit.score,
        ]),
        items: (
          await storage.items.search({
            tenant_id: 't1',
            owners: ['u:u1'],
            statuses: ['active'],
            terms: ['plum', 'kind4'],
            limit: 20,
          })
        ).map((hit) => [hit.item.id, hit.score]),
      });
      const before = await reads();
      expect(before.events).toHaveLength(12);
      expect(before.items).toHaveLength(6);
      if (init.mergesIndexes === false) {
        // An index every write leaves whole has nothing to merge (ConformanceInitializer.mergesIndexes).
        expect(await storage.maintenance.mergeIndexes(1)).toBe(false);
      } else {
        const steps: boolean[] = [];
        for (let step = 0; step < 100 && steps.at(-1) !== false; step += 1)
          steps.push(await storage.maintenance.mergeIndexes(1));
        expect(steps[0]).toBe(true);
        expect(steps.at(-1)).toBe(false);
      }
      expect(await reads()).toEqual(before);
      // Merged, a further step finds nothing to do.
      expect(await storage.maintenance.mergeIndexes(64)).toBe(false);
    });

    it('finds Chinese and English words, scoped to the user, best match first', async () => {
      await storage.write([
        append(event({ content: '我更喜欢用中文写技术文档。' })),
        append(event({ content: 'The release checklist lives in docs/release.md' })),
        append(event({ content: 'release notes for the spring release' })),
        append(event({ content: 'the release plan' })),
        append(event({ user_id: 'u2', content: '中文 for someone else' })),
      ]);
      const chinese = await storage.events.search({
        tenant_id: 't1',
        user_id: 'u1',
        terms: queryTerms('中文'),
        now: NOW,
        limit: 10,
      });
      expect(chinese.map((hit) => hit.event.content)).toEqual(['我更喜欢用中文写技术文档。']);
      const english = await storage.events.search({
        tenant_id: 't1',
        user_id: 'u1',
        terms: queryTerms('release checklist'),
        now: NOW,
        limit: 10,
      });
      expect(english).toHaveLength(3);
      expect(english[0]!.event.content).toBe('The release checklist lives in docs/release.md');
      expect(english[0]!.score).toBeGreaterThan(english[1]!.score);
      const limited = await storage.events.search({
        tenant_id: 't1',
        user_id: 'u1',
        terms: ['release'],
        now: NOW,
        limit: 2,
      });
      expect(limited).toHaveLength(2);
    });

    it('weighs a word by its rarity in the searched scope: one most of the scope holds counts little', async () => {
      await storage.write([
        append(event({ content: 'quince' })),
        ...Array.from({ length: 3 }, () => append(event({ content: 'pear tart' }))),
        append(event({ user_id: 'u2', content: 'someone else entirely' })),
      ]);
      const hits = await storage.events.search({ ...key, terms: ['pear', 'tart', 'quince'], now: NOW, limit: 10 });
      // In a nominal scope of thousands two words held by three events outweigh one held by one.
      expect(hits.map((hit) => hit.event.content)).toEqual(['quince', 'pear tart', 'pear tart', 'pear tart']);
    });

    it('weighs words by the events a scope holds now: purged and erased events no longer count', async () => {
      // u1 holds what u3 holds, and more that is then purged (expired) or erased (another session).
      const shared = (user_id: string) => [
        append(event({ user_id, content: 'quince' })),
        ...Array.from({ length: 3 }, () => append(event({ user_id, content: 'pear tart' }))),
        ...Array.from({ length: 3 }, () => append(event({ user_id, agent_id: 'a2', content: 'other agent' }))),
      ];
      await storage.write([
        ...shared('u1'),
        ...shared('u3'),
        ...Array.from({ length: 30 }, () =>
          append(event({ content: 'filler', expires_at: '2026-06-01T11:00:00.000Z' })),
        ),
        ...Array.from({ length: 30 }, () => append(event({ session_id: 's9', content: 'filler' }))),
      ]);
      const scores = (user_id: string, agent_id?: string) =>
        storage.events
          .search({
            tenant_id: 't1',
            user_id,
            ...(agent_id === undefined ? {} : { agent_id }),
            terms: ['pear', 'quince', 'other'],
            now: NOW,
            limit: 10,
          })
          .then((hits) => hits.map((hit) => [hit.event.content, hit.score]));
      expect(await scores('u1', 'a1')).not.toEqual(await scores('u3', 'a1'));
      expect(await storage.maintenance.purgeExpired(NOW)).toBe(30);
      await storage.maintenance.erase({ tenant_id: 't1', user_id: 'u1', session_id: 's9' });
      expect(await scores('u1', 'a1')).toEqual(await scores('u3', 'a1'));
      // A user-wide search asks every agent of the user, weighing words by all of their events.
      expect(await scores('u1')).toEqual(await scores('u3'));
      expect((await scores('u1')).map(([content]) => content)).toContain('other agent');
    });

    it("walks every event for reindexing and replaces an event's full-text entry, nothing else", async () => {
      const first = event({ content: 'damson jam' });
      const second = event({ content: 'greengage' });
      const other = event({ tenant_id: 't2', content: 'damson elsewhere' });
      await storage.write([first, second, other].map(append));
      const walk = async (tenantId: string | undefined, pageSize: number) => {
        const seen: string[] = [];
        for (let after: EventRecord | undefined; ;) {
          const page = await storage.events.forReindex(
            tenantId,
            after === undefined ? undefined : { tenant_id: after.tenant_id, id: after.id },
            pageSize,
          );
          if (page.length === 0) return seen;
          seen.push(...page.map((record) => `${record.tenant_id}/${record.id}`));
          after = page.at(-1);
        }
      };
      expect(await walk('t1', 1)).toEqual([first, second].map((record) => `t1/${record.id}`).sort());
      expect(await walk(undefined, 2)).toEqual([
        ...[first, second].map((record) => `t1/${record.id}`).sort(),
        `t2/${other.id}`,
      ]);
      const search = (terms: string[], tenant = 't1') =>
        storage.events
          .search({ ...key, tenant_id: tenant, terms, now: NOW, limit: 10 })
          .then((hits) => hits.map((hit) => hit.event.id));
      await storage.write([{ op: 'index_event', tenant_id: 't1', event_id: first.id, search_text: 'plum compote' }]);
      expect(await search(['damson'])).toEqual([]);
      expect(await search(['plum'])).toEqual([first.id]);
      expect(await search(['damson'], 't2')).toEqual([other.id]);
      expect((await storage.events.get('t1', first.id, NOW))!.content).toBe('damson jam');
      await storage.write([{ op: 'index_event', tenant_id: 't1', event_id: first.id, search_text: null }]);
      expect(await search(['plum'])).toEqual([]);
      // An event of another tenant is not found, and the batch it was in writes nothing.
      await expectCode(
        storage.write([
          { op: 'index_event', tenant_id: 't1', event_id: second.id, search_text: 'mirabelle' },
          { op: 'index_event', tenant_id: 't1', event_id: other.id, search_text: 'x' },
        ]),
        'NOT_FOUND',
      );
      expect(await search(['mirabelle'])).toEqual([]);
      expect(await search(['greengage'])).toEqual([second.id]);
    });

    it("searches one session, one agent, or all of a user's agents", async () => {
      await storage.write([
        append(event({ content: 'mango in session one' })),
        append(event({ session_id: 's2', content: 'mango in session two' })),
        append(event({ agent_id: 'a2', content: 'mango with another agent' })),
      ]);
      const search = (scope: object) =>
        storage.events
          .search({ tenant_id: 't1', user_id: 'u1', terms: ['mango'], now: NOW, limit: 10, ...scope })
          .then((hits) => hits.map((hit) => hit.event.content).sort());
      expect(await search({ agent_id: 'a1', session_id: 's1' })).toEqual(['mango in session one']);
      expect(await search({ agent_id: 'a1' })).toEqual(['mango in session one', 'mango in session two']);
      expect(await search({})).toEqual(['mango in session one', 'mango in session two', 'mango with another agent']);
    });

    it('treats full-text syntax in query terms as plain words', async () => {
      await storage.write([append(event({ content: 'plain words only' }))]);
      for (const terms of [
        ['"'],
        ['AND'],
        ['*'],
        ['NEAR(', ')'],
        ['col:umn'],
        ["'; DROP TABLE events; --"],
        ['^', '-', '+'],
        ['two words'],
        ['é̈'],
        ["it's"],
      ]) {
        await expect(storage.events.search({ ...key, terms, now: NOW, limit: 5 })).resolves.toBeInstanceOf(Array);
      }
      expect(await storage.events.search({ ...key, terms: [], now: NOW, limit: 5 })).toEqual([]);
      expect(await storage.events.list({ ...key, now: NOW, limit: 5 })).toHaveLength(1);
    });

    it('filters reads by recorded time (as of) and by event time', async () => {
      await storage.write([
        append(
          event({ content: 'kiwi early', ts: '2026-01-01T00:00:00.000Z', recorded_at: '2026-05-01T00:00:00.000Z' }),
        ),
        append(
          event({ content: 'kiwi late', ts: '2026-03-01T00:00:00.000Z', recorded_at: '2026-05-03T00:00:00.000Z' }),
        ),
      ]);
      const asOf = await storage.events.list({ ...key, now: NOW, as_of: '2026-05-02T00:00:00.000Z', limit: 10 });
      expect(asOf.map((e) => e.content)).toEqual(['kiwi early']);
      const ranged = await storage.events.search({
        ...key,
        terms: ['kiwi'],
        now: NOW,
        ts_from: '2026-02-01T00:00:00.000Z',
        limit: 10,
      });
      expect(ranged.map((hit) => hit.event.content)).toEqual(['kiwi late']);
    });

    it('ranks a search as of a past time by what the index held then, whatever was recorded since', async () => {
      const then = '2026-05-01T00:00:00.000Z';
      await storage.write([
        append(event({ content: 'walrus on the ice', recorded_at: then })),
        ...Array.from({ length: 2 }, (_, index) => append(event({ content: `pelican ${index}`, recorded_at: then }))),
      ]);
      const search = (asOf?: string) =>
        storage.events
          .search({
            ...key,
            terms: ['walrus', 'pelican'],
            now: NOW,
            limit: 10,
            ...(asOf === undefined ? {} : { as_of: asOf }),
          })
          .then((hits) => hits.map((hit) => [hit.event.content, hit.score]));
      const before = await search();
      expect(before[0]![0]).toBe('walrus on the ice');
      // Later, the rarer word becomes the common one, in more events than a word's candidates.
      await storage.write(
        Array.from({ length: 230 }, (_, index) =>
          append(event({ content: `walrus ${index}`, recorded_at: '2026-05-03T00:00:00.000Z' })),
        ),
      );
      expect((await search())[0]![0]).not.toBe('walrus on the ice');
      expect(await search('2026-05-02T00:00:00.000Z')).toEqual(before);
    });

    it('fills a search limit from lower-ranked matches when filters reject the best ones', async () => {
      // The best 40 matches are outside the time range: the store must read past them.
      const late = Array.from({ length: 40 }, (_, index) =>
        append(event({ content: `fig fig harvest ${index}`, ts: '2026-04-01T00:00:00.000Z' })),
      );
      const early = Array.from({ length: 5 }, (_, index) =>
        append(event({ content: `fig ${index}`, ts: '2026-01-01T00:00:00.000Z' })),
      );
      await storage.write([...early, ...late]);
      const hits = await storage.events.search({
        ...key,
        terms: ['fig', 'harvest'],
        now: NOW,
        ts_to: '2026-02-01T00:00:00.000Z',
        limit: 3,
      });
      expect(hits).toHaveLength(3);
      expect(hits.every((hit) => /^fig \d$/.test(String(hit.event.content)))).toBe(true);
    });

    it('does not index events written without search text', async () => {
      await storage.write([append(event({ content: 'classified plum', sensitivity: 'secret' }))]);
      expect(await storage.events.search({ ...key, terms: ['plum'], now: NOW, limit: 5 })).toEqual([]);
    });
  });
}
