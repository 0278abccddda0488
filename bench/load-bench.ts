// Load on the service: `engram serve`'s HTTP server (the same createServer) on an embedded SQLite
// store, loopback, API-key auth, driven by autocannon with commit_turn and compose at the same time
// (two load generators in this process), for a fixed duration. Records throughput, latency
// percentiles and every error or non-2xx answer.

import autocannon from 'autocannon';

import { createEngram, type Engram } from '../src/index.js';
import { createServer, listen } from '../src/server/index.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface LoadSizes {
  durationSeconds: number;
  /** Connections of each generator (commit, compose). */
  connections: number;
  users: number;
}

export interface RouteLoad {
  requests: number;
  requests_per_s: number;
  latency_p50_ms: number;
  latency_p99_ms: number;
  latency_max_ms: number;
  errors: number;
  non_2xx: number;
  timeouts: number;
}

export interface LoadResult {
  duration_s: number;
  connections_per_route: number;
  commit: RouteLoad;
  compose: RouteLoad;
}

function routeLoad(result: autocannon.Result): RouteLoad {
  return {
    requests: result.requests.total,
    requests_per_s: Math.round(result.requests.average),
    latency_p50_ms: result.latency.p50,
    latency_p99_ms: result.latency.p99,
    latency_max_ms: result.latency.max,
    errors: result.errors,
    non_2xx: result.non2xx,
    timeouts: result.timeouts,
  };
}

function scopeOf(index: number) {
  const user = `u${index % 1000}`;
  return { user_id: user, agent_id: 'assistant', session_id: `s-${user}`, run_id: `r-${user}` };
}

/** Commits one turn per user first, so every compose reads a session that exists. */
async function seed(engram: Engram, users: number): Promise<void> {
  const turns = Array.from({ length: users }, (_, index) => ({
    scope: scopeOf(index),
    turn_id: `seed-${index}`,
    messages: [
      {
        role: 'user' as const,
        content: `I prefer concise answers. Project atlas launches on 2026-06-${String(1 + (index % 28)).padStart(2, '0')}.`,
      },
    ],
  }));
  await engram.commitTurns(turns);
}

function run(options: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

/**
 * Serves a fresh store and loads it with commits and composes at once.
 *
 * @example
 * const result = await benchLoad({ durationSeconds: 60, connections: 5, users: 200 }, console.error);
 */
export async function benchLoad(sizes: LoadSizes, log: (line: string) => void): Promise<LoadResult> {
  const folder = mkdtempSync(join(tmpdir(), 'engram-load-'));
  const engram = await createEngram({ store: `sqlite:${join(folder, 'engram.db')}`, embeddings: { provider: 'none' } });
  const app = await createServer(engram, {
    auth: 'keys',
    logger: false,
    rateLimit: { max: 10_000_000, timeWindowMs: 60_000 },
  });
  try {
    await seed(engram, sizes.users);
    const { key } = await engram.keys.create({ role: 'write', label: 'load' });
    const url = await listen(app, { host: '127.0.0.1', port: 0 });
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    let turn = 0;
    log(
      `load: ${sizes.durationSeconds} s, ${sizes.connections} connections committing and ${sizes.connections} composing, ${sizes.users} users`,
    );
    const [commit, compose] = await Promise.all([
      run({
        url: `${url}/v1/turns`,
        connections: sizes.connections,
        duration: sizes.durationSeconds,
        requests: [
          {
            method: 'POST',
            headers,
            setupRequest: (request) => {
              turn += 1;
              const body = {
                scope: scopeOf(turn % sizes.users),
                turn_id: `load-${turn}`,
                messages: [
                  { role: 'user', content: `Step ${turn}: the venue for atlas is Lisbon, budget ${turn % 90} k.` },
                  { role: 'assistant', content: 'Noted.' },
                ],
              };
              return { ...request, body: JSON.stringify(body) };
            },
          },
        ],
      }),
      run({
        url: `${url}/v1/compose`,
        connections: sizes.connections,
        duration: sizes.durationSeconds,
        requests: [
          {
            method: 'POST',
            headers,
            setupRequest: (request) => {
              turn += 1;
              const body = {
                scope: scopeOf(turn % sizes.users),
                purpose: (['planner', 'tool', 'responder'] as const)[turn % 3],
                ...(turn % 2 === 0 ? { cues: { query: 'atlas venue budget' } } : {}),
              };
              return { ...request, body: JSON.stringify(body) };
            },
          },
        ],
      }),
    ]);
    return {
      duration_s: sizes.durationSeconds,
      connections_per_route: sizes.connections,
      commit: routeLoad(commit),
      compose: routeLoad(compose),
    };
  } finally {
    await app.close();
    await engram.close();
    rmSync(folder, { recursive: true, force: true });
  }
}
