// The storage conformance suite for reflections, review candidates and insights: registered by
// describeStorageConformance, so it runs against every adapter through the same initializer.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { StorageAdapter, WriteOp } from '../index.js';
import { newId } from '../index.js';
import type { InsightRecord, ReviewCandidate } from '../spec/reflection.js';
import type { ConformanceInitializer } from './conformance-initializer.js';
import { expectCode } from './expect-code.js';
import { candidate, insight, reflection } from './reflection-records.js';

// The records stay importable from this suite's module, as tests outside src/testing import them.
export { candidate, insight, reflection } from './reflection-records.js';

const AT = '2026-06-01T10:00:00.000Z';

function decision(at: string) {
  return {
    by: 'reviewer',
    at,
    reason: 'looks right',
    edit: null,
    written: { item_ids: ['mem_new'], insight_ids: [], retracted_item_ids: [] },
  };
}

const putCandidate = (c: ReviewCandidate): WriteOp => ({ op: 'put_candidate', candidate: c });
const putInsight = (i: InsightRecord, expected_version: number | null = null): WriteOp => ({
  op: 'put_insight',
  insight: i,
  expected_version,
});

/**
 * Registers the reflection, review-candidate and insight part of the conformance suite.
 *
 * @example
 * describeReflectionConformance('sqlite', init);
 */
export function describeReflectionConformance(name: string, init: ConformanceInitializer): void {
  describe(`storage conformance: ${name}: reflections, review candidates, insights`, () => {
    let storage: StorageAdapter;
    beforeEach(async () => {
      storage = await init.create();
    });
    afterEach(async () => {
      await init.destroy(storage);
    });
    const ids = (rows: Array<{ id: string }>) => rows.map((row) => row.id);

    it('round-trips every field of a reflection, a candidate and an insight', async () => {
      const succeeded = reflection();
      const failed = reflection({
        source: 'rules',
        model: null,
        status: 'failed',
        reflection: null,
        event_count: 0,
        candidate_ids: [],
        failure: {
          reason: 'invalid',
          attempts: 2,
          raw: '{"x": 1}',
          issues: [{ field: 'x', rule: 'type', message: 'bad' }],
          stage: 'model',
        },
      });
      const decided = candidate({
        kind: 'contradiction',
        source: 'rules',
        status: 'edited',
        memory_type: null,
        open_loop_id: 'loop_1',
        target: { write: 'resolve', keep: 'mem_a' },
        decision: { ...decision('2026-06-01T11:00:00.000Z'), reason: null, edit: { write: 'retract', key: 'k' } },
      });
      // A candidate drawn from private events keeps its sensitivity.
      const pending = candidate({ target: { write: 'none' }, sensitivity: 'private' });
      const full = insight({
        type: 'strategy',
        trigger: 'synthesis',
        validation_state: 'validated',
        expires_at: '2026-07-01T00:00:00.000Z',
        expired_at: '2026-06-02T00:00:00.000Z',
        promoted_to: 'mem_p',
        candidate_id: decided.id,
        version: 3,
        history: [
          { state: 'unvalidated', by: 'a', at: AT, note: null },
          { state: 'validated', by: 'b', at: '2026-06-01T11:00:00.000Z', note: 'ok ✓' },
        ],
        updated_at: '2026-06-01T11:00:00.000Z',
      });
      const bare = insight({ expires_at: null, tests_suggested: [], sources: [] });
      await storage.write([
        { op: 'put_reflection', record: succeeded },
        { op: 'put_reflection', record: failed },
        putCandidate(decided),
        putCandidate(pending),
        putInsight(full),
        putInsight(bare),
      ]);
      expect(await storage.reviews.getReflection('t1', succeeded.trace_id)).toEqual(succeeded);
      expect(await storage.reviews.getReflection('t1', failed.trace_id)).toEqual(failed);
      expect(await storage.reviews.getCandidate('t1', decided.id)).toEqual(decided);
      expect(await storage.reviews.getCandidate('t1', pending.id)).toEqual(pending);
      expect(await storage.reviews.getInsight('t1', full.id)).toEqual(full);
      expect(await storage.reviews.getInsight('t1', bare.id)).toEqual(bare);
      expect(await storage.reviews.listReflections({ tenant_id: 't1', limit: 10 })).toEqual([failed, succeeded]);
      expect(await storage.reviews.listCandidates({ tenant_id: 't1', limit: 10 })).toEqual([decided, pending]);
      expect(await storage.reviews.listInsights({ tenant_id: 't1', limit: 10 })).toEqual([full, bare]);
      expect(await storage.reviews.getReflection('t1', newId('trc'))).toBeNull();
      expect(await storage.reviews.getCandidate('t1', newId('cand'))).toBeNull();
      expect(await storage.reviews.getInsight('t1', newId('ins'))).toBeNull();
    });

    it('refuses a duplicate reflection, candidate or insight and rolls back the whole write', async () => {
      const record = reflection();
      const first = candidate();
      const existing = insight();
      await storage.write([{ op: 'put_reflection', record }, putCandidate(first), putInsight(existing)]);
      const fresh = candidate();
      await expectCode(
        storage.write([putCandidate(fresh), putCandidate({ ...first, status: 'approved' })]),
        'STATE_VERSION_CONFLICT',
      );
      expect(await storage.reviews.getCandidate('t1', fresh.id)).toBeNull();
      expect((await storage.reviews.getCandidate('t1', first.id))!.status).toBe('pending');
      await expectCode(
        storage.write([putCandidate(fresh), { op: 'put_reflection', record: { ...record, event_count: 99 } }]),
        'STATE_VERSION_CONFLICT',
      );
      expect(await storage.reviews.getCandidate('t1', fresh.id)).toBeNull();
      expect(await storage.reviews.getReflection('t1', record.trace_id)).toEqual(record);
      await expectCode(
        storage.write([putCandidate(fresh), putInsight({ ...existing, statement: 'other' })]),
        'STATE_VERSION_CONFLICT',
      );
      expect(await storage.reviews.getCandidate('t1', fresh.id)).toBeNull();
      expect(await storage.reviews.getInsight('t1', existing.id)).toEqual(existing);
    });

    it('decides a pending candidate once: a second decision conflicts, a missing one is not found', async () => {
      const pending = candidate();
      await storage.write([putCandidate(pending)]);
      const approval = decision('2026-06-01T11:00:00.000Z');
      await storage.write([
        { op: 'decide_candidate', tenant_id: 't1', candidate_id: pending.id, status: 'approved', decision: approval },
      ]);
      expect(await storage.reviews.getCandidate('t1', pending.id)).toEqual({
        ...pending,
        status: 'approved',
        decision: approval,
      });
      const other = candidate();
      const late = {
        op: 'decide_candidate',
        tenant_id: 't1',
        candidate_id: pending.id,
        status: 'rejected',
        decision: { ...approval, reason: 'no' },
      } as const;
      await expectCode(storage.write([putCandidate(other), late]), 'STATE_VERSION_CONFLICT', 'candidate_id');
      expect(await storage.reviews.getCandidate('t1', other.id)).toBeNull();
      expect((await storage.reviews.getCandidate('t1', pending.id))!.decision).toEqual(approval);
      await expectCode(storage.write([{ ...late, candidate_id: newId('cand') }]), 'NOT_FOUND', 'candidate_id');
    });

    it('replaces an insight only at the version it read', async () => {
      const v1 = insight();
      await storage.write([putInsight(v1)]);
      const v2 = { ...v1, validation_state: 'testing' as const, version: 2, updated_at: '2026-06-01T11:00:00.000Z' };
      await storage.write([putInsight(v2, 1)]);
      expect(await storage.reviews.getInsight('t1', v1.id)).toEqual(v2);
      const conflict = await expectCode(
        storage.write([putInsight({ ...v1, statement: 'stale', version: 2 }, 1)]),
        'STATE_VERSION_CONFLICT',
        'insight.version',
      );
      expect(conflict.details).toMatchObject({ expected: 1, actual: 2 });
      expect(await storage.reviews.getInsight('t1', v1.id)).toEqual(v2);
      await expectCode(storage.write([putInsight(insight(), 1)]), 'NOT_FOUND');
    });

    it('expires only the live run_end insights of the ended run', async () => {
      const target = insight();
      const untouched = [
        insight({ expires_at: null }),
        insight({ expires_at: '2026-06-03T00:00:00.000Z' }),
        insight({ run_id: 'r2' }),
        insight({ agent_id: 'a2' }),
        insight({ tenant_id: 't2' }),
        insight({ expired_at: '2026-06-01T10:30:00.000Z', version: 2 }),
      ];
      await storage.write([putInsight(target), ...untouched.map((row) => putInsight(row))]);
      const at = '2026-06-01T12:00:00.000Z';
      await storage.write([
        { op: 'expire_run_insights', tenant_id: 't1', user_id: 'u1', agent_id: 'a1', run_id: 'r1', at },
      ]);
      expect(await storage.reviews.getInsight('t1', target.id)).toEqual({
        ...target,
        expired_at: at,
        updated_at: at,
        version: 2,
      });
      for (const row of untouched) expect(await storage.reviews.getInsight(row.tenant_id, row.id)).toEqual(row);
    });

    it('lists candidates pending at a time, and filters by status, kind and scope', async () => {
      const decidedEarly = candidate({
        created_at: '2026-06-01T10:00:00.000Z',
        status: 'rejected',
        decision: decision('2026-06-01T11:00:00.000Z'),
      });
      const waiting = candidate({
        created_at: '2026-06-01T10:30:00.000Z',
        kind: 'episode',
        memory_type: null,
        trace_id: 'trc_2',
      });
      const later = candidate({ created_at: '2026-06-01T12:00:00.000Z', session_id: 's2' });
      await storage.write([decidedEarly, waiting, later].map(putCandidate));
      const list = (query: object) =>
        storage.reviews.listCandidates({ tenant_id: 't1', limit: 10, ...query }).then(ids);
      expect(await list({ pending_at: '2026-06-01T10:15:00.000Z' })).toEqual([decidedEarly.id]);
      expect(await list({ pending_at: '2026-06-01T10:45:00.000Z' })).toEqual([decidedEarly.id, waiting.id]);
      expect(await list({ pending_at: '2026-06-01T11:00:00.000Z' })).toEqual([waiting.id]);
      expect(await list({ pending_at: '2026-06-01T12:30:00.000Z' })).toEqual([waiting.id, later.id]);
      expect(await list({ statuses: ['pending'] })).toEqual([waiting.id, later.id]);
      expect(await list({ statuses: [] })).toEqual([]);
      expect(await list({ kinds: ['episode'] })).toEqual([waiting.id]);
      expect(await list({ trace_id: 'trc_2' })).toEqual([waiting.id]);
      expect(await list({ session_id: 's2' })).toEqual([later.id]);
      expect(await list({ user_id: 'u2' })).toEqual([]);
    });

    it('lists insights live at a time, and filters by type, state and run', async () => {
      const open = insight({ expires_at: null, type: 'pattern' });
      const timed = insight({ expires_at: '2026-06-01T11:00:00.000Z' });
      const ended = insight({ expired_at: '2026-06-01T11:30:00.000Z', validation_state: 'testing' });
      const running = insight({ run_id: 'r2' });
      const future = insight({ created_at: '2026-06-01T13:00:00.000Z', updated_at: '2026-06-01T13:00:00.000Z' });
      await storage.write([open, timed, ended, running, future].map((row) => putInsight(row)));
      const list = (query: object) => storage.reviews.listInsights({ tenant_id: 't1', limit: 10, ...query }).then(ids);
      expect(await list({ live_at: '2026-06-01T12:00:00.000Z' })).toEqual([open.id, running.id]);
      expect(await list({ live_at: '2026-06-01T10:30:00.000Z' })).toEqual([open.id, timed.id, ended.id, running.id]);
      expect(await list({ live_at: '2026-06-01T11:00:00.000Z' })).toEqual([open.id, ended.id, running.id]);
      expect(await list({ live_at: '2026-06-01T14:00:00.000Z' })).toEqual([open.id, running.id, future.id]);
      expect(await list({ types: ['pattern'] })).toEqual([open.id]);
      expect(await list({ states: ['testing'] })).toEqual([ended.id]);
      expect(await list({ run_id: 'r2' })).toEqual([running.id]);
      expect(await list({ agent_id: 'a2' })).toEqual([]);
    });

    it('pages candidates and insights with a cursor in both orders, and reflections newest first', async () => {
      const candidates = Array.from({ length: 5 }, () => candidate());
      const insights = Array.from({ length: 5 }, () => insight());
      const records = Array.from({ length: 3 }, () => reflection());
      await storage.write([
        ...candidates.map(putCandidate),
        ...insights.map((row) => putInsight(row)),
        ...records.map((record) => ({ op: 'put_reflection', record }) as const),
      ]);
      const pages = async (list: (cursor: string | undefined) => Promise<string[]>): Promise<string[][]> => {
        const out: string[][] = [];
        let cursor: string | undefined;
        for (let page = await list(cursor); page.length > 0; page = await list(cursor)) {
          out.push(page);
          cursor = page[page.length - 1];
        }
        return out;
      };
      const all = ids(candidates);
      const insightIds = ids(insights);
      for (const order of ['asc', 'desc'] as const) {
        const expected = order === 'asc' ? all : [...all].reverse();
        const got = await pages((cursor) =>
          storage.reviews.listCandidates({ tenant_id: 't1', order, cursor, limit: 2 }).then(ids),
        );
        expect(got).toEqual([expected.slice(0, 2), expected.slice(2, 4), expected.slice(4)]);
        const expectedInsights = order === 'asc' ? insightIds : [...insightIds].reverse();
        const gotInsights = await pages((cursor) =>
          storage.reviews.listInsights({ tenant_id: 't1', order, cursor, limit: 3 }).then(ids),
        );
        expect(gotInsights).toEqual([expectedInsights.slice(0, 3), expectedInsights.slice(3)]);
      }
      const traces = records.map((record) => record.trace_id).reverse();
      const gotTraces = await pages((cursor) =>
        storage.reviews
          .listReflections({ tenant_id: 't1', cursor, limit: 2 })
          .then((rows) => rows.map((row) => row.trace_id)),
      );
      expect(gotTraces).toEqual([traces.slice(0, 2), traces.slice(2)]);
      expect(await storage.reviews.listReflections({ tenant_id: 't1', run_id: 'r2', limit: 10 })).toEqual([]);
    });

    it('keeps tenants apart on every read and write', async () => {
      const t2 = { tenant_id: 't2' };
      const record = reflection(t2);
      const theirs = candidate(t2);
      const theirInsight = insight(t2);
      await storage.write([{ op: 'put_reflection', record }, putCandidate(theirs), putInsight(theirInsight)]);
      expect(await storage.reviews.getReflection('t1', record.trace_id)).toBeNull();
      expect(await storage.reviews.getCandidate('t1', theirs.id)).toBeNull();
      expect(await storage.reviews.getInsight('t1', theirInsight.id)).toBeNull();
      expect(await storage.reviews.listReflections({ tenant_id: 't1', limit: 10 })).toEqual([]);
      expect(await storage.reviews.listCandidates({ tenant_id: 't1', limit: 10 })).toEqual([]);
      expect(await storage.reviews.listInsights({ tenant_id: 't1', limit: 10 })).toEqual([]);
      const decide = {
        op: 'decide_candidate',
        tenant_id: 't1',
        candidate_id: theirs.id,
        status: 'approved',
        decision: decision(AT),
      } as const;
      await expectCode(storage.write([decide]), 'NOT_FOUND', 'candidate_id');
      await expectCode(storage.write([putInsight({ ...theirInsight, tenant_id: 't1' }, 1)]), 'NOT_FOUND');
      // The same ids are free in another tenant.
      await storage.write([
        { op: 'put_reflection', record: { ...record, tenant_id: 't1' } },
        putCandidate({ ...theirs, tenant_id: 't1' }),
      ]);
      expect(await storage.reviews.getCandidate('t2', theirs.id)).toEqual(theirs);
      expect(
        (await storage.reviews.listReflections({ tenant_id: 't2', limit: 10 })).map((row) => row.tenant_id),
      ).toEqual(['t2']);
    });
  });
}
