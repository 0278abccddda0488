// How `engram/client` sends one call: the route's method and path from the generated route table,
// the API key, a JSON (or JSON Lines) body and the query; a problem document comes back as an
// EngramHttpError carrying the typed code, the field and the rule's issues.

import { ROUTES, type RouteTypes } from './routes.js';

/** Options of `createClient`. */
export interface ClientOptions {
  /** The server's address, for example `http://127.0.0.1:8787`. */
  baseUrl: string;
  /** An API key (`egk_…`). */
  apiKey: string;
  /** A fetch implementation (default: the global one). */
  fetch?: typeof fetch;
  /** Milliseconds before a request is abandoned (default 30 s). */
  timeoutMs?: number;
}

/**
 * An error answered by the server (`application/problem+json`).
 *
 * @example
 * try { await engram.items.get('mem_…'); } catch (error) { if (error instanceof EngramHttpError && error.status === 404) … }
 */
export class EngramHttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field: string | undefined,
    readonly issues: unknown[] | undefined,
    readonly requestId: string | undefined,
  ) {
    super(message);
    this.name = 'EngramHttpError';
  }
}

/** The operationId of a route (as in /openapi.json). */
export type OperationId = keyof RouteTypes;
/** What a route takes: path parameters, query and body. */
export type RouteInput<Op extends OperationId> = RouteTypes[Op]['input'];
/** What a route answers. */
export type RouteResponse<Op extends OperationId> = RouteTypes[Op]['response'];
/** A route's query parameters. */
export type RouteQuery<Op extends OperationId> = NonNullable<RouteInput<Op>['query']>;

type Query = Record<string, string | number | boolean | readonly string[] | undefined>;

function queryString(query: Query | undefined): string {
  if (query === undefined) return '';
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) params.set(name, value.join(','));
    else params.set(name, String(value));
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

/** JSON and problem+json answers are parsed; JSON Lines and Markdown are text. */
const JSON_TYPE = /^application\/(?:[\w.-]+\+)?json\b/u;

/** A route's path with its parameters filled in. */
function pathOf(template: string, params: Record<string, string> | undefined): string {
  return template.replace(/:(\w+)/g, (_match, name: string) => encodeURIComponent(params?.[name] ?? ''));
}

function problemOf(response: Response, parsed: unknown, what: string): EngramHttpError {
  const problem = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as Record<string, unknown>;
  return new EngramHttpError(
    response.status,
    typeof problem['code'] === 'string' ? problem['code'] : `HTTP_${response.status}`,
    typeof problem['detail'] === 'string' ? problem['detail'] : `${what} answered ${response.status}`,
    typeof problem['field'] === 'string' ? problem['field'] : undefined,
    Array.isArray(problem['issues']) ? problem['issues'] : undefined,
    response.headers.get('x-request-id') ?? undefined,
  );
}

/**
 * Sends a request and reads its answer: parsed JSON, text, or null for an empty one.
 *
 * @example
 * await send(options, 'GET', '/healthz') // { status: 'ok' }
 */
export async function send(
  options: ClientOptions,
  method: string,
  path: string,
  input: { query?: Query; body?: unknown; contentType?: string } = {},
): Promise<unknown> {
  const { body, contentType = 'application/json' } = input;
  const json = contentType === 'application/json';
  const response = await (options.fetch ?? fetch)(
    `${options.baseUrl.replace(/\/+$/u, '')}${path}${queryString(input.query)}`,
    {
      method,
      headers: {
        authorization: `Bearer ${options.apiKey}`,
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': contentType }),
      },
      ...(body === undefined ? {} : { body: json ? JSON.stringify(body) : (body as string) }),
      signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
    },
  );
  const text = await response.text();
  const parsed: unknown =
    text === '' ? null : JSON_TYPE.test(response.headers.get('content-type') ?? '') ? JSON.parse(text) : text;
  if (!response.ok) throw problemOf(response, parsed, `${method} ${path}`);
  return parsed;
}

/**
 * Calls one route of the table by its operationId, typed by what the route takes and answers.
 *
 * @example
 * await callRoute(options, 'getEvent', { params: { id: 'evt_…' } }) // EventRecord
 */
export async function callRoute<Op extends OperationId>(
  options: ClientOptions,
  operation: Op,
  input: RouteInput<Op>,
): Promise<RouteResponse<Op>> {
  const route: { method: string; path: string; contentType?: string } = ROUTES[operation];
  const { params, query, body } = input as { params?: Record<string, string>; query?: Query; body?: unknown };
  const answer = await send(options, route.method, pathOf(route.path, params), {
    ...(query === undefined ? {} : { query }),
    ...(body === undefined ? {} : { body }),
    ...(route.contentType === undefined ? {} : { contentType: route.contentType }),
  });
  // The server answers with the route's documented type (its OpenAPI schema says the same).
  return answer as RouteResponse<Op>;
}
