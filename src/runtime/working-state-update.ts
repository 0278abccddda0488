// An update of a session's working state outside a turn: checked as a request of its own (its
// fields, not a turn's), then recorded as a turn holding only the state patch, so every change is a
// `state_patch` event like any other.

import { ValidationError } from '../spec/errors.js';
import type { CommitTurnRequest } from '../spec/requests.js';
import type { ScopeInput } from '../spec/scope.js';
import type { StatePatch } from '../spec/working-state.js';

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

/**
 * The turn that records an update; refuses a request that is not an object, names an unknown
 * field, or changes nothing (the rest is checked as the turn's state patch).
 *
 * @example
 * workingStateTurn({ scope, expected_version: 0, set: { goal: 'Ship' } }, 'trn_…').state_patch // { expected_version: 0, set: { goal: 'Ship' } }
 */
export function workingStateTurn(request: UpdateWorkingStateRequest, turnId: string): CommitTurnRequest {
  if (typeof request !== 'object' || request === null || Array.isArray(request)) throw ValidationError.of('', 'type', 'must be an object { scope, expected_version, set?, append? }');
  const unknown = Object.keys(request).find((key) => !FIELDS.has(key));
  if (unknown !== undefined) throw ValidationError.of(unknown, 'additionalProperties', 'is not a field of a working-state update (scope, expected_version, set, append, turn_id)');
  const { scope, expected_version, set, append } = request;
  if (set === undefined && append === undefined) throw ValidationError.of('set', 'anyOf', 'give set, append or both');
  return { scope, turn_id: request.turn_id ?? turnId, state_patch: { expected_version, ...(set === undefined ? {} : { set }), ...(append === undefined ? {} : { append }) } };
}
