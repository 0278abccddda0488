// The JSON Schemas in schemas/ compiled once into validators: draft 2020-12 for Engram's own
// contracts and MemoryPacket v1, draft-07 for SessionReflection. Every boundary checks input with
// these — after the input rules of input-rules.ts (depth, well-formed text without U+0000) — and
// turns Ajv's errors into a ValidationError that names the field and the rule.

import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { Ajv as AjvDraft7 } from 'ajv';
import ajvFormats from 'ajv-formats';

import { DATE_TIME_RULE, isDateTime } from './date-time.js';
import { EngramError, ValidationError, type ValidationIssue } from './errors.js';
import { depthIssues, fieldPath, inputIssues, issuesUnder, MAX_JSON_DEPTH } from './input-rules.js';
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

import commonSchema from './schemas/common.schema.json' with { type: 'json' };
import packetSchema from './schemas/memory-packet-v1.schema.json' with { type: 'json' };
import workingStateSchema from './schemas/working-state.schema.json' with { type: 'json' };
import commitTurnSchema from './schemas/commit-turn-request.schema.json' with { type: 'json' };
import composeSchema from './schemas/compose-request.schema.json' with { type: 'json' };
import eventRecordSchema from './schemas/event-record.schema.json' with { type: 'json' };
import listEventsSchema from './schemas/list-events-request.schema.json' with { type: 'json' };
import searchEventsSchema from './schemas/search-events-request.schema.json' with { type: 'json' };
import memoryRequestsSchema from './schemas/memory-requests.schema.json' with { type: 'json' };
import reflectionSchema from './schemas/session-reflection.schema.json' with { type: 'json' };
import reflectionRequestsSchema from './schemas/reflection-requests.schema.json' with { type: 'json' };
import runRequestsSchema from './schemas/run-requests.schema.json' with { type: 'json' };
import compactionSnapshotSchema from './schemas/compaction-snapshot-v1.schema.json' with { type: 'json' };
import buildRequestsSchema from './schemas/build-requests.schema.json' with { type: 'json' };
import recordsSchema from './schemas/records.schema.json' with { type: 'json' };

// ajv-formats is CommonJS: under ESM its plugin is the `default` member of the module object.
const addFormats = ajvFormats.default;

export { depthIssues, inputIssues, issuesUnder, MAX_JSON_DEPTH, underPath } from './input-rules.js';

/** The `date-time` format of every schema: the one rule of date-time.ts, in place of ajv-formats' own (which takes leap seconds and years no Date writes back). */
const DATE_TIME_FORMAT = { type: 'string', validate: isDateTime } as const;

/** The JSON Schemas Engram validates with, by name (also used to generate API documents). */
export const schemas = {
  common: commonSchema,
  memoryPacket: packetSchema,
  workingState: workingStateSchema,
  commitTurnRequest: commitTurnSchema,
  composeRequest: composeSchema,
  eventRecord: eventRecordSchema,
  listEventsRequest: listEventsSchema,
  searchEventsRequest: searchEventsSchema,
  memoryRequests: memoryRequestsSchema,
  reflectionRequests: reflectionRequestsSchema,
  runRequests: runRequestsSchema,
  sessionReflection: reflectionSchema,
  compactionSnapshot: compactionSnapshotSchema,
  buildRequests: buildRequestsSchema,
  /** What the library returns and the HTTP API answers with (it refers to the draft-07 SessionReflection, so no validator compiles it). */
  records: recordsSchema,
} as const;

function createDraft2020(): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true });
  addFormats(ajv);
  ajv.addFormat('date-time', DATE_TIME_FORMAT);
  const own = [
    commonSchema,
    packetSchema,
    workingStateSchema,
    commitTurnSchema,
    composeSchema,
    eventRecordSchema,
    listEventsSchema,
    searchEventsSchema,
    memoryRequestsSchema,
    reflectionRequestsSchema,
    runRequestsSchema,
    compactionSnapshotSchema,
    buildRequestsSchema,
  ];
  for (const schema of own) {
    ajv.addSchema(schema);
  }
  return ajv;
}

function createDraft7(): AjvDraft7 {
  const ajv = new AjvDraft7({ allErrors: true, strict: true, allowUnionTypes: true });
  addFormats(ajv);
  ajv.addFormat('date-time', DATE_TIME_FORMAT);
  // Formats of the Rust-generated reflection schema; the number range rules carry the meaning.
  ajv.addFormat('double', { type: 'number', validate: (value: number) => Number.isFinite(value) });
  ajv.addFormat('uint', { type: 'number', validate: (value: number) => Number.isInteger(value) && value >= 0 });
  return ajv;
}

let draft2020: Ajv2020 | undefined;
let draft7: AjvDraft7 | undefined;
const compiled = new Map<string, ValidateFunction>();

function validatorFor(id: string): ValidateFunction {
  let validate = compiled.get(id);
  if (validate === undefined) {
    if (id === reflectionSchema.title) {
      draft7 ??= createDraft7();
      validate = draft7.compile(reflectionSchema);
    } else {
      draft2020 ??= createDraft2020();
      const found = draft2020.getSchema(id);
      if (found === undefined) throw new EngramError('INTERNAL', `no schema ${id}`);
      validate = found;
    }
    compiled.set(id, validate);
  }
  return validate;
}

function fieldOf(error: ErrorObject): string {
  const path = fieldPath(
    error.instancePath
      .split('/')
      .slice(1)
      .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~')),
  );
  const params = error.params as Record<string, unknown>;
  const child = (params['missingProperty'] ?? params['additionalProperty'] ?? params['propertyName']) as
    string | undefined;
  if (child === undefined) return path;
  return path === '' ? child : `${path}.${child}`;
}

function messageOf(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return 'is not an allowed property';
    case 'enum':
      return `must be one of ${JSON.stringify(params['allowedValues'])}`;
    case 'format':
      return params['format'] === 'date-time' ? DATE_TIME_RULE : (error.message ?? 'is invalid');
    default:
      return error.message ?? 'is invalid';
  }
}

/** Turns Ajv errors into issues, most specific first, without repeats. */
export function issuesOf(errors: readonly ErrorObject[] | null | undefined): ValidationIssue[] {
  const seen = new Set<string>();
  const issues: ValidationIssue[] = [];
  const ordered = [...(errors ?? [])].sort((a, b) => b.instancePath.length - a.instancePath.length);
  for (const error of ordered) {
    const issue = { field: fieldOf(error), rule: error.keyword, message: messageOf(error) };
    const key = `${issue.field}|${issue.rule}|${issue.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push(issue);
  }
  return issues;
}

/**
 * How much deeper than its input a composed packet or snapshot may nest: it wraps stored values
 * (each accepted at MAX_JSON_DEPTH) in its own sections, lists and items.
 */
const OUTPUT_NESTING = 16;

/**
 * Checks `value` by the input rules (depth, well-formed text without U+0000; depth alone for
 * `output`) and then the schema `id`; returns the issues, empty when valid.
 *
 * @example
 * check(schemas.workingState.$id, state) // []
 */
export function check(
  id: string,
  value: unknown,
  maxDepth = MAX_JSON_DEPTH,
  rules: 'input' | 'output' = 'input',
): ValidationIssue[] {
  // Depth and text first: the schema's own walk recurses, and a store must hold every string as given.
  // Output (a packet, a snapshot) is checked for depth only: it quotes what a store already holds,
  // and text an older version stored must not make it fail.
  const input = rules === 'input' ? inputIssues(value, maxDepth) : depthIssues(value, maxDepth);
  if (input.length > 0) return input;
  const validate = validatorFor(id);
  return validate(value) ? [] : issuesOf(validate.errors);
}

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
  return assertValid<CommitTurnRequest>(commitTurnSchema.$id, value, 'commit_turn request', base);
}

/**
 * Validates a state patch (`expected_version`, `set`, `append`), its fields named under `base`: a
 * turn's `state_patch` by default, '' for a request that holds the patch's own fields.
 *
 * @example
 * validateStatePatch({ expected_version: 0, set: { goal: 'Ship' } }, '')
 */
export function validateStatePatch(value: unknown, base = 'state_patch'): StatePatch {
  return assertValid<StatePatch>(`${commitTurnSchema.$id}#/properties/state_patch`, value, 'state patch', base);
}

/**
 * Validates a compose request; throws ValidationError naming the field and rule.
 *
 * @example
 * validateComposeRequest({ scope, purpose: 'responder' })
 */
export function validateComposeRequest(value: unknown, base = ''): ComposeRequest {
  return assertValid<ComposeRequest>(composeSchema.$id, value, 'compose request', base);
}

/**
 * Validates a list-events request.
 *
 * @example
 * validateListEventsRequest({ scope: { user_id: 'u1', session_id: 's1', agent_id: 'a1' } })
 */
export function validateListEventsRequest(value: unknown, base = ''): ListEventsRequest {
  return assertValid<ListEventsRequest>(listEventsSchema.$id, value, 'list-events request', base);
}

/**
 * Validates a search-events request.
 *
 * @example
 * validateSearchEventsRequest({ scope: { user_id: 'u1' }, query: '中文' })
 */
export function validateSearchEventsRequest(value: unknown, base = ''): SearchEventsRequest {
  return assertValid<SearchEventsRequest>(searchEventsSchema.$id, value, 'search-events request', base);
}

/**
 * Validates the scope of one session (tenant, user, agent, session; run optional), its fields named
 * under `base` (`scope` by default; '' for a scope given as query parameters).
 *
 * @example
 * validateSessionScope({ user_id: 'u1', agent_id: 'a1', session_id: 's1' })
 */
export function validateSessionScope(value: unknown, base = 'scope'): SessionScopeInput {
  const issues = check(`${commonSchema.$id}#/$defs/session_scope`, value);
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
  return assertValid<T>(`${memoryRequestsSchema.$id}#/$defs/${name}`, value, `${name} request`, base);
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
  return assertValid<T>(`${reflectionRequestsSchema.$id}#/$defs/${name}`, value, `${name} request`, base);
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
  return assertValid<T>(`${runRequestsSchema.$id}#/$defs/${name}`, value, `${name} request`, base);
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
  return assertValid<T>(`${buildRequestsSchema.$id}#/$defs/${name}`, value, `${name} request`, base);
}

/**
 * Validates a stored working state.
 *
 * @example
 * validateWorkingState(emptyWorkingState())
 */
export function validateWorkingState(value: unknown, base = ''): WorkingState {
  return assertValid<WorkingState>(workingStateSchema.$id, value, 'working state', base);
}

/**
 * Validates an event record (as read back from storage or an import file), its fields named under
 * `base` (an import line's `line 7.event`).
 *
 * @example
 * validateEventRecord(row)
 */
export function validateEventRecord(value: unknown, base = ''): EventRecord {
  return assertValid<EventRecord>(eventRecordSchema.$id, value, 'event record', base);
}

/**
 * Checks a MemoryPacket against memory-packet-v1.schema.json. A packet that fails is a bug in
 * Engram, so this throws SCHEMA_VIOLATION rather than VALIDATION_FAILED.
 *
 * @example
 * assertPacket(await engram.compose(request))
 */
export function assertPacket(value: unknown): MemoryPacket {
  const issues = check(packetSchema.$id, value, MAX_JSON_DEPTH + OUTPUT_NESTING, 'output');
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
  return check(reflectionSchema.title, value);
}

/**
 * Checks a compaction snapshot against compaction-snapshot-v1.schema.json; returns the issues,
 * empty when valid (the compaction gate's `schema` check).
 *
 * @example
 * checkSnapshot(snapshot).length === 0
 */
export function checkSnapshot(value: unknown): ValidationIssue[] {
  return check(compactionSnapshotSchema.$id, value, MAX_JSON_DEPTH + OUTPUT_NESTING, 'output');
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
