// Malformed requests over raw loopback sockets and bodies that are JSON but unsafe: bad chunked
// encoding, bad or duplicate Content-Length, oversize headers, a missing Host, a request not
// received in time, `__proto__` and `constructor.prototype` keys, and JSON Lines sent to JSON
// routes — each answered with a problem+json document that names what is wrong.

import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { answerClientError } from '../../src/server/client-error.js';
import { API_ROUTES, type ProblemDocument } from '../../src/server/index.js';
import { startHarness, type Harness } from './harness.js';
import { sendBytes, type RawResponse } from './raw-http.js';
import { samples, UNKNOWN_IDS } from './requests.js';

const SAMPLES = samples('mira', UNKNOWN_IDS);
const scope = { user_id: 'mira', agent_id: 'assistant', session_id: 's1', run_id: 'r1' };

function expectProblem(
  response: RawResponse<ProblemDocument> & { raw: string },
  status: number,
  code: string,
  field: string | null,
): void {
  expect(response.headers['content-type'], response.raw).toMatch(/^application\/problem\+json/);
  expect(response.body, response.raw).toMatchObject({
    status,
    code,
    field,
    request_id: expect.any(String),
    type: `urn:engram:problem:${code.toLowerCase().replaceAll('_', '-')}`,
  });
  expect(response.status).toBe(status);
}

describe('malformed HTTP framing is answered with a problem document', () => {
  let h: Harness;
  let authority: string;
  beforeAll(async () => {
    h = await startHarness();
    authority = new URL(h.url).host;
  });
  afterAll(() => h.close());

  const head = (lines: string[]) => `${lines.join('\r\n')}\r\n\r\n`;

  it('bad chunked encoding is 400 BAD_REQUEST naming transfer-encoding', async () => {
    const bytes = `${head(['POST /v1/turns HTTP/1.1', `Host: ${authority}`, 'Transfer-Encoding: chunked', 'Content-Type: application/json'])}ZZZ\r\n{}\r\n0\r\n\r\n`;
    const response = await sendBytes<ProblemDocument>(h.url, bytes);
    expectProblem(response, 400, 'BAD_REQUEST', 'transfer-encoding');
    expect(response.body.detail).toMatch(/chunk size/i);
  });

  it('a bad or a duplicated Content-Length is 400 BAD_REQUEST naming content-length', async () => {
    expectProblem(
      await sendBytes<ProblemDocument>(
        h.url,
        `${head(['POST /v1/turns HTTP/1.1', `Host: ${authority}`, 'Content-Length: abc'])}{}`,
      ),
      400,
      'BAD_REQUEST',
      'content-length',
    );
    expectProblem(
      await sendBytes<ProblemDocument>(
        h.url,
        `${head(['POST /v1/turns HTTP/1.1', `Host: ${authority}`, 'Content-Length: 2', 'Content-Length: 3'])}{}`,
      ),
      400,
      'BAD_REQUEST',
      'content-length',
    );
  });

  it('headers past the limit are 431 HEADERS_TOO_LARGE; a request line that is not HTTP is 400', async () => {
    expectProblem(
      await sendBytes<ProblemDocument>(
        h.url,
        head(['GET /healthz HTTP/1.1', `Host: ${authority}`, `X-Padding: ${'a'.repeat(20_000)}`]),
      ),
      431,
      'HEADERS_TOO_LARGE',
      'headers',
    );
    expectProblem(await sendBytes<ProblemDocument>(h.url, head(['NOT HTTP AT ALL'])), 400, 'BAD_REQUEST', null);
  });

  it('an HTTP/1.1 request without a Host header is 400 BAD_REQUEST naming host', async () => {
    expectProblem(
      await sendBytes<ProblemDocument>(h.url, head(['GET /healthz HTTP/1.1', 'Connection: close'])),
      400,
      'BAD_REQUEST',
      'host',
    );
  });

  it('a request not received in time is 408 REQUEST_TIMEOUT (the handler Node calls, on a real socket)', async () => {
    // Node checks request timeouts every 30 s, too slow for a test: the handler is called directly.
    const server = createNetServer((socket: Socket) =>
      answerClientError.call(
        { log: h.app.log },
        Object.assign(new Error('timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' }),
        socket,
      ),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const response = await sendBytes<ProblemDocument>(
        `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        'POST /v1/turns HTTP/1.1\r\n',
      );
      expectProblem(response, 408, 'REQUEST_TIMEOUT', null);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('the server keeps serving afterwards', async () => {
    expect((await h.call('GET', '/healthz')).status).toBe(200);
  });
});

describe('bodies that are JSON but unsafe, and JSON Lines on JSON routes', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it('a `__proto__` key is 400 VALIDATION_FAILED naming the field (rule propertyNames), not "not valid JSON"; nothing is written', async () => {
    const turn = { scope, turn_id: 't1', messages: [{ role: 'user', content: 'hello' }] };
    const cases: Array<[string, string]> = [
      ['{"__proto__":{"admin":true}}', '__proto__'],
      [JSON.stringify(turn).replace('"scope":{', '"scope":{"__proto__":{"polluted":1},'), 'scope.__proto__'],
      [
        JSON.stringify(turn).replace('"content":"hello"', '"content":"hello","\\u005f_proto__":{}'),
        'messages[0].__proto__',
      ],
      [
        JSON.stringify(turn).replace('"turn_id"', '"constructor":{"prototype":{"polluted":1}},"turn_id"'),
        'constructor.prototype',
      ],
    ];
    for (const [raw, field] of cases) {
      const response = await h.call<ProblemDocument>('POST', '/v1/turns', {
        key: h.keys.a.write,
        raw,
        contentType: 'application/json',
      });
      expect(response.body, raw).toMatchObject({
        status: 400,
        code: 'VALIDATION_FAILED',
        field,
        issues: [{ field, rule: 'propertyNames' }],
      });
      expect(response.body.detail).toContain('is not an allowed property name');
    }
    expect(await h.t.engram.events.list({ scope: { ...scope, tenant_id: 'tenant-a' } })).toEqual([]);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('JSON Lines on every JSON route (and /mcp) is 415 UNSUPPORTED_MEDIA_TYPE; only the import takes it', async () => {
    const routes = API_ROUTES.filter((spec) => spec.method !== 'GET');
    expect(routes.length).toBeGreaterThan(10);
    for (const spec of routes) {
      const sample = SAMPLES[spec.operationId]!;
      const raw = `${JSON.stringify(sample.body ?? {})}\n`;
      for (const contentType of ['application/x-ndjson', 'application/jsonl']) {
        const response = await h.call<ProblemDocument>(spec.method, sample.path, {
          key: h.keys.a.admin,
          raw,
          contentType,
        });
        expect(response.body, `${spec.operationId} ${contentType}: ${response.text}`).toMatchObject({
          status: 415,
          code: 'UNSUPPORTED_MEDIA_TYPE',
          field: null,
        });
        expect(response.text).not.toContain('_httpMessage');
      }
    }
    const mcp = await h.call<ProblemDocument>('POST', '/mcp', {
      key: h.keys.a.admin,
      raw: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n',
      contentType: 'application/x-ndjson',
      headers: { accept: 'application/json, text/event-stream' },
    });
    expect(mcp.body).toMatchObject({ status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' });
    const imported = await h.call('POST', '/v1/import', {
      key: h.keys.a.admin,
      raw: '',
      contentType: 'application/x-ndjson',
    });
    expect(imported.status).not.toBe(415);
  });
});
