// The query string of a route: its parameters as data (how each is read and documented), read into
// typed values, picked under the library's names, and the pages lists answer with.

import { inputIssues, ValidationError, type ValidationIssue } from '../index.js';
import { isObject, type JsonObject } from './tenancy.js';

/** A query parameter: how it is read from the query string and documented. */
export interface QueryParam {
  name: string;
  /** `list` takes repeated parameters or comma-separated values. */
  type: 'string' | 'integer' | 'boolean' | 'list';
  description: string;
  enum?: readonly string[];
  /** The route answers VALIDATION_FAILED without it (the library checks; this documents and types it). */
  required?: boolean;
}

/** The query, typed: strings, whole numbers, booleans and lists. */
export type ParsedQuery = Record<string, string | number | boolean | string[]>;

/** The query parameter every route takes: the key's own tenant, repeated (any other is 403). */
export const TENANT_PARAM: QueryParam = {
  name: 'tenant_id',
  type: 'string',
  description: "Optional; must be the key's own tenant.",
};

/** Lists take a cursor (the last id of the previous page) and a limit (1–1000, default 100). */
export const PAGE_PARAMS: readonly QueryParam[] = [
  { name: 'cursor', type: 'string', description: 'The last id of the previous page (its next_cursor).' },
  { name: 'limit', type: 'integer', description: 'Page size, 1–1000 (default 100).' },
];

/** The page size when a request names none. */
export const DEFAULT_LIMIT = 100;

function parseValue(param: QueryParam, raw: string | string[]): string | number | boolean | string[] {
  if (param.type === 'list')
    return (Array.isArray(raw) ? raw : [raw]).flatMap((part) => part.split(',')).filter((part) => part !== '');
  if (Array.isArray(raw)) throw ValidationError.of(param.name, 'type', 'must be given once');
  if (param.type === 'integer') {
    if (!/^-?\d{1,15}$/.test(raw)) throw ValidationError.of(param.name, 'type', 'must be integer');
    return Number(raw);
  }
  if (param.type === 'boolean') {
    if (raw !== 'true' && raw !== 'false') throw ValidationError.of(param.name, 'type', 'must be true or false');
    return raw === 'true';
  }
  if (param.enum !== undefined && !param.enum.includes(raw))
    throw ValidationError.of(param.name, 'enum', `must be one of ${JSON.stringify(param.enum)}`);
  return raw;
}

/**
 * Reads a query string by its parameters; an unknown parameter or a wrong type is VALIDATION_FAILED.
 *
 * @example
 * parseQuery({ limit: '10', kinds: 'message,marker' }, params) // { limit: 10, kinds: ['message', 'marker'] }
 */
export function parseQuery(raw: unknown, params: readonly QueryParam[]): ParsedQuery {
  const query: ParsedQuery = {};
  const given = isObject(raw) ? raw : {};
  // The input rules first: `%00` decodes to U+0000, which no store takes (names and values alike).
  const text = inputIssues(given);
  if (text.length > 0) throw new ValidationError(text);
  const issues: ValidationIssue[] = [];
  for (const [name, value] of Object.entries(given)) {
    const param = params.find((candidate) => candidate.name === name);
    if (param === undefined) {
      issues.push({ field: name, rule: 'additionalProperties', message: 'is not an allowed query parameter' });
      continue;
    }
    query[name] = parseValue(param, value as string | string[]);
  }
  if (issues.length > 0) throw new ValidationError(issues);
  return query;
}

/**
 * The query values that are present, under the names the library uses.
 *
 * @example
 * pick({ user_id: 'u1', limit: 5 }, ['user_id', 'agent_id']) // { user_id: 'u1' }
 */
export function pick(query: ParsedQuery, names: readonly string[]): JsonObject {
  const picked: JsonObject = {};
  for (const name of names) if (query[name] !== undefined) picked[name] = query[name];
  return picked;
}

/**
 * A page of a list: `next_cursor` is the last id when the page is full, else null.
 *
 * @example
 * page(events, 100, (event) => event.id) // { items: [...], next_cursor: 'evt_…' | null }
 */
export function page<T>(
  items: readonly T[],
  limit: number,
  idOf: (item: T) => string,
): { items: readonly T[]; next_cursor: string | null } {
  const last = items.at(-1);
  return { items, next_cursor: last !== undefined && items.length >= limit ? idOf(last) : null };
}

/**
 * The page size of a parsed query (the default when absent).
 *
 * @example
 * limitOf({ limit: 20 }) // 20
 */
export function limitOf(query: ParsedQuery): number {
  return typeof query['limit'] === 'number' ? query['limit'] : DEFAULT_LIMIT;
}
