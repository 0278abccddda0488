// The input rules over real loopback HTTP, on a SQLite file and on the PostgreSQL server alike: ids
// and all other text must be well-formed Unicode without U+0000 (values, property names, query
// parameters); every date-time follows one rule (no leap second, a UTC year 0000–9999), accepted
// ones are stored in UTC and an export always imports; compose cues are a closed shape, so a read
// key cannot make a context build hold what it likes, and a stored build stays under its bound.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createEngram, MAX_BUILD_BYTES, type ContextBuild, type Engram, type MemoryItem } from '../../src/index.js';
import { createServer, listen, type ProblemDocument } from '../../src/server/index.js';
import { postgresStore, sqliteStore, type StoreUnderTest } from '../helpers/stores.js';

const TENANT = 'acme';
const OTHER = 'acme-copy';
const LEAP = '2026-06-30T23:59:60Z';
const scope = { user_id: 'mira', agent_id: 'assistant', session_id: 's1', run_id: 'r1' };

interface Reply<T> {
  status: number;
  body: T;
  text: string;
}

interface Server {
  engram: Engram;
  keys: { read: string; write: string; admin: string; otherAdmin: string };
  call<T = ProblemDocument>(
    method: string,
    path: string,
    key: string,
    body?: unknown,
    contentType?: string,
  ): Promise<Reply<T>>;
  close(): Promise<void>;
}

async function startServer(store: StoreUnderTest): Promise<Server> {
  let now = Date.parse('2026-07-01T12:00:00.000Z');
  const engram = await createEngram({
    store: store.address(),
    clock: { now: () => new Date(now) },
    embeddings: { provider: 'none' },
    debug: true,
  });
  const app = await createServer(engram, { auth: 'keys', host: '127.0.0.1', logger: false });
  const url = await listen(app, { port: 0 });
  const make = async (role: 'read' | 'write' | 'admin', tenant = TENANT) =>
    (await engram.keys.create({ tenant_id: tenant, role })).key;
  const keys = {
    read: await make('read'),
    write: await make('write'),
    admin: await make('admin'),
    otherAdmin: await make('admin', OTHER),
  };
  return {
    engram,
    keys,
    async call<T>(method: string, path: string, key: string, body?: unknown, contentType = 'application/json') {
      now += 1000;
      const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
      const response = await fetch(`${url}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(payload === undefined ? {} : { 'content-type': contentType }) },
        ...(payload === undefined ? {} : { body: payload }),
      });
      const text = await response.text();
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      return { status: response.status, body: parsed as T, text };
    },
    async close() {
      await app.close();
      await engram.close();
      await store.cleanup();
    },
  };
}

/** The answer must be 400 VALIDATION_FAILED naming `field` with `rule`. */
function expectRefused(reply: Reply<ProblemDocument>, field: string, rule: string): void {
  expect(reply.status, reply.text).toBe(400);
  expect(reply.body, reply.text).toMatchObject({ code: 'VALIDATION_FAILED', field });
  expect(reply.body.issues, reply.text).toContainEqual(expect.objectContaining({ field, rule }));
}

describe.each([['sqlite'], ['postgres']])('input rules over HTTP on %s', (name) => {
  let server: Server;
  const turn = (extra: Record<string, unknown>, user = 'mira') => ({
    scope: { ...scope, user_id: user },
    turn_id: `t-${Math.random()}`,
    messages: [{ role: 'user', content: 'I prefer tea.' }],
    ...extra,
  });
  const eventsOf = async (user: string) =>
    (await server.call<{ items: unknown[] }>('GET', `/v1/events?user_id=${encodeURIComponent(user)}`, server.keys.read))
      .body.items;

  beforeAll(async () => {
    server = await startServer(name === 'sqlite' ? sqliteStore('rules') : postgresStore('engram_rules'));
  }, 60_000);
  afterAll(() => server.close());

  it('a lone surrogate in an id is refused naming the field, so two ids that differ only there cannot share a turn', async () => {
    const first = await server.call('POST', '/v1/turns', server.keys.write, {
      scope: { ...scope, user_id: 'x\ud800' },
      turn_id: 'shared',
      messages: [{ role: 'user', content: 'ledger of the first user' }],
    });
    expectRefused(first, 'scope.user_id', 'well_formed');
    const second = await server.call('POST', '/v1/turns', server.keys.write, {
      scope: { ...scope, user_id: 'x\udbff' },
      turn_id: 'shared',
      messages: [{ role: 'user', content: 'ledger of the second user' }],
    });
    expectRefused(second, 'scope.user_id', 'well_formed');
    // What a store would have made of them (U+FFFD) holds nothing.
    expect(await eventsOf('x\ufffd')).toEqual([]);
    expect(await eventsOf('x\ufffd\ufffd\ufffd')).toEqual([]);
    // A property name gets the same rule, and so does a body a route binds before the library sees it.
    expectRefused(
      await server.call('POST', '/v1/turns', server.keys.write, turn({ metadata: { ['k\udc00']: 1 } })),
      'metadata.k\\udc00',
      'well_formed',
    );
    expectRefused(
      await server.call('POST', '/v1/erase', server.keys.admin, { user_id: 'x\ud800' }),
      'user_id',
      'well_formed',
    );
  });

  it('U+0000 is refused the same way on both stores, in text, objects, keys, searches and query parameters, and nothing is written', async () => {
    const cases: Array<[string, string, unknown, string]> = [
      ['POST', '/v1/turns', turn({ messages: [{ role: 'user', content: 'a\u0000b' }] }), 'messages[0].content'],
      [
        'POST',
        '/v1/turns',
        turn({ tool_results: [{ tool_name: 'lookup', content: { rows: ['\u0000'] } }] }),
        'tool_results[0].content.rows[0]',
      ],
      [
        'POST',
        '/v1/turns',
        turn({ messages: [{ role: 'user', content: 'ok', metadata: { ['\u0000']: 'x' } }] }),
        'messages[0].metadata.\\u0000',
      ],
      [
        'POST',
        '/v1/items',
        {
          scope: { user_id: 'mira', agent_id: 'assistant' },
          type: 'goals',
          key: 'goal:atlas:launch',
          value: { name: 'launch', description: 'Ship\u0000' },
        },
        'value.description',
      ],
      ['POST', '/v1/events/search', { scope: { user_id: 'mira' }, query: 'tea\u0000' }, 'query'],
      ['POST', '/v1/compose', { scope, purpose: 'responder', cues: { query: '\u0000' } }, 'cues.query'],
    ];
    for (const [method, path, body, field] of cases)
      expectRefused(await server.call(method, path, server.keys.write, body), field, 'no_nul');
    expectRefused(await server.call('GET', '/v1/events?user_id=mira%00', server.keys.read), 'user_id', 'no_nul');
    expectRefused(await server.call('GET', '/v1/builds?session_id=%00', server.keys.read), 'session_id', 'no_nul');
    expect(await eventsOf('mira')).toEqual([]);
    expect(
      (await server.call<{ items: unknown[] }>('GET', '/v1/items?user_id=mira&agent_id=assistant', server.keys.read))
        .body.items,
    ).toEqual([]);
  });

  it('a leap second or a year past 9999 is VALIDATION_FAILED naming the field wherever a date-time enters, never a 500', async () => {
    const userScope = { user_id: 'mira', agent_id: 'assistant' };
    const cases: Array<[string, string, unknown, string]> = [
      ['POST', '/v1/turns', turn({ ts: LEAP }), 'ts'],
      ['POST', '/v1/turns', turn({ ts: '9999-12-31T23:59:59-23:59' }), 'ts'],
      [
        'POST',
        '/v1/turns',
        turn({ messages: [{ role: 'user', content: 'x', expires_at: LEAP }] }),
        'messages[0].expires_at',
      ],
      ['POST', '/v1/compose', { scope, purpose: 'responder', as_of: LEAP }, 'as_of'],
      [
        'POST',
        '/v1/compose',
        { scope, purpose: 'responder', cues: { query: 'tea', time_range: { start: LEAP } } },
        'cues.time_range.start',
      ],
      [
        'POST',
        '/v1/events/search',
        { scope: { user_id: 'mira' }, query: 'tea', time_range: { end: LEAP } },
        'time_range.end',
      ],
      [
        'POST',
        '/v1/memory/search',
        { scope: userScope, query: 'tea', filters: { time_range: { start: LEAP } } },
        'filters.time_range.start',
      ],
      [
        'POST',
        '/v1/items',
        {
          scope: userScope,
          type: 'goals',
          key: 'goal:atlas:launch',
          value: { name: 'launch', description: 'Ship Atlas' },
          valid_from: LEAP,
        },
        'valid_from',
      ],
      [
        'POST',
        '/v1/insights',
        {
          scope: { ...userScope, run_id: 'r1' },
          type: 'hypothesis',
          statement: 'the proxy times out',
          expires_at: LEAP,
        },
        'expires_at',
      ],
    ];
    for (const [method, path, body, field] of cases)
      expectRefused(await server.call(method, path, server.keys.write, body), field, 'format');
    expect(await eventsOf('mira')).toEqual([]);
  });

  it('accepted date-times are stored in UTC, so what a tenant exports always imports', async () => {
    const userScope = { user_id: 'mira', agent_id: 'assistant' };
    expect(
      (
        await server.call(
          'POST',
          '/v1/turns',
          server.keys.write,
          turn({
            ts: '2026-06-30T23:59:59.5+02:00',
            messages: [{ role: 'user', content: 'Deploy Atlas on Friday.', expires_at: '2027-01-01T01:00:00+01:00' }],
          }),
        )
      ).status,
    ).toBe(200);
    const remembered = await server.call('POST', '/v1/items', server.keys.write, {
      scope: userScope,
      type: 'goals',
      key: 'goal:atlas:launch',
      value: { name: 'launch', description: 'Ship Atlas' },
      valid_from: '2026-07-01T02:00:00+02:00',
      valid_to: '2026-12-31T23:00:00-01:00',
    });
    expect(remembered.status, remembered.text).toBeLessThan(300);
    const insight = await server.call<{ expires_at: string }>('POST', '/v1/insights', server.keys.write, {
      scope: { ...userScope, run_id: 'r1' },
      type: 'hypothesis',
      statement: 'the proxy times out',
      expires_at: '2026-08-01T00:00:00+02:00',
    });
    expect(insight.body.expires_at).toBe('2026-07-31T22:00:00.000Z');
    const [item] = (
      await server.call<{ items: MemoryItem[] }>(
        'GET',
        '/v1/items?user_id=mira&agent_id=assistant&types=goals',
        server.keys.read,
      )
    ).body.items;
    expect([item?.valid_from, item?.valid_to]).toEqual(['2026-07-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z']);
    const [event] = (await eventsOf('mira')) as Array<{ ts: string; expires_at: string }>;
    expect([event?.ts, event?.expires_at]).toEqual(['2026-06-30T21:59:59.500Z', '2027-01-01T00:00:00.000Z']);

    const exported = await server.call('GET', '/v1/export', server.keys.admin);
    expect(exported.status).toBe(200);
    const imported = await server.call<{ imported: Record<string, number> }>(
      'POST',
      '/v1/import',
      server.keys.otherAdmin,
      exported.text,
      'application/x-ndjson',
    );
    expect(imported.status, imported.text).toBe(200);
  });

  it('cues are a closed shape: a read key sending an unknown cue gets 400 naming it, and no build is stored', async () => {
    const buildsBefore = (await server.call<{ items: ContextBuild[] }>('GET', '/v1/builds', server.keys.read)).body
      .items.length;
    const junk = await server.call('POST', '/v1/compose', server.keys.read, {
      scope,
      purpose: 'responder',
      cues: { query: 'tea', junk: 'x'.repeat(500_000) },
    });
    expectRefused(junk, 'cues.junk', 'additionalProperties');
    expect(
      (await server.call<{ items: ContextBuild[] }>('GET', '/v1/builds', server.keys.read)).body.items,
    ).toHaveLength(buildsBefore);
  });

  it('the largest valid compose stores a build well under the bound', async () => {
    const text = (index: number) =>
      `Turn ${index}: the Atlas launch deploy moves to Friday; tea for the team. ${'Notes on the rollout plan and its risks. '.repeat(40)}`;
    const turns = Array.from({ length: 40 }, (_, index) => ({
      scope,
      turn_id: `bulk-${index}`,
      messages: [
        { role: 'user', content: text(index) },
        { role: 'assistant', content: text(index + 1) },
      ],
    }));
    expect((await server.call('POST', '/v1/turns', server.keys.write, { turns })).status).toBe(200);
    const cues = {
      query: 'Atlas launch deploy Friday tea '.repeat(400).slice(0, 10_000),
      tags: Array.from({ length: 64 }, (_, index) => `tag${index}`.padEnd(128, 't')),
      keywords: Array.from({ length: 64 }, (_, index) => `keyword${index}`.padEnd(256, 'k')),
      entities: Array.from({ length: 64 }, (_, index) => `entity${index}`.padEnd(256, 'e')),
      time_range: { start: '2026-01-01T00:00:00Z', end: '2026-12-31T23:59:59Z' },
    };
    const composed = await server.call<{ packet: { explain: { determinism: { context_build_id: string } } } }>(
      'POST',
      '/v1/compose',
      server.keys.read,
      { scope, purpose: 'planner', cues, budget: { max_tokens: 1_000_000 }, conversation_window: 200 },
    );
    expect(composed.status, composed.text.slice(0, 600)).toBe(200);
    const build = (
      await server.call<ContextBuild>(
        'GET',
        `/v1/builds/${composed.body.packet.explain.determinism.context_build_id}`,
        server.keys.read,
      )
    ).body;
    const bytes = Buffer.byteLength(JSON.stringify(build.request)) + Buffer.byteLength(JSON.stringify(build.packet));
    expect(bytes).toBeGreaterThan(200_000);
    expect(bytes).toBeLessThan(MAX_BUILD_BYTES);
  });
});
