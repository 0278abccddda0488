// The state of a long run, changed by what each turn records (`run` in commit_turn) and by its
// markers, plus the compaction cadence: only terminal markers and steps count, verbose events never.
// Pure: times come in as arguments; the caller writes the state and the ledger entries.

import type {
  Claim,
  CompactionConfig,
  Conflict,
  EvidenceInput,
  LedgerEntry,
  RunFailure,
  RunKey,
  RunPayload,
  RunState,
} from '../spec/compaction.js';
import { EngramError, ValidationError } from '../spec/errors.js';
import { TERMINAL_MARKERS, type EventRecord, type Marker } from '../spec/event.js';
import { canonicalJson, jsonEqual } from './canonical-json.js';
import { ID_LIMITS, checkId, pointerOf, toLedgerEntry, toPointer } from './evidence.js';

/** The spec's MVP cadence: 18 counted events (about six steps), or 8 steps; provenance `audit_only`. */
export const DEFAULT_COMPACTION: Readonly<CompactionConfig> = Object.freeze({
  eventThreshold: 18,
  stepFallback: 8,
  provenanceMode: 'audit_only',
  policySnapshotRef: null,
});

/**
 * Bounds on what a run may hold, so a snapshot (rewritten whole every compaction) stays small.
 * Breaking one throws ValidationError (`rule` maxItems or maxLength, `field` under `run`).
 */
export const RUN_LIMITS = Object.freeze({
  claims: 2_000,
  conflicts: 500,
  failures: 500,
  openQuestions: 200,
  /** Entries of any one list of a single payload (claims, conflicts, evidence, questions…). */
  perTurn: 500,
  /** Sources of `sources_seen` in a single payload. */
  sourcesPerTurn: 1_000,
  /** Pointers of one claim, or of one side of a conflict. */
  pointersPerItem: 100,
  /** A claim's statement, a conflict's description, a failure's `why`, a question. */
  statementChars: 4_000,
  /** A failure's category and where. */
  shortTextChars: 2_000,
  /** The objective, and the done definition as canonical JSON. */
  objectiveChars: 10_000,
  sourcesSeen: 5_000,
  chunksSeen: 20_000,
});

/** What applyRunPayload needs besides the state: the run's shareable events and the time. */
export interface RunPayloadContext {
  /** The run's events that may back evidence, by id (secret events may be left out: they never count). */
  events: ReadonlyMap<string, EventRecord>;
  now: string;
  /** The session of the turn (becomes the state's `session_id`). */
  session_id?: string;
  /** Where the payload sits in the caller's request, for the fields of its errors (default `run`; a batch's `turns[2].run`). */
  path?: string;
}

/** The compaction counters of a run. */
export interface RunCounters {
  counted_since: number;
  steps_since: number;
}

/**
 * A new run's state: nothing recorded, counters at zero, version 0.
 *
 * @example
 * emptyRunState({ tenant_id: 'default', user_id: 'u', agent_id: 'a', run_id: 'r' }, 's1', now).sequence // 0
 */
export function emptyRunState(key: RunKey, session_id: string, now: string): RunState {
  return {
    tenant_id: key.tenant_id,
    user_id: key.user_id,
    agent_id: key.agent_id,
    run_id: key.run_id,
    objective: null,
    done_definition: null,
    status: 'active',
    stop_reason: null,
    claims: [],
    conflicts: [],
    failures: [],
    open_questions: [],
    source_ids_seen: [],
    chunk_ids_seen: [],
    counted_since: 0,
    steps_since: 0,
    sequence: 0,
    latest_snapshot_id: null,
    last_snapshot_at: null,
    session_id,
    version: 0,
    updated_at: now,
  };
}

/**
 * The state after one turn's `run` payload, and the ledger entries it records (every pointer the
 * payload gives: its `evidence` and the evidence of its claims and conflicts, once each, in order).
 * - objective, done_definition: set when absent; a different later value replaces it here, and the
 *   next snapshot then fails `objective_stable` / `done_definition_stable` (the run stops): a run's
 *   objective is fixed by its first snapshot.
 * - claims, conflicts, failures: upserted by id, keeping the recorded position; a claim without
 *   `evidence` keeps its previous pointers (so a candidate can be promoted to verified). A verified
 *   claim without pointers or a conflict with an empty side is refused here (rules
 *   `verified_needs_evidence`, `two_sided`) rather than left to stop the run at the next gate.
 * - open_questions: added (deduplicated, in order) then resolved (removed; unknown ones ignored).
 * - sources_seen and every pointer's source and chunk: appended to source/chunk ids seen, once.
 * `version` is left alone: the writer bumps it. Throws ValidationError on a bad pointer or a
 * broken RUN_LIMITS cap, its field under `context.path`.
 *
 * @example
 * applyRunPayload(state, { objective: 'Compare two vendors', evidence: [{ event_id }] }, { events, now }).ledger.length // 1
 */
export function applyRunPayload(
  state: RunState,
  payload: RunPayload,
  context: RunPayloadContext,
): { state: RunState; ledger: LedgerEntry[] } {
  const at = context.path ?? 'run';
  const ledger = new Map<string, LedgerEntry>();
  const resolve = (inputs: readonly EvidenceInput[] | undefined, field: string, cap: number) => {
    checkCount(inputs?.length ?? 0, cap, field);
    const pointers = new Map<string, LedgerEntry>();
    (inputs ?? []).forEach((input, index) => {
      const entry = toLedgerEntry(pointerOf(input, context.events, `${field}[${index}]`), context.now);
      if (!ledger.has(entry.evidence_id)) ledger.set(entry.evidence_id, entry);
      if (!pointers.has(entry.evidence_id)) pointers.set(entry.evidence_id, entry);
    });
    return [...pointers.values()].map(toPointer);
  };
  resolve(payload.evidence, `${at}.evidence`, RUN_LIMITS.perTurn);
  const next: RunState = {
    ...state,
    ...objectiveOf(state, payload, at),
    claims: upsertClaims(state.claims, payload.claims, resolve, at),
    conflicts: upsertConflicts(state.conflicts, payload.conflicts, resolve, at),
    failures: upsertFailures(state.failures, payload.failures, at),
    open_questions: applyQuestions(state.open_questions, payload.open_questions, at),
    session_id: context.session_id ?? state.session_id,
    updated_at: context.now,
  };
  const entries = [...ledger.values()];
  const sources = (payload.sources_seen ?? []).map((seen) => seen.source_id);
  checkCount(sources.length, RUN_LIMITS.sourcesPerTurn, `${at}.sources_seen`);
  const sourceIds = [...sources, ...entries.flatMap((entry) => (entry.source_id === null ? [] : [entry.source_id]))];
  next.source_ids_seen = appendSeen(
    state.source_ids_seen,
    sourceIds,
    RUN_LIMITS.sourcesSeen,
    ID_LIMITS.source,
    `${at}.sources_seen`,
  );
  const chunks = [
    ...(payload.sources_seen ?? []).flatMap((seen) => seen.chunk_ids ?? []),
    ...entries.map((entry) => entry.chunk_id),
  ];
  next.chunk_ids_seen = appendSeen(
    state.chunk_ids_seen,
    chunks,
    RUN_LIMITS.chunksSeen,
    ID_LIMITS.chunk,
    `${at}.sources_seen`,
  );
  return { state: next, ledger: entries };
}

type Resolve = (inputs: readonly EvidenceInput[] | undefined, field: string, cap: number) => Claim['evidence_refs'];

function objectiveOf(
  state: RunState,
  payload: RunPayload,
  at: string,
): Pick<RunState, 'objective' | 'done_definition'> {
  let { objective, done_definition } = state;
  if (payload.objective !== undefined) {
    checkText(payload.objective, RUN_LIMITS.objectiveChars, `${at}.objective`, true);
    objective = payload.objective;
  }
  const done = payload.done_definition;
  if (done !== undefined) {
    const isObject = typeof done === 'object' && done !== null && !Array.isArray(done);
    if (typeof done !== 'string' && !isObject)
      throw ValidationError.of(`${at}.done_definition`, 'type', 'must be a string or an object');
    const text = typeof done === 'string' ? done : canonicalJson(done);
    if ((typeof done === 'string' ? done.trim() : Object.keys(done)).length === 0) {
      throw ValidationError.of(`${at}.done_definition`, 'minLength', 'must not be empty');
    }
    checkText(text, RUN_LIMITS.objectiveChars, `${at}.done_definition`);
    if (done_definition === null || !jsonEqual(done_definition, done)) done_definition = done;
  }
  return { objective, done_definition };
}

function upsertClaims(claims: readonly Claim[], inputs: RunPayload['claims'], resolve: Resolve, at: string): Claim[] {
  checkCount(inputs?.length ?? 0, RUN_LIMITS.perTurn, `${at}.claims`);
  const byId = new Map(claims.map((claim) => [claim.claim_id, claim]));
  (inputs ?? []).forEach((input, index) => {
    const field = `${at}.claims[${index}]`;
    checkId(input.claim_id, `${field}.claim_id`);
    if (!['verified', 'candidate', 'retracted'].includes(input.status)) {
      throw ValidationError.of(`${field}.status`, 'enum', 'must be one of ["verified","candidate","retracted"]');
    }
    checkText(input.statement, RUN_LIMITS.statementChars, `${field}.statement`);
    const previous = byId.get(input.claim_id);
    const evidence_refs =
      input.evidence === undefined && previous !== undefined
        ? previous.evidence_refs
        : resolve(input.evidence, `${field}.evidence`, RUN_LIMITS.pointersPerItem);
    if (input.status === 'verified' && evidence_refs.length === 0) {
      throw ValidationError.of(
        `${field}.evidence`,
        'verified_needs_evidence',
        `verified claim ${JSON.stringify(input.claim_id)} needs at least one evidence pointer`,
      );
    }
    byId.set(input.claim_id, {
      claim_id: input.claim_id,
      status: input.status,
      statement: input.statement,
      evidence_refs,
    });
  });
  checkCount(byId.size, RUN_LIMITS.claims, `${at}.claims`, 'the run');
  return [...byId.values()];
}

function upsertConflicts(
  conflicts: readonly Conflict[],
  inputs: RunPayload['conflicts'],
  resolve: Resolve,
  at: string,
): Conflict[] {
  checkCount(inputs?.length ?? 0, RUN_LIMITS.perTurn, `${at}.conflicts`);
  const byId = new Map(conflicts.map((conflict) => [conflict.conflict_id, conflict]));
  (inputs ?? []).forEach((input, index) => {
    const field = `${at}.conflicts[${index}]`;
    checkId(input.conflict_id, `${field}.conflict_id`);
    checkText(input.description, RUN_LIMITS.statementChars, `${field}.description`);
    const side_a_refs = resolve(input.side_a, `${field}.side_a`, RUN_LIMITS.pointersPerItem);
    const side_b_refs = resolve(input.side_b, `${field}.side_b`, RUN_LIMITS.pointersPerItem);
    if (side_a_refs.length === 0 || side_b_refs.length === 0) {
      throw ValidationError.of(
        `${field}.${side_a_refs.length === 0 ? 'side_a' : 'side_b'}`,
        'two_sided',
        `conflict ${JSON.stringify(input.conflict_id)} needs evidence on both sides`,
      );
    }
    byId.set(input.conflict_id, {
      conflict_id: input.conflict_id,
      description: input.description,
      side_a_refs,
      side_b_refs,
    });
  });
  checkCount(byId.size, RUN_LIMITS.conflicts, `${at}.conflicts`, 'the run');
  return [...byId.values()];
}

function upsertFailures(failures: readonly RunFailure[], inputs: RunFailure[] | undefined, at: string): RunFailure[] {
  checkCount(inputs?.length ?? 0, RUN_LIMITS.perTurn, `${at}.failures`);
  const byId = new Map(failures.map((failure) => [failure.failure_id, failure]));
  (inputs ?? []).forEach((input, index) => {
    const field = `${at}.failures[${index}]`;
    checkId(input.failure_id, `${field}.failure_id`);
    checkText(input.category, RUN_LIMITS.shortTextChars, `${field}.category`);
    checkText(input.where, RUN_LIMITS.shortTextChars, `${field}.where`);
    checkText(input.why, RUN_LIMITS.statementChars, `${field}.why`);
    byId.set(input.failure_id, {
      failure_id: input.failure_id,
      category: input.category,
      where: input.where,
      why: input.why,
    });
  });
  checkCount(byId.size, RUN_LIMITS.failures, `${at}.failures`, 'the run');
  return [...byId.values()];
}

function applyQuestions(questions: readonly string[], change: RunPayload['open_questions'], at: string): string[] {
  const add = change?.add ?? [];
  const resolved = new Set(change?.resolve ?? []);
  checkCount(add.length, RUN_LIMITS.perTurn, `${at}.open_questions.add`);
  checkCount(resolved.size, RUN_LIMITS.perTurn, `${at}.open_questions.resolve`);
  add.forEach((question, index) =>
    checkText(question, RUN_LIMITS.statementChars, `${at}.open_questions.add[${index}]`, true),
  );
  const next = [...new Set([...questions, ...add])].filter((question) => !resolved.has(question));
  checkCount(next.length, RUN_LIMITS.openQuestions, `${at}.open_questions`, 'the run');
  return next;
}

function appendSeen(
  seen: readonly string[],
  added: readonly string[],
  cap: number,
  maxChars: number,
  field: string,
): string[] {
  added.forEach((id) => checkId(id, field, maxChars));
  const next = [...new Set([...seen, ...added])];
  checkCount(next.length, cap, field, 'the run');
  return next;
}

/**
 * `state` with its counters moved on by a turn's markers: PLAN_DONE, ACT_DONE and OBSERVE_DONE add
 * one counted event each, STEP_DONE adds one step, anything else (RUN_END) adds nothing. Verbose
 * events carry no marker, so they never move the cadence.
 *
 * @example
 * countMarkers({ counted_since: 0, steps_since: 0 }, ['PLAN_DONE', 'ACT_DONE', 'STEP_DONE']) // { counted_since: 2, steps_since: 1 }
 */
export function countMarkers<T extends RunCounters>(state: T, markers: readonly Marker[]): T {
  let { counted_since, steps_since } = state;
  for (const marker of markers) {
    if (TERMINAL_MARKERS.includes(marker)) counted_since += 1;
    else if (marker === 'STEP_DONE') steps_since += 1;
  }
  return { ...state, counted_since, steps_since };
}

/**
 * True when the run is due a snapshot: enough counted events, or (the fallback) enough steps.
 *
 * @example
 * shouldCompact({ counted_since: 18, steps_since: 2 }, DEFAULT_COMPACTION) // true
 */
export function shouldCompact(
  state: RunCounters,
  config: Pick<CompactionConfig, 'eventThreshold' | 'stepFallback'>,
): boolean {
  return state.counted_since >= config.eventThreshold || state.steps_since >= config.stepFallback;
}

/**
 * DEFAULT_COMPACTION with the given overrides, checked: thresholds are integers of at least 1.
 * Throws EngramError CONFIG_INVALID naming the field.
 *
 * @example
 * resolveCompactionConfig({ eventThreshold: 9 }).stepFallback // 8
 */
export function resolveCompactionConfig(overrides: Partial<CompactionConfig> = {}): CompactionConfig {
  const config = { ...DEFAULT_COMPACTION, ...overrides };
  for (const field of ['eventThreshold', 'stepFallback'] as const) {
    if (!Number.isSafeInteger(config[field]) || config[field] < 1) {
      throw new EngramError('CONFIG_INVALID', `compaction.${field} must be an integer of at least 1`, {
        field: `compaction.${field}`,
      });
    }
  }
  if (typeof config.provenanceMode !== 'string' || config.provenanceMode.length === 0) {
    throw new EngramError('CONFIG_INVALID', 'compaction.provenanceMode must be a non-empty string', {
      field: 'compaction.provenanceMode',
    });
  }
  return config;
}

function checkCount(count: number, cap: number, field: string, whose = 'one turn'): void {
  if (count > cap)
    throw ValidationError.of(field, 'maxItems', `${whose} may hold at most ${cap} entries here (got ${count})`);
}

function checkText(value: unknown, cap: number, field: string, nonEmpty = false): void {
  if (typeof value !== 'string') throw ValidationError.of(field, 'type', 'must be a string');
  if (nonEmpty && value.trim().length === 0) throw ValidationError.of(field, 'minLength', 'must not be empty');
  if (value.length > cap)
    throw ValidationError.of(field, 'maxLength', `must be at most ${cap} characters (got ${value.length})`);
}
