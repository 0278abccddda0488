// The MCP server of Engram: the SDK's low-level Server with one handler to list the tools and one to
// call them, for one caller (a verified key). Tool failures the model can act on come back as
// `isError` results; only protocol faults (an unknown tool) are JSON-RPC errors.

import { createRequire } from 'node:module';

import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';

import { EngramError, KEY_ROLES, type Engram, type KeyPrincipal } from '../index.js';
import { bindArguments } from './arguments.js';
import { errorResult, failureOf, forbidden, successResult } from './tool-result.js';
import { TOOLS, type EngramTool } from './tools.js';

/** Options of `createMcpServer`. */
export interface McpServerOptions {
  /**
   * Called with an unexpected error (not an EngramError), a fault to log; `where` is the tool's
   * name, `key check`, or `http` for the transport. The model sees only `INTERNAL: unexpected error`.
   */
  onError?: (error: unknown, where: string) => void;
  /**
   * Asked before every tool call whether the caller's key is still good (a long-lived stdio
   * server outlives a revocation); false answers the call UNAUTHENTICATED without running it.
   */
  keyStillValid?: () => Promise<boolean>;
  /**
   * The tool list: `lean` (default) shows each tool's common arguments and no output schemas, a
   * few thousand tokens that every model request carries; `full` shows every argument (a turn's
   * working-state patch, step markers and run payload, compose's policy and time options) and the
   * output schemas. Either way a tool takes every argument of its full schema.
   */
  tools?: 'lean' | 'full';
}

/** The answer to every call once the key is no longer good. */
const REVOKED = {
  code: 'UNAUTHENTICATED',
  field: null,
  message: 'the API key of this server was revoked or is no longer valid; restart it with a valid key',
} as const;

const INSTRUCTIONS = [
  'Engram is the memory of this assistant: an episodic log of turns, a working state per session, and long-term memory extracted from them.',
  'Typical loop: compose_context before answering or planning; commit_turn after each turn; search_memory to look something up; remember and forget when the user asks.',
  'A scope names user_id, agent_id, session_id and run_id; the tenant always comes from the key.',
].join(' ');

function packageVersion(): string {
  // src/mcp and dist/mcp are both two levels below the package root.
  const manifest: unknown = createRequire(import.meta.url)('../../package.json');
  const version =
    typeof manifest === 'object' && manifest !== null ? (manifest as Record<string, unknown>)['version'] : undefined;
  return typeof version === 'string' ? version : '0.0.0';
}

const VERSION = packageVersion();

function canWrite(principal: KeyPrincipal): boolean {
  return principal.role === 'write' || principal.role === 'admin';
}

function listing(tool: EngramTool, surface: 'lean' | 'full'): Tool {
  const lean = surface === 'lean';
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: (lean ? tool.leanInputSchema : tool.inputSchema) as Tool['inputSchema'],
    ...(lean ? {} : { outputSchema: tool.outputSchema as Tool['outputSchema'] }),
    annotations: { title: tool.title, ...tool.annotations },
  };
}

/** The answer when the key is no longer good (or cannot be checked), else null. */
async function keyRefusal(options: McpServerOptions): Promise<CallToolResult | null> {
  if (options.keyStillValid === undefined) return null;
  try {
    return (await options.keyStillValid()) ? null : errorResult({ ...REVOKED });
  } catch (error) {
    const failure = failureOf(error);
    if (failure !== null) return errorResult(failure);
    options.onError?.(error, 'key check');
    return errorResult({ code: 'INTERNAL', field: null, message: 'unexpected error' });
  }
}

async function callTool(
  engram: Engram,
  principal: KeyPrincipal,
  name: string,
  input: Record<string, unknown> | undefined,
  options: McpServerOptions,
): Promise<CallToolResult> {
  const tool = TOOLS.find((candidate) => candidate.name === name);
  if (tool === undefined) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
  const refused = await keyRefusal(options);
  if (refused !== null) return refused;
  if (tool.access === 'write' && !canWrite(principal)) {
    return errorResult(forbidden(null, `${name} writes memory, and this key (role ${principal.role}) can only read`));
  }
  const bound = bindArguments(tool, input, principal);
  if (!bound.ok) return errorResult(bound.failure);
  try {
    const output = await tool.run(engram, bound.args, principal);
    return successResult(output.structured, output.text);
  } catch (error) {
    const failure = failureOf(error);
    if (failure !== null) return errorResult(failure);
    options.onError?.(error, name);
    return errorResult({ code: 'INTERNAL', field: null, message: 'unexpected error' });
  }
}

/**
 * An MCP server for one caller: the nine memory tools over `engram`, every call in the tenant of
 * `principal`. A `read` key lists only the read tools (and gets FORBIDDEN from a write tool).
 * Connect it to any transport: `runMcpStdio` and `handleMcpRequest` do that for stdio and HTTP.
 *
 * @example
 * const server = createMcpServer(engram, { key_id: 'key_local', tenant_id: 'default', role: 'admin' });
 * await server.connect(transport);
 */
export function createMcpServer(engram: Engram, principal: KeyPrincipal, options: McpServerOptions = {}): Server {
  if (!KEY_ROLES.includes(principal.role) || typeof principal.tenant_id !== 'string' || principal.tenant_id === '') {
    throw new EngramError('CONFIG_INVALID', 'principal: needs a tenant_id and a role of read, write or admin', {
      field: 'principal',
    });
  }
  const fixed: KeyPrincipal = { ...principal };
  const server = new Server(
    { name: 'engram', title: 'Engram memory', version: VERSION },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
  );
  if (options.tools !== undefined && options.tools !== 'lean' && options.tools !== 'full') {
    throw new EngramError('CONFIG_INVALID', 'tools: must be "lean" or "full"', { field: 'tools' });
  }
  const surface = options.tools ?? 'lean';
  const visible = TOOLS.filter((tool) => tool.access === 'read' || canWrite(fixed)).map((tool) =>
    listing(tool, surface),
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: visible }));
  server.setRequestHandler(CallToolRequestSchema, (request) =>
    callTool(engram, fixed, request.params.name, request.params.arguments, options),
  );
  return server;
}
