// The storage conformance suite for the order of turns in an export (each right after the last of
// its events, however events of several turns interleave, purged or across pages) and for a second
// record under a key the tenant holds (RECORD_CONFLICT). Registered by describeStorageConformance,
// so it runs against every adapter through the same initializer.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { EventRecord, StorageAdapter, WriteOp } from '../index.js';
import type { ExportRecord } from '../spec/export.js';
import type { SessionKey } from '../spec/scope.js';
import { appendEvent, eventRecord } from './event-record.js';
import { expectCode } from './expect-code.js';
import { exported, LATER, NOW, putItem, turnResult } from './export-rows.js';
import { item } from './item-conformance.js';
import { build } from './run-conformance.js';
import type { ConformanceInitializer } from './conformance-initializer.js';

const append = appendEvent;

/**
 * Registers the turn order and duplicate key part of the conformance suite.
 *
 * @example
 * describeExportTurnConformance('sqlite', init);
 */
export function describeExportTurnConformance(name: string, init: ConformanceInitializer): void {
  describe(`storage conformance: ${name}: turns beside their events, duplicate keys`, () => {
    let storage: StorageAdapter;
    beforeEach(async () => {
      storage = await init.create();
    });
    afterEach(async () => {
      await init.destroy(storage);
    });
    const sessionKey: SessionKey = { tenant_id: 't1', user_id: 'u1', agent_id: 'a1', session_id: 's1' };
    const turnOf = (turnId: string, events: readonly EventRecord[]): WriteOp => ({
      op: 'insert_turn',
      key: sessionKey,
      turn_id: turnId,
      result: {
        ...turnResult(sessionKey, turnId),
        events: events.map((e) => ({
          event_id: e.id,
          kind: e.kind,
          role: e.role,
          marker: e.marker,
          sensitivity: e.sensitivity,
          embedding_status: e.embedding_status,
          ts: e.ts,
        })),
      },
    });
    const labels = (records: readonly ExportRecord[], names: ReadonlyMap<string, string>) =>
      records.flatMap((r) =>
        r.kind === 'event' ? [names.get(r.event.id) ?? '?'] : r.kind === 'turn' ? [`turn ${r.turn_id}`] : [],
      );

    it('exports each turn right after the last event it lists, however its events interleave with others', async () => {
      const a1 = eventRecord({ turn_id: 'A', content: 'a1' });
      const b1 = eventRecord({ turn_id: 'B', content: 'b1' });
      const a2 = eventRecord({ turn_id: 'A', content: 'a2' });
      const loose = eventRecord({ turn_id: null, content: 'loose' });
      const b2 = eventRecord({ turn_id: 'B', content: 'b2' });
      // Two writers' turns stored in between each other, as concurrent commits can on PostgreSQL.
      await storage.write([
        append(a1),
        append(b1),
        append(a2),
        append(loose),
        append(b2),
        turnOf('A', [a1, a2]),
        turnOf('B', [b1, b2]),
      ]);
      // A turn listing no event (an import of the conformance rows), and one whose only event is another user's.
      await storage.write([
        turnOf('bare', []),
        { ...turnOf('C', [a1]), key: { ...sessionKey, user_id: 'u2' } } as WriteOp,
      ]);
      const names = new Map([a1, b1, a2, loose, b2].map((e) => [e.id, String(e.content)]));
      expect(labels(await exported(storage, { tenant_id: 't1' }), names)).toEqual([
        'a1',
        'b1',
        'a2',
        'turn A',
        'loose',
        'b2',
        'turn B',
        'turn bare',
        'turn C',
      ]);
      expect(labels(await exported(storage, { tenant_id: 't1', user_id: 'u1' }), names)).toEqual([
        'a1',
        'b1',
        'a2',
        'turn A',
        'loose',
        'b2',
        'turn B',
        'turn bare',
      ]);
      expect(labels(await exported(storage, { tenant_id: 't1', user_id: 'u2' }), names)).toEqual(['turn C']);
    });

    it('exports a turn whose events were purged after the events still there, and every turn once across pages', async () => {
      const kept = eventRecord({ turn_id: 'P', content: 'kept' });
      const gone = eventRecord({ turn_id: 'P', content: 'gone', expires_at: LATER });
      const after = eventRecord({ turn_id: null, content: 'after' });
      await storage.write([append(gone), append(kept), turnOf('P', [gone, kept]), append(after)]);
      await storage.maintenance.purgeExpired(NOW);
      const names = new Map([kept, after].map((e) => [e.id, String(e.content)]));
      expect(labels(await exported(storage, { tenant_id: 't1' }), names)).toEqual(['kept', 'after', 'turn P']);
      // 700 turns of two events each: pages of events split turns, each turn still follows its second event, once.
      const ops: WriteOp[] = [];
      for (let index = 0; index < 700; index += 1) {
        const pair = [
          eventRecord({ turn_id: `t${index}`, content: `x${index}` }),
          eventRecord({ turn_id: `t${index}`, content: `y${index}` }),
        ];
        ops.push(...pair.map(append), turnOf(`t${index}`, pair));
      }
      await storage.write(ops);
      const order = (await exported(storage, { tenant_id: 't1' })).filter((r) =>
        r.kind === 'event' ? r.event.turn_id?.startsWith('t') === true : r.kind === 'turn' && r.turn_id.startsWith('t'),
      );
      expect(order).toHaveLength(2100);
      for (let index = 0; index < 700; index += 1) {
        expect(
          order
            .slice(index * 3, index * 3 + 3)
            .map((r) => (r.kind === 'turn' ? 'turn' : r.kind === 'event' ? String(r.event.content)[0] : r.kind)),
        ).toEqual(['x', 'y', 'turn']);
      }
    });

    it('refuses a second record under a key the tenant holds with RECORD_CONFLICT naming it, and writes nothing of the call', async () => {
      const first = eventRecord();
      const kept = item({ tenant_id: 't1' });
      await storage.write([
        append(first),
        ...putItem(kept),
        {
          op: 'put_context_build',
          build: build({ tenant_id: 't1', user_id: 'u1', agent_id: 'a1', session_id: 's1', run_id: 'r1' }),
        },
      ]);
      const fresh = eventRecord({ content: 'never stored' });
      const event = await expectCode(
        storage.write([append(fresh), append({ ...first, content: 'other' })]),
        'RECORD_CONFLICT',
      );
      expect(event.field).toBe('events.id');
      expect(await storage.events.get('t1', fresh.id, NOW)).toBeNull();
      expect((await storage.events.get('t1', first.id, NOW))!.content).toBe('hello world');
      const again = await expectCode(
        storage.write([{ op: 'put_item', item: { ...kept, key: 'other' } }]),
        'RECORD_CONFLICT',
      );
      expect(again.field).toBe('memory_items.id');
      // The same id in another tenant is another record.
      await storage.write([append({ ...first, tenant_id: 't2' })]);
      expect(await storage.events.get('t2', first.id, NOW)).not.toBeNull();
    });
  });
}
