// Background jobs: claim queued work with a lease, run it, record the outcome. The work is a
// reflection over a run that ended, or a turn's LLM extraction (claimed only by an Engram with a
// model). A failure is tried again after a growing pause (30 s, 2 min, 8 min) a bounded number of
// times, then recorded on the job as failed; work that can never succeed fails at once.

import { EngramError } from '../spec/errors.js';
import type { ReflectRequest, ReflectResult } from '../spec/reflection.js';
import type { Job, StorageAdapter } from '../spec/storage.js';

const LEASE_MS = 5 * 60_000;
/** Attempts in all before a job is recorded as failed. */
const MAX_ATTEMPTS: Readonly<Record<Job['kind'], number>> = { reflect: 3, extract: 4 };
const FIRST_RETRY_MS = 30_000;
const MAX_ERROR_CHARS = 2000;

export interface JobContext {
  storage: StorageAdapter;
  now: () => string;
  reflect: (request: ReflectRequest) => Promise<ReflectResult>;
  /**
   * Runs an extraction job, finishing it in the transaction of its writes; null when this Engram has
   * no LLM: extraction jobs then wait for a worker that has one.
   */
  extract: ((job: Job) => Promise<'done' | 'failed'>) | null;
}

/**
 * A job to queue: pending, never tried.
 *
 * @example
 * ops.push({ op: 'enqueue_job', job: queuedJob(scope.tenant_id, 'reflect:mira/assistant/r1', 'reflect', { scope }, now) });
 */
export function queuedJob(
  tenantId: string,
  id: string,
  kind: Job['kind'],
  payload: Record<string, unknown>,
  now: string,
): Job {
  return {
    tenant_id: tenantId,
    id,
    kind,
    payload,
    status: 'pending',
    attempts: 0,
    lease_until: null,
    last_error: null,
    created_at: now,
    updated_at: now,
  };
}

/** What one run of the jobs did. */
export interface JobRun {
  done: number;
  failed: number;
  retried: number;
}

/**
 * When a job that failed its `attempts`-th attempt is tried again: 30 s after the first, then four
 * times longer each time.
 *
 * @example
 * retryAt('2026-06-01T12:00:00.000Z', 2) // '2026-06-01T12:02:00.000Z'
 */
export function retryAt(now: string, attempts: number): string {
  return new Date(Date.parse(now) + FIRST_RETRY_MS * 4 ** Math.max(0, attempts - 1)).toISOString();
}

/** Errors no retry can mend: the work is gone (NOT_FOUND) or its record is not one (VALIDATION_FAILED). */
function isFinal(error: unknown): boolean {
  return EngramError.isInstance(error) && (error.code === 'NOT_FOUND' || error.code === 'VALIDATION_FAILED');
}

function messageOf(error: unknown): string {
  const message = EngramError.isInstance(error)
    ? `${error.code}: ${error.message}`
    : error instanceof Error
      ? error.message
      : String(error);
  return message.slice(0, MAX_ERROR_CHARS);
}

async function reflectJob(context: JobContext, job: Job): Promise<'done'> {
  const scope = job.payload['scope'] as ReflectRequest['scope'];
  await context.reflect({ scope: { ...scope, tenant_id: job.tenant_id } });
  await context.storage.service.completeJob(job.tenant_id, job.id, 'done', null, context.now());
  return 'done';
}

/** Records a failed attempt: pending again after its backoff, or failed for good. */
async function recordFailure(context: JobContext, job: Job, error: unknown): Promise<'failed' | 'retried'> {
  const final = job.attempts >= MAX_ATTEMPTS[job.kind] || isFinal(error);
  const now = context.now();
  try {
    if (final) await context.storage.service.completeJob(job.tenant_id, job.id, 'failed', messageOf(error), now);
    else
      await context.storage.service.completeJob(
        job.tenant_id,
        job.id,
        'pending',
        messageOf(error),
        now,
        retryAt(now, job.attempts),
      );
  } catch (recordError) {
    // Erased while it ran (its user is gone): nothing is left to record.
    if (!(EngramError.isInstance(recordError) && recordError.code === 'NOT_FOUND')) throw recordError;
  }
  return final ? 'failed' : 'retried';
}

/**
 * Claims up to `max` jobs and runs them one after another.
 *
 * @example
 * const { done } = await runJobs(context, 4);
 */
export async function runJobs(context: JobContext, max: number): Promise<JobRun> {
  const now = context.now();
  const kinds: Job['kind'][] = context.extract === null ? ['reflect'] : ['reflect', 'extract'];
  const jobs = await context.storage.service.claimJobs(
    kinds,
    max,
    now,
    new Date(Date.parse(now) + LEASE_MS).toISOString(),
  );
  const run: JobRun = { done: 0, failed: 0, retried: 0 };
  for (const job of jobs) {
    try {
      const outcome = job.kind === 'extract' ? await context.extract!(job) : await reflectJob(context, job);
      run[outcome] += 1;
    } catch (error) {
      run[await recordFailure(context, job, error)] += 1;
    }
  }
  return run;
}
