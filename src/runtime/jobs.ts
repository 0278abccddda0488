// Background jobs: claim queued work with a lease, run it, record the outcome. Today the work is a
// reflection over a run that ended; a failure is tried again (three attempts in all), then recorded.

import { EngramError } from '../spec/errors.js';
import type { ReflectRequest, ReflectResult } from '../spec/reflection.js';
import type { StorageAdapter } from '../spec/storage.js';

const LEASE_MS = 5 * 60_000;
const MAX_ATTEMPTS = 3;

export interface JobContext {
  storage: StorageAdapter;
  now: () => string;
  reflect: (request: ReflectRequest) => Promise<ReflectResult>;
}

/** What one run of the jobs did. */
export interface JobRun {
  done: number;
  failed: number;
  retried: number;
}

/**
 * Claims up to `max` jobs and runs them one after another.
 *
 * @example
 * const { done } = await runJobs(context, 4);
 */
export async function runJobs(context: JobContext, max: number): Promise<JobRun> {
  const now = context.now();
  const jobs = await context.storage.claimJobs(['reflect'], max, now, new Date(Date.parse(now) + LEASE_MS).toISOString());
  const run: JobRun = { done: 0, failed: 0, retried: 0 };
  for (const job of jobs) {
    try {
      const scope = job.payload['scope'] as ReflectRequest['scope'];
      await context.reflect({ scope: { ...scope, tenant_id: job.tenant_id } });
      await context.storage.completeJob(job.tenant_id, job.id, 'done', null, context.now());
      run.done += 1;
    } catch (error) {
      const message = EngramError.isInstance(error) ? `${error.code}: ${error.message}` : error instanceof Error ? error.message : String(error);
      const final = job.attempts >= MAX_ATTEMPTS || (EngramError.isInstance(error) && error.code === 'NOT_FOUND');
      await context.storage.completeJob(job.tenant_id, job.id, final ? 'failed' : 'pending', message.slice(0, 2000), context.now());
      if (final) run.failed += 1;
      else run.retried += 1;
    }
  }
  return run;
}
