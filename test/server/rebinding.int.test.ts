// DNS rebinding over real loopback HTTP: a request whose Host header names another site (as a
// page on attacker.example sends once its name resolves to 127.0.0.1) or whose Origin is another
// site's is refused before any route runs, on /v1/export, /v1/turns and /mcp alike, under auth
// 'none' and with keys; the server's own names, the inspector and health probes still work.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createServer, listen, type ProblemDocument, type ServerOptions } from '../../src/server/index.js';
import { tempEngram, type TempEngram } from '../helpers/temp-engram.js';
import { send, type RawResponse } from './raw-http.js';

const scope = { user_id: 'mira', agent_id: 'assistant', session_id: 's1', run_id: 'r1' };
const TURN = JSON.stringify({
  scope,
  turn_id: 'rebound',
  messages: [{ role: 'user', content: 'from a rebound page' }],
});
const MCP_CALL = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: {
    name: 'commit_turn',
    arguments: { scope, turn_id: 'rebound-mcp', messages: [{ role: 'user', content: 'x' }] },
  },
});
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

interface Running {
  t: TempEngram;
  url: string;
  port: number;
  close(): Promise<void>;
}

async function start(options: Partial<ServerOptions>, host = '127.0.0.1'): Promise<Running> {
  const t = await tempEngram('2026-06-01T12:00:00.000Z', { embeddings: { provider: 'none' } });
  const app = await createServer(t.engram, { auth: 'none', host, logger: false, ...options } as ServerOptions);
  const listening = await listen(app, { host, port: 0 });
  const port = Number(new URL(listening).port);
  return {
    t,
    url: `http://127.0.0.1:${port}`,
    port,
    close: async () => {
      await app.close();
      await t.cleanup();
    },
  };
}

/** The three routes the attack reached: an export, a commit and an MCP tool call. */
function attacks(server: Running, headers: Record<string, string>): Array<Promise<RawResponse<ProblemDocument>>> {
  return [
    send<ProblemDocument>(server.url, 'GET', '/v1/export', headers),
    send<ProblemDocument>(server.url, 'POST', '/v1/turns', { ...headers, 'content-type': 'application/json' }, TURN),
    send<ProblemDocument>(server.url, 'POST', '/mcp', { ...headers, ...MCP_HEADERS }, MCP_CALL),
  ];
}

function expectRefused(response: RawResponse<ProblemDocument>, status: number, code: string, field: string): void {
  expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(response.body).toMatchObject({ status, code, field });
  expect(response.status).toBe(status);
  expect(response.text).not.toContain('engram-export');
}

describe("auth 'none': Host and Origin must name this server", () => {
  let server: Running;
  beforeAll(async () => {
    server = await start({});
  });
  afterAll(() => server.close());

  it('a forged Host is 421 MISDIRECTED_REQUEST naming the header, on /v1/export, /v1/turns and /mcp; nothing is written', async () => {
    for (const host of [
      'attacker.example',
      `attacker.example:${server.port}`,
      `127.0.0.1:${server.port + 1}`,
      `localhost.attacker.example:${server.port}`,
      `user@127.0.0.1:${server.port}`,
    ]) {
      for (const response of await Promise.all(attacks(server, { host })))
        expectRefused(response, 421, 'MISDIRECTED_REQUEST', 'host');
    }
    expect(await server.t.engram.events.list({ scope })).toEqual([]);
  });

  it("an Origin that is not the server's own is 403 FORBIDDEN naming the header; nothing is written", async () => {
    const host = `127.0.0.1:${server.port}`;
    for (const origin of [
      'http://attacker.example',
      `http://attacker.example:${server.port}`,
      'null',
      `http://localhost:${server.port + 1}`,
      `https://127.0.0.1:${server.port}`,
    ]) {
      for (const response of await Promise.all(attacks(server, { host, origin })))
        expectRefused(response, 403, 'FORBIDDEN', 'origin');
    }
    expect(await server.t.engram.events.list({ scope })).toEqual([]);
  });

  it("the server's own names and origin are served: 127.0.0.1, localhost and [::1] on its port", async () => {
    for (const name of ['127.0.0.1', 'localhost', '[::1]']) {
      const exported = await send(server.url, 'GET', '/v1/export', {
        host: `${name}:${server.port}`,
        origin: `http://${name}:${server.port}`,
      });
      expect(exported.status, name).toBe(200);
      expect(exported.text).toContain('engram-export');
    }
    const committed = await send(
      server.url,
      'POST',
      '/v1/turns',
      {
        host: `localhost:${server.port}`,
        origin: `http://localhost:${server.port}`,
        'content-type': 'application/json',
      },
      TURN,
    );
    expect(committed.status).toBe(200);
    const client = new Client({ name: 'rebinding-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await client.close();
  });

  it('the inspector is served to its own origin; health probes answer any Host', async () => {
    const page = await send(server.url, 'GET', '/ui/', { host: `localhost:${server.port}` });
    expect(page.status).not.toBe(421);
    expect(page.status).toBeLessThan(500);
    expectRefused(
      await send<ProblemDocument>(server.url, 'GET', '/ui/', { host: 'attacker.example' }),
      421,
      'MISDIRECTED_REQUEST',
      'host',
    );
    expect((await send(server.url, 'GET', '/healthz', { host: 'pod-10-0-0-5' })).status).toBe(200);
  });
});

describe('API keys: the same check on a loopback listener, and with allowedHosts anywhere', () => {
  it('a loopback server with keys refuses a forged Host even with a valid admin key', async () => {
    const server = await start({ auth: 'keys' });
    try {
      const { key } = await server.t.engram.keys.create({ role: 'admin' });
      for (const response of await Promise.all(
        attacks(server, { host: 'attacker.example', authorization: `Bearer ${key}` }),
      ))
        expectRefused(response, 421, 'MISDIRECTED_REQUEST', 'host');
      expect(
        (
          await send(server.url, 'GET', '/v1/export', {
            host: `127.0.0.1:${server.port}`,
            authorization: `Bearer ${key}`,
          })
        ).status,
      ).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('a server on every interface checks nothing by default, and only its allowed names once they are given', async () => {
    const open = await start({ auth: 'keys' }, '0.0.0.0');
    const named = await start({ auth: 'keys', allowedHosts: ['Engram.Example'] }, '0.0.0.0');
    try {
      const { key } = await open.t.engram.keys.create({ role: 'admin' });
      expect(
        (await send(open.url, 'GET', '/v1/export', { host: 'engram.internal:443', authorization: `Bearer ${key}` }))
          .status,
      ).toBe(200);
      const { key: namedKey } = await named.t.engram.keys.create({ role: 'admin' });
      const auth = { authorization: `Bearer ${namedKey}` };
      expect(
        (
          await send(named.url, 'GET', '/v1/export', {
            ...auth,
            host: 'engram.example',
            origin: 'https://engram.example',
          })
        ).status,
      ).toBe(200);
      expect((await send(named.url, 'GET', '/v1/export', { ...auth, host: 'engram.example:8443' })).status).toBe(200);
      expect((await send(named.url, 'GET', '/v1/export', { ...auth, host: `127.0.0.1:${named.port}` })).status).toBe(
        200,
      );
      expectRefused(
        await send<ProblemDocument>(named.url, 'GET', '/v1/export', { ...auth, host: 'attacker.example' }),
        421,
        'MISDIRECTED_REQUEST',
        'host',
      );
      expectRefused(
        await send<ProblemDocument>(named.url, 'GET', '/v1/export', {
          ...auth,
          host: 'engram.example',
          origin: 'https://attacker.example',
        }),
        403,
        'FORBIDDEN',
        'origin',
      );
    } finally {
      await open.close();
      await named.close();
    }
  });

  it('allowedHosts must be host names without scheme or port (CONFIG_INVALID naming the entry)', async () => {
    const t = await tempEngram('2026-06-01T12:00:00.000Z', { embeddings: { provider: 'none' } });
    try {
      await expect(
        createServer(t.engram, { auth: 'keys', allowedHosts: ['https://engram.example'] }),
      ).rejects.toMatchObject({ code: 'CONFIG_INVALID', field: 'allowedHosts[0]' });
      await expect(
        createServer(t.engram, { auth: 'keys', allowedHosts: ['ok.example', 'engram.example:8443'] }),
      ).rejects.toMatchObject({ code: 'CONFIG_INVALID', field: 'allowedHosts[1]' });
    } finally {
      await t.cleanup();
    }
  });
});
