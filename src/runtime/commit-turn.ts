// The write path (DESIGN §4): validate, build the turn's events, apply the state patch, fold the
// events into the short-term summary, and write it all in one transaction. A repeated turn_id is a
// no-op that returns the first result. Batches share one transaction: all turns land or none. A
// state patch may cite only its user's own events.

import { ConflictError, EngramError, ValidationError } from '../spec/errors.js';
import type { EventRecord } from '../spec/event.js';
import type { CommitTurnRequest, CommitTurnResult } from '../spec/requests.js';
import { resolveScope, sessionKeyOf, type Scope, type SessionKey } from '../spec/scope.js';
import type { Job, StorageAdapter, WriteOp } from '../spec/storage.js';
import { emptySummary, type StmSummary } from '../spec/summary.js';
import type { Tokenizer } from '../spec/tokenizer.js';
import { underPath, validateCommitTurnRequest } from '../spec/validators.js';
import type { WorkingState } from '../spec/working-state.js';
import { buildTurnEvents } from '../events/build-events.js';
import { analyseEvent, type EventText } from '../events/analyze.js';
import { applyStatePatch } from '../working-memory/working-state.js';
import { foldEvents } from '../working-memory/summary.js';
import { LongTermWriter, type LongTermConfig } from './long-term-writer.js';
import { checkPatchEvidence } from './patch-evidence.js';
import { RunTracker } from './run-tracker.js';
import { queuedJob } from './jobs.js';
import { pauseBeforeRetry, WRITE_RETRIES } from './write-retry.js';
import type { CompactionConfig } from '../spec/compaction.js';
import type { Clock } from '../util/clock.js';
import { toIso } from '../util/clock.js';

export interface WritePathContext {
  storage: StorageAdapter;
  tokenizer: Tokenizer;
  clock: Clock;
  longTerm: LongTermConfig;
  compaction: CompactionConfig;
  /** Queue a reflection of each run when its RUN_END marker arrives (the background worker runs it). */
  reflectOnRunEnd: boolean;
}

function keyString(key: SessionKey): string {
  return JSON.stringify([key.tenant_id, key.user_id, key.agent_id, key.session_id]);
}

/** Session state read once per batch and carried from turn to turn inside it. */
interface SessionState {
  key: SessionKey;
  state: WorkingState | null;
  summary: StmSummary | null;
  /** The stored versions, which the write must still find. */
  storedStateVersion: number;
  storedSummaryVersion: number;
  stateChanged: boolean;
  /** Turns of this batch whose events are still to be folded into the summary. */
  unfolded: Array<{ events: EventRecord[]; result: CommitTurnResult }>;
  /** The analysed text of those events, computed once for the index and the summary. */
  analyses: Map<string, EventText>;
}

class Batch {
  readonly sessions = new Map<string, SessionState>();
  readonly turns = new Map<string, CommitTurnResult>();
  readonly ops: WriteOp[] = [];
  readonly longTerm: LongTermWriter;
  readonly runs: RunTracker;

  constructor(private readonly context: WritePathContext) {
    this.longTerm = new LongTermWriter(context.storage, context.longTerm, { batch: true });
    this.runs = new RunTracker(context.storage, context.compaction);
  }

  async session(key: SessionKey): Promise<SessionState> {
    const id = keyString(key);
    let session = this.sessions.get(id);
    if (session === undefined) {
      const [state, summary] = await Promise.all([
        this.context.storage.sessions.getWorkingState(key),
        this.context.storage.sessions.getSummary(key),
      ]);
      session = {
        key,
        state,
        summary,
        storedStateVersion: state?.state_version ?? 0,
        storedSummaryVersion: summary?.version ?? 0,
        stateChanged: false,
        unfolded: [],
        analyses: new Map(),
      };
      this.sessions.set(id, session);
    }
    return session;
  }

  /** The operations that write the batch, session state last so its version checks see every turn. */
  finalOps(): WriteOp[] {
    const updatedAt = toIso(this.context.clock.now());
    const tail: WriteOp[] = [];
    for (const session of this.sessions.values()) {
      if (session.stateChanged && session.state !== null) {
        tail.push({
          op: 'put_working_state',
          key: session.key,
          state: session.state,
          expected_version: session.storedStateVersion,
          updated_at: updatedAt,
        });
      }
      if (session.unfolded.length > 0) {
        const summary = foldTurns(session, this.context.tokenizer, updatedAt);
        tail.push({ op: 'put_summary', key: session.key, summary, expected_version: session.storedSummaryVersion });
      }
    }
    return [...this.ops, ...this.runs.ops(), ...tail];
  }
}

/**
 * Folds the batch's new events of one session into its summary at once (the same summary as
 * folding turn by turn, for a fraction of the work) and fills each turn's summary report.
 */
function foldTurns(session: SessionState, tokenizer: Tokenizer, updatedAt: string): StmSummary {
  const events = session.unfolded.flatMap((turn) => turn.events);
  const summary = foldEvents(session.summary ?? emptySummary(), events, tokenizer, updatedAt, session.analyses);
  const countOf = (sentences: StmSummary['sentences'], ids: ReadonlySet<string>) =>
    sentences.filter((sentence) => ids.has(sentence.event_id)).length;
  for (const turn of session.unfolded) {
    const ids = new Set(turn.events.map((event) => event.id));
    turn.result.summary = {
      version: summary.version,
      sentences_added: countOf(summary.sentences, ids),
      key_quotes_added: countOf(summary.key_quotes, ids),
    };
  }
  session.summary = summary;
  session.unfolded = [];
  session.analyses.clear();
  return summary;
}

async function planTurn(
  batch: Batch,
  context: WritePathContext,
  request: CommitTurnRequest,
  lookUp: boolean,
  at: TurnAt,
): Promise<CommitTurnResult> {
  const scope = resolveScope(request.scope);
  const key = sessionKeyOf(scope);
  const turnKey = `${keyString(key)}#${request.turn_id}`;
  const inBatch = batch.turns.get(turnKey);
  // The same turn twice in one batch: the same result object, copied as a replay once it is final.
  if (inBatch !== undefined) return inBatch;
  const earlier = lookUp ? await context.storage.sessions.getTurn(key, request.turn_id) : null;
  if (earlier !== null) return { ...earlier, replayed: true };

  const now = context.clock.now();
  const recordedAt = toIso(now);
  const turnTs = request.ts === undefined ? recordedAt : toIso(request.ts, underPath(at.turn, 'ts'));
  const session = await batch.session(key);

  let events: EventRecord[];
  let stateChanged = false;
  if (request.state_patch !== undefined) {
    const patch = request.state_patch;
    await checkPatchEvidence(context.storage, scope, patch, session.state, recordedAt, at.statePatch);
    const from = session.state?.state_version ?? 0;
    const patchContent = { ...patch, from_version: from, to_version: from + 1 } as Record<string, unknown>;
    events = buildTurnEvents(request, scope, turnTs, recordedAt, patchContent);
    const patchEvent = events.find((event) => event.kind === 'state_patch')!;
    session.state = applyStatePatch(session.state, patch, patchEvent.id, at.statePatch);
    session.stateChanged = true;
    stateChanged = true;
  } else {
    events = buildTurnEvents(request, scope, turnTs, recordedAt);
  }

  const result: CommitTurnResult = {
    turn_id: request.turn_id,
    scope,
    recorded_at: recordedAt,
    dry_run: request.dry_run === true,
    replayed: false,
    events: events.map((event) => ({
      event_id: event.id,
      kind: event.kind,
      role: event.role,
      marker: event.marker,
      sensitivity: event.sensitivity,
      embedding_status: event.embedding_status,
      ts: event.ts,
    })),
    working_state: { changed: stateChanged, state_version: session.state?.state_version ?? 0 },
    // Filled in when the batch folds the session's new events into its summary (foldTurns).
    summary: { version: 0, sentences_added: 0, key_quotes_added: 0 },
    gate: [],
    items: [],
    extraction_failures: [],
  };
  session.unfolded.push({ events, result });
  batch.turns.set(turnKey, result);
  batch.ops.push({ op: 'insert_turn', key, turn_id: request.turn_id, result });
  for (const event of events) {
    const analysed = analyseEvent(event);
    session.analyses.set(event.id, analysed);
    batch.ops.push({ op: 'append_event', event, search_text: analysed.searchText });
  }
  const compaction = await batch.runs.planTurn(scope, request, events, recordedAt, at.turn);
  if (compaction !== undefined) result.compaction = compaction;
  // The run has ended: its insights that live until `run_end` expire with this turn.
  if (events.some((event) => event.marker === 'RUN_END')) {
    batch.ops.push({
      op: 'expire_run_insights',
      tenant_id: scope.tenant_id,
      user_id: scope.user_id,
      agent_id: scope.agent_id,
      run_id: scope.run_id,
      at: recordedAt,
    });
    if (context.reflectOnRunEnd) batch.ops.push({ op: 'enqueue_job', job: reflectJob(scope, recordedAt) });
  }
  const longTerm = await batch.longTerm.planTurn(scope, events, recordedAt);
  result.gate = longTerm.gate;
  result.items = longTerm.items;
  result.extraction_failures = longTerm.failures;
  batch.ops.push(...longTerm.ops);
  return result;
}

/** The job that reflects over a run once it has ended (queued once per run). */
function reflectJob(scope: Scope, now: string): Job {
  const payload = {
    scope: { user_id: scope.user_id, agent_id: scope.agent_id, run_id: scope.run_id, session_id: scope.session_id },
  };
  return queuedJob(
    scope.tenant_id,
    `reflect:${scope.user_id}/${scope.agent_id}/${scope.run_id}`,
    'reflect',
    payload,
    now,
  );
}

/**
 * How a call names the fields of its turns in errors: where each turn sits in the caller's input,
 * and where a turn's state patch sits under it.
 */
export interface TurnPaths {
  /** The path of the turn at `index`: '' for a turn sent alone, `turns[2]` in a batch. */
  turn: (index: number) => string;
  /** The state patch's name under its turn: 'state_patch', or '' where the caller sent the patch's own fields. */
  statePatch: string;
}

/** A batch: each turn named as the `turns` of its body. */
export const BATCH_PATHS: TurnPaths = { turn: (index) => `turns[${index}]`, statePatch: 'state_patch' };

/** A turn sent alone: its fields named from its own root. */
export const LONE_TURN_PATHS: TurnPaths = { turn: () => '', statePatch: 'state_patch' };

/** Where one turn's fields and its state patch's fields are named from. */
interface TurnAt {
  turn: string;
  statePatch: string;
}

const turnAt = (paths: TurnPaths, index: number): TurnAt => ({
  turn: paths.turn(index),
  statePatch: underPath(paths.turn(index), paths.statePatch),
});

/**
 * Commits turns in one transaction and returns one result per turn, in order. `dry_run` on every
 * turn returns the results without writing; mixing dry and real turns in one batch is refused.
 * Errors name each turn's fields by `paths` (a batch's `turns[i]` by default).
 *
 * @example
 * const [result] = await commitTurns(context, [turn], LONE_TURN_PATHS);
 */
export async function commitTurns(
  context: WritePathContext,
  input: readonly unknown[],
  paths: TurnPaths = BATCH_PATHS,
): Promise<CommitTurnResult[]> {
  return (await commitTurnBatch(context, input, paths)).results;
}

/** What a batch of turns wrote: each turn's result, and the working state its session holds after the batch. */
export interface CommittedTurns {
  results: CommitTurnResult[];
  /** Per result, the state as this batch left it (null: the session has none, or the turn was stored before). */
  states: Array<WorkingState | null>;
}

/**
 * `commitTurns`, with the working state each session holds after the batch, as the batch wrote it:
 * what a caller that returns the state it wrote must use, since a read afterwards may already see
 * another writer's next version.
 *
 * @example
 * const { results: [result], states: [state] } = await commitTurnBatch(context, [turn]);
 */
export async function commitTurnBatch(
  context: WritePathContext,
  input: readonly unknown[],
  paths: TurnPaths = BATCH_PATHS,
): Promise<CommittedTurns> {
  const requests = input.map((turn, index) => validateCommitTurnRequest(turn, paths.turn(index)));
  const dryRuns = new Set(requests.map((request) => request.dry_run === true));
  if (dryRuns.size > 1) throw ValidationError.of('dry_run', 'consistent', 'must be the same for every turn of a batch');
  const dryRun = dryRuns.has(true);

  for (let attempt = 0; ; attempt += 1) {
    // An import is planned first without looking each turn up: a turn already stored shows up as a
    // duplicate at write time (or as a stale state version while planning), and the batch is then
    // planned again with the look-ups.
    const optimistic = attempt === 0 && requests.length > 1;
    const batch = new Batch(context);
    const results: CommitTurnResult[] = [];
    try {
      for (const [index, request] of requests.entries())
        results.push(await planTurn(batch, context, request, !optimistic, turnAt(paths, index)));
    } catch (error) {
      if (optimistic && EngramError.isInstance(error) && error.code === 'STATE_VERSION_CONFLICT') continue;
      throw error;
    }
    const ops = batch.finalOps();
    const seen = new Set<CommitTurnResult>();
    for (const [index, result] of results.entries()) {
      if (seen.has(result)) results[index] = { ...result, replayed: true };
      seen.add(result);
    }
    const written = () => ({
      results,
      states: results.map((result) => batch.sessions.get(keyString(sessionKeyOf(result.scope)))?.state ?? null),
    });
    if (dryRun || ops.length === 0) return written();
    try {
      await context.storage.write(ops);
      return written();
    } catch (error) {
      // Another writer got there first: either the same turn (return its result) or something this
      // batch read (recompute on top of it: its summary, an item it supersedes, its run, its state).
      // Planned again, a caller's state_patch.expected_version that is now stale is the caller's conflict.
      const retryable =
        (EngramError.isInstance(error) && error.code === 'DUPLICATE_TURN') ||
        (ConflictError.isInstance(error) && error.isRetryable);
      if (!retryable || attempt >= WRITE_RETRIES) throw error;
      if (attempt > 0) await pauseBeforeRetry(attempt);
    }
  }
}
