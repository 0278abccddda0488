// Token counts kept with event and item rows, in the storage conformance suite: an adapter given a
// counter keeps its count with each row it writes, attaches it to every record it reads back, and
// replaces or clears it on request (src/spec/text-tokens.ts).

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { EventRecord, StorageAdapter, TextTokenCounter } from '../index.js';
import { storedTextTokens } from '../index.js';
import { ownerOf, type MemoryItem } from '../spec/items.js';
import { searchText } from '../util/segment.js';
import { appendEvent as append, eventRecord as event } from './event-record.js';
import { expectCode } from './expect-code.js';
import { item } from './item-conformance.js';
import type { ConformanceInitializer } from './conformance-initializer.js';

const NOW = '2026-06-01T12:00:00.000Z';
const key = { tenant_id: 't1', user_id: 'u1', agent_id: 'a1', session_id: 's1' };

/**
 * Registers the token-count tests for one adapter.
 *
 * @example
 * describeTextTokenConformance('sqlite', init);
 */
export function describeTextTokenConformance(name: string, init: ConformanceInitializer): void {
  describe(`token count conformance: ${name}`, () => {
    let storage: StorageAdapter;
    beforeEach(async () => {
      storage = await init.create();
    });
    afterEach(() => init.destroy(storage));

    it('keeps the token count its counter gives each event and item version, and attaches it to every record read back', async () => {
      // A counter of the test's own: the adapter stores what it returns, whatever tokenizer made it.
      const textTokens: TextTokenCounter = {
        event: (record) => (record.content === 'pear not counted' ? null : String(record.content).length),
        item: (record) => 100 + record.key.length,
      };
      // A store opened without a counter keeps none. (Checked first: on PGlite one store is open at a time.)
      const plain = event({ content: 'pear' });
      await storage.write([append(plain)]);
      expect(storedTextTokens((await storage.events.get('t1', plain.id, NOW))!)).toBeUndefined();
      const counted = await init.create({ textTokens });
      try {
        const [before, shown, hidden] = [
          event({ content: 'before pear' }),
          event({ content: 'pear tart recipe' }),
          event({ content: 'pear not counted' }),
        ];
        const version = item({ key: 'pear jam' });
        const owner = ownerOf(version.scope_level, version.user_id, version.agent_id);
        await counted.write([
          ...[before, shown, hidden].map(append),
          { op: 'put_item', item: version },
          {
            op: 'put_chunk',
            tenant_id: 't1',
            item_id: version.id,
            owner,
            text: 'pear jam',
            search_text: searchText('pear jam'),
            embedding_status: 'skipped',
          },
        ]);
        const tokensOf = (records: ReadonlyArray<EventRecord | MemoryItem | null | undefined>) =>
          records.map((record) => (record == null ? null : (storedTextTokens(record) ?? 'none')));
        expect(
          tokensOf([await counted.events.get('t1', shown.id, NOW), await counted.events.get('t1', hidden.id, NOW)]),
        ).toEqual([16, 'none']);
        expect(tokensOf(await counted.events.list({ ...key, now: NOW, limit: 10 }))).toEqual([11, 16, 'none']);
        const hits = await counted.events.search({
          tenant_id: 't1',
          user_id: 'u1',
          terms: ['pear'],
          now: NOW,
          limit: 10,
        });
        expect(new Map(hits.map((hit) => [hit.event.id, storedTextTokens(hit.event) ?? 'none']))).toEqual(
          new Map<string, number | string>([
            [before.id, 11],
            [shown.id, 16],
            [hidden.id, 'none'],
          ]),
        );
        const [around] = await counted.events.neighbours({
          tenant_id: 't1',
          user_id: 'u1',
          agent_id: 'a1',
          now: NOW,
          anchors: [{ id: shown.id, session_id: shown.session_id }],
        });
        expect(tokensOf([around!.before, around!.after])).toEqual([11, 'none']);
        expect(tokensOf([await counted.items.get('t1', version.id)])).toEqual([108]);
        expect(tokensOf(await counted.items.list({ tenant_id: 't1', owners: [owner], limit: 10 }))).toEqual([108]);
        expect(
          tokensOf(await counted.items.list({ tenant_id: 't1', owners: [owner], active_at: NOW, limit: 10 })),
        ).toEqual([108]);
        expect(
          tokensOf(
            (await counted.items.search({ tenant_id: 't1', owners: [owner], terms: ['jam'], limit: 10 })).map(
              (hit) => hit.item,
            ),
          ),
        ).toEqual([108]);
        // The count is kept beside the record, not in it: the record reads as it was written.
        expect(await counted.events.get('t1', shown.id, NOW)).toEqual(shown);
        expect(Object.keys((await counted.items.get('t1', version.id))!)).toEqual(Object.keys(version));
        // A count is derived data: it can be replaced or cleared, and only for a row the tenant holds.
        await counted.write([
          { op: 'put_text_tokens', tenant_id: 't1', target: 'event', id: hidden.id, text_tokens: 7 },
          { op: 'put_text_tokens', tenant_id: 't1', target: 'event', id: shown.id, text_tokens: null },
          { op: 'put_text_tokens', tenant_id: 't1', target: 'item', id: version.id, text_tokens: 5 },
        ]);
        expect(
          tokensOf([
            await counted.events.get('t1', hidden.id, NOW),
            await counted.events.get('t1', shown.id, NOW),
            await counted.items.get('t1', version.id),
          ]),
        ).toEqual([7, 'none', 5]);
        for (const op of [
          { op: 'put_text_tokens', tenant_id: 't2', target: 'event', id: hidden.id, text_tokens: 1 },
          { op: 'put_text_tokens', tenant_id: 't1', target: 'item', id: shown.id, text_tokens: 1 },
        ] as const) {
          const error = await expectCode(
            counted.write([
              { op: 'put_text_tokens', tenant_id: 't1', target: 'event', id: before.id, text_tokens: 99 },
              op,
            ]),
            'NOT_FOUND',
          );
          expect(error.field).toBe(op.target === 'event' ? 'event_id' : 'item_id');
        }
        expect(tokensOf([await counted.events.get('t1', before.id, NOW)])).toEqual([11]);
      } finally {
        await init.destroy(counted);
      }
    });
  });
}
