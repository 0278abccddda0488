// Bad input over the transports, as property tests: every HTTP route with a body (real loopback
// server) and every MCP tool (official client over an in-memory transport), one field at a time
// replaced by a hostile value. Each answer is a success or a typed failure — an RFC 9457 problem
// document with a code (and a field for validation), or an MCP isError result carrying the Engram
// error — never a 5xx or a protocol fault; a refused call leaves the store as it was; the server
// stays up.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createMcpServer, ERROR_META_KEY } from '../../src/mcp/index.js';
import { API_ROUTES, type ProblemDocument } from '../../src/server/index.js';
import { breaksTextRule, fieldOf, mutated, prototypePolluted, TEXT_RULES } from '../helpers/hostile.js';
import { sqliteDigest } from '../helpers/store-digest.js';
import { startHarness, type Harness } from '../server/harness.js';
import { samples, UNKNOWN_IDS } from '../server/requests.js';
import { emptyTally, recordOutcome, type BoundaryTally } from './results.js';

const RUNS = Number(process.env['ENGRAM_RELIABILITY_RUNS'] ?? 40);
/** Each route or tool gets a share of the runs: there are about twenty of them. */
const PER_TARGET = Math.max(5, Math.round(RUNS / 3));
const scope = { user_id: 'mira', agent_id: 'assistant', session_id: 's1', run_id: 'r1' };
/** `text` as a literal inside a regular expression. */
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const MCP_BASES: Record<string, Record<string, unknown>> = {
  commit_turn: { scope, turn_id: 'probe', messages: [{ role: 'user', content: 'I prefer tea.' }] },
  compose_context: { scope, purpose: 'responder', cues: { query: 'tea' }, render: 'markdown' },
  search_memory: { scope: { user_id: 'mira' }, query: 'tea' },
  remember: {
    scope: { user_id: 'mira', agent_id: 'assistant' },
    type: 'goals',
    key: 'goal:atlas:launch',
    value: { name: 'launch', description: 'Ship Atlas' },
  },
  forget: { scope: { user_id: 'mira', agent_id: 'assistant' }, key: 'goal:atlas:launch' },
  get_working_state: { scope },
  update_working_state: { scope, expected_version: 0, set: { goal: 'probe' } },
  list_candidates: { scope: { user_id: 'mira' } },
  review_candidate: { candidate_id: UNKNOWN_IDS.candidate, decision: 'approve' },
};

describe('HTTP: hostile bodies on every route get a problem document, never a 5xx', () => {
  let h: Harness;
  const tallies: Record<string, BoundaryTally> = {};
  const requests = samples('mira', UNKNOWN_IDS);

  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    recordOutcome('http', tallies);
    await h.close();
  });

  for (const spec of API_ROUTES.filter((route) => requests[route.operationId]?.body !== undefined)) {
    it(`${spec.method} ${spec.url} (${spec.operationId})`, async () => {
      const sample = requests[spec.operationId]!;
      const tally = (tallies[spec.operationId] = emptyTally());
      await fc.assert(
        fc.asyncProperty(mutated(sample.body!), async ({ path, request }) => {
          tally.cases += 1;
          const before = sqliteDigest(h.t.path);
          const response = await h.call<ProblemDocument>(spec.method, sample.path, {
            key: h.keys.a.admin,
            body: request,
          });
          const context = `${spec.operationId} ${path.join('.')}: ${response.status} ${response.text.slice(0, 200)}`;
          expect(response.status, context).toBeLessThan(500);
          if (response.status >= 400) {
            expect(response.headers.get('content-type'), context).toMatch(/^application\/problem\+json/);
            expect(response.body, context).toMatchObject({
              status: response.status,
              code: expect.any(String),
              detail: expect.any(String),
            });
            if (response.body.code === 'VALIDATION_FAILED')
              expect(response.body.field, context).toEqual(expect.any(String));
            // A prototype key never reaches a handler: the body parser names it (unless the body is over the limit).
            if (response.status !== 413 && JSON.stringify(request).includes('"__proto__":'))
              expect(response.body, context).toMatchObject({
                code: 'VALIDATION_FAILED',
                issues: [expect.objectContaining({ rule: 'propertyNames' })],
              });
            // Text with a lone surrogate or U+0000 is refused naming its field (a larger body is 413 first).
            if (
              breaksTextRule(request) &&
              !JSON.stringify(request).includes('"__proto__":') &&
              response.status !== 413
            ) {
              expect(response.body, context).toMatchObject({
                code: 'VALIDATION_FAILED',
                field: expect.stringMatching(new RegExp(`^${escaped(fieldOf(path))}`)),
              });
              expect(TEXT_RULES, context).toContain(response.body.issues?.[0]?.rule);
            }
            expect(response.text, context).not.toMatch(/\bat .+\.(ts|js):\d+/);
            expect(sqliteDigest(h.t.path), `${context}: a refused request changed the store`).toBe(before);
            tally.rejected += 1;
            tally.codes[response.body.code] = (tally.codes[response.body.code] ?? 0) + 1;
          } else {
            expect(
              breaksTextRule(request) && response.status !== 413,
              `${context}: text with a lone surrogate or U+0000 was accepted`,
            ).toBe(false);
            tally.accepted += 1;
          }
          expect(prototypePolluted(), context).toBe(false);
        }),
        { numRuns: PER_TARGET },
      );
      expect((await h.call('GET', '/healthz')).status).toBe(200);
    }, 240_000);
  }

  it('JSON Lines and plain text on every JSON route are 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    const tally = (tallies['mediaTypes'] = emptyTally());
    for (const spec of API_ROUTES.filter((route) => requests[route.operationId]?.body !== undefined)) {
      for (const contentType of ['application/x-ndjson', 'application/jsonl', 'text/plain', 'application/xml']) {
        const response = await h.call<ProblemDocument>(spec.method, requests[spec.operationId]!.path, {
          key: h.keys.a.admin,
          raw: `${JSON.stringify(requests[spec.operationId]!.body)}\n`,
          contentType,
        });
        tally.cases += 1;
        tally.rejected += 1;
        tally.codes[response.body.code] = (tally.codes[response.body.code] ?? 0) + 1;
        expect(response.body, `${spec.operationId} ${contentType}`).toMatchObject({
          status: 415,
          code: 'UNSUPPORTED_MEDIA_TYPE',
        });
      }
    }
  });
});

describe('MCP: hostile arguments to every tool get an isError result with the Engram error', () => {
  let h: Harness;
  let client: Client;
  const tallies: Record<string, BoundaryTally> = {};

  beforeAll(async () => {
    h = await startHarness();
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    client = new Client({ name: 'engram-reliability', version: '1.0.0' });
    await Promise.all([
      createMcpServer(h.t.engram, { key_id: 'key_test', tenant_id: 'tenant-a', role: 'write' }).connect(serverSide),
      client.connect(clientSide),
    ]);
  });
  afterAll(async () => {
    recordOutcome('mcp', tallies);
    await client.close();
    await h.close();
  });

  it('lists exactly the tools these cases cover', async () => {
    expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(Object.keys(MCP_BASES).sort());
  });

  for (const [name, base] of Object.entries(MCP_BASES)) {
    it(
      name,
      async () => {
        const tally = (tallies[name] = emptyTally());
        await fc.assert(
          fc.asyncProperty(mutated(base), async ({ path, request }) => {
            tally.cases += 1;
            const before = sqliteDigest(h.t.path);
            // A value that is not an object is not a tool call at all: the transport refuses it before the tool.
            const args =
              typeof request === 'object' && request !== null && !Array.isArray(request)
                ? (request as Record<string, unknown>)
                : { value: request };
            const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
            const context = `${name} ${path.join('.')}: ${JSON.stringify(result.content).slice(0, 200)}`;
            // Text with a lone surrogate or U+0000 is refused naming its field (a `__proto__` argument never reaches a tool).
            const illFormed = breaksTextRule(args) && !JSON.stringify(args).includes('"__proto__":');
            if (result.isError === true) {
              const error = result._meta?.[ERROR_META_KEY] as { code?: string; field?: string } | undefined;
              expect(error?.code, context).toEqual(expect.any(String));
              expect(error?.code, context).not.toBe('INTERNAL');
              if (error?.code === 'VALIDATION_FAILED') expect(error.field, context).toEqual(expect.any(String));
              if (illFormed)
                expect(error, context).toMatchObject({
                  code: 'VALIDATION_FAILED',
                  field: expect.stringMatching(new RegExp(`^${escaped(fieldOf(path))}`)),
                });
              expect(sqliteDigest(h.t.path), `${context}: a refused call changed the store`).toBe(before);
              tally.rejected += 1;
              tally.codes[error!.code!] = (tally.codes[error!.code!] ?? 0) + 1;
            } else {
              expect(illFormed, `${context}: text with a lone surrogate or U+0000 was accepted`).toBe(false);
              tally.accepted += 1;
            }
            expect(prototypePolluted(), context).toBe(false);
          }),
          { numRuns: PER_TARGET },
        );
      },
      240_000,
    );
  }
});
