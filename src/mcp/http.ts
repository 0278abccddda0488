// MCP over streamable HTTP, stateless: every POST gets its own server and transport (no session id),
// bound to the caller's verified key, and the answer comes back as one JSON response. GET (a
// server-to-client event stream) and DELETE (ending a session) mean nothing without sessions: 405.

import type { IncomingMessage, ServerResponse } from 'node:http';

import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

import type { Engram, KeyPrincipal } from '../index.js';
import { createMcpServer, type McpServerOptions } from './server.js';

/** Options of `handleMcpRequest`: the server's, and the DNS-rebinding allow lists. */
export interface McpHttpOptions extends McpServerOptions {
  /**
   * Turns on the MCP SDK's DNS-rebinding protection: a request whose Host header is not one of
   * `allowedHosts` (whole values, with the port) or whose Origin is not one of `allowedOrigins`
   * is answered 403 with a JSON-RPC error, before any tool runs.
   */
  rebinding?: { allowedHosts: string[]; allowedOrigins: string[] };
}

function jsonRpcError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/**
 * Answers one MCP request at the HTTP endpoint (mounted at `/mcp` behind API-key auth): `body` is
 * the request's parsed JSON (undefined: the transport reads it from `req`). Writes the whole response to `res` and resolves when it is written.
 * With `rebinding`, the SDK also refuses a Host or Origin outside its allow lists (403).
 * A Fastify route hands over the raw objects: `reply.hijack(); await handleMcpRequest(engram,
 * principal, request.raw, reply.raw, request.body)`.
 *
 * @example
 * http.createServer(async (req, res) => {
 *   const body = JSON.parse(await readBody(req));
 *   await handleMcpRequest(engram, principalOf(req), req, res, body);
 * });
 */
export async function handleMcpRequest(
  engram: Engram,
  principal: KeyPrincipal,
  req: IncomingMessage,
  res: ServerResponse,
  body: unknown,
  options: McpHttpOptions = {},
): Promise<void> {
  if (req.method !== 'POST') {
    // The SDK's answer for stateless servers; its client takes 405 on GET as "no event stream".
    jsonRpcError(res, 405, -32000, 'Method not allowed.', { Allow: 'POST' });
    return;
  }
  const server = createMcpServer(engram, principal, options);
  const rebinding = options.rebinding;
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    ...(rebinding === undefined
      ? {}
      : {
          enableDnsRebindingProtection: true,
          allowedHosts: rebinding.allowedHosts,
          allowedOrigins: rebinding.allowedOrigins,
        }),
  });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  try {
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  } catch (error) {
    options.onError?.(error, 'http');
    if (!res.headersSent) jsonRpcError(res, 500, -32603, 'Internal server error');
    else res.end();
  }
}
