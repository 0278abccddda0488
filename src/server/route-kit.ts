// Routes as data: each is a method, a path, the least role, its query parameters, body and response
// (for the OpenAPI document) and a thin handler over the library. The same table registers the
// routes and generates /openapi.json, so the two cannot drift apart.

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import { renameFields, ValidationError, type Engram, type KeyPrincipal, type KeyRole, type ValidationIssue } from '../index.js';
import { HttpError } from './http-error.js';
import type { ServerMetrics } from './metrics.js';
import { assertOwnTenant, isObject, type JsonObject } from './tenancy.js';

/** A JSON Schema fragment (for the OpenAPI document). */
export type SchemaObject = Record<string, unknown>;

/** A query parameter: how it is read from the query string and documented. */
export interface QueryParam {
  name: string;
  /** `list` takes repeated parameters or comma-separated values. */
  type: 'string' | 'integer' | 'boolean' | 'list';
  description: string;
  enum?: readonly string[];
}

/** The query, typed: strings, whole numbers, booleans and lists. */
export type ParsedQuery = Record<string, string | number | boolean | string[]>;

/** What a handler gets. */
export interface RouteCall {
  engram: Engram;
  principal: KeyPrincipal;
  /** The key's tenant: every call is scoped by it. */
  tenant: string;
  /** The parsed JSON body as sent (handlers bind the tenant before the library sees it). */
  body: unknown;
  params: Record<string, string>;
  query: ParsedQuery;
  reply: FastifyReply;
  metrics: ServerMetrics;
}

/** One route of the API. */
export interface RouteSpec {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  url: string;
  operationId: string;
  role: KeyRole;
  tag: string;
  summary: string;
  query?: readonly QueryParam[];
  /** The request body, for the document (the library validates it). */
  body?: { schema: SchemaObject; required: boolean };
  response: { status: number; description: string; schema?: SchemaObject; contentType?: string };
  /** Error statuses this route can answer with, besides the ones every route can. */
  errors?: readonly number[];
  handle(call: RouteCall): Promise<unknown>;
}

/** The query parameter every route takes: the key's own tenant, repeated (any other is 403). */
export const TENANT_PARAM: QueryParam = { name: 'tenant_id', type: 'string', description: "Optional; must be the key's own tenant." };

/** Lists take a cursor (the last id of the previous page) and a limit (1–1000, default 100). */
export const PAGE_PARAMS: readonly QueryParam[] = [
  { name: 'cursor', type: 'string', description: 'The last id of the previous page (its next_cursor).' },
  { name: 'limit', type: 'integer', description: 'Page size, 1–1000 (default 100).' },
];

/** The page size when a request names none. */
export const DEFAULT_LIMIT = 100;

function parseValue(param: QueryParam, raw: string | string[]): string | number | boolean | string[] {
  if (param.type === 'list') return (Array.isArray(raw) ? raw : [raw]).flatMap((part) => part.split(',')).filter((part) => part !== '');
  if (Array.isArray(raw)) throw ValidationError.of(param.name, 'type', 'must be given once');
  if (param.type === 'integer') {
    if (!/^-?\d{1,15}$/.test(raw)) throw ValidationError.of(param.name, 'type', 'must be integer');
    return Number(raw);
  }
  if (param.type === 'boolean') {
    if (raw !== 'true' && raw !== 'false') throw ValidationError.of(param.name, 'type', 'must be true or false');
    return raw === 'true';
  }
  if (param.enum !== undefined && !param.enum.includes(raw)) throw ValidationError.of(param.name, 'enum', `must be one of ${JSON.stringify(param.enum)}`);
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
export function page<T>(items: readonly T[], limit: number, idOf: (item: T) => string): { items: readonly T[]; next_cursor: string | null } {
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

/**
 * A body merged with the id its path names; a body naming another id is refused.
 *
 * @example
 * withPathId({ by: 'mira' }, 'candidate_id', 'cand_…') // { by: 'mira', candidate_id: 'cand_…' }
 */
export function withPathId(body: unknown, field: string, id: string): unknown {
  if (body === undefined) return { [field]: id };
  if (!isObject(body)) return body;
  if (body[field] !== undefined && body[field] !== id) throw ValidationError.of(field, 'const', 'must be the id in the path (or left out)');
  return { ...body, [field]: id };
}

const fromScope = (field: string) => field.replace(/^scope\./, '');

async function call(spec: RouteSpec, engram: Engram, metrics: ServerMetrics, request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
  const principal = request.principal!;
  const query = parseQuery(request.query, [TENANT_PARAM, ...(spec.query ?? [])]);
  assertOwnTenant(query['tenant_id'], principal.tenant_id, 'tenant_id');
  try {
    return await spec.handle({ engram, principal, tenant: principal.tenant_id, body: request.body, params: request.params as Record<string, string>, query, reply, metrics });
  } catch (error) {
    // A GET's scope comes from the query string: name the parameter, not the library's field.
    throw spec.method === 'GET' ? renameFields(error, fromScope) : error;
  }
}

/**
 * The work's result, or TIMEOUT when it takes longer than `ms`. The work itself cannot be stopped
 * and finishes in the background (a write still commits, or not, as one transaction).
 *
 * @example
 * await withDeadline(engram.compose(request), 30_000);
 */
export async function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new HttpError('TIMEOUT', `no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** What every route handler shares. */
export interface RouteEnvironment {
  engram: Engram;
  metrics: ServerMetrics;
  /** Longest a handler may take before the answer is 503 TIMEOUT. */
  timeoutMs: number;
}

/**
 * Registers routes on an (authenticated) Fastify context.
 *
 * @example
 * registerRoutes(api, { engram, metrics, timeoutMs: 30_000 }, [...turnRoutes, ...memoryRoutes]);
 */
export function registerRoutes(app: FastifyInstance, environment: RouteEnvironment, specs: readonly RouteSpec[]): void {
  const { engram, metrics, timeoutMs } = environment;
  for (const spec of specs) {
    app.route({
      method: spec.method,
      url: spec.url,
      config: { role: spec.role },
      handler: async (request, reply) => {
        // Fastify's own handlerTimeout is cleared once a request body has been read, so it never
        // fires for POST and PATCH; the deadline is kept here instead.
        const result = await withDeadline(call(spec, engram, metrics, request, reply), timeoutMs);
        reply.code(spec.response.status);
        if (spec.response.status === 204) return reply.send();
        if (spec.response.contentType !== undefined) return reply.type(spec.response.contentType).send(result);
        return reply.send(result);
      },
    });
  }
}
