// Routes for operators and readers of the API, outside /v1 and without a key: liveness, readiness
// (the store answers a cheap read), Prometheus metrics, the OpenAPI document and its docs page
// (Swagger UI served from the npm package, no CDN).

import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, onRequestAsyncHookHandler } from 'fastify';

import type { Engram } from '../index.js';
import type { ServerMetrics } from './metrics.js';
import type { OpenApiDocument } from './openapi.js';

/** What the operational routes need. */
export interface OpsContext {
  engram: Engram;
  metrics: ServerMetrics;
  document: OpenApiDocument;
  /** Set when /metrics needs a key (option metricsAuth). */
  metricsAuth: onRequestAsyncHookHandler | null;
}

/**
 * Registers /healthz, /readyz, /metrics, /openapi.json and the docs page at /docs.
 *
 * @example
 * await registerOpsRoutes(app, { engram, metrics, document, metricsAuth: null });
 */
export async function registerOpsRoutes(app: FastifyInstance, context: OpsContext): Promise<void> {
  const { engram, metrics, document } = context;
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async () => {
    await engram.ready();
    return { status: 'ready' };
  });
  app.get(
    '/metrics',
    { ...(context.metricsAuth === null ? {} : { onRequest: context.metricsAuth }) },
    async (_request, reply) => reply.type(metrics.contentType).send(await metrics.text()),
  );
  app.get('/openapi.json', async () => document);
  await app.register(swagger, { mode: 'static', specification: { document: document as never } });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list', deepLinking: true } });
}
