// The validators of each boundary: a request, a stored record or a composed output checked against
// its JSON Schema (schema-check.ts), after the input rules of input-rules.ts (depth, well-formed
// text without U+0000). Input that fails throws a ValidationError that names the field and the
// rule; output that fails is a bug in Engram and throws SCHEMA_VIOLATION.

import { EngramError, ValidationError, type ValidationIssue } from './errors.js';
import { issuesUnder, MAX_JSON_DEPTH } from './input-rules.js';
import type {
  CommitTurnRequest,
  ComposeRequest,
  ListEventsRequest,
  SearchEventsRequest,
  SessionScopeInput,
} from './requests.js';
import type { CompactionSnapshot } from './compaction.js';
import type { EventRecord } from './event.js';
import type { MemoryPacket } from './packet.js';
import type { StatePatch, WorkingState } from './working-state.js';
import { check, schemas } from './schema-check.js';

export { depthIssues, inputIssues, issuesUnder, MAX_JSON_DEPTH, underPath } from './input-rules.js';

/**
 * How much deeper than its input a composed packet or snapshot may nest: it wraps stored values
 * (each accepted at MAX_JSON_DEPTH) in its own sections, lists and items.
 */
const OUTPUT_NESTING = 16;

/**
 * `value` when it is valid by `id`, else a ValidationError whose fields are named under `base`
 * (where the value sits in the caller's input; '' at its root).
 */
function assertValid<T>(id: string, value: unknown, subject: string, base: string): T {
  const issues = check(id, value);
  if (issues.length > 0) throw new ValidationError(issuesUnder(base, issues), { subject });
  return value as T;
}

/**
 * Validates a commit_turn request; throws ValidationError naming the field and rule. `base` is where
 * the request sits in the caller's input (a batch's `turns[2]`), and every field is named under it.
 *
 * @example
 * validateCommitTurnRequest(JSON.parse(body))
 * validateCommitTurnRequest(turn, 'turns[2]') // fields like turns[2].messages[0].role
 */
export function validateCommitTurnRequest(value: unknown, base = ''): CommitTurnRequest {
  return assertValid<CommitTurnRequest>(schemas.commitTurnRequest.$id, value, 'commit_turn request', base);
}

/**
 * Validates a state patch (`expected_version`, `set`, `append`), its fields named under `base`: a
 * turn's `state_patch` by default, '' for a request that holds the patch's own fields.
 *
 * @example
 * validateStatePatch({ expected_version: 0, set: { goal: 'Ship' } }, '')
 */
export function validateStatePatch(value: unknown, base = 'state_patch'): StatePatch {
  return assertValid<StatePatch>(
    `${schemas.commitTurnRequest.$id}#/properties/state_patch`,
    value,
    'state patch',
    base,
  );
}

/**
 * Validates a compose request; throws ValidationError naming the field and rule.
 *
 * @example
 * validateComposeRequest({ scope, purpose: 'responder' })
 */
export function validateComposeRequest(value: unknown, base = ''): ComposeRequest {
  return assertValid<ComposeRequest>(schemas.composeRequest.$id, value, 'compose request', base);
}

/**
 * Validates a list-events request.
 *
 * @example
 * validateListEventsRequest({ scope: { user_id: 'u1', session_id: 's1', agent_id: 'a1' } })
 */
export function validateListEventsRequest(value: unknown, base = ''): ListEventsRequest {
  return assertValid<ListEventsRequest>(schemas.listEventsRequest.$id, value, 'list-events request', base);
}

/**
 * Validates a search-events request.
 *
 * @example
 * validateSearchEventsRequest({ scope: { user_id: 'u1' }, query: '中文' })
 */
export function validateSearchEventsRequest(value: unknown, base = ''): SearchEventsRequest {
  return assertValid<SearchEventsRequest>(schemas.searchEventsRequest.$id, value, 'search-events request', base);
}

/**
 * Validates the scope of one session (tenant, user, agent, session; run optional), its fields named
 * under `base` (`scope` by default; '' for a scope given as query parameters).
 *
 * @example
 * validateSessionScope({ user_id: 'u1', agent_id: 'a1', session_id: 's1' })
 */
export function validateSessionScope(value: unknown, base = 'scope'): SessionScopeInput {
  const issues = check(`${schemas.common.$id}#/$defs/session_scope`, value);
  if (issues.length > 0) throw new ValidationError(issuesUnder(base, issues));
  return value as SessionScopeInput;
}

/** The long-term memory requests, by name (see schemas/memory-requests.schema.json). */
export type MemoryRequestName = 'remember' | 'restore' | 'forget' | 'history' | 'list_items' | 'search' | 'reextract';

/**
 * Validates a long-term memory request; throws ValidationError naming the field and rule.
 *
 * @example
 * validateMemoryRequest<RememberRequest>('remember', request)
 */
export function validateMemoryRequest<T>(name: MemoryRequestName, value: unknown, base = ''): T {
  return assertValid<T>(`${schemas.memoryRequests.$id}#/$defs/${name}`, value, `${name} request`, base);
}

/** The reflection, review and insight requests, by name (see schemas/reflection-requests.schema.json). */
export type ReflectionRequestName =
  | 'reflect'
  | 'list_candidates'
  | 'approve'
  | 'reject'
  | 'add_insight'
  | 'list_insights'
  | 'update_insight'
  | 'promote_insight';

/**
 * Validates a reflection, review or insight request; throws ValidationError naming the field and rule.
 *
 * @example
 * validateReflectionRequest<ApproveRequest>('approve', { candidate_id: 'cand_…' })
 */
export function validateReflectionRequest<T>(name: ReflectionRequestName, value: unknown, base = ''): T {
  return assertValid<T>(`${schemas.reflectionRequests.$id}#/$defs/${name}`, value, `${name} request`, base);
}

/** The run and snapshot requests, by name (see schemas/run-requests.schema.json). */
export type RunRequestName = 'get_run' | 'resume_run' | 'list_snapshots';

/**
 * Validates a run or snapshot request; throws ValidationError naming the field and rule.
 *
 * @example
 * validateRunRequest<ResumeRunRequest>('resume_run', { scope: { user_id: 'u', agent_id: 'a', run_id: 'r' } })
 */
export function validateRunRequest<T>(name: RunRequestName, value: unknown, base = ''): T {
  return assertValid<T>(`${schemas.runRequests.$id}#/$defs/${name}`, value, `${name} request`, base);
}

/** The context build requests, by name (see schemas/build-requests.schema.json). */
export type BuildRequestName = 'explain';

/**
 * Validates a context build request; throws ValidationError naming the field and rule.
 *
 * @example
 * validateBuildRequest<ExplainBuildRequest>('explain', { build_id: 'ctx_…', id: 'evt_…' })
 */
export function validateBuildRequest<T>(name: BuildRequestName, value: unknown, base = ''): T {
  return assertValid<T>(`${schemas.buildRequests.$id}#/$defs/${name}`, value, `${name} request`, base);
}

/**
 * Validates a stored working state.
 *
 * @example
 * validateWorkingState(emptyWorkingState())
 */
export function validateWorkingState(value: unknown, base = ''): WorkingState {
  return assertValid<WorkingState>(schemas.workingState.$id, value, 'working state', base);
}

/**
 * Validates an event record (as read back from storage or an import file), its fields named under
 * `base` (an import line's `line 7.event`).
 *
 * @example
 * validateEventRecord(row)
 */
export function validateEventRecord(value: unknown, base = ''): EventRecord {
  return assertValid<EventRecord>(schemas.eventRecord.$id, value, 'event record', base);
}

/**
 * Checks a MemoryPacket against memory-packet-v1.schema.json. A packet that fails is a bug in
 * Engram, so this throws SCHEMA_VIOLATION rather than VALIDATION_FAILED.
 *
 * @example
 * assertPacket(await engram.compose(request))
 */
export function assertPacket(value: unknown): MemoryPacket {
  const issues = check(schemas.memoryPacket.$id, value, MAX_JSON_DEPTH + OUTPUT_NESTING, 'output');
  if (issues.length > 0) {
    throw new EngramError(
      'SCHEMA_VIOLATION',
      `composed packet violates MemoryPacket v1: ${issues[0]?.field} ${issues[0]?.message}`,
      {
        field: issues[0]?.field,
        details: { issues },
      },
    );
  }
  return value as MemoryPacket;
}

/**
 * Checks a SessionReflection (draft-07 schema); returns the issues, empty when valid.
 *
 * @example
 * checkSessionReflection(output).length === 0
 */
export function checkSessionReflection(value: unknown): ValidationIssue[] {
  return check(schemas.sessionReflection.title, value);
}

/**
 * Checks a compaction snapshot against compaction-snapshot-v1.schema.json; returns the issues,
 * empty when valid (the compaction gate's `schema` check).
 *
 * @example
 * checkSnapshot(snapshot).length === 0
 */
export function checkSnapshot(value: unknown): ValidationIssue[] {
  return check(schemas.compactionSnapshot.$id, value, MAX_JSON_DEPTH + OUTPUT_NESTING, 'output');
}

/**
 * Asserts a compaction snapshot matches v1. A snapshot that fails is a bug in Engram (or a damaged
 * record), so this throws SCHEMA_VIOLATION rather than VALIDATION_FAILED, like assertPacket.
 *
 * @example
 * assertSnapshot(record.snapshot).sequence
 */
export function assertSnapshot(value: unknown): CompactionSnapshot {
  const issues = checkSnapshot(value);
  if (issues.length > 0) {
    throw new EngramError(
      'SCHEMA_VIOLATION',
      `compaction snapshot violates CompactionSnapshot v1: ${issues[0]?.field} ${issues[0]?.message}`,
      {
        field: issues[0]?.field,
        details: { issues },
      },
    );
  }
  return value as CompactionSnapshot;
}
