// An update of a session's working state outside a turn: checked as a request of its own (its
// fields, not a turn's), then recorded as a turn holding only the state patch, so every change is a
// `state_patch` event like any other. An update sent again with its turn_id is a replay: the same
// update answers with the state it recorded, a different one under that turn_id is a conflict.

import { isDeepStrictEqual } from 'node:util';

import { EngramError, ValidationError } from '../spec/errors.js';
import type { CommitTurnRequest, CommitTurnResult } from '../spec/requests.js';
import type { TurnPaths } from './commit-turn.js';
import { resolveScope, sessionKeyOf, type ScopeInput } from '../spec/scope.js';
import type { StorageAdapter } from '../spec/storage.js';
import { inputIssues, validateStatePatch } from '../spec/validators.js';
import type { StatePatch, WorkingState } from '../spec/working-state.js';
import { workingStateAsOf } from '../working-memory/as-of.js';

/** A working-state update: the session (its scope names the run), the version read, and the change. */
export interface UpdateWorkingStateRequest {
  scope: ScopeInput;
  expected_version: number;
  /** A JSON Merge Patch of the state's fields. */
  set?: StatePatch['set'];
  /** Items appended to the list fields, after `set`. */
  append?: StatePatch['append'];
  /** The turn id that records it (default: a new one). */
  turn_id?: string;
}

const FIELDS = new Set(['scope', 'expected_version', 'set', 'append', 'turn_id']);

/** An update names its patch's fields from the request's root (`expected_version`, `set.goal`), not under `state_patch`. */
export const UPDATE_PATHS: TurnPaths = { turn: () => '', statePatch: '' };

/**
 * The turn that records an update; refuses a request that is not an object, names an unknown
 * field, or changes nothing (the rest is checked as the turn's state patch).
 *
 * @example
 * workingStateTurn({ scope, expected_version: 0, set: { goal: 'Ship' } }, 'trn_…').state_patch // { expected_version: 0, set: { goal: 'Ship' } }
 */
export function workingStateTurn(request: UpdateWorkingStateRequest, turnId: string): CommitTurnRequest {
  if (typeof request !== 'object' || request === null || Array.isArray(request))
    throw ValidationError.of('', 'type', 'must be an object { scope, expected_version, set?, append? }');
  // The input rules come first, as in every schema check: an unknown field with broken text is named for its text.
  const text = inputIssues(request);
  if (text.length > 0) throw new ValidationError(text);
  const unknown = Object.keys(request).find((key) => !FIELDS.has(key));
  if (unknown !== undefined)
    throw ValidationError.of(
      unknown,
      'additionalProperties',
      'is not a field of a working-state update (scope, expected_version, set, append, turn_id)',
    );
  const { scope, expected_version, set, append } = request;
  if (set === undefined && append === undefined) throw ValidationError.of('set', 'anyOf', 'give set, append or both');
  // The patch's fields are the request's own: named as the request names them.
  const statePatch = validateStatePatch(
    { expected_version, ...(set === undefined ? {} : { set }), ...(append === undefined ? {} : { append }) },
    '',
  );
  return { scope, turn_id: request.turn_id ?? turnId, state_patch: statePatch };
}

/** The working state an update left, and whether the update had been recorded before (nothing was written). */
export interface WorkingStateUpdate extends WorkingState {
  /** True when this turn_id was recorded before with the same update: nothing was written, the state is as it recorded it. */
  replayed: boolean;
}

/** The parts of an update that must match for a repeated turn_id to be the same update. */
function updateOf(runId: string, patch: Record<string, unknown>): Record<string, unknown> {
  // Through JSON, as the patch event stores it: a field set to undefined is a field left out.
  const plain = JSON.parse(
    JSON.stringify({ expected_version: patch['expected_version'], set: patch['set'], append: patch['append'] }),
  ) as Record<string, unknown>;
  return { run_id: runId, ...plain };
}

function conflict(turnId: string, why: string): EngramError {
  return new EngramError(
    'DUPLICATE_TURN',
    `turn_id: ${JSON.stringify(turnId)} was recorded before ${why}; send a new turn_id for a new update`,
    { field: 'turn_id' },
  );
}

/**
 * The answer to an update whose turn_id was recorded before (`earlier`, the first result): the
 * working state just after that update, with `replayed: true`, when the update is the same (run,
 * expected_version, set and append); DUPLICATE_TURN (409) naming `turn_id` when it is not, or when
 * the turn was not a working-state update at all.
 *
 * @example
 * const { results: [result] } = await commitTurnBatch(context, [turn]);
 * if (result.replayed) return replayedUpdate(storage, turn, result, now);
 */
export async function replayedUpdate(
  storage: StorageAdapter,
  turn: CommitTurnRequest,
  earlier: CommitTurnResult,
  now: string,
): Promise<WorkingStateUpdate> {
  const [written] = earlier.events;
  if (earlier.events.length !== 1 || written?.kind !== 'state_patch')
    throw conflict(turn.turn_id, 'as a turn that is not a working-state update');
  const scope = resolveScope(turn.scope);
  const event = await storage.events.get(scope.tenant_id, written.event_id, now);
  if (event === null) throw conflict(turn.turn_id, 'and its state patch is no longer in the log');
  const recorded = updateOf(event.run_id, event.content as Record<string, unknown>);
  if (!isDeepStrictEqual(recorded, updateOf(scope.run_id, turn.state_patch as unknown as Record<string, unknown>))) {
    throw conflict(turn.turn_id, 'with a different update');
  }
  const state = await workingStateAsOf(storage, sessionKeyOf(scope), earlier.recorded_at, written.event_id);
  return { ...state, replayed: true };
}
