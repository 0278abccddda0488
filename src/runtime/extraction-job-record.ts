// The record of a turn's LLM extraction job. The commit queues it with the turn, so it survives a
// crash; its payload names the turn's scope (an erase finds it by user and run), the events the
// model may read and when the turn was recorded, and is checked when read back from the store.

import { ValidationError } from '../spec/errors.js';
import type { ExtractionEvent } from '../spec/items.js';
import type { Scope } from '../spec/scope.js';
import type { Job } from '../spec/storage.js';
import { queuedJob } from './jobs.js';

/** What an extraction job reads: the turn and the events of it the model may read. */
export interface ExtractionPayload {
  scope: Pick<Scope, 'user_id' | 'agent_id' | 'session_id' | 'run_id'>;
  turn_id: string | null;
  event_ids: string[];
  /** When the turn was recorded: what its items hold from, unless their events say otherwise. */
  recorded_at: string;
}

/**
 * The job that asks the LLM about a turn, queued once per turn (its id names the turn's first event).
 *
 * @example
 * ops.push({ op: 'enqueue_job', job: extractionJob(scope, 't3', shown, recordedAt) });
 */
export function extractionJob(
  scope: Scope,
  turnId: string | null,
  shown: readonly ExtractionEvent[],
  recordedAt: string,
): Job {
  const payload: ExtractionPayload = {
    scope: { user_id: scope.user_id, agent_id: scope.agent_id, session_id: scope.session_id, run_id: scope.run_id },
    turn_id: turnId,
    event_ids: shown.map((event) => event.event_id),
    recorded_at: recordedAt,
  };
  return queuedJob(scope.tenant_id, `extract:${shown[0]!.event_id}`, 'extract', { ...payload }, recordedAt);
}

const isText = (value: unknown): value is string => typeof value === 'string' && value !== '';

/**
 * The payload of a stored extraction job, checked; VALIDATION_FAILED naming the field when it is not one.
 *
 * @example
 * const { scope, event_ids } = extractionPayload(job);
 */
export function extractionPayload(job: Job): ExtractionPayload {
  const payload = job.payload;
  const scope = payload['scope'] as Record<string, unknown> | null | undefined;
  const fail = (field: string, message: string): never => {
    throw ValidationError.of(`payload.${field}`, 'extraction_job', message);
  };
  if (typeof scope !== 'object' || scope === null) return fail('scope', "must be the turn's scope");
  for (const name of ['user_id', 'agent_id', 'session_id', 'run_id'] as const)
    if (!isText(scope[name])) fail(`scope.${name}`, 'must be a non-empty string');
  const ids = payload['event_ids'];
  if (!Array.isArray(ids) || ids.length === 0 || !ids.every(isText))
    fail('event_ids', 'must list the event ids of the turn');
  if (!isText(payload['recorded_at'])) fail('recorded_at', 'must be the time the turn was recorded');
  const turnId = payload['turn_id'];
  if (turnId !== null && !isText(turnId)) fail('turn_id', 'must be the turn id or null');
  return {
    scope: {
      user_id: scope['user_id'] as string,
      agent_id: scope['agent_id'] as string,
      session_id: scope['session_id'] as string,
      run_id: scope['run_id'] as string,
    },
    turn_id: turnId as string | null,
    event_ids: [...(ids as string[])],
    recorded_at: payload['recorded_at'] as string,
  };
}
