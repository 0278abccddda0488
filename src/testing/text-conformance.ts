// Text in the storage conformance suite: every string the input rules accept (well-formed Unicode
// without U+0000: astral characters, control characters, noncharacters, direction marks, combining
// marks, U+FFFD itself) comes back from every adapter exactly as written — in ids, content, tags,
// metadata keys and values, item values — and two ids that differ in one character stay two.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { StorageAdapter } from '../index.js';
import { inputIssues } from '../index.js';
import { appendEvent, eventRecord } from './event-record.js';
import { item } from './item-conformance.js';
import type { ConformanceInitializer } from './conformance-initializer.js';

const NOW = '2026-06-01T12:00:00.000Z';
/** Everything but U+0000 and lone surrogates, in one string. */
const TEXT =
  'pear \u0001\u001f\u007f\u0080 😀 中文 𝔘𝔫𝔦 e\u0301 \u200f\u202e \ufffd \ufffe\uffff \u{10ffff} \\ " \' % _ ; -- ';
const USERS = ['u😀中', 'u\ufffd', 'u\ufffd\ufffd', 'u\ufffd\ufffd\ufffd'];

/**
 * Registers the text round-trip tests for one adapter.
 *
 * @example
 * describeTextConformance('sqlite', init);
 */
export function describeTextConformance(name: string, init: ConformanceInitializer): void {
  describe(`text conformance: ${name}`, () => {
    let storage: StorageAdapter;
    beforeEach(async () => {
      storage = await init.create();
    });
    afterEach(() => init.destroy(storage));

    it('gives back every string the input rules accept exactly as written, in records and ids', async () => {
      const events = USERS.map((user, index) =>
        eventRecord({
          user_id: user,
          content: `${TEXT}${index}`,
          speaker: TEXT,
          tags: [TEXT],
          origin_metadata: { [TEXT]: TEXT, list: [TEXT, { [TEXT]: index }] },
        }),
      );
      const version = item({
        user_id: USERS[0]!,
        key: 'pref:writing:tone',
        value: { name: TEXT, [TEXT]: [TEXT] },
        tags: [TEXT],
        entities: [TEXT],
      });
      expect(inputIssues({ events, version })).toEqual([]);
      await storage.write([...events.map(appendEvent), { op: 'put_item', item: version }]);

      for (const [index, user] of USERS.entries()) {
        const listed = await storage.events.list({
          tenant_id: 't1',
          user_id: user,
          agent_id: 'a1',
          session_id: 's1',
          now: NOW,
          limit: 10,
        });
        // One event per user: ids that differ in one character never share rows.
        expect(listed).toHaveLength(1);
        expect(listed[0]).toMatchObject({
          user_id: user,
          content: `${TEXT}${index}`,
          speaker: TEXT,
          tags: [TEXT],
          origin_metadata: events[index]!.origin_metadata,
        });
        expect(await storage.events.get('t1', events[index]!.id, NOW)).toMatchObject({
          user_id: user,
          content: `${TEXT}${index}`,
        });
      }
      const hits = await storage.events.search({
        tenant_id: 't1',
        user_id: USERS[1]!,
        terms: ['pear'],
        now: NOW,
        limit: 10,
      });
      expect(hits.map((hit) => hit.event.id)).toEqual([events[1]!.id]);
      expect(await storage.items.get('t1', version.id)).toMatchObject({
        user_id: USERS[0],
        value: version.value,
        tags: [TEXT],
        entities: [TEXT],
      });
    });
  });
}
