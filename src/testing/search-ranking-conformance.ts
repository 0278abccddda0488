// Full-text ranking in the storage conformance suite: every adapter ranks events and item chunks by
// BM25 with the same numbers — a word said more often counts more, with diminishing returns, and a
// long row counts a match for less than a short one — now, after reindexing, and as of a past time.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { StorageAdapter, WriteOp } from '../index.js';
import { rankBm25 } from '../util/bm25.js';
import { readTermStats, termKey, termStats } from '../util/bm25-stats.js';
import { searchText } from '../util/segment.js';
import { appendEvent, eventRecord } from './event-record.js';
import { item } from './item-conformance.js';
import type { ConformanceInitializer } from './conformance-initializer.js';

const NOW = '2026-06-01T12:00:00.000Z';
const key = { tenant_id: 't1', user_id: 'u1', agent_id: 'a1', session_id: 's1' };

/** A long assistant turn: the query words once, among hundreds of others. */
function longTurn(words: readonly string[]): string {
  const filler = Array.from({ length: 400 }, (_, index) => `topic${index % 97} detail${index % 89}`);
  filler.splice(150, 0, ...words);
  return filler.join(' ');
}

/**
 * Registers the ranking tests for one adapter.
 *
 * @example
 * describeSearchRankingConformance('sqlite', init);
 */
export function describeSearchRankingConformance(name: string, init: ConformanceInitializer): void {
  describe(`search ranking conformance: ${name}`, () => {
    let storage: StorageAdapter;
    beforeEach(async () => {
      storage = await init.create();
    });
    afterEach(() => init.destroy(storage));

    const search = (terms: string[], extra: object = {}) =>
      storage.events
        .search({ ...key, terms, now: NOW, limit: 10, ...extra })
        .then((hits) => hits.map((hit) => [hit.event.content, hit.score] as const));

    it('ranks a short turn holding the query words above a long one holding them once among hundreds of words', async () => {
      const short = 'We had sushi in Kyoto last spring';
      const long = longTurn(['sushi', 'kyoto']);
      // The long turn is the newer one: matching the same words, it would win a tie.
      await storage.write([
        appendEvent(eventRecord({ content: short })),
        appendEvent(eventRecord({ content: long, role: 'agent' })),
        appendEvent(eventRecord({ content: 'nothing to see here' })),
      ]);
      const hits = await search(['sushi', 'kyoto']);
      expect(hits.map(([content]) => content)).toEqual([short, long]);
      expect(hits[0]![1]).toBeGreaterThan(hits[1]![1] * 1.5);
    });

    it('counts how often a row says a word: three times beats once at equal length', async () => {
      await storage.write([
        appendEvent(eventRecord({ content: 'tea, tea and more tea with cake' })),
        appendEvent(eventRecord({ content: 'tea with milk and some cake too' })),
      ]);
      const hits = await search(['tea']);
      expect(hits.map(([content]) => content)).toEqual([
        'tea, tea and more tea with cake',
        'tea with milk and some cake too',
      ]);
      // Words are counted by the form the index matches: "teas" is "tea" said again.
      await storage.write([appendEvent(eventRecord({ content: 'teas and tea with the cake' }))]);
      expect((await search(['tea'])).map(([content]) => content)).toEqual([
        'tea, tea and more tea with cake',
        'teas and tea with the cake',
        'tea with milk and some cake too',
      ]);
    });

    it('scores as the BM25 core does with the counts of each row, the same numbers on every store', async () => {
      const texts = ['plum jam', 'plum plum tart with cream', longTurn(['plum', 'jam']), 'apricot'];
      await storage.write(texts.map((content) => appendEvent(eventRecord({ content }))));
      const hits = await search(['plum', 'jam']);
      // Rows in writing order are 1…4; the store's own row keys only order ties, which these have none of.
      const rows = new Map(
        texts.map((content, index) => [index + 1, readTermStats(termStats(searchText(content)), null)]),
      );
      const holding = (word: string) =>
        texts.flatMap((content, index) => (searchText(content).split(' ').includes(word) ? [index + 1] : [])).reverse();
      const expected = rankBm25(
        ['plum', 'jam'].map((word) => ({
          key: termKey(word),
          rows: holding(word),
          documentFrequency: holding(word).length,
        })),
        rows,
        texts.length,
      );
      expect(hits).toEqual(expected.map((entry) => [texts[entry.row - 1], entry.score]));
    });

    it('ranks by the counts reindexing writes', async () => {
      const first = eventRecord({ content: 'fig bread' });
      const second = eventRecord({ content: 'fig roll' });
      await storage.write([first, second].map(appendEvent));
      expect((await search(['fig'])).map(([content]) => content)).toEqual(['fig roll', 'fig bread']);
      await storage.write([{ op: 'index_event', tenant_id: 't1', event_id: first.id, search_text: 'fig fig' }]);
      expect((await search(['fig'])).map(([content]) => content)).toEqual(['fig bread', 'fig roll']);
    });

    it('ranks as of a past time with the lengths of the rows recorded then, whatever was recorded since', async () => {
      const then = '2026-05-01T00:00:00.000Z';
      await storage.write([
        appendEvent(eventRecord({ content: 'lemon curd on toast', recorded_at: then })),
        appendEvent(eventRecord({ content: 'lemon', recorded_at: then })),
        appendEvent(eventRecord({ content: 'curd', recorded_at: then })),
      ]);
      const before = await search(['lemon', 'curd']);
      // Long rows recorded later change the average length the live ranking compares with.
      await storage.write(
        Array.from({ length: 3 }, () =>
          appendEvent(eventRecord({ content: longTurn(['lemon']), recorded_at: '2026-05-03T00:00:00.000Z' })),
        ),
      );
      const live = await search(['lemon', 'curd']);
      expect(live.slice(0, 3)).not.toEqual(before);
      expect(await search(['lemon', 'curd'], { as_of: '2026-05-02T00:00:00.000Z' })).toEqual(before);
    });

    it('ranks a short item chunk above a long one, and one saying a word twice above one saying it once', async () => {
      const chunk = (record: ReturnType<typeof item>, text: string): WriteOp[] => [
        { op: 'put_item', item: record },
        {
          op: 'put_chunk',
          tenant_id: 't1',
          item_id: record.id,
          owner: 'u:u1',
          text,
          search_text: searchText(text),
          embedding_status: 'skipped',
        },
      ];
      const short = item({ key: 'short' });
      const long = item({ key: 'long' });
      const twice = item({ key: 'twice' });
      const once = item({ key: 'once' });
      await storage.write([
        ...chunk(short, 'prefers oat milk'),
        ...chunk(long, longTurn(['oat', 'milk'])),
        ...chunk(twice, 'walnut bread walnut'),
        ...chunk(once, 'walnut bread rye'),
      ]);
      const ranked = (terms: string[]) =>
        storage.items
          .search({ tenant_id: 't1', owners: ['u:u1'], statuses: ['active'], terms, limit: 10 })
          .then((hits) => hits.map((hit) => hit.item.id));
      expect(await ranked(['oat', 'milk'])).toEqual([short.id, long.id]);
      expect(await ranked(['walnut'])).toEqual([twice.id, once.id]);
    });
  });
}
