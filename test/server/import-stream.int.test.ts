// The import route as a stream over real loopback HTTP: an import sent slowly over many request
// deadlines completes (its deadline restarts while bytes arrive and batches commit), one that stalls
// is cut with its connection closed, and a line past the line limit is refused by number without the
// server reading on, which keeps answering.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { CommitTurnRequest } from '../../src/index.js';
import { streamUpload } from '../helpers/stream-upload.js';
import { startHarness, type Harness } from './harness.js';

const DEADLINE_MS = 400;
const MiB = 1024 * 1024;

/** `count` pieces of `lines`, in order. */
function pieces(lines: readonly string[], count: number): string[] {
  const size = Math.ceil(lines.length / count);
  return Array.from({ length: count }, (_, index) =>
    lines
      .slice(index * size, (index + 1) * size)
      .map((line) => `${line}\n`)
      .join(''),
  ).filter((piece) => piece !== '');
}

describe('the import route as a stream', () => {
  let h: Harness;
  let lines: string[];
  beforeAll(async () => {
    h = await startHarness({ requestTimeoutMs: DEADLINE_MS });
    const turns: CommitTurnRequest[] = Array.from({ length: 60 }, (_, index) => ({
      scope: {
        tenant_id: 'tenant-a',
        user_id: 'ula',
        agent_id: 'assistant',
        session_id: `s${index % 3}`,
        run_id: 'r1',
      },
      turn_id: `t${index}`,
      messages: [
        { role: 'user', content: `Turn ${index}: we ship Atlas ${index} on Friday.` },
        { role: 'assistant', content: 'Noted.' },
      ],
    }));
    await h.t.engram.commitTurns(turns);
    lines = [];
    for await (const line of h.t.engram.maintenance.exportData({ tenant_id: 'tenant-a' })) lines.push(line);
  }, 60_000);
  afterAll(() => h.close());

  it(`completes an import sent over ${DEADLINE_MS * 8} ms and more, many times the request deadline, while it makes progress`, async () => {
    const result = await streamUpload(`${h.url}/v1/import`, pieces(lines, 16), {
      key: h.keys.b.admin,
      pauseMs: DEADLINE_MS / 2,
    });
    expect(result.elapsedMs).toBeGreaterThan(DEADLINE_MS * 6);
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    expect(result.body!['counts']).toMatchObject({ event: 120, turn: 60 });
    // The deadline of other routes is unchanged.
    expect((await h.call('GET', '/healthz')).status).toBe(200);
  }, 60_000);

  it('cuts an import that stops sending with 503 TIMEOUT after the deadline, and closes its connection', async () => {
    const stalled = (async function* () {
      yield `${lines.slice(0, 4).join('\n')}\n`;
      // Then nothing for ten deadlines.
      await new Promise((resolve) => setTimeout(resolve, DEADLINE_MS * 10));
      yield `${lines.slice(4).join('\n')}\n`;
    })();
    const result = await streamUpload(`${h.url}/v1/import`, stalled, { key: h.keys.b.admin });
    expect(result.body).toMatchObject({ status: 503, code: 'TIMEOUT' });
    expect(result.elapsedMs).toBeLessThan(DEADLINE_MS * 8);
    expect(result.closedByServer).toBe(true);
  }, 60_000);

  it('refuses a line past the 16 MiB line limit with 400 naming the line, without reading the rest, and keeps serving', async () => {
    const huge = (async function* () {
      yield `${lines[0]}\n{"kind":"event","event":"`;
      // 256 MiB of one line, made as it is sent.
      const chunk = Buffer.alloc(256 * 1024, 0x61);
      for (let index = 0; index < 1024; index += 1) yield chunk;
    })();
    const result = await streamUpload(`${h.url}/v1/import`, huge, { key: h.keys.a.admin });
    expect(result.body).toMatchObject({ status: 400, code: 'VALIDATION_FAILED', field: 'line 2' });
    expect(result.closedByServer).toBe(true);
    expect(String(result.body!['detail'])).toContain(`${16 * MiB} bytes`);
    // The server stopped reading at the limit: what was sent is the limit and what the sockets hold.
    expect(result.sent).toBeLessThan(64 * MiB);
    expect((await h.call('GET', '/healthz')).status).toBe(200);
    const retried = await h.call<{ counts: Record<string, number> }>('GET', '/v1/export', { key: h.keys.a.admin });
    expect(retried.status).toBe(200);
  }, 60_000);

  it('reads lines up to the importMaxLineBytes the server was given, and refuses a longer one by number', async () => {
    const small = await startHarness({ importMaxLineBytes: 4096 });
    try {
      const body = (extra: number) => `${lines[0]}\n${JSON.stringify({ kind: 'event', padding: 'x'.repeat(extra) })}\n`;
      const refused = await streamUpload(`${small.url}/v1/import`, [body(8192)], { key: small.keys.a.admin });
      expect(refused.body).toMatchObject({ status: 400, code: 'VALIDATION_FAILED', field: 'line 2' });
      expect(String(refused.body!['detail'])).toContain('4096 bytes');
      // A line under the cap is read (and refused for what it is, not for its length).
      const read = await streamUpload(`${small.url}/v1/import`, [body(1024)], { key: small.keys.a.admin });
      expect(read.body).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
      expect(read.body!['field']).not.toBe('line 2');
    } finally {
      await small.close();
    }
  }, 60_000);
});
