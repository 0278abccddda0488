// The limits over real loopback HTTP: every JSON-RPC call of an /mcp batch counts against the key's
// rate limit like a /v1 request (a batch past the allowance runs nothing), and failed
// authentication is limited per client address before any key is looked up, while a key in use
// keeps working from the same address.

import { afterEach, describe, expect, it, vi } from 'vitest';

import type { ProblemDocument } from '../../src/server/index.js';
import { startHarness, TENANT_A, type Harness } from './harness.js';

const scope = { user_id: 'mira', agent_id: 'assistant', session_id: 's1', run_id: 'r1' };
const MCP_HEADERS = { accept: 'application/json, text/event-stream' };

/** A JSON-RPC batch of `count` compose_context calls. */
function composeBatch(count: number, from = 0): unknown[] {
  return Array.from({ length: count }, (_, index) => ({
    jsonrpc: '2.0',
    id: from + index,
    method: 'tools/call',
    params: { name: 'compose_context', arguments: { scope, purpose: 'responder' } },
  }));
}

describe('the rate limit counts calls, not HTTP requests', () => {
  const open: Harness[] = [];
  afterEach(async () => {
    for (const h of open.splice(0)) await h.close();
  });

  it('an /mcp batch of 100 calls against a limit of 50 is 429 RATE_LIMITED and composes nothing; it costs one request', async () => {
    const h = await startHarness({ rateLimit: { max: 50, timeWindowMs: 60_000 } });
    open.push(h);
    const response = await h.call<ProblemDocument>('POST', '/mcp', {
      key: h.keys.a.read,
      body: composeBatch(100),
      headers: MCP_HEADERS,
    });
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(response.body).toMatchObject({ status: 429, code: 'RATE_LIMITED', field: null });
    expect(response.body.detail).toContain('100 calls');
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await h.t.engram.builds.list({ tenant_id: TENANT_A })).toHaveLength(0);
    // The refused batch cost one request: 49 calls still fit.
    expect(
      (await h.call('POST', '/mcp', { key: h.keys.a.read, body: composeBatch(49), headers: MCP_HEADERS })).status,
    ).toBe(200);
    expect(await h.t.engram.builds.list({ tenant_id: TENANT_A, limit: 1000 })).toHaveLength(49);
    expect(
      (
        await h.call<ProblemDocument>('POST', '/mcp', {
          key: h.keys.a.read,
          body: composeBatch(2),
          headers: MCP_HEADERS,
        })
      ).body,
    ).toMatchObject({ status: 429 });
  });

  it('batches draw on the same allowance as /v1 requests: 10 + 40 calls fit in 50, the next request does not', async () => {
    const h = await startHarness({ rateLimit: { max: 50, timeWindowMs: 60_000 } });
    open.push(h);
    const small = await h.call<unknown[]>('POST', '/mcp', {
      key: h.keys.a.read,
      body: composeBatch(10),
      headers: MCP_HEADERS,
    });
    expect(small.status).toBe(200);
    expect(small.body).toHaveLength(10);
    const rest = await h.call<unknown[]>('POST', '/mcp', {
      key: h.keys.a.read,
      body: composeBatch(40, 10),
      headers: MCP_HEADERS,
    });
    expect(rest.status).toBe(200);
    expect(await h.t.engram.builds.list({ tenant_id: TENANT_A, limit: 1000 })).toHaveLength(50);
    expect(
      (await h.call<ProblemDocument>('GET', '/v1/events?user_id=mira', { key: h.keys.a.read })).body,
    ).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    // Another key has its own allowance.
    expect((await h.call('GET', '/v1/events?user_id=mira', { key: h.keys.a.write })).status).toBe(200);
  });
});

describe('failed authentication is limited per address', () => {
  let h: Harness;
  afterEach(async () => {
    vi.restoreAllMocks();
    await h.close();
  });

  it('past the allowance bad keys are 429 without a lookup; a working key still works; a revoked one is refused', async () => {
    h = await startHarness({ authFailureLimit: { max: 5, timeWindowMs: 60_000 } });
    // A key that worked before the flood, and is revoked during it.
    const doomed = await h.t.engram.keys.create({ tenant_id: TENANT_A, role: 'read' });
    expect((await h.call('GET', '/v1/events?user_id=mira', { key: doomed.key })).status).toBe(200);
    expect((await h.call('GET', '/v1/events?user_id=mira', { key: h.keys.a.read })).status).toBe(200);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect(
        (await h.call<ProblemDocument>('GET', '/v1/events?user_id=mira', { key: `egk_guess${attempt}` })).body,
      ).toMatchObject({ status: 401, code: 'UNAUTHENTICATED' });
    }
    const verify = vi.spyOn(h.t.engram.keys, 'verify');
    const limited = await h.call<ProblemDocument>('GET', '/v1/events?user_id=mira', { key: 'egk_guess-next' });
    expect(limited.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(limited.body).toMatchObject({ status: 429, code: 'RATE_LIMITED', field: null });
    expect(limited.body.detail).toContain('failed authentications');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await h.call<ProblemDocument>('GET', '/v1/events?user_id=mira')).body).toMatchObject({ status: 429 });
    expect(
      (
        await h.call<ProblemDocument>('POST', '/mcp', {
          key: 'egk_guess-mcp',
          body: composeBatch(1),
          headers: MCP_HEADERS,
        })
      ).body,
    ).toMatchObject({ status: 429 });
    // A valid key this server has not seen yet is refused too: telling it apart would take the lookup.
    expect(
      (await h.call<ProblemDocument>('GET', '/v1/events?user_id=mira', { key: h.keys.a.write })).body,
    ).toMatchObject({ status: 429 });
    expect(verify).not.toHaveBeenCalled();

    // A key in use keeps working from the same address (it is still looked up, so revocation holds).
    expect((await h.call('GET', '/v1/events?user_id=mira', { key: h.keys.a.read })).status).toBe(200);
    expect(verify).toHaveBeenCalledTimes(1);
    await h.t.engram.keys.revoke(doomed.info.id, TENANT_A);
    // Known before, so it is looked up again: revoked, it fails, and after that it is one more guess.
    expect((await h.call<ProblemDocument>('GET', '/v1/events?user_id=mira', { key: doomed.key })).body).toMatchObject({
      status: 401,
      code: 'UNAUTHENTICATED',
    });
    expect((await h.call<ProblemDocument>('GET', '/v1/events?user_id=mira', { key: doomed.key })).body).toMatchObject({
      status: 429,
    });
  });
});
