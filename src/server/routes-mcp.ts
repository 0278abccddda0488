// /mcp: the MCP server (src/mcp) over streamable HTTP, behind the same keys, rate limit and request
// ids as /v1. Fastify parses the JSON body; the MCP transport writes the raw response itself.

import type { FastifyInstance } from 'fastify';

import type { Engram } from '../index.js';
import { handleMcpRequest } from '../mcp/index.js';

/**
 * Mounts POST, GET and DELETE /mcp on an authenticated context. Tools check the key's role
 * themselves (a read key lists and reads; writing tools need a write key).
 *
 * @example
 * registerMcpRoutes(api, engram);
 */
export function registerMcpRoutes(app: FastifyInstance, engram: Engram): void {
  app.route({
    method: ['POST', 'GET', 'DELETE'],
    url: '/mcp',
    config: { role: 'read' },
    handler: async (request, reply) => {
      // A hijacked reply skips Fastify's headers: set the request id on the raw response.
      reply.raw.setHeader('x-request-id', request.id);
      reply.hijack();
      await handleMcpRequest(engram, request.principal!, request.raw, reply.raw, request.body, {
        onError: (error, where) => request.log.error({ err: error, where }, 'MCP request failed'),
      });
    },
  });
}
