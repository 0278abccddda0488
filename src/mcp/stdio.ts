// Serves the MCP server over stdio (newline-delimited JSON-RPC on stdin and stdout) until the input
// closes. Requests already read when it closes are answered first, so piping a file of requests in
// gets every answer out.

import type { Readable, Writable } from 'node:stream';

import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type MessageExtraInfo,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';

import type { Engram, KeyPrincipal } from '../index.js';
import { createMcpServer, type McpServerOptions } from './server.js';

/** Options of `runMcpStdio`: the server's, and the streams (the process's by default). */
export interface McpStdioOptions extends McpServerOptions {
  input?: Readable;
  output?: Writable;
}

/** A transport that knows which requests it has not answered yet. */
class TrackingTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  private readonly open = new Set<RequestId>();
  private waiters: Array<() => void> = [];

  constructor(private readonly inner: Transport) {}

  async start(): Promise<void> {
    this.inner.onmessage = (message, extra) => {
      if (isJSONRPCRequest(message)) this.open.add(message.id);
      this.onmessage?.(message, extra);
    };
    this.inner.onclose = () => this.onclose?.();
    this.inner.onerror = (error) => this.onerror?.(error);
    await this.inner.start();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    try {
      await this.inner.send(message, options);
    } finally {
      if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) this.answered(message.id);
    }
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  /** Resolves once every request read so far has its answer sent. */
  idle(): Promise<void> {
    if (this.open.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private answered(id: RequestId | undefined): void {
    if (id !== undefined) this.open.delete(id);
    if (this.open.size > 0) return;
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}

function ended(input: Readable): Promise<void> {
  return new Promise((resolve) => {
    input.once('end', resolve);
    input.once('close', resolve);
  });
}

/**
 * Serves Engram's MCP tools over stdio for one caller until the input closes (or the client goes
 * away); resolves after the last answer is written. Nothing else may write to stdout meanwhile.
 *
 * @example
 * const engram = await createEngram({ store: 'sqlite:./.engram/engram.db' });
 * await runMcpStdio(engram, { key_id: 'key_local', tenant_id: 'default', role: 'admin' });
 * await engram.close();
 */
export async function runMcpStdio(
  engram: Engram,
  principal: KeyPrincipal,
  options: McpStdioOptions = {},
): Promise<void> {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const server = createMcpServer(engram, principal, options);
  const transport = new TrackingTransport(new StdioServerTransport(input, output));
  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
  });
  const inputEnded = ended(input);
  await server.connect(transport);
  await Promise.race([inputEnded, closed]);
  await Promise.race([transport.idle(), closed]);
  await server.close();
  await closed;
}
