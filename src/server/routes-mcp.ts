// /mcp: the MCP server (src/mcp) over streamable HTTP, behind the same keys, rate limit and request
// ids as /v1, where each JSON-RPC message of a batch counts as one request. Fastify parses the JSON
// body; the MCP transport writes the raw response itself, with the SDK's DNS-rebinding check on.

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import type { Engram } from '../index.js';
import { handleMcpRequest } from '../mcp/index.js';
import { rebindingAllowList, type HostPolicyOptions } from './host-check.js';
import { HttpError } from './http-error.js';

/** What /mcp needs besides the Engram. */
export interface McpRouteOptions {
  /** The server's Host and Origin policy, handed to the MCP SDK's own check. */
  hosts: HostPolicyOptions;
  /** The tool list to show (see McpServerOptions.tools). */
  tools: 'lean' | 'full';
}

type Limiter = ReturnType<FastifyInstance['createRateLimit']>;

/** How many calls a body holds: each message of a JSON-RPC batch is one. */
function callsIn(body: unknown): number {
  return Array.isArray(body) ? Math.max(1, body.length) : 1;
}

function refuse(reply: FastifyReply, calls: number, limit: { max: number; ttlInSeconds: number }): never {
  reply.header('retry-after', String(limit.ttlInSeconds));
  throw new HttpError(
    'RATE_LIMITED',
    `rate limit of ${limit.max} requests per window reached: this batch holds ${calls} calls and each counts; retry in ${limit.ttlInSeconds} s`,
  );
}

/**
 * Takes one more request of the key's allowance for every message of a batch past the first (the
 * rate limit's own hook took one for the HTTP request). A batch larger than what is left is
 * refused whole, 429 RATE_LIMITED, before any of it runs, and costs only that one request.
 */
async function chargeBatch(limiter: Limiter, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const calls = callsIn(request.body);
  if (calls === 1) return;
  const left = await limiter(request, { increment: false });
  if (left.isAllowed) return;
  if (left.remaining < calls - 1) refuse(reply, calls, left);
  for (let charged = 1; charged < calls; charged += 1) {
    // Another batch of the same key may have drawn on the allowance since the look above.
    const outcome = await limiter(request);
    if (!outcome.isAllowed && outcome.isExceeded) refuse(reply, calls, outcome);
  }
}

/**
 * Mounts POST, GET and DELETE /mcp on an authenticated, rate-limited context (the rate-limit
 * plugin registered on it). Tools check the key's role themselves (a read key lists and reads;
 * writing tools need a write key).
 *
 * @example
 * registerMcpRoutes(api, engram, { hosts: { auth: 'keys', allowedHosts: [] } });
 */
export function registerMcpRoutes(app: FastifyInstance, engram: Engram, options: McpRouteOptions): void {
  // The limiter of the plugin registered on this context: the same store and key as every /v1 request.
  const limiter = app.createRateLimit();
  app.route({
    method: ['POST', 'GET', 'DELETE'],
    url: '/mcp',
    config: { role: 'read' },
    preHandler: (request, reply) => chargeBatch(limiter, request, reply),
    handler: async (request, reply) => {
      // A hijacked reply skips Fastify's headers: set the request id on the raw response.
      reply.raw.setHeader('x-request-id', request.id);
      reply.hijack();
      const rebinding = rebindingAllowList(request, options.hosts);
      await handleMcpRequest(engram, request.principal!, request.raw, reply.raw, request.body, {
        onError: (error, where) => request.log.error({ err: error, where }, 'MCP request failed'),
        tools: options.tools,
        ...(rebinding === null ? {} : { rebinding }),
      });
    },
  });
}
