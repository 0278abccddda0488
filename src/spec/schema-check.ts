// The JSON Schemas in schemas/ compiled once into validators: draft 2020-12 for Engram's own
// contracts and MemoryPacket v1, draft-07 for SessionReflection. check() runs the input rules of
// input-rules.ts (depth, well-formed text without U+0000), then a schema, and turns Ajv's errors
// into issues that name the field and the rule.

import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { Ajv as AjvDraft7 } from 'ajv';
import ajvFormats from 'ajv-formats';

import { DATE_TIME_RULE, isDateTime } from './date-time.js';
import { EngramError, type ValidationIssue } from './errors.js';
import { depthIssues, fieldPath, inputIssues, MAX_JSON_DEPTH } from './input-rules.js';

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
