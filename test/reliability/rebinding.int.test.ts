// DNS rebinding against real loopback servers: every route that reads or writes data (and /mcp,
// the inspector, metrics and the OpenAPI document) called with Host headers and Origins a rebound
// page could send — other names, other ports, user info, a missing Host, `Origin: null`, https on
// the loopback port — on a server without auth and on one with keys (sent with a valid admin key).
// Each must be refused (421 or 403) and the store must not change; the server's own names must work.

import { afterAll, describe, expect, it } from 'vitest';

import { createServer, listen, type ServerOptions } from '../../src/server/index.js';
import { sqliteDigest } from '../helpers/store-digest.js';
import { tempEngram, type TempEngram } from '../helpers/temp-engram.js';
import { send, sendBytes } from '../server/raw-http.js';
import { recordOutcome } from './results.js';

const scope = { user_id: 'mira', agent_id: 'assistant', session_id: 's1', run_id: 'r1' };
const MCP = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const JSON_BODY = { 'content-type': 'application/json' };

interface Target {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

const TARGETS: readonly Target[] = [
  { method: 'GET', path: '/v1/export' },
  {
    method: 'POST',
    path: '/v1/turns',
    headers: JSON_BODY,
    body: JSON.stringify({ scope, turn_id: 'rebound', messages: [{ role: 'user', content: 'rebound' }] }),
  },
  { method: 'POST', path: '/v1/compose', headers: JSON_BODY, body: JSON.stringify({ scope, purpose: 'responder' }) },
  { method: 'GET', path: '/v1/keys' },
  { method: 'POST', path: '/v1/keys', headers: JSON_BODY, body: JSON.stringify({ role: 'admin', label: 'rebound' }) },
  {
    method: 'POST',
    path: '/mcp',
    headers: MCP,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'commit_turn',
        arguments: { scope, turn_id: 'rebound-mcp', messages: [{ role: 'user', content: 'x' }] },
      },
    }),
  },
  { method: 'GET', path: '/metrics' },
  { method: 'GET', path: '/openapi.json' },
  { method: 'GET', path: '/ui/' },
];

function forgedHosts(port: number): string[] {
  return [
    'attacker.example',
    `attacker.example:${port}`,
    `ATTACKER.example:${port}`,
    `127.0.0.1.nip.io:${port}`,
    `localhost.attacker.example:${port}`,
    `127.0.0.1:${port + 1}`,
    `localhost:${port === 80 ? 81 : 80}`,
    `attacker.example@127.0.0.1:${port}`,
    `127.0.0.1:${port}/evil`,
    `[::ffff:7f00:1]:${port}`,
    '0.0.0.0',
    `"127.0.0.1:${port}"`,
  ];
}

function forgedOrigins(port: number): string[] {
  return [
    'http://attacker.example',
    `http://attacker.example:${port}`,
    'null',
    `http://localhost:${port + 1}`,
    `https://127.0.0.1:${port}`,
    'file://',
    `http://127.0.0.1.nip.io:${port}`,
    'chrome-extension://abcdef',
  ];
}

interface Figures {
  requests: number;
  refused_421: number;
  refused_403: number;
  leaked: number;
  store_changed: number;
  own_name_requests: number;
  own_name_errors: number;
}

async function attack(auth: ServerOptions['auth']): Promise<Figures> {
  const t: TempEngram = await tempEngram('2026-06-01T12:00:00.000Z', { embeddings: { provider: 'none' } });
  const app = await createServer(t.engram, { auth, host: '127.0.0.1', logger: false });
  const figures: Figures = {
    requests: 0,
    refused_421: 0,
    refused_403: 0,
    leaked: 0,
    store_changed: 0,
    own_name_requests: 0,
    own_name_errors: 0,
  };
  try {
    const url = await listen(app, { port: 0 });
    const port = Number(new URL(url).port);
    const credentials: Record<string, string> =
      auth === 'keys' ? { authorization: `Bearer ${(await t.engram.keys.create({ role: 'admin' })).key}` } : {};
    const before = sqliteDigest(t.path);
    const forged = [
      ...forgedHosts(port).map((host) => ({ host })),
      ...forgedOrigins(port).map((origin) => ({ host: `127.0.0.1:${port}`, origin })),
    ];
    for (const headers of forged) {
      for (const target of TARGETS) {
        const response = await send(
          url,
          target.method,
          target.path,
          { ...credentials, ...target.headers, ...headers },
          target.body,
        );
        figures.requests += 1;
        if (response.status === 421) figures.refused_421 += 1;
        else if (response.status === 403 && (response.body as { field?: string } | undefined)?.field === 'origin')
          figures.refused_403 += 1;
        else figures.leaked += 1;
        expect(
          response.status,
          `${target.method} ${target.path} ${JSON.stringify(headers)}: ${response.text.slice(0, 200)}`,
        ).toBeGreaterThanOrEqual(400);
      }
    }
    // HTTP/1.0 needs no Host; without one the request names no server either.
    const bare = await sendBytes(url, 'GET /v1/export HTTP/1.0\r\n\r\n');
    figures.requests += 1;
    if (bare.status === 421) figures.refused_421 += 1;
    else figures.leaked += 1;
    if (sqliteDigest(t.path) !== before) figures.store_changed += 1;
    for (const name of ['127.0.0.1', 'localhost', '[::1]']) {
      const own = await send(url, 'GET', '/v1/export', {
        ...credentials,
        host: `${name}:${port}`,
        origin: `http://${name}:${port}`,
      });
      figures.own_name_requests += 1;
      if (own.status !== 200) figures.own_name_errors += 1;
    }
  } finally {
    await app.close();
    await t.cleanup();
  }
  return figures;
}

describe('DNS rebinding: forged Host and Origin on every kind of route', () => {
  const recorded: Record<string, Figures> = {};
  afterAll(() => recordOutcome('rebinding', recorded));

  for (const auth of ['none', 'keys'] as const) {
    it(`auth '${auth}' on loopback: every forged request refused, nothing written, own names served`, async () => {
      const figures = await attack(auth);
      recorded[`auth_${auth}`] = figures;
      expect(figures).toMatchObject({ leaked: 0, store_changed: 0, own_name_errors: 0 });
      expect(figures.refused_421 + figures.refused_403).toBe(figures.requests);
    }, 120_000);
  }
});
