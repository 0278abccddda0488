// Floods against the limits of a real loopback server: hundreds of failed authentications from one
// address (guessed keys, no key, malformed headers) with a working key mixed in, and /mcp JSON-RPC
// batches sent one after another and all at once against a key's rate limit. Past the allowance no
// guessed key is looked up, the working key is never refused, and no call runs beyond the limit.

import { afterAll, describe, expect, it, vi } from 'vitest';

import { startHarness, TENANT_A } from '../server/harness.js';
import { recordOutcome } from './results.js';

const FLOOD = Number(process.env['ENGRAM_RELIABILITY_RUNS'] ?? 40) * 10;
const scope = { user_id: 'mira', agent_id: 'assistant', session_id: 's1', run_id: 'r1' };
const MCP_HEADERS = { accept: 'application/json, text/event-stream' };

function composeBatch(count: number): unknown[] {
  return Array.from({ length: count }, (_, index) => ({
    jsonrpc: '2.0',
    id: index,
    method: 'tools/call',
    params: { name: 'compose_context', arguments: { scope, purpose: 'responder' } },
  }));
}

/** Ways to fail authentication, taken in turn. */
function badCredentials(attempt: number): Record<string, string> {
  const forms: Array<Record<string, string>> = [
    { authorization: `Bearer egk_${attempt.toString(36).padStart(43, 'x')}` },
    {},
    { authorization: `Basic ${Buffer.from('admin:admin').toString('base64')}` },
    { authorization: `Bearer not-a-key-${attempt}` },
    { authorization: `Bearer egk_${'A'.repeat(4000)}` },
  ];
  return forms[attempt % forms.length]!;
}

describe('floods against the limits', () => {
  const recorded: Record<string, Record<string, number>> = {};
  afterAll(() => recordOutcome('auth-flood', recorded));

  it('failed authentication from one address: limited without lookups, the working key always served', async () => {
    const h = await startHarness({ authFailureLimit: { max: 20, timeWindowMs: 60_000 } });
    const figures = {
      requests: 0,
      unauthenticated: 0,
      rate_limited: 0,
      lookups_after_limit: 0,
      good_key_requests: 0,
      good_key_refused: 0,
    };
    try {
      const good = h.keys.a.read;
      expect((await h.call('GET', '/v1/events?user_id=mira', { key: good })).status).toBe(200);
      const verify = vi.spyOn(h.t.engram.keys, 'verify');
      for (let attempt = 0; attempt < FLOOD; attempt += 1) {
        const path = attempt % 3 === 0 ? '/mcp' : '/v1/events?user_id=mira';
        const lookupsBefore = verify.mock.calls.length;
        const response = await h.call(attempt % 3 === 0 ? 'POST' : 'GET', path, {
          headers: { ...badCredentials(attempt), ...MCP_HEADERS },
          ...(attempt % 3 === 0 ? { body: composeBatch(1) } : {}),
        });
        figures.requests += 1;
        if (response.status === 401) figures.unauthenticated += 1;
        else if (response.status === 429) {
          figures.rate_limited += 1;
          figures.lookups_after_limit += verify.mock.calls.length - lookupsBefore;
        }
        expect([401, 429]).toContain(response.status);
        if (attempt % 25 === 0) {
          figures.good_key_requests += 1;
          if ((await h.call('GET', '/v1/events?user_id=mira', { key: good })).status !== 200)
            figures.good_key_refused += 1;
        }
      }
      verify.mockRestore();
    } finally {
      await h.close();
    }
    recorded['failed_authentication'] = figures;
    expect(figures).toMatchObject({ unauthenticated: 20, lookups_after_limit: 0, good_key_refused: 0 });
  }, 120_000);

  it('/mcp batches one after another and all at once: no call runs past the key’s limit', async () => {
    const figures = { batches: 0, calls: 0, calls_run: 0, calls_past_limit: 0, refused_batches: 0 };
    for (const concurrent of [false, true]) {
      const h = await startHarness({ rateLimit: { max: 50, timeWindowMs: 60_000 } });
      try {
        const sizes = concurrent ? [20, 20, 20, 20, 20] : [100, 49, 2, 1];
        const send = (size: number) =>
          h.call('POST', '/mcp', { key: h.keys.a.read, body: composeBatch(size), headers: MCP_HEADERS });
        const responses = concurrent
          ? await Promise.all(sizes.map(send))
          : await sizes.reduce<Promise<Array<{ status: number }>>>(
              async (done, size) => [...(await done), await send(size)],
              Promise.resolve([]),
            );
        figures.batches += sizes.length;
        figures.calls += sizes.reduce((sum, size) => sum + size, 0);
        figures.refused_batches += responses.filter((response) => response.status === 429).length;
        const run = (await h.t.engram.builds.list({ tenant_id: TENANT_A, limit: 1000 })).length;
        figures.calls_run += run;
        figures.calls_past_limit += Math.max(0, run - 50);
        for (const response of responses) expect([200, 429]).toContain(response.status);
      } finally {
        await h.close();
      }
    }
    recorded['mcp_batches'] = figures;
    expect(figures.calls_past_limit).toBe(0);
  }, 120_000);
});
