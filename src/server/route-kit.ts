// Routes as data: each is a method, a path, the least role, its query parameters, body and response
// (for the OpenAPI document) and a thin handler over the library. The same table registers the
// routes and generates /openapi.json, so the two cannot drift apart.

import type { Socket } from 'node:net';
import { Readable } from 'node:stream';

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import { EngramError, inputIssues, ValidationError, type Engram, type KeyPrincipal, type KeyRole } from '../index.js';
import { HttpError } from './http-error.js';
import type { ServerMetrics } from './metrics.js';
import { parseQuery, TENANT_PARAM, type ParsedQuery, type QueryParam } from './route-query.js';
import { assertOwnTenant, bindTenant, isObject } from './tenancy.js';

/** A JSON Schema fragment (for the OpenAPI document). */
export type SchemaObject = Record<string, unknown>;

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
  /** Tells a `progress` route's deadline the work moved on (bytes read, a batch written); a no-op elsewhere. */
  progress: () => void;
  /** The longest import line the server reads, in bytes (its `importMaxLineBytes` option). */
  importMaxLineBytes: number;
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
  /** The request body, for the document (the library validates it); JSON unless `contentType` says otherwise. */
  body?: { schema: SchemaObject; required: boolean; contentType?: string };
  response: { status: number; description: string; schema?: SchemaObject; contentType?: string };
  /**
   * The TypeScript types of the body and the answer, written against the names `src/client/records.ts`
   * and `src/index.ts` export: scripts/build-client.ts writes the typed client from them.
   */
  wire: { body?: string; response: string };
  /** Error statuses this route can answer with, besides the ones every route can. */
  errors?: readonly number[];
  /**
   * How long the route may take. `request` (default): the handler answers within the server's
   * `requestTimeoutMs`. `progress` (a streamed body): the wait restarts whenever the handler calls
   * `progress`, so a long import lives while its bytes arrive and its batches commit, and is cut
   * (503 TIMEOUT) after `requestTimeoutMs` without either; Node's limit on receiving a whole request
   * does not apply to it, and after a failure the rest of its body is not read (the connection closes).
   */
  deadline?: 'request' | 'progress';
  handle(call: RouteCall): Promise<unknown>;
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
  if (body[field] !== undefined && body[field] !== id)
    throw ValidationError.of(field, 'const', 'must be the id in the path (or left out)');
  return { ...body, [field]: id };
}

/**
 * A request addressed by the id in its path, in the key's tenant (approve, reject, insight changes).
 *
 * @example
 * addressed(call, 'candidate_id') // { by: 'mira', candidate_id: 'cand_…', tenant_id: 'acme' }
 */
export const addressed = ({ body, params, tenant }: RouteCall, field: string): unknown =>
  bindTenant(withPathId(body, field, params['id']!), tenant, { top: true });

const fromScope = (field: string) => field.replace(/^scope\./u, '');

/**
 * The error of a GET named by its query parameters: its scope comes from the query string, where
 * the library's `scope.user_id` is the parameter `user_id`. The one place a field is renamed after
 * the fact: the library's requests have no query string to name.
 */
function namedAsQuery(error: unknown): unknown {
  if (!EngramError.isInstance(error) || error.field === undefined) return error;
  if (ValidationError.isInstance(error))
    return new ValidationError(
      error.issues.map((issue) => ({ ...issue, field: fromScope(issue.field) })),
      { cause: error },
    );
  const field = fromScope(error.field);
  if (field === error.field) return error;
  return new EngramError(error.code, error.message.replace(error.field, field), {
    field,
    cause: error,
    details: error.details,
  });
}

async function call(
  spec: RouteSpec,
  environment: RouteEnvironment,
  request: FastifyRequest,
  reply: FastifyReply,
  progress: () => void,
): Promise<unknown> {
  const { engram, metrics, importMaxLineBytes } = environment;
  const principal = request.principal!;
  const query = parseQuery(request.query, [TENANT_PARAM, ...(spec.query ?? [])]);
  assertOwnTenant(query['tenant_id'], principal.tenant_id, 'tenant_id');
  // Every JSON body holds well-formed text without U+0000 before a handler binds or reads it (an
  // import stream checks its lines); depth is left to the library, which names it per request.
  const text =
    request.body instanceof Readable ? [] : inputIssues(request.body).filter((issue) => issue.rule !== 'max_depth');
  if (text.length > 0) throw new ValidationError(text);
  try {
    return await spec.handle({
      engram,
      principal,
      tenant: principal.tenant_id,
      body: request.body,
      params: request.params as Record<string, string>,
      query,
      reply,
      metrics,
      progress,
      importMaxLineBytes,
    });
  } catch (error) {
    // A GET's scope comes from the query string: name the parameter, not the library's field.
    throw spec.method === 'GET' ? namedAsQuery(error) : error;
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

/**
 * The work's result, or TIMEOUT once `ms` pass without progress: the work is handed `progress`, to
 * call whenever it moves on, which restarts the wait. Like withDeadline, the work itself is not stopped.
 *
 * @example
 * await withProgressDeadline((progress) => importStream(body, progress), 30_000);
 */
export async function withProgressDeadline<T>(work: (progress: () => void) => Promise<T>, ms: number): Promise<T> {
  let last = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    // One timer, moved on only when it fires: progress may be reported for every chunk of a body.
    const check = () => {
      const idle = Date.now() - last;
      if (idle >= ms) reject(new HttpError('TIMEOUT', `no progress within ${ms} ms`));
      else timer = setTimeout(check, ms - idle);
    };
    timer = setTimeout(check, ms);
  });
  try {
    return await Promise.race([work(() => (last = Date.now())), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** Sockets carrying a request of a `progress` route, which bounds its own time. */
const progressSockets = new WeakSet<object>();

/**
 * True while the socket carries a request of a route that bounds its time by progress (a streamed
 * import): Node's limit on receiving a whole request (`requestTimeout`) must not cut it.
 *
 * @example
 * if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT' && boundsOwnTime(socket)) return;
 */
export function boundsOwnTime(socket: object): boolean {
  return progressSockets.has(socket);
}

/** A `progress` route's call: its socket exempt from Node's request limit, closed after a failure. */
async function progressCall(
  spec: RouteSpec,
  environment: RouteEnvironment,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<unknown> {
  const socket = request.raw.socket;
  progressSockets.add(socket);
  try {
    const result = await withProgressDeadline(
      (progress) => call(spec, environment, request, reply, progress),
      environment.timeoutMs,
    );
    // The body was read whole; the next request on this connection has Node's limit again.
    progressSockets.delete(socket);
    return result;
  } catch (error) {
    // What is left of the body is not read: the connection closes once the answer is out (the
    // socket stays exempt until then, so Node does not answer a second time).
    closeAfterAnswer(reply, socket);
    throw error;
  }
}

/** How long a connection stays half-closed after a failed streamed request before it is dropped. */
const LINGER_MS = 2000;

/**
 * Closes a connection whose request body was not read whole, once its answer is out: the answer
 * says `Connection: close` (so no client sends another request on it), then our side closes (the
 * client reads the answer, then our end), all of it a moment later. Node would destroy the socket
 * as soon as a `Connection: close` answer is written, and destroying it with bytes unread resets
 * the connection: a client still sending could lose the answer. So this socket lingers instead.
 */
function closeAfterAnswer(reply: FastifyReply, socket: Socket): void {
  reply.header('connection', 'close');
  const linger = () => {
    socket.end();
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  };
  // Node's server ends a `Connection: close` answer's socket with destroySoon().
  (socket as Socket & { destroySoon?: () => void }).destroySoon = linger;
}

/** What every route handler shares. */
export interface RouteEnvironment {
  engram: Engram;
  metrics: ServerMetrics;
  /** Longest a handler may take before the answer is 503 TIMEOUT. */
  timeoutMs: number;
  /** The longest import line the server reads, in bytes. */
  importMaxLineBytes: number;
}

/**
 * Registers routes on an (authenticated) Fastify context.
 *
 * @example
 * registerRoutes(api, { engram, metrics, timeoutMs: 30_000, importMaxLineBytes: DEFAULT_MAX_LINE_BYTES }, [...turnRoutes, ...itemRoutes]);
 */
export function registerRoutes(app: FastifyInstance, environment: RouteEnvironment, specs: readonly RouteSpec[]): void {
  for (const spec of specs) {
    app.route({
      method: spec.method,
      url: spec.url,
      config: { role: spec.role },
      handler: async (request, reply) => {
        // Fastify's own handlerTimeout is cleared once a request body has been read, so it never
        // fires for POST and PATCH; the deadline is kept here instead.
        const result =
          spec.deadline === 'progress'
            ? await progressCall(spec, environment, request, reply)
            : await withDeadline(
                call(spec, environment, request, reply, () => undefined),
                environment.timeoutMs,
              );
        reply.code(spec.response.status);
        if (spec.response.status === 204) return reply.send();
        if (spec.response.contentType !== undefined) return reply.type(spec.response.contentType).send(result);
        return reply.send(result);
      },
    });
  }
}
