// Runs a turn's LLM extraction job for the background worker: reads the turn's events, asks the
// model once (an invalid answer is retried once inside), and merges what the retention gate accepts
// through the same merger as a commit, in one transaction with the job's completion. The items carry
// the time they are written as recorded_at (a build as of an earlier time never sees them) and hold
// from when their events state them; what later turns changed meanwhile stays. An answer invalid
// twice finishes the job as failed with memory untouched; a transport error rejects, so the job
// runner retries it with backoff.

import { EngramError } from '../spec/errors.js';
import type { EventRecord } from '../spec/event.js';
import type { ExtractionFailureRecord } from '../spec/requests.js';
import type { Scope } from '../spec/scope.js';
import type { Job, StorageAdapter, WriteOp } from '../spec/storage.js';
import { extractionEvents } from '../items/extraction-events.js';
import { extractionPayload } from './extraction-job-record.js';
import { askModel, shownToModel } from './llm-extraction.js';
import { LongTermWriter, type LongTermConfig } from './long-term-writer.js';
import { writeWithRetry } from './write-retry.js';

export interface ExtractionJobContext {
  storage: StorageAdapter;
  now: () => string;
  longTerm: LongTermConfig;
}

/** What a job ended as: its items written (or nothing to write), or the model's answer unusable. */
export type ExtractionJobOutcome = 'done' | 'failed';

const MAX_ERROR_CHARS = 2000;

/**
 * The failure of an answer invalid twice, as one line for the job's `last_error`.
 *
 * @example
 * describeFailure({ extractor: 'llm:extract-items@2', model: 'qwen2.5', reason: 'invalid', attempts: 2, raw: '{}', issues: [] })
 * // 'llm:extract-items@2 (qwen2.5): answer invalid after 2 attempts; last answer: {}'
 */
export function describeFailure(failure: ExtractionFailureRecord): string {
  const issues = failure.issues
    .slice(0, 3)
    .map((issue) => `${issue.field || 'answer'}: ${issue.message} [rule: ${issue.rule}]`);
  const head = `${failure.extractor}${failure.model === undefined ? '' : ` (${failure.model})`}: answer ${failure.reason} after ${failure.attempts} attempts`;
  return [head, ...issues].join('; ').concat(`; last answer: ${failure.raw}`).slice(0, MAX_ERROR_CHARS);
}

function finished(job: Job, status: ExtractionJobOutcome, error: string | null, now: string): WriteOp {
  return { op: 'complete_job', tenant_id: job.tenant_id, job_id: job.id, status, error, now };
}

/**
 * Runs one claimed extraction job to its end: `done` (its items written with its completion) or
 * `failed` (the answer was invalid twice; recorded on the job). Rejects on a transport error.
 *
 * @example
 * const outcome = await runExtractionJob({ storage, now, longTerm }, job);
 */
export async function runExtractionJob(context: ExtractionJobContext, job: Job): Promise<ExtractionJobOutcome> {
  const llm = context.longTerm.llm;
  if (llm === null)
    throw new EngramError('CONFIG_INVALID', 'extraction.llm: an extraction job needs the model it was queued for', {
      field: 'extraction.llm',
    });
  const payload = extractionPayload(job);
  const scope: Scope = { tenant_id: job.tenant_id, ...payload.scope };
  const read = context.now();
  // Events erased or expired since the commit are gone: the model reads what is left.
  const events = (
    await Promise.all(payload.event_ids.map((id) => context.storage.events.get(job.tenant_id, id, read)))
  ).filter((event): event is EventRecord => event !== null);
  const extractable = extractionEvents(events);
  const shown = shownToModel(llm, events, extractable);
  if (shown.length === 0) {
    await context.storage.write([finished(job, 'done', null, context.now())]);
    return 'done';
  }
  const answer = await askModel(
    llm,
    shown,
    await new LongTermWriter(context.storage, context.longTerm).knownKeys(scope),
  );
  if (answer.failure !== null) {
    await context.storage.write([finished(job, 'failed', describeFailure(answer.failure), context.now())]);
    return 'failed';
  }
  // Learned when the turn was recorded (preferences and facts: when their events state them).
  const candidates = answer.candidates.map((candidate) => ({
    ...candidate,
    valid_from: candidate.valid_from ?? payload.recorded_at,
  }));
  // Another writer changed an item this job supersedes: plan again on top of it (the answer stays).
  await writeWithRetry(context.storage, async () => {
    const now = context.now();
    const planned = await new LongTermWriter(context.storage, context.longTerm, { late: true }).plan(
      scope,
      events,
      extractable,
      candidates,
      now,
    );
    return [...planned.ops, finished(job, 'done', null, now)];
  });
  return 'done';
}
