// Load and soak against a real `engram serve` on each store: 50 concurrent clients commit turns,
// compose packets, search and list for a fixed time (quick: 15 s a store; ENGRAM_RELIABILITY_LONG=1:
// 5 minutes). Zero errors, every acknowledged turn readable afterwards, latency percentiles recorded,
// and the server's resident memory sampled from /proc: in the long form it must level off, not keep
// climbing; the quick form (warm-up only) checks a ceiling.

import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';

import { median, percentile } from '../../bench/stats.js';
import { startEngram, type EngramProcess } from '../helpers/engram-process.js';
import { postgresStore, sqliteStore, type StoreUnderTest } from '../helpers/stores.js';
import { recordOutcome } from './results.js';

const LONG = process.env['ENGRAM_RELIABILITY_LONG'] === '1';
const CLIENTS = 50;
const SECONDS = LONG ? 300 : 15;
const USERS = 200;
const figures: Record<string, unknown> = {};

type Operation = 'commit' | 'compose' | 'search' | 'list';

/** The server's resident memory in MiB, from /proc (Linux). */
function residentMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1] ?? Number.NaN);
  return kib / 1024;
}

async function runLoad(store: StoreUnderTest) {
  const server: EngramProcess = startEngram([
    '--store',
    store.address(),
    'serve',
    '--port',
    '0',
    '--quiet',
    '--no-worker',
    '--rate-limit',
    '1000000',
  ]);
  try {
    const [, base, key] = await server.waitFor(/log in: (http:\S+)\/ui\/#key=(\S+)\)/);
    const headers = { authorization: `Bearer ${key!}`, 'content-type': 'application/json' };
    const latencies: Record<Operation, number[]> = { commit: [], compose: [], search: [], list: [] };
    const failures: string[] = [];
    const acknowledged: Array<{ user: string; events: string[] }> = [];
    const request = async (operation: Operation, method: string, path: string, body?: unknown): Promise<unknown> => {
      const started = performance.now();
      try {
        const response = await fetch(`${base}${path}`, {
          method,
          headers,
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        const text = await response.text();
        if (!response.ok) {
          failures.push(`${operation} ${response.status} ${text.slice(0, 200)}`);
          return undefined;
        }
        latencies[operation].push(performance.now() - started);
        return JSON.parse(text) as unknown;
      } catch (error) {
        failures.push(`${operation} ${String(error)}`);
        return undefined;
      }
    };
    const pid = server.child.pid!;
    const memory: number[] = [];
    const sampler = setInterval(() => memory.push(residentMiB(pid)), 500);
    const deadline = performance.now() + SECONDS * 1000;
    let turn = 0;
    const client = async (index: number) => {
      // Each client is one agent of its own user for writes; reads go to any user.
      const own = `load-u${index}`;
      for (let step = 0; performance.now() < deadline; step += 1) {
        const other = `load-u${Math.floor(Math.random() * Math.min(USERS, CLIENTS))}`;
        const scope = { user_id: other, agent_id: 'assistant', session_id: 's1', run_id: 'r1' };
        const pick = step % 4;
        if (pick === 0) {
          turn += 1;
          const result = (await request('commit', 'POST', '/v1/turns', {
            scope: { ...scope, user_id: own },
            turn_id: `t${turn}`,
            messages: [
              { role: 'user', content: `Turn ${turn}: I prefer green tea; we ship Atlas ${turn % 7} on Friday.` },
              { role: 'assistant', content: `Noted ${turn}.` },
            ],
          })) as { events?: Array<{ event_id: string }> } | undefined;
          if (result?.events !== undefined)
            acknowledged.push({ user: own, events: result.events.map((event) => event.event_id) });
        } else if (pick === 1)
          await request('compose', 'POST', '/v1/compose', {
            scope,
            purpose: (['planner', 'tool', 'responder'] as const)[step % 3],
            cues: step % 2 === 0 ? { query: 'when do we ship Atlas' } : {},
          });
        else if (pick === 2)
          await request('search', 'POST', '/v1/memory/search', {
            scope: { user_id: other, agent_id: 'assistant' },
            query: 'green tea',
          });
        else await request('list', 'GET', `/v1/events?user_id=${other}&limit=50&order=desc`);
      }
    };
    const started = performance.now();
    await Promise.all(Array.from({ length: CLIENTS }, (_, index) => client(index)));
    const elapsed = (performance.now() - started) / 1000;
    clearInterval(sampler);
    // Every acknowledged turn is there, whole, when the load has stopped.
    const stored = new Set<string>();
    for (const user of new Set(acknowledged.map((ack) => ack.user))) {
      let cursor: string | null = null;
      do {
        const response = await fetch(
          `${base}/v1/events?user_id=${user}&limit=1000${cursor === null ? '' : `&cursor=${cursor}`}`,
          { headers },
        );
        const page = (await response.json()) as { items: Array<{ id: string }>; next_cursor: string | null };
        for (const event of page.items) stored.add(event.id);
        cursor = page.next_cursor;
      } while (cursor !== null);
    }
    const missing = acknowledged.flatMap((ack) => ack.events).filter((id) => !stored.has(id)).length;
    const quarter = Math.floor(memory.length / 4);
    const summary = (samples: number[]) => {
      const sorted = [...samples].sort((a, b) => a - b);
      return {
        requests: sorted.length,
        p50_ms: Number(percentile(sorted, 50).toFixed(2)),
        p99_ms: Number(percentile(sorted, 99).toFixed(2)),
        max_ms: Number((sorted.at(-1) ?? 0).toFixed(2)),
      };
    };
    const total = Object.values(latencies).reduce((sum, samples) => sum + samples.length, 0);
    return {
      clients: CLIENTS,
      seconds: Number(elapsed.toFixed(1)),
      requests: total,
      requests_per_s: Number((total / elapsed).toFixed(0)),
      errors: failures.length,
      first_errors: failures.slice(0, 5),
      turns_acknowledged: acknowledged.length,
      events_missing: missing,
      latency: Object.fromEntries(
        Object.entries(latencies).map(([operation, samples]) => [operation, summary(samples)]),
      ),
      resident_mib: {
        second_quarter_median: Number(median(memory.slice(quarter, 2 * quarter)).toFixed(1)),
        last_quarter_median: Number(median(memory.slice(3 * quarter)).toFixed(1)),
        peak: Number(Math.max(...memory).toFixed(1)),
        samples: memory.length,
      },
    };
  } finally {
    await server.stop();
  }
}

afterAll(() => recordOutcome('load', figures));

describe.each([sqliteStore('load'), postgresStore('load')])('load and soak: $name', (store) => {
  afterAll(() => store.cleanup());

  it(
    `holds ${CLIENTS} concurrent clients for ${SECONDS} s with zero errors, nothing lost and memory level`,
    async () => {
      const result = await runLoad(store);
      figures[store.name] = result;
      expect(result.first_errors).toEqual([]);
      expect(result.errors).toBe(0);
      expect(result.turns_acknowledged).toBeGreaterThan(CLIENTS);
      expect(result.events_missing).toBe(0);
      const { second_quarter_median: early, last_quarter_median: late, peak } = result.resident_mib;
      if (LONG) {
        // Level, not climbing: the last quarter's median within 25% (or 48 MiB) of the second quarter's;
        // the first quarter is start-up (modules, caches, the embedding model).
        expect(late - early).toBeLessThanOrEqual(Math.max(48, early * 0.25));
      } else {
        // 15 s is still warm-up (caches fill on a shared machine), so the quick form only guards against
        // a gross leak; whether memory levels off is the long form's check.
        expect(peak).toBeLessThan(1024);
      }
    },
    (SECONDS * 2 + 90) * 1000,
  );
});
