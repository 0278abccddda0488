// The insight lifecycle (MemoryPacket v1 §5): hypotheses, strategy sketches and patterns start
// `unvalidated`, may be put to the test, and end `validated` or `rejected`. Every change is kept in
// the insight's history with who made it and when, so the state at any past time can be told (a
// replayed packet shows the insights as they were). A validated insight can be promoted to a fact
// or a procedure; the insight stays as the item's provenance.

import { ConflictError, ValidationError } from '../spec/errors.js';
import type { ItemCandidate, MemoryType } from '../spec/items.js';
import type { InsightRecord, InsightTrigger, InsightType, ValidationState } from '../spec/reflection.js';
import { newId } from '../util/ids.js';
import type { CandidateScope } from './candidates.js';

/** A change refused because of the insight's current state. */
function stateConflict(field: string, message: string): ConflictError {
  return new ConflictError(`${field}: ${message}`, { field, origin: 'caller' });
}

/** The states an insight may move to from each state. `rejected` is final. */
const NEXT: Readonly<Record<ValidationState, readonly ValidationState[]>> = {
  unvalidated: ['testing', 'validated', 'rejected'],
  testing: ['validated', 'rejected', 'unvalidated'],
  validated: ['rejected'],
  rejected: [],
};

export interface NewInsight {
  type: InsightType;
  statement: string;
  trigger?: InsightTrigger;
  /** Default 0.3: an insight is a guess until tested. */
  confidence?: number;
  tests_suggested?: string[];
  /** `run_end` (default), a time, or null for no expiry. */
  expires_at?: string | null;
  sources?: string[];
  candidate_id?: string | null;
}

/**
 * A new insight of a run, `unvalidated`, created by `by` at `now`.
 *
 * @example
 * const insight = newInsight(scope, { type: 'hypothesis', statement: 'The flaky test is a race' }, 'agent', now);
 */
export function newInsight(scope: CandidateScope, fields: NewInsight, by: string, now: string): InsightRecord {
  return {
    id: newId('ins'),
    ...scope,
    type: fields.type,
    statement: fields.statement,
    trigger: fields.trigger ?? 'synthesis',
    confidence: fields.confidence ?? 0.3,
    validation_state: 'unvalidated',
    tests_suggested: fields.tests_suggested ?? [],
    expires_at: fields.expires_at === undefined ? 'run_end' : fields.expires_at,
    sources: fields.sources ?? [],
    expired_at: null,
    promoted_to: null,
    candidate_id: fields.candidate_id ?? null,
    history: [{ state: 'unvalidated', by, at: now, note: null }],
    version: 1,
    created_at: now,
    updated_at: now,
  };
}

/** Whether an insight is past its expiry at `at` (the run ended, or its time passed). */
export function isExpired(insight: InsightRecord, at: string): boolean {
  if (insight.expired_at !== null && insight.expired_at <= at) return true;
  return insight.expires_at !== null && insight.expires_at !== 'run_end' && insight.expires_at <= at;
}

/**
 * The insight after moving to `state`; refuses a move the lifecycle does not allow or a change to
 * an expired insight (STATE_VERSION_CONFLICT on field `validation_state`).
 *
 * @example
 * const tested = transition(insight, 'testing', 'mira', now, 'asked the user');
 */
export function transition(
  insight: InsightRecord,
  state: ValidationState,
  by: string,
  now: string,
  note: string | null,
): InsightRecord {
  if (isExpired(insight, now))
    throw stateConflict('validation_state', `insight ${insight.id} has expired; it can no longer change`);
  if (!NEXT[insight.validation_state].includes(state)) {
    throw stateConflict(
      'validation_state',
      `insight ${insight.id} is ${insight.validation_state}; it can move to ${NEXT[insight.validation_state].join(', ') || 'nothing (rejected is final)'}, not ${state}`,
    );
  }
  return {
    ...insight,
    validation_state: state,
    history: [...insight.history, { state, by, at: now, note }],
    version: insight.version + 1,
    updated_at: now,
  };
}

/**
 * The insight's validation state at a past time, or null when it did not exist yet.
 *
 * @example
 * stateAt(insight, build.as_of) // 'testing'
 */
export function stateAt(insight: InsightRecord, at: string): ValidationState | null {
  let state: ValidationState | null = null;
  for (const step of insight.history) if (step.at <= at) state = step.state;
  return state;
}

/** What a validated insight becomes: a fact type or a procedure, with its key and value. */
export interface Promotion {
  type: MemoryType;
  key: string;
  value: Record<string, unknown>;
}

/**
 * The item candidate that promotes a validated insight; its provenance names the insight.
 *
 * @example
 * const candidate = promotionOf(insight, { type: 'procedure', key: 'procedure:deploy:canary', value });
 */
export function promotionOf(insight: InsightRecord, promotion: Promotion, now: string): ItemCandidate {
  if (insight.validation_state !== 'validated') {
    throw ValidationError.of(
      'insight_id',
      'validated',
      `insight ${insight.id} is ${insight.validation_state}; only a validated insight can be promoted`,
    );
  }
  if (insight.promoted_to !== null)
    throw stateConflict('insight_id', `insight ${insight.id} was already promoted to ${insight.promoted_to}`);
  if (isExpired(insight, now)) throw stateConflict('insight_id', `insight ${insight.id} has expired`);
  return {
    action: 'upsert',
    type: promotion.type,
    key: promotion.key,
    value: promotion.value,
    confidence: Math.max(insight.confidence, 0.7),
    rule: `insight:${insight.id}`,
    gate: 'must',
    source_event_ids: insight.sources.filter((id) => id.startsWith('evt_')),
    evidence_refs: [
      { kind: 'document', ref: insight.id, note: `promoted ${insight.type}: ${insight.statement.slice(0, 200)}` },
    ],
  };
}
