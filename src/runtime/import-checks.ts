// The checks an imported record passes before it is written, beyond its kind and required fields:
// an item is a whole MemoryItem (type, key rule, value schema, status, ids, lists of strings), a
// working state obeys its schema, a turn's stored result, a summary and a context build have the
// fields their readers use, and every session key names its ids as strings. An import file is
// outside input: a record that would store a broken row is refused with the line at fault. The
// input rules of every request hold here too: depth, well-formed text without U+0000, date-times
// by the one rule, and a context build no larger than a compose may store.

import { ValidationError, type ValidationIssue } from '../spec/errors.js';
import { ITEM_STATUSES, MEMORY_TYPES, type MemoryType } from '../spec/items.js';
import { isDateTime } from '../spec/date-time.js';
import { inputIssues, validateWorkingState } from '../spec/validators.js';
import { buildBytes, MAX_BUILD_BYTES } from '../composer/build-bound.js';
import { assertKey } from '../items/keys.js';
import { assertValue } from '../items/values.js';
import { isId } from '../util/ids.js';

type Fields = Record<string, unknown>;

const LEVELS = ['user', 'agent', 'tenant'];
const SENSITIVITIES = ['normal', 'private', 'secret'];

const isObject = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isStringList = (value: unknown): boolean =>
  Array.isArray(value) && value.every((entry) => typeof entry === 'string');
const isTime = isDateTime;
const isOptionalTime = (value: unknown): boolean => value === null || isTime(value);
const isEventId = (value: unknown): boolean => typeof value === 'string' && isId('evt', value);
const isOptionalString = (value: unknown): boolean => value === null || typeof value === 'string';

/** The broken rules of an item record, fields relative to the item. */
function itemIssues(item: Fields): ValidationIssue[] {
  const rules: Array<[string, string, boolean, string]> = [
    ['id', 'pattern', typeof item['id'] === 'string' && isId('mem', item['id']), 'must be a mem_ id'],
    ['tenant_id', 'type', typeof item['tenant_id'] === 'string', 'must be a string'],
    ['user_id', 'type', isOptionalString(item['user_id']), 'must be a string or null'],
    ['agent_id', 'type', isOptionalString(item['agent_id']), 'must be a string or null'],
    ['scope_level', 'enum', LEVELS.includes(item['scope_level'] as string), `must be one of ${LEVELS.join(', ')}`],
    ['type', 'enum', MEMORY_TYPES.includes(item['type'] as MemoryType), `must be one of ${MEMORY_TYPES.join(', ')}`],
    ['key', 'type', typeof item['key'] === 'string', 'must be a string'],
    ['value', 'type', isObject(item['value']), 'must be an object'],
    [
      'confidence',
      'range',
      typeof item['confidence'] === 'number' && item['confidence'] >= 0 && item['confidence'] <= 1,
      'must be a number from 0 to 1',
    ],
    [
      'status',
      'enum',
      (ITEM_STATUSES as readonly unknown[]).includes(item['status']),
      `must be one of ${ITEM_STATUSES.join(', ')}`,
    ],
    [
      'sensitivity',
      'enum',
      SENSITIVITIES.includes(item['sensitivity'] as string),
      `must be one of ${SENSITIVITIES.join(', ')}`,
    ],
    [
      'version',
      'type',
      Number.isInteger(item['version']) && (item['version'] as number) >= 1,
      'must be an integer of at least 1',
    ],
    ['supersedes', 'type', isOptionalString(item['supersedes']), 'must be an id or null'],
    [
      'salience',
      'type',
      isObject(item['salience']) && Object.values(item['salience']).every((score) => typeof score === 'number'),
      'must be an object of numbers',
    ],
    ['provenance', 'type', isObject(item['provenance']), 'must be an object'],
    [
      'evidence_refs',
      'type',
      Array.isArray(item['evidence_refs']) && item['evidence_refs'].every(isObject),
      'must be a list of objects',
    ],
    ['valid_from', 'format', isOptionalTime(item['valid_from']), 'must be a date-time or null'],
    ['valid_to', 'format', isOptionalTime(item['valid_to']), 'must be a date-time or null'],
    ['recorded_at', 'format', isTime(item['recorded_at']), 'must be a date-time'],
    ['updated_at', 'format', isTime(item['updated_at']), 'must be a date-time'],
    ['ended_at', 'format', isOptionalTime(item['ended_at']), 'must be a date-time or null'],
    ...(['source_event_ids', 'tags', 'entities'] as const).map((name): [string, string, boolean, string] => [
      name,
      'type',
      isStringList(item[name]),
      'must be a list of strings',
    ]),
  ];
  const issues = rules.filter(([, , ok]) => !ok).map(([field, rule, , message]) => ({ field, rule, message }));
  if (issues.length > 0) return issues;
  try {
    assertKey(item['type'] as MemoryType, item['key'] as string);
    assertValue(item['type'] as MemoryType, item['value']);
  } catch (error) {
    if (ValidationError.isInstance(error)) return error.issues;
    throw error;
  }
  return [];
}

/** The broken rules of a session key ({ tenant_id, user_id, agent_id, session_id }). */
function keyIssues(key: unknown): ValidationIssue[] {
  if (!isObject(key)) return [{ field: 'key', rule: 'type', message: 'must be an object' }];
  return ['tenant_id', 'user_id', 'agent_id', 'session_id']
    .filter((name) => typeof key[name] !== 'string')
    .map((name) => ({ field: `key.${name}`, rule: 'type', message: 'must be a string' }));
}

const isSentence = (value: unknown): boolean =>
  isObject(value) &&
  isEventId(value['event_id']) &&
  Number.isInteger(value['position']) &&
  typeof value['role'] === 'string' &&
  (value['speaker'] === undefined || typeof value['speaker'] === 'string') &&
  isTime(value['ts']) &&
  typeof value['text'] === 'string' &&
  typeof value['tokens'] === 'number' &&
  typeof value['score'] === 'number' &&
  isOptionalTime(value['expires_at']);

/** The broken rules of a short-term summary. */
function summaryIssues(summary: Fields): ValidationIssue[] {
  const rules: Array<[string, boolean, string]> = [
    [
      'version',
      Number.isInteger(summary['version']) && (summary['version'] as number) >= 0,
      'must be an integer of at least 0',
    ],
    [
      'sentences',
      Array.isArray(summary['sentences']) && summary['sentences'].every(isSentence),
      'must be a list of summary sentences',
    ],
    [
      'key_quotes',
      Array.isArray(summary['key_quotes']) && summary['key_quotes'].every(isSentence),
      'must be a list of summary sentences',
    ],
    [
      'last_event_id',
      summary['last_event_id'] === null || isEventId(summary['last_event_id']),
      'must be an evt_ id or null',
    ],
    ['events_folded', Number.isInteger(summary['events_folded']), 'must be an integer'],
    ['updated_at', isTime(summary['updated_at']), 'must be a date-time'],
  ];
  return rules
    .filter(([, ok]) => !ok)
    .map(([field, , message]) => ({ field: `summary.${field}`, rule: 'type', message }));
}

/** The broken rules of a stored turn result (what a replay of the turn returns as it is). */
function turnResultIssues(result: Fields, turnId: unknown): ValidationIssue[] {
  const isList = (value: unknown): boolean => Array.isArray(value);
  const rules: Array<[string, boolean, string]> = [
    ['turn_id', result['turn_id'] === turnId, "must be the record's turn_id"],
    ['scope', isObject(result['scope']), 'must be an object'],
    ['recorded_at', isTime(result['recorded_at']), 'must be a date-time'],
    ['dry_run', typeof result['dry_run'] === 'boolean', 'must be a boolean'],
    ['replayed', typeof result['replayed'] === 'boolean', 'must be a boolean'],
    [
      'events',
      isList(result['events']) &&
        (result['events'] as unknown[]).every((event) => isObject(event) && isEventId(event['event_id'])),
      'must be a list of written events',
    ],
    ['working_state', isObject(result['working_state']), 'must be an object'],
    ['summary', isObject(result['summary']), 'must be an object'],
    ...(['gate', 'items', 'extraction_failures'] as const).map((name): [string, boolean, string] => [
      name,
      isList(result[name]),
      'must be a list',
    ]),
  ];
  return rules
    .filter(([, ok]) => !ok)
    .map(([field, , message]) => ({ field: `result.${field}`, rule: 'type', message }));
}

/** One record of an erase that redacted a build (ContextBuild.redactions). */
const isRedaction = (value: unknown): boolean =>
  isObject(value) &&
  isTime(value['at']) &&
  (value['erased'] === 'user' || value['erased'] === 'session') &&
  Number.isInteger(value['removed_entries']) &&
  Number.isInteger(value['removed_ids']);

/** The broken rules of a stored context build (its packet is checked again when it is replayed). */
function buildIssues(build: Fields): ValidationIssue[] {
  const rules: Array<[string, boolean, string]> = [
    ['id', typeof build['id'] === 'string' && isId('ctx', build['id']), 'must be a ctx_ id'],
    ...(['tenant_id', 'user_id', 'agent_id', 'session_id', 'run_id', 'purpose', 'packet_hash'] as const).map(
      (name): [string, boolean, string] => [name, typeof build[name] === 'string', 'must be a string'],
    ),
    ['request', isObject(build['request']), 'must be an object'],
    ['packet', isObject(build['packet']), 'must be an object'],
    ['selected', isStringList(build['selected']), 'must be a list of strings'],
    ['as_of', isTime(build['as_of']), 'must be a date-time'],
    ['created_at', isTime(build['created_at']), 'must be a date-time'],
    [
      'redactions',
      build['redactions'] === undefined ||
        (Array.isArray(build['redactions']) && build['redactions'].every(isRedaction)),
      'must be a list of { at, erased, removed_entries, removed_ids }',
    ],
  ];
  const issues = rules
    .filter(([, ok]) => !ok)
    .map(([field, , message]) => ({ field: `build.${field}`, rule: 'type', message }));
  // The bound a compose keeps when it stores a build holds for an imported one too.
  if (issues.length === 0 && buildBytes(JSON.stringify(build['packet']), build['request']) > MAX_BUILD_BYTES) {
    issues.push({
      field: 'build.packet',
      rule: 'max_build_bytes',
      message: `with its request, must take at most ${MAX_BUILD_BYTES} bytes (the bound of a stored build)`,
    });
  }
  return issues;
}

/** The broken rules of a working-state record's state. */
function stateIssues(state: unknown): ValidationIssue[] {
  try {
    validateWorkingState(state);
    return [];
  } catch (error) {
    if (!ValidationError.isInstance(error)) throw error;
    return error.issues.map((issue) => ({ ...issue, field: issue.field === '' ? 'state' : `state.${issue.field}` }));
  }
}

/** The broken rules of a record, by kind; kinds without a check here are checked by their reader. */
function recordIssues(record: Fields): ValidationIssue[] {
  const nested = (name: string, check: (value: Fields) => ValidationIssue[]): ValidationIssue[] =>
    isObject(record[name]) ? check(record[name]) : [{ field: name, rule: 'type', message: 'must be an object' }];
  switch (record['kind']) {
    case 'item':
      return nested('item', itemIssues).map((issue) => ({ ...issue, field: `item.${issue.field}` }));
    case 'turn':
      return [
        ...keyIssues(record['key']),
        ...(typeof record['turn_id'] === 'string'
          ? []
          : [{ field: 'turn_id', rule: 'type', message: 'must be a string' }]),
        ...(isObject(record['result'])
          ? turnResultIssues(record['result'], record['turn_id'])
          : [{ field: 'result', rule: 'type', message: 'must be an object' }]),
      ];
    case 'working_state':
      return [
        ...keyIssues(record['key']),
        ...stateIssues(record['state']),
        ...(isTime(record['updated_at'])
          ? []
          : [{ field: 'updated_at', rule: 'format', message: 'must be a date-time' }]),
      ];
    case 'summary':
      return [...keyIssues(record['key']), ...nested('summary', summaryIssues)];
    case 'context_build':
      return nested('build', buildIssues);
    default:
      return [];
  }
}

/**
 * Throws a ValidationError naming `line N.…` when a record of an import would store a broken row.
 *
 * @example
 * checkImportedRecord({ kind: 'item', item }, 'line 7')
 */
export function checkImportedRecord(record: Fields, line: string): void {
  // Depth and text first: the record's checks and readers (and every packet that later holds it)
  // recurse, and the store must hold every string as the file gives it.
  const input = inputIssues(record);
  const issues = input.length > 0 ? input : recordIssues(record);
  if (issues.length > 0)
    throw new ValidationError(issues.map((issue) => ({ ...issue, field: `${line}.${issue.field}` })));
}
