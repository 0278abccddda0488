// The server around the routes, over real loopback HTTP: auth 'none' only on loopback, the rate
// limit, the request timeout, request ids and logs, metrics, the OpenAPI document and its docs
// page, and /mcp behind the same keys (driven by the official MCP client).

import { Writable } from 'node:stream';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';

import type { Engram } from '../../src/index.js';
import { API_ROUTES, createServer, listen } from '../../src/server/index.js';
import { tempEngram, type TempEngram } from '../helpers/temp-engram.js';
import { startHarness, TENANT_A, type Harness } from './harness.js';

const scope = { user_id: 'mira', agent_id: 'assistant', session_id: 's1', run_id: 'r1' };

describe('server options and operations', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  const harness = async (options: Parameters<typeof startHarness>[0] = {}): Promise<Harness> => {
    const h = await startHarness(options);
    cleanups.push(h.close);
    return h;
  };
  const temp = async (): Promise<TempEngram> => {
    const t = await tempEngram('2026-06-01T12:00:00.000Z', { embeddings: { provider: 'none' } });
    cleanups.push(t.cleanup);
    return t;
  };

  it("auth 'none' is refused beyond loopback, and on loopback serves the default tenant as admin", async () => {
    const t = await temp();
    await expect(createServer(t.engram, { auth: 'none' })).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
      field: 'host',
    });
    await expect(createServer(t.engram, { auth: 'none', host: '0.0.0.0' })).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
      field: 'host',
    });
    await expect(createServer(t.engram, { auth: 'keys', bodyLimit: 0 })).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
      field: 'bodyLimit',
    });
    await expect(createServer(t.engram, { auth: 'keys', mcpTools: 'huge' as never })).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
      field: 'mcpTools',
    });
    const app = await createServer(t.engram, { auth: 'none', host: '127.0.0.1', logger: false });
    cleanups.push(() => app.close());
    await expect(listen(app, { host: '0.0.0.0', port: 0 })).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
      field: 'host',
    });
    const url = await listen(app, { port: 0 });
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const created = await fetch(`${url}/v1/keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ role: 'read' }),
    });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ info: { tenant_id: 'default', role: 'read' } });
    const other = await fetch(`${url}/v1/compose`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ scope: { ...scope, tenant_id: 'acme' }, purpose: 'responder' }),
    });
    expect(await other.json()).toMatchObject({ status: 403, code: 'FORBIDDEN', field: 'scope.tenant_id' });
  });

  it('the rate limit is per key: the request past the limit is 429 RATE_LIMITED', async () => {
    const h = await harness({ rateLimit: { max: 3, timeWindowMs: 60_000 } });
    for (let index = 0; index < 3; index += 1)
      expect((await h.call('GET', '/v1/events?user_id=mira', { key: h.keys.a.read })).status).toBe(200);
    const limited = await h.call('GET', '/v1/events?user_id=mira', { key: h.keys.a.read });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(limited.body).toMatchObject({ status: 429, code: 'RATE_LIMITED', field: null });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await h.call('GET', '/v1/events?user_id=mira', { key: h.keys.a.write })).status).toBe(200);
    expect((await h.call('GET', '/healthz')).status).toBe(200);
  });

  it('a request slower than requestTimeoutMs is 503 TIMEOUT, logged with its request id; keys and bodies never reach the log', async () => {
    const t = await temp();
    const { key } = await t.engram.keys.create({ tenant_id: TENANT_A, role: 'read' });
    // The same Engram, with a compose that takes longer than the limit.
    const slow = Object.create(t.engram, {
      compose: { value: () => new Promise((resolve) => setTimeout(resolve, 400)) },
    }) as Engram;
    const lines: string[] = [];
    const stream = new Writable({ write: (chunk, _encoding, done) => (lines.push(String(chunk)), done()) });
    const app = await createServer(slow, {
      auth: 'keys',
      host: '127.0.0.1',
      requestTimeoutMs: 100,
      logger: { level: 'info', stream },
    });
    cleanups.push(() => app.close());
    const url = await listen(app, { port: 0 });
    const response = await fetch(`${url}/v1/compose`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'x-request-id': 'trace-42' },
      body: JSON.stringify({ scope, purpose: 'responder', cues: { query: 'top-secret-body-text' } }),
    });
    expect(response.status).toBe(503);
    expect(response.headers.get('x-request-id')).toBe('trace-42');
    expect(await response.json()).toMatchObject({ code: 'TIMEOUT', request_id: 'trace-42' });
    const log = lines.join('');
    expect(lines.map((line) => JSON.parse(line))).toContainEqual(
      expect.objectContaining({ level: 50, reqId: 'trace-42', code: 'TIMEOUT' }),
    );
    expect(log).not.toContain(key);
    expect(log).not.toContain('top-secret-body-text');
  });

  it('request ids: a plain x-request-id is echoed, anything else is replaced by a generated one', async () => {
    const h = await harness();
    const echoed = await h.call('GET', '/v1/events', { key: h.keys.a.read, headers: { 'x-request-id': 'abc-123' } });
    expect(echoed.headers.get('x-request-id')).toBe('abc-123');
    expect(echoed.body.request_id).toBe('abc-123');
    const replaced = await h.call('GET', '/healthz', { headers: { 'x-request-id': 'bad id <script>' } });
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('/readyz answers while the store does, 503 STORAGE_FAILED once it is closed', async () => {
    const h = await harness();
    expect((await h.call('GET', '/readyz')).body).toEqual({ status: 'ready' });
    await h.t.storage.close();
    const closed = await h.call('GET', '/readyz');
    expect(closed.body).toMatchObject({ status: 503, code: 'STORAGE_FAILED', field: null });
    expect(closed.body.detail).not.toMatch(/sqlite|database/i);
  });

  it('/metrics is Prometheus text with request counts, durations, turns and packets', async () => {
    const h = await harness();
    await h.call('POST', '/v1/turns', {
      key: h.keys.a.write,
      body: { scope, turn_id: 't1', messages: [{ role: 'user', content: 'Hi' }] },
    });
    await h.call('POST', '/v1/compose', { key: h.keys.a.read, body: { scope, purpose: 'responder' } });
    await h.call('GET', `/v1/events/evt_01J0000000000000000000000A`, { key: h.keys.a.read });
    const metrics = await h.call('GET', '/metrics');
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(metrics.text).toContain('engram_http_requests_total{route="/v1/turns",method="POST",status="200"} 1');
    expect(metrics.text).toContain('engram_http_requests_total{route="/v1/events/:id",method="GET",status="404"} 1');
    expect(metrics.text).toContain(
      'engram_http_request_duration_seconds_bucket{le="+Inf",route="/v1/compose",method="POST",status="200"} 1',
    );
    expect(metrics.text).toContain('engram_turns_committed_total{outcome="written"} 1');
    expect(metrics.text).toContain('engram_packets_composed_total{purpose="responder"} 1');
  });

  it('/metrics shows how long the event loop was held up since the last scrape', async () => {
    const h = await harness();
    const delay = (text: string, name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1]);
    await h.call('GET', '/metrics');
    // The server runs in this process: hold its event loop for 150 ms, as work on the request thread would.
    await new Promise((resolve) => setTimeout(resolve, 30));
    const until = performance.now() + 150;
    while (performance.now() < until);
    await new Promise((resolve) => setTimeout(resolve, 30));
    const stalled = (await h.call('GET', '/metrics')).text;
    expect(delay(stalled, 'engram_event_loop_delay_max_seconds')).toBeGreaterThanOrEqual(0.14);
    expect(delay(stalled, 'engram_event_loop_delay_p99_seconds')).toBeGreaterThan(0);
    // Each scrape starts a new window: the stall is gone from the next one.
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(delay((await h.call('GET', '/metrics')).text, 'engram_event_loop_delay_max_seconds')).toBeLessThan(0.14);
  });

  it('metricsAuth puts /metrics behind a key', async () => {
    const h = await harness({ metricsAuth: true });
    expect((await h.call('GET', '/metrics')).body).toMatchObject({ status: 401, code: 'UNAUTHENTICATED' });
    expect((await h.call('GET', '/metrics', { key: h.keys.a.read })).status).toBe(200);
  });

  it('/openapi.json parses as OpenAPI 3.1 and documents exactly the routes the server has', async () => {
    const h = await harness();
    const response = await h.call('GET', '/openapi.json');
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.body.openapi).toMatch(/^3\.1\./);
    const documented = Object.entries(response.body.paths as Record<string, Record<string, unknown>>).flatMap(
      ([path, operations]) =>
        Object.keys(operations).map((method) => ({
          method: method.toUpperCase(),
          url: path.replace(/\{(\w+)\}/g, ':$1'),
        })),
    );
    for (const spec of API_ROUTES) expect(documented).toContainEqual({ method: spec.method, url: spec.url });
    for (const route of documented) expect(h.app.hasRoute(route as never), `${route.method} ${route.url}`).toBe(true);
  });

  it('/docs serves Swagger UI from the package (no CDN) over the same document', async () => {
    const h = await harness();
    const page = await h.call('GET', '/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.text).not.toMatch(/(src|href)="https?:/);
    const bundle = await fetch(`${h.url}/docs/static/swagger-ui-bundle.js`);
    expect(bundle.status).toBe(200);
    expect((await bundle.text()).length).toBeGreaterThan(100_000);
    expect((await h.call('GET', '/docs/json')).body).toEqual((await h.call('GET', '/openapi.json')).body);
  });

  it('/mcp answers the official MCP client behind the same keys', async () => {
    const h = await harness();
    expect(
      (await h.call('POST', '/mcp', { body: { jsonrpc: '2.0', id: 1, method: 'tools/list' } })).body,
    ).toMatchObject({ status: 401, code: 'UNAUTHENTICATED' });
    const client = new Client({ name: 'engram-http-test', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${h.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${h.keys.a.write}` } },
    });
    await client.connect(transport);
    cleanups.push(() => client.close());
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['commit_turn', 'compose_context', 'search_memory']),
    );
    const committed = await client.callTool({
      name: 'commit_turn',
      arguments: { scope, turn_id: 'm1', messages: [{ role: 'user', content: 'Hello over MCP' }] },
    });
    expect(committed.isError).not.toBe(true);
    const events = await h.t.engram.events.list({ scope: { tenant_id: TENANT_A, user_id: 'mira' } });
    expect(events.map((event) => event.content)).toEqual(['Hello over MCP']);
    // The lean list by default; the server's mcpTools option shows the full one.
    expect(tools.every((tool) => tool.outputSchema === undefined)).toBe(true);
    const full = await harness({ mcpTools: 'full' });
    const fullClient = new Client({ name: 'engram-http-test', version: '1.0.0' });
    await fullClient.connect(
      new StreamableHTTPClientTransport(new URL(`${full.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${full.keys.a.read}` } },
      }),
    );
    cleanups.push(() => fullClient.close());
    expect((await fullClient.listTools()).tools.every((tool) => tool.outputSchema?.type === 'object')).toBe(true);
  });
});
