// createServer(engram, options): Engram as an HTTP service on Fastify. It wires request ids and
// logs, the Host/Origin check, the JSON parser, the one error handler, metrics, the operational
// routes, and an authenticated, rate-limited context holding /v1 (the route table) and /mcp. The
// caller owns the Engram and closes it.

import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance } from 'fastify';

import { EngramError, type Engram } from '../index.js';
import { authenticate, isLoopback } from './auth.js';
import { AuthFailures } from './auth-failures.js';
import { answerClientError } from './client-error.js';
import { checkHost } from './host-check.js';
import { HttpError } from './http-error.js';
import { acceptJson } from './json-body.js';
import { installRequestMetrics, ServerMetrics } from './metrics.js';
import { openApiDocument } from './openapi.js';
import { registerOpsRoutes } from './ops-routes.js';
import { loggerOptions, resolveServerOptions, type ResolvedServerOptions, type ServerOptions } from './options.js';
import { installProblemHandling } from './problem.js';
import { registerRoutes, type RouteSpec } from './route-kit.js';
import { buildRoutes } from './routes-builds.js';
import { eventRoutes } from './routes-events.js';
import { insightRoutes } from './routes-insights.js';
import { itemRoutes } from './routes-items.js';
import { keyRoutes } from './routes-keys.js';
import { acceptNdjson, maintenanceRoutes } from './routes-maintenance.js';
import { registerMcpRoutes } from './routes-mcp.js';
import { reviewRoutes } from './routes-review.js';
import { runRoutes } from './routes-runs.js';
import { scopeRoutes, workingStateRoutes } from './routes-sessions.js';
import { turnRoutes } from './routes-turns.js';
import { registerInspector } from './ui-routes.js';

export type { ServerOptions } from './options.js';

/** Every /v1 route, in the order of the docs: a route file per area of the library's Engram. */
export const API_ROUTES: readonly RouteSpec[] = [
  ...turnRoutes,
  ...scopeRoutes,
  ...eventRoutes,
  ...itemRoutes,
  ...workingStateRoutes,
  ...reviewRoutes,
  ...insightRoutes,
  ...runRoutes,
  ...buildRoutes,
  ...keyRoutes,
];

/**
 * Every route the server registers and documents: API_ROUTES (JSON in and out) and the maintenance
 * routes (JSON Lines export and import, erase), which their own tests cover.
 */
export const ALL_ROUTES: readonly RouteSpec[] = [...API_ROUTES, ...maintenanceRoutes];

const resolved = new WeakMap<FastifyInstance, ResolvedServerOptions>();

/** A caller's request id when it is a short, plain token; otherwise a new one. */
function requestIdOf(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && /^[\w.:-]{1,128}$/.test(given) ? given : randomUUID();
}

async function registerApi(
  app: FastifyInstance,
  engram: Engram,
  metrics: ServerMetrics,
  options: ResolvedServerOptions,
  failures: AuthFailures,
): Promise<void> {
  await app.register(async (api) => {
    api.addHook('onRequest', authenticate(engram, options.auth, failures));
    acceptNdjson(api);
    // Route-level hooks run after the context's, so the limiter sees the verified key.
    await api.register(rateLimit, {
      global: true,
      max: options.rateLimit.max,
      timeWindow: options.rateLimit.timeWindowMs,
      keyGenerator: (request) => request.principal?.key_id ?? request.ip,
      errorResponseBuilder: (_request, context) =>
        new HttpError(
          'RATE_LIMITED',
          `rate limit of ${context.max} requests per window reached; retry in ${context.after}`,
        ),
    });
    registerRoutes(
      api,
      { engram, metrics, timeoutMs: options.requestTimeoutMs, importMaxLineBytes: options.importMaxLineBytes },
      ALL_ROUTES,
    );
    registerMcpRoutes(api, engram, { hosts: options, tools: options.mcpTools });
  });
}

/**
 * A ready (not yet listening) Fastify server over an Engram: /v1 (JSON, API keys), /mcp, /healthz,
 * /readyz, /metrics, /openapi.json, the docs page at /docs and the web inspector at /ui. Close the server, then the Engram.
 *
 * @example
 * const engram = await createEngram({ store: 'sqlite:./.engram/engram.db' });
 * const app = await createServer(engram, { auth: 'keys', host: '127.0.0.1' });
 * const url = await listen(app, { port: 8080 });
 */
export async function createServer(engram: Engram, options: ServerOptions): Promise<FastifyInstance> {
  const settings = resolveServerOptions(options);
  const app = Fastify({
    logger: loggerOptions(settings.logger),
    bodyLimit: settings.bodyLimit,
    // Receiving a whole request (a slow client) is bounded too; Node answers 408 past it.
    requestTimeout: settings.requestTimeoutMs,
    genReqId: requestIdOf,
    requestIdHeader: false,
    // Requests the HTTP parser refuses get a problem document too; a missing Host is refused by
    // the Host check (Node would answer an empty 400 itself).
    clientErrorHandler: answerClientError,
    // Node checks request times only this often (30 s by default, which would make a 1 s limit
    // one of up to 31 s): a quarter of the limit keeps it close to what was asked.
    http: {
      requireHostHeader: false,
      connectionsCheckingInterval: Math.max(100, Math.min(30_000, Math.floor(settings.requestTimeoutMs / 4))),
    },
  }) as unknown as FastifyInstance;
  resolved.set(app, settings);
  // JSON only: other bodies are 415 UNSUPPORTED_MEDIA_TYPE.
  app.removeContentTypeParser('text/plain');
  acceptJson(app);
  app.decorateRequest('principal', null);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  // Before authentication: a request naming another host is refused whatever key it carries.
  app.addHook('onRequest', checkHost(settings));
  installProblemHandling(app);
  const metrics = new ServerMetrics();
  installRequestMetrics(app, metrics);
  app.addHook('onClose', async () => metrics.close());
  const document = openApiDocument(ALL_ROUTES, { metricsAuth: settings.metricsAuth, mcp: true });
  // One count of failed authentications per process, shared by /v1, /mcp and /metrics.
  const failures = new AuthFailures(settings.authFailureLimit);
  await registerOpsRoutes(app, {
    engram,
    metrics,
    document,
    metricsAuth: settings.metricsAuth ? authenticate(engram, settings.auth, failures) : null,
  });
  await registerApi(app, engram, metrics, settings, failures);
  if (settings.inspector) await registerInspector(app);
  await app.ready();
  return app;
}

/**
 * Starts listening; resolves to the base URL. The host defaults to the one given to
 * createServer (else 127.0.0.1); a server without auth never listens beyond loopback.
 *
 * @example
 * const url = await listen(app, { port: 0 }); // 'http://127.0.0.1:53412'
 */
export async function listen(app: FastifyInstance, where: { host?: string; port?: number } = {}): Promise<string> {
  const settings = resolved.get(app);
  const host = where.host ?? settings?.host ?? '127.0.0.1';
  if (settings?.auth === 'none' && !isLoopback(host)) {
    throw new EngramError(
      'CONFIG_INVALID',
      "host: auth 'none' is allowed only on a loopback host (127.0.0.1, ::1, localhost)",
      { field: 'host' },
    );
  }
  await app.listen({ host, port: where.port ?? 8080 });
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : where.port;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}
