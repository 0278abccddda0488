// The official MCP client over streamable HTTP against `handleMcpRequest` on a real loopback
// socket. The HTTP server here is a stand-in for the service's: it reads the JSON body and maps a
// bearer token to a fixed principal (the real server verifies API keys).

import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { KeyPrincipal, MemoryPacket } from '../index.js';
import { tempEngram, type TempEngram } from '../../test/helpers/temp-engram.js';
import { send } from '../../test/server/raw-http.js';
import { handleMcpRequest } from './http.js';
import { ERROR_META_KEY } from './tool-result.js';

const principals: Record<string, KeyPrincipal> = {
  'admin-key': { key_id: 'key_admin', tenant_id: 'default', role: 'admin' },
  'read-key': { key_id: 'key_read', tenant_id: 'default', role: 'read' },
  'other-key': { key_id: 'key_other', tenant_id: 'other', role: 'write' },
};
const scope = { user_id: 'ada', agent_id: 'helper', session_id: 's1', run_id: 'r1' };

let t: TempEngram;
let server: Server;
let url: URL;
const clients: Client[] = [];

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? undefined : (JSON.parse(text) as unknown);
}

async function connect(key: string): Promise<Client> {
  const client = new Client({ name: 'engram-http-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(url, { requestInit: { headers: { Authorization: `Bearer ${key}` } } }),
  );
  clients.push(client);
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

function textOf(result: CallToolResult): string {
  const [first] = result.content;
  return first?.type === 'text' ? first.text : '';
}

beforeAll(async () => {
  t = await tempEngram('2026-06-01T12:00:00.000Z', { embeddings: { provider: 'none' } });
  server = createServer((req, res) => {
    const principal = principals[(req.headers.authorization ?? '').replace(/^Bearer /, '')];
    if (principal === undefined) {
      res.writeHead(401).end();
      return;
    }
    void (async () => {
      const body = req.method === 'POST' ? await readJson(req) : undefined;
      await handleMcpRequest(t.engram, principal, req, res, body);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
});

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await new Promise((resolve) => server.close(resolve));
  await t.cleanup();
});

describe('MCP over streamable HTTP with the official client', () => {
  it('lists the tools, commits a turn, composes and searches', async () => {
    const client = await connect('admin-key');
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('review_candidate');
    expect(tools.find((tool) => tool.name === 'compose_context')).toMatchObject({
      title: 'Compose memory context',
      annotations: { readOnlyHint: true, openWorldHint: false },
    });

    const committed = await call(client, 'commit_turn', {
      scope,
      turn_id: 'http-1',
      messages: [{ role: 'user', content: 'I prefer concise answers in writing.' }],
    });
    expect(committed.structuredContent).toMatchObject({
      turn_id: 'http-1',
      replayed: false,
      scope: { tenant_id: 'default' },
    });

    const composed = await call(client, 'compose_context', {
      scope,
      purpose: 'planner',
      render: 'xml',
      full_packet: true,
    });
    expect((composed.structuredContent as { packet: MemoryPacket }).packet.meta.purpose).toBe('planner');
    expect(textOf(composed)).toMatch(/^<memory purpose="planner"/);

    await call(client, 'remember', {
      scope: { user_id: 'ada', agent_id: 'helper' },
      type: 'goals',
      key: 'goal:atlas:launch',
      value: { project: 'atlas', name: 'launch', description: 'Launch Atlas in June' },
    });
    const found = await call(client, 'search_memory', {
      scope: { user_id: 'ada', agent_id: 'helper' },
      query: 'Atlas launch',
    });
    expect(
      (found.structuredContent as { hits: Array<{ item: { key: string } }> }).hits.map((hit) => hit.item.key),
    ).toContain('goal:atlas:launch');
  });

  it('answers concurrent calls each with its own result', async () => {
    const client = await connect('admin-key');
    const turns = await Promise.all(
      ['c1', 'c2', 'c3', 'c4'].map((turnId) =>
        call(client, 'commit_turn', {
          scope,
          turn_id: turnId,
          messages: [{ role: 'user', content: `Turn ${turnId}` }],
        }),
      ),
    );
    expect(turns.map((result) => (result.structuredContent as { turn_id: string }).turn_id)).toEqual([
      'c1',
      'c2',
      'c3',
      'c4',
    ]);
  });

  it('applies the key: a read key cannot write, another tenant sees nothing', async () => {
    const reader = await connect('read-key');
    expect((await reader.listTools()).tools.map((tool) => tool.name)).not.toContain('commit_turn');
    const refused = await call(reader, 'commit_turn', {
      scope,
      turn_id: 'r-1',
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(refused._meta?.[ERROR_META_KEY]).toMatchObject({ code: 'FORBIDDEN' });

    const other = await connect('other-key');
    const found = await call(other, 'search_memory', { scope: { user_id: 'ada' }, query: 'Atlas launch' });
    expect(found.structuredContent).toEqual({ hits: [] });
    const named = await call(other, 'get_working_state', {
      scope: { user_id: 'ada', agent_id: 'helper', session_id: 's1', tenant_id: 'default' },
    });
    expect(named._meta?.[ERROR_META_KEY]).toMatchObject({ code: 'FORBIDDEN', field: 'scope.tenant_id' });
  });

  it('answers GET and DELETE with 405, as a stateless server does', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(url, {
        method,
        headers: { Authorization: 'Bearer admin-key', Accept: 'text/event-stream' },
      });
      expect(response.status, method).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
      expect(await response.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } });
    }
  });

  it("with rebinding allow lists, the SDK's check refuses a forged Host or Origin (403) before any tool runs", async () => {
    const guarded = createServer((req, res) => {
      const port = (guarded.address() as AddressInfo).port;
      const rebinding = { allowedHosts: [`127.0.0.1:${port}`], allowedOrigins: [`http://127.0.0.1:${port}`] };
      void (async () =>
        handleMcpRequest(t.engram, principals['admin-key']!, req, res, await readJson(req), { rebinding }))();
    });
    await new Promise<void>((resolve) => guarded.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(guarded.address() as AddressInfo).port}`;
    try {
      const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      const call = JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'commit_turn',
          arguments: { scope, turn_id: 'rebound', messages: [{ role: 'user', content: 'x' }] },
        },
      });
      const forgedHost = await send(base, 'POST', '/mcp', { ...headers, host: 'attacker.example' }, call);
      expect(forgedHost.status).toBe(403);
      expect(forgedHost.body).toMatchObject({
        jsonrpc: '2.0',
        error: { code: -32000, message: expect.stringContaining('Invalid Host') },
      });
      const forgedOrigin = await send(base, 'POST', '/mcp', { ...headers, origin: 'http://attacker.example' }, call);
      expect(forgedOrigin.status).toBe(403);
      expect(forgedOrigin.body).toMatchObject({ error: { message: expect.stringContaining('Invalid Origin') } });
      expect((await t.engram.events.list({ scope })).map((event) => event.turn_id)).not.toContain('rebound');
      const client = new Client({ name: 'engram-http-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
      clients.push(client);
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    } finally {
      await new Promise((resolve) => guarded.close(resolve));
    }
  });

  it('answers a body that is not JSON-RPC with a JSON-RPC error', async () => {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        Authorization: 'Bearer admin-key',
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ hello: 'world' }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ jsonrpc: '2.0', error: { code: expect.any(Number) } });
  });
});
