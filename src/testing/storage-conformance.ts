// The storage conformance suite: the behaviour every StorageAdapter must show, run against each
// adapter through a small initializer (`create`, `destroy`). Adapter-specific tests do not belong
// here; a skip needs a written reason.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { StorageAdapter } from '../index.js';
import { newId, validateEventRecord } from '../index.js';
import { emptyWorkingState } from '../spec/working-state.js';
import { emptySummary } from '../spec/summary.js';
import { appendEvent, eventRecord } from './event-record.js';
import { expectCode } from './expect-code.js';
import { describeExportConformance } from './export-conformance.js';
import { describeExportTurnConformance } from './export-turn-conformance.js';
import { describeEraseConformance } from './erase-conformance.js';
import { describeContextBuildConformance } from './context-build-conformance.js';
import { describeEmbeddingConformance } from './embedding-conformance.js';
import { describeEventSearchConformance } from './event-search-conformance.js';
import { describeItemConformance } from './item-conformance.js';
import { item } from './item-records.js';
import { describeItemSearchConformance } from './item-search-conformance.js';
import { describeTextTokenConformance } from './text-token-conformance.js';
import { describeTextConformance } from './text-conformance.js';
import { describeJobConformance } from './job-conformance.js';
import { describeReflectionConformance } from './reflection-conformance.js';
import { candidate } from './reflection-records.js';
import { describeRunConformance } from './run-conformance.js';
import { describeVectorConformance } from './vector-conformance.js';
import { describeSearchFreshnessConformance } from './search-freshness-conformance.js';
import { describeSearchRankingConformance } from './search-ranking-conformance.js';
import type { ConformanceInitializer } from './conformance-initializer.js';

export type { ConformanceInitializer } from './conformance-initializer.js';

const NOW = '2026-06-01T12:00:00.000Z';
const key = { tenant_id: 't1', user_id: 'u1', agent_id: 'a1', session_id: 's1' };

const event = eventRecord;

const append = appendEvent;

function turnResult(turnId: string) {
  return {
    turn_id: turnId,
    scope: { ...key, run_id: 'r1' },
    recorded_at: NOW,
    dry_run: false,
    replayed: false,
    events: [],
    working_state: { changed: false, state_version: 0 },
    summary: { version: 1, sentences_added: 0, key_quotes_added: 0 },
    gate: [],
    items: [],
    extraction_failures: [],
  };
}

/**
 * Registers the conformance suite for one adapter.
 *
 * @example
 * describeStorageConformance('sqlite', { create: () => openSqliteStorage({ path }), destroy: (s) => s.close() });
 */
export function describeStorageConformance(name: string, init: ConformanceInitializer): void {
  describe(`storage conformance: ${name}`, () => {
    let storage: StorageAdapter;
    beforeEach(async () => {
      storage = await init.create();
    });
    afterEach(async () => {
      await init.destroy(storage);
    });
    it('declares the v1 interface', () => {
      expect(storage.specificationVersion).toBe('v1');
      expect(['exact', 'index']).toContain(storage.capabilities.vectorSearch);
    });

    it('round-trips every field of an event record', async () => {
      const original = event({
        speaker: 'Ada',
        content: { tool: 'search', results: [1, 2, { deep: 'ünïcødé 中文 \u{1F600}' }] },
        content_type: 'tool_output',
        role: 'tool',
        kind: 'tool_result',
        tags: ['a', 'b'],
        resonance_links: [{ target_id: 'mem_x', strength: 0.5, kind: 'pattern' }],
        snapshot_ref: 'blob://x',
        expires_at: '2099-01-01T00:00:00.000Z',
        origin_metadata: { tool_name: 'search', nested: { n: 1 } },
        embeddable: false,
        embedding_status: 'skipped',
      });
      await storage.write([append(original)]);
      const read = await storage.events.get('t1', original.id, NOW);
      expect(read).toEqual(original);
      expect(() => validateEventRecord(read)).not.toThrow();
    });

    it('lists a session in log order, pages with a cursor both ways, and filters by kind and sensitivity', async () => {
      const records = [
        event({ content: 'one' }),
        event({ content: 'two', kind: 'tool_result', role: 'tool', content_type: 'tool_output' }),
        event({ content: 'three', sensitivity: 'secret' }),
        event({ content: 'four' }),
      ];
      await storage.write(records.map(append));
      const base = { ...key, now: NOW, limit: 10 };
      expect((await storage.events.list(base)).map((e) => e.content)).toEqual(['one', 'two', 'three', 'four']);
      const firstPage = await storage.events.list({ ...base, limit: 2 });
      const secondPage = await storage.events.list({ ...base, limit: 2, cursor: firstPage[1]!.id });
      expect(secondPage.map((e) => e.content)).toEqual(['three', 'four']);
      const newest = await storage.events.list({ ...base, order: 'desc', limit: 1 });
      expect(newest[0]!.content).toBe('four');
      const older = await storage.events.list({ ...base, order: 'desc', cursor: newest[0]!.id });
      expect(older.map((e) => e.content)).toEqual(['three', 'two', 'one']);
      expect((await storage.events.list({ ...base, kinds: ['tool_result'] })).map((e) => e.content)).toEqual(['two']);
      expect((await storage.events.list({ ...base, exclude_sensitivity: ['secret'] })).map((e) => e.content)).toEqual([
        'one',
        'two',
        'four',
      ]);
    });

    it("counts a tenant's sessions (latest first, up to the limit) and its users' current items and pending candidates", async () => {
      const at = (hour: number) => `2026-06-01T${String(hour).padStart(2, '0')}:00:00.000Z`;
      await storage.write([
        ...[event({ ts: at(8) }), event({ ts: at(9) }), event({ ts: at(10), run_id: 'r2' })].map(append),
        ...[
          event({ ts: at(11), user_id: 'u2', session_id: 's9', thread_id: 's9' }),
          event({ ts: at(12), tenant_id: 't2' }),
        ].map(append),
        { op: 'put_item', item: item() },
        { op: 'put_item', item: item({ key: 'shell', status: 'superseded' }) },
        { op: 'put_item', item: item({ user_id: 'u3', key: 'lang' }) },
        { op: 'put_item', item: item({ tenant_id: 't2', key: 'other' }) },
        { op: 'put_candidate', candidate: candidate({ tenant_id: 't1' }) },
        { op: 'put_candidate', candidate: candidate({ tenant_id: 't1', user_id: 'u2', status: 'rejected' }) },
      ]);
      const counts = await storage.sessions.scopeCounts('t1', 10);
      expect(counts.sessions.map((s) => [s.user_id, s.session_id, s.run_id, s.events, s.first_ts, s.last_ts])).toEqual([
        ['u2', 's9', 'r1', 1, at(11), at(11)],
        ['u1', 's1', 'r2', 1, at(10), at(10)],
        ['u1', 's1', 'r1', 2, at(8), at(9)],
      ]);
      // Every user appears once: with events, items or candidates; superseded versions and decided candidates do not count.
      expect(counts.users).toEqual([
        { user_id: 'u1', items: 1, pending_candidates: 1 },
        { user_id: 'u2', items: 0, pending_candidates: 0 },
        { user_id: 'u3', items: 1, pending_candidates: 0 },
      ]);
      expect((await storage.sessions.scopeCounts('t1', 1)).sessions.map((s) => s.session_id)).toEqual(['s9']);
      expect(await storage.sessions.scopeCounts('t3', 10)).toEqual({ sessions: [], users: [] });
    });

    it('compacts after an erase without changing what reads return', async () => {
      const kept = [event({ content: 'kept one' }), event({ content: 'kept two' })];
      const gone = [event({ user_id: 'u9', content: 'gone', session_id: 's9', thread_id: 's9' })];
      await storage.write([...kept, ...gone].map(append));
      await storage.write([{ op: 'put_item', item: item() }]);
      await storage.maintenance.erase({ tenant_id: 't1', user_id: 'u9' });
      const before = {
        events: await storage.events.list({ ...key, now: NOW, limit: 10 }),
        counts: await storage.sessions.scopeCounts('t1', 10),
      };
      const result = await storage.maintenance.compact();
      expect(result.before_bytes === null || result.before_bytes > 0).toBe(true);
      expect(result).toMatchObject({ complete: true, not_done: [] });
      expect({
        events: await storage.events.list({ ...key, now: NOW, limit: 10 }),
        counts: await storage.sessions.scopeCounts('t1', 10),
      }).toEqual(before);
      expect(before.counts.users.map((user) => user.user_id)).toEqual(['u1']);
    });

    it('finds the nearest passing neighbour before and the two after many anchors in their own sessions, in one read', async () => {
      const at = (minute: number) => `2026-06-01T10:${String(minute).padStart(2, '0')}:00.000Z`;
      const s1 = [
        event({ content: 'first' }),
        event({ content: 'tool', kind: 'tool_result', role: 'tool', content_type: 'tool_output' }),
        event({ content: 'anchor one' }),
        event({ content: 'hidden', sensitivity: 'secret' }),
        event({ content: 'after one', recorded_at: at(30) }),
        event({ content: 'after after one', recorded_at: at(40) }),
      ];
      const s2 = [
        event({ content: 'anchor two', session_id: 's2', thread_id: 's2' }),
        event({ content: 'after two', session_id: 's2', thread_id: 's2' }),
      ];
      await storage.write([...s1, ...s2].map(append));
      const base = {
        tenant_id: 't1',
        user_id: 'u1',
        agent_id: 'a1',
        now: NOW,
        kinds: ['message' as const],
        exclude_sensitivity: ['secret' as const],
      };
      const anchors = [s1[2]!, s2[0]!, s1[4]!].map((record) => ({ id: record.id, session_id: record.session_id }));
      const found = await storage.events.neighbours({ ...base, anchors });
      expect(
        found.map((entry) => [
          entry.anchor_id,
          entry.before?.content ?? null,
          entry.after?.content ?? null,
          entry.twoAfter?.content ?? null,
        ]),
      ).toEqual([
        // The tool result and the secret event are passed over; the nearest passing message counts.
        [s1[2]!.id, 'first', 'after one', 'after after one'],
        // Another session's events are never neighbours.
        [s2[0]!.id, null, 'after two', null],
        [s1[4]!.id, 'anchor one', 'after after one', null],
      ]);
      expect(found[0]!.before).toEqual(s1[0]);
      expect(found[0]!.twoAfter).toEqual(s1[5]);
      // As of a time before "after one" was recorded, it is not there yet.
      const earlier = await storage.events.neighbours({ ...base, as_of: at(10), anchors: anchors.slice(0, 1) });
      expect(earlier[0]!.after).toBeNull();
      expect(earlier[0]!.twoAfter).toBeNull();
      // As of a time between the two, only the first after the anchor is there.
      const between = await storage.events.neighbours({ ...base, as_of: at(35), anchors: anchors.slice(0, 1) });
      expect([between[0]!.after?.content, between[0]!.twoAfter]).toEqual(['after one', null]);
      expect(await storage.events.neighbours({ ...base, anchors: [] })).toEqual([]);
      // Another tenant's scope sees nothing next to the same anchors.
      const other = await storage.events.neighbours({ ...base, tenant_id: 't2', anchors });
      expect(other.every((entry) => entry.before === null && entry.after === null && entry.twoAfter === null)).toBe(
        true,
      );
    });

    it('keeps tenants apart on every read', async () => {
      await storage.write([
        append(event({ content: 'tenant one text' })),
        append(event({ tenant_id: 't2', content: 'tenant two text' })),
      ]);
      const mine = await storage.events.list({ tenant_id: 't1', now: NOW, limit: 10 });
      expect(mine.map((e) => e.content)).toEqual(['tenant one text']);
      const hits = await storage.events.search({
        tenant_id: 't1',
        user_id: 'u1',
        terms: ['text'],
        now: NOW,
        limit: 10,
      });
      expect(hits.map((hit) => hit.event.content)).toEqual(['tenant one text']);
      const other = (await storage.events.list({ tenant_id: 't2', now: NOW, limit: 1 }))[0]!;
      expect(await storage.events.get('t1', other.id, NOW)).toBeNull();
    });

    it('changes status flags only: any other field is refused as append-only', async () => {
      const record = event();
      await storage.write([append(record)]);
      await storage.events.updateFlags('t1', record.id, { embedding_status: 'done' });
      expect((await storage.events.get('t1', record.id, NOW))!.embedding_status).toBe('done');
      const refused = await expectCode(
        storage.events.updateFlags('t1', record.id, { content: 'rewritten' } as never),
        'APPEND_ONLY_VIOLATION',
      );
      expect(refused.field).toBe('content');
      expect((await storage.events.get('t1', record.id, NOW))!.content).toBe('hello world');
      await expectCode(storage.events.updateFlags('t1', newId('evt'), { embedding_status: 'done' }), 'NOT_FOUND');
    });

    it('never returns an expired event, and purgeExpired deletes it with its index entry', async () => {
      const live = event({ content: 'apricot live' });
      const expired = event({ content: 'apricot expired', expires_at: '2026-06-01T11:00:00.000Z' });
      await storage.write([append(live), append(expired)]);
      expect((await storage.events.list({ ...key, now: NOW, limit: 10 })).map((e) => e.id)).toEqual([live.id]);
      expect(await storage.events.get('t1', expired.id, NOW)).toBeNull();
      const hits = await storage.events.search({ ...key, terms: ['apricot'], now: NOW, limit: 10 });
      expect(hits.map((hit) => hit.event.id)).toEqual([live.id]);
      // Before its expiry the event is visible.
      expect(await storage.events.get('t1', expired.id, '2026-06-01T10:30:00.000Z')).not.toBeNull();
      expect(await storage.maintenance.purgeExpired(NOW)).toBe(1);
      expect(await storage.events.get('t1', expired.id, '2026-06-01T10:30:00.000Z')).toBeNull();
      expect(await storage.maintenance.purgeExpired(NOW)).toBe(0);
    });

    it('records a turn once: a repeated turn_id fails and rolls back the whole write', async () => {
      await storage.write([{ op: 'insert_turn', key, turn_id: 'turn-1', result: turnResult('turn-1') }]);
      expect((await storage.sessions.getTurn(key, 'turn-1'))!.turn_id).toBe('turn-1');
      const record = event();
      await expectCode(
        storage.write([append(record), { op: 'insert_turn', key, turn_id: 'turn-1', result: turnResult('turn-1') }]),
        'DUPLICATE_TURN',
      );
      expect(await storage.events.get('t1', record.id, NOW)).toBeNull();
      expect(await storage.sessions.getTurn({ ...key, session_id: 'other' }, 'turn-1')).toBeNull();
    });

    it('replaces working state only at the expected version, atomically with the rest of the write', async () => {
      const state = { ...emptyWorkingState(), goal: 'first', state_version: 1 };
      await storage.write([{ op: 'put_working_state', key, state, expected_version: 0, updated_at: NOW }]);
      expect(await storage.sessions.getWorkingState(key)).toEqual(state);
      const record = event();
      const conflict = await expectCode(
        storage.write([
          append(record),
          {
            op: 'put_working_state',
            key,
            state: { ...state, goal: 'stale', state_version: 1 },
            expected_version: 0,
            updated_at: NOW,
          },
        ]),
        'STATE_VERSION_CONFLICT',
      );
      expect(conflict.details).toMatchObject({ expected: 0, actual: 1 });
      expect(await storage.events.get('t1', record.id, NOW)).toBeNull();
      expect((await storage.sessions.getWorkingState(key))!.goal).toBe('first');
      await storage.write([
        {
          op: 'put_working_state',
          key,
          state: { ...state, goal: 'second', state_version: 2 },
          expected_version: 1,
          updated_at: NOW,
        },
      ]);
      expect((await storage.sessions.getWorkingState(key))!.state_version).toBe(2);
    });

    it('replaces the short-term summary only at the expected version', async () => {
      const summary = { ...emptySummary(), version: 1, updated_at: NOW };
      await storage.write([{ op: 'put_summary', key, summary, expected_version: 0 }]);
      expect(await storage.sessions.getSummary(key)).toEqual(summary);
      const conflict = await expectCode(
        storage.write([{ op: 'put_summary', key, summary, expected_version: 0 }]),
        'STATE_VERSION_CONFLICT',
      );
      expect(conflict.field).toBe('summary.version');
    });

    it('fails every call after close with a typed error', async () => {
      await storage.close();
      await expectCode(storage.events.list({ ...key, now: NOW, limit: 1 }), 'STORAGE_FAILED');
    });
  });
  describeEventSearchConformance(name, init);
  describeReflectionConformance(name, init);
  describeRunConformance(name, init);
  describeExportConformance(name, init);
  describeExportTurnConformance(name, init);
  describeEraseConformance(name, init);
  describeJobConformance(name, init);
  describeItemConformance(name, init);
  describeItemSearchConformance(name, init);
  describeEmbeddingConformance(name, init);
  describeContextBuildConformance(name, init);
  describeTextTokenConformance(name, init);
  describeTextConformance(name, init);
  describeSearchFreshnessConformance(name, init);
  describeSearchRankingConformance(name, init);
  describeVectorConformance(name, init);
}
