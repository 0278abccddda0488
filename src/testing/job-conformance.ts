// The background job queue, in the storage conformance suite: a job is queued once per id, claimed by
// one worker at a time with a lease, claimed again when the lease ends or its backoff is over,
// finished once (alone, or in the transaction that writes its work), and listed newest first.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { StorageAdapter } from '../index.js';
import type { Job, JobQuery } from '../spec/storage.js';
import type { ConformanceInitializer } from './conformance-initializer.js';

const T0 = '2026-06-01T12:00:00.000Z';
const LATER = '2026-06-01T12:10:00.000Z';

function job(id: string, tenant = 't1', kind: Job['kind'] = 'reflect'): Job {
  return {
    tenant_id: tenant,
    id,
    kind,
    payload: { scope: { user_id: 'u1', agent_id: 'a1', run_id: id } },
    status: 'pending',
    attempts: 0,
    lease_until: null,
    last_error: null,
    created_at: T0,
    updated_at: T0,
  };
}

/**
 * Registers the job-queue tests for one adapter.
 *
 * @example
 * describeJobConformance('sqlite', init);
 */
export function describeJobConformance(name: string, init: ConformanceInitializer): void {
  describe(`job queue conformance: ${name}`, () => {
    let storage: StorageAdapter;
    beforeEach(async () => {
      storage = await init.create();
    });
    afterEach(() => init.destroy(storage));

    it('queues a job once per id, claims it for one worker, and finishes it once', async () => {
      await storage.write([
        { op: 'enqueue_job', job: job('reflect:u1/a1/r1') },
        { op: 'enqueue_job', job: job('reflect:u1/a1/r1') },
        { op: 'enqueue_job', job: job('reflect:u1/a1/r2') },
      ]);
      const first = await storage.service.claimJobs(['reflect'], 1, T0, '2026-06-01T12:05:00.000Z');
      expect(first.map((entry) => [entry.id, entry.status, entry.attempts])).toEqual([
        ['reflect:u1/a1/r1', 'running', 1],
      ]);
      const second = await storage.service.claimJobs(['reflect'], 5, T0, '2026-06-01T12:05:00.000Z');
      expect(second.map((entry) => entry.id)).toEqual(['reflect:u1/a1/r2']);
      expect(await storage.service.claimJobs(['reflect'], 5, T0, '2026-06-01T12:05:00.000Z')).toEqual([]);
      await storage.service.completeJob('t1', 'reflect:u1/a1/r1', 'done', null, T0);
      await expect(storage.service.completeJob('t1', 'reflect:u1/a1/r1', 'done', null, T0)).rejects.toMatchObject({
        code: 'NOT_FOUND',
      });
      // The second worker died: its lease ends and the job is claimed again, one attempt more.
      const again = await storage.service.claimJobs(['reflect'], 5, LATER, '2026-06-01T12:15:00.000Z');
      expect(again.map((entry) => [entry.id, entry.attempts])).toEqual([['reflect:u1/a1/r2', 2]]);
      await storage.service.completeJob('t1', 'reflect:u1/a1/r2', 'pending', 'try again', LATER);
      expect(
        (await storage.service.claimJobs(['reflect'], 5, LATER, '2026-06-01T12:20:00.000Z')).map((entry) => [
          entry.id,
          entry.attempts,
          entry.last_error,
        ]),
      ).toEqual([['reflect:u1/a1/r2', 3, 'try again']]);
      await storage.service.completeJob('t1', 'reflect:u1/a1/r2', 'failed', 'gave up', LATER);
      expect(
        await storage.service.claimJobs(['reflect'], 5, '2026-06-02T00:00:00.000Z', '2026-06-02T00:05:00.000Z'),
      ).toEqual([]);
      // A finished job's id stays taken: the same run ending again queues nothing.
      await storage.write([{ op: 'enqueue_job', job: job('reflect:u1/a1/r1') }]);
      expect(await storage.service.claimJobs(['reflect'], 5, LATER, '2026-06-01T12:30:00.000Z')).toEqual([]);
    });

    it('keeps tenants apart: the same job id in two tenants is two jobs', async () => {
      await storage.write([
        { op: 'enqueue_job', job: job('reflect:u1/a1/r1', 't1') },
        { op: 'enqueue_job', job: job('reflect:u1/a1/r1', 't2') },
      ]);
      const claimed = await storage.service.claimJobs(['reflect'], 5, T0, '2026-06-01T12:05:00.000Z');
      expect(claimed.map((entry) => entry.tenant_id).sort()).toEqual(['t1', 't2']);
      await expect(storage.service.completeJob('t3', 'reflect:u1/a1/r1', 'done', null, T0)).rejects.toMatchObject({
        code: 'NOT_FOUND',
      });
    });

    it('does not claim a job put back with a backoff before the backoff ends', async () => {
      await storage.write([{ op: 'enqueue_job', job: job('extract:evt_1', 't1', 'extract') }]);
      const [first] = await storage.service.claimJobs(['reflect', 'extract'], 5, T0, '2026-06-01T12:05:00.000Z');
      expect(first).toMatchObject({ id: 'extract:evt_1', kind: 'extract', attempts: 1 });
      await storage.service.completeJob('t1', 'extract:evt_1', 'pending', 'model down', T0, '2026-06-01T12:02:00.000Z');
      expect(
        await storage.service.claimJobs(['extract'], 5, '2026-06-01T12:01:59.999Z', '2026-06-01T12:10:00.000Z'),
      ).toEqual([]);
      const [again] = await storage.service.claimJobs(
        ['extract'],
        5,
        '2026-06-01T12:02:00.000Z',
        '2026-06-01T12:10:00.000Z',
      );
      expect(again).toMatchObject({
        id: 'extract:evt_1',
        status: 'running',
        attempts: 2,
        last_error: 'model down',
        lease_until: '2026-06-01T12:10:00.000Z',
      });
      // Without a backoff a job put back is claimed at once.
      await storage.service.completeJob('t1', 'extract:evt_1', 'pending', 'again', LATER);
      expect(
        (await storage.service.claimJobs(['extract'], 5, LATER, '2026-06-01T12:20:00.000Z')).map(
          (entry) => entry.attempts,
        ),
      ).toEqual([3]);
    });

    it('finishes a job in the write that holds its work, and writes nothing of it when the job is not running', async () => {
      await storage.write([{ op: 'enqueue_job', job: job('extract:evt_1', 't1', 'extract') }]);
      await storage.service.claimJobs(['extract'], 1, T0, '2026-06-01T12:05:00.000Z');
      await storage.write([
        { op: 'enqueue_job', job: job('reflect:u1/a1/r1') },
        { op: 'complete_job', tenant_id: 't1', job_id: 'extract:evt_1', status: 'done', error: null, now: LATER },
      ]);
      expect(
        (await storage.service.listJobs({ tenant_id: 't1', limit: 10 })).map((entry) => [
          entry.id,
          entry.status,
          entry.lease_until,
        ]),
      ).toEqual([
        ['reflect:u1/a1/r1', 'pending', null],
        ['extract:evt_1', 'done', null],
      ]);
      // Done already: the whole write fails and its other operations are not kept.
      await expect(
        storage.write([
          { op: 'enqueue_job', job: job('reflect:u1/a1/r2') },
          { op: 'complete_job', tenant_id: 't1', job_id: 'extract:evt_1', status: 'failed', error: 'late', now: LATER },
        ]),
      ).rejects.toMatchObject({ code: 'NOT_FOUND', field: 'job_id' });
      expect((await storage.service.listJobs({ tenant_id: 't1', limit: 10 })).map((entry) => entry.id)).toEqual([
        'reflect:u1/a1/r1',
        'extract:evt_1',
      ]);
    });

    it("lists a tenant's jobs newest first, by kind and status", async () => {
      await storage.write([
        { op: 'enqueue_job', job: job('reflect:u1/a1/r1') },
        { op: 'enqueue_job', job: job('extract:evt_1', 't1', 'extract') },
        { op: 'enqueue_job', job: job('extract:evt_2', 't1', 'extract') },
        { op: 'enqueue_job', job: job('extract:evt_9', 't2', 'extract') },
      ]);
      const [claimed] = await storage.service.claimJobs(['extract'], 1, T0, '2026-06-01T12:05:00.000Z');
      await storage.service.completeJob(claimed!.tenant_id, claimed!.id, 'failed', 'invalid twice', T0);
      const ids = async (query: Omit<JobQuery, 'tenant_id'>, tenant = 't1') =>
        (await storage.service.listJobs({ tenant_id: tenant, ...query })).map((entry) => entry.id);
      expect(await ids({ limit: 10 })).toEqual(['extract:evt_2', 'extract:evt_1', 'reflect:u1/a1/r1']);
      expect(await ids({ limit: 2 })).toEqual(['extract:evt_2', 'extract:evt_1']);
      expect(await ids({ kinds: ['reflect'], limit: 10 })).toEqual(['reflect:u1/a1/r1']);
      expect(await ids({ statuses: ['failed'], limit: 10 })).toEqual([claimed!.id]);
      expect(await ids({ kinds: ['extract'], statuses: ['pending'], limit: 10 })).toEqual(['extract:evt_2']);
      expect(await ids({ kinds: [], limit: 10 })).toEqual([]);
      expect(await ids({ limit: 10 }, 't2')).toEqual(['extract:evt_9']);
      const [failed] = await storage.service.listJobs({ tenant_id: 't1', statuses: ['failed'], limit: 1 });
      expect(failed).toMatchObject({
        kind: 'extract',
        attempts: 1,
        last_error: 'invalid twice',
        lease_until: null,
        payload: { scope: { user_id: 'u1' } },
      });
    });
  });
}
