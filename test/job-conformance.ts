// The background job queue, in the storage conformance suite: a job is queued once per id, claimed by
// one worker at a time with a lease, claimed again when the lease ends, finished once.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { StorageAdapter } from '../src/index.js';
import type { Job } from '../src/spec/storage.js';
import type { ConformanceInitializer } from './storage-conformance.js';

const T0 = '2026-06-01T12:00:00.000Z';
const LATER = '2026-06-01T12:10:00.000Z';

function job(id: string, tenant = 't1'): Job {
  return { tenant_id: tenant, id, kind: 'reflect', payload: { scope: { user_id: 'u1', agent_id: 'a1', run_id: id } }, status: 'pending', attempts: 0, lease_until: null, last_error: null, created_at: T0, updated_at: T0 };
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
      await storage.write([{ op: 'enqueue_job', job: job('reflect:u1/a1/r1') }, { op: 'enqueue_job', job: job('reflect:u1/a1/r1') }, { op: 'enqueue_job', job: job('reflect:u1/a1/r2') }]);
      const first = await storage.claimJobs(['reflect'], 1, T0, '2026-06-01T12:05:00.000Z');
      expect(first.map((entry) => [entry.id, entry.status, entry.attempts])).toEqual([['reflect:u1/a1/r1', 'running', 1]]);
      const second = await storage.claimJobs(['reflect'], 5, T0, '2026-06-01T12:05:00.000Z');
      expect(second.map((entry) => entry.id)).toEqual(['reflect:u1/a1/r2']);
      expect(await storage.claimJobs(['reflect'], 5, T0, '2026-06-01T12:05:00.000Z')).toEqual([]);
      await storage.completeJob('t1', 'reflect:u1/a1/r1', 'done', null, T0);
      await expect(storage.completeJob('t1', 'reflect:u1/a1/r1', 'done', null, T0)).rejects.toMatchObject({ code: 'NOT_FOUND' });
      // The second worker died: its lease ends and the job is claimed again, one attempt more.
      const again = await storage.claimJobs(['reflect'], 5, LATER, '2026-06-01T12:15:00.000Z');
      expect(again.map((entry) => [entry.id, entry.attempts])).toEqual([['reflect:u1/a1/r2', 2]]);
      await storage.completeJob('t1', 'reflect:u1/a1/r2', 'pending', 'try again', LATER);
      expect((await storage.claimJobs(['reflect'], 5, LATER, '2026-06-01T12:20:00.000Z')).map((entry) => [entry.id, entry.attempts, entry.last_error])).toEqual([['reflect:u1/a1/r2', 3, 'try again']]);
      await storage.completeJob('t1', 'reflect:u1/a1/r2', 'failed', 'gave up', LATER);
      expect(await storage.claimJobs(['reflect'], 5, '2026-06-02T00:00:00.000Z', '2026-06-02T00:05:00.000Z')).toEqual([]);
      // A finished job's id stays taken: the same run ending again queues nothing.
      await storage.write([{ op: 'enqueue_job', job: job('reflect:u1/a1/r1') }]);
      expect(await storage.claimJobs(['reflect'], 5, LATER, '2026-06-01T12:30:00.000Z')).toEqual([]);
    });

    it('keeps tenants apart: the same job id in two tenants is two jobs', async () => {
      await storage.write([{ op: 'enqueue_job', job: job('reflect:u1/a1/r1', 't1') }, { op: 'enqueue_job', job: job('reflect:u1/a1/r1', 't2') }]);
      const claimed = await storage.claimJobs(['reflect'], 5, T0, '2026-06-01T12:05:00.000Z');
      expect(claimed.map((entry) => entry.tenant_id).sort()).toEqual(['t1', 't2']);
      await expect(storage.completeJob('t3', 'reflect:u1/a1/r1', 'done', null, T0)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    });
  });
}
