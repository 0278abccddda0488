// Event-loop stalls under embedding load: a real `engram serve` (SQLite, the local model, the
// background worker in the same process, as `npm start` runs it) answers /healthz and an event
// listing (the same events in both phases) from a few clients, first with nothing to embed, then
// while its worker embeds a backlog of 96 turns of 20,000 characters and 300 short ones (about 3 s
// here). The default static model gives the event loop back every 2 ms of a batch (a transformer
// model runs on a thread of its own), so the request p99 under embedding must stay within 2× of the
// idle p99 (or under a floor of FLOOR_MS). A search with a query, whose vector the model computes
// on the request path ahead of the backlog, is measured beside them.

import { afterAll, describe, expect, it } from 'vitest';

import { percentile } from '../../bench/stats.js';
import { createEngram, type Engram } from '../../src/index.js';
import { runEngram, startEngram } from '../helpers/engram-process.js';
import { sqliteStore } from '../helpers/stores.js';
import { recordOutcome } from './results.js';

const CLIENTS = 4;
/** Milliseconds each client waits between two requests. */
const PAUSE_MS = 10;
const WARM_UP_MS = 2000;
/** The backlog: turns of 20,000 characters and short turns. */
const LONG_TURNS = 96;
const SHORT_TURNS = 300;
const IDLE_MS = 8000;
/** The longest the backlog may take to embed before the test gives up on it. */
const BACKLOG_DEADLINE_MS = 150_000;
/**
 * Below this p99 under load, the comparison with the idle p99 is not made: on a 2-core machine the
 * model's thread, the server and the clients share the processors, so a 2 ms idle p99 becoming
 * 6 ms is scheduling, not a stall. 50 ms is below the shortest forward pass of the model (about
 * 35–50 ms for one short text here; a pass of the backlog takes 100–300 ms), so any pass run on
 * the request thread still shows.
 */
const FLOOR_MS = 50;

type Route = 'healthz' | 'events';

const sentence = (index: number) =>
  `On day ${index} the team reviewed release ${index % 13} of Atlas, wrote down what broke in the ${['billing', 'search', 'import', 'export'][index % 4]} service and who will fix it. `;

/** Latencies of the measured routes while `keepGoing` says so; failures are counted (and timed), not thrown. */
async function measure(base: string, headers: Record<string, string>, keepGoing: () => boolean) {
  const latencies: Record<Route, number[]> = { healthz: [], events: [] };
  const failures: string[] = [];
  const client = async () => {
    for (let step = 0; keepGoing(); step += 1) {
      const route: Route = step % 2 === 0 ? 'healthz' : 'events';
      const path = route === 'healthz' ? '/healthz' : '/v1/events?user_id=stall-reader&limit=20&order=desc';
      const started = performance.now();
      try {
        const response = await fetch(`${base}${path}`, { headers });
        await response.arrayBuffer();
        if (!response.ok) failures.push(`${route} ${response.status}`);
      } catch (error) {
        failures.push(`${route} ${String(error)}`);
      }
      // A failed request counts with the time it took to fail: a stall may end in a dropped connection.
      latencies[route].push(performance.now() - started);
      // A pause between requests keeps the server below saturation in both phases, so a slower answer
      // under load is a stall, not a queue of requests that a busier processor serves more slowly.
      await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, () => client()));
  return { latencies, failures };
}

/** A search with a query every 200 ms while `keepGoing` says so: its query is embedded on the request path. */
async function searches(base: string, headers: Record<string, string>, keepGoing: () => boolean) {
  const latencies: number[] = [];
  const failures: string[] = [];
  while (keepGoing()) {
    const started = performance.now();
    try {
      const response = await fetch(`${base}/v1/memory/search`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          scope: { user_id: 'stall-u0', agent_id: 'assistant' },
          query: `what does the user drink ${latencies.length}`,
          k: 5,
        }),
      });
      await response.arrayBuffer();
      if (!response.ok) failures.push(`search ${response.status}`);
    } catch (error) {
      failures.push(`search ${String(error)}`);
    }
    latencies.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { latencies, failures };
}

/**
 * The server's own event-loop delay since the previous scrape of /metrics (each scrape starts a new
 * window), in milliseconds: the stall as the server lived it, without the clients' scheduling.
 */
async function loopDelay(base: string): Promise<{ max_ms: number; p99_ms: number }> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const read = (name: string) =>
    Number((Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1]) * 1000).toFixed(2));
  return { max_ms: read('engram_event_loop_delay_max_seconds'), p99_ms: read('engram_event_loop_delay_p99_seconds') };
}

function summary(samples: readonly number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const round = (value: number) => Number(value.toFixed(2));
  return {
    requests: sorted.length,
    p50_ms: round(percentile(sorted, 50)),
    p99_ms: round(percentile(sorted, 99)),
    max_ms: round(sorted.at(-1) ?? Number.NaN),
  };
}

/**
 * What the measured listing returns in both phases: a user's 20 latest events, written before the
 * idle phase (the backlog belongs to another user, so loaded answers carry the same bytes as idle ones).
 */
async function writeListed(engram: Engram): Promise<void> {
  const scope = { user_id: 'stall-reader', agent_id: 'assistant', session_id: 's1', run_id: 'r1' };
  await engram.commitTurns(
    Array.from({ length: 20 }, (_, index) => ({
      scope,
      turn_id: `listed-${index}`,
      messages: [{ role: 'user' as const, content: sentence(index) }],
    })),
  );
}

/**
 * The backlog, written straight into the store (not through the server, whose answers are what is
 * measured) by a second `engram commit` process: LONG_TURNS turns of 20,000 characters and
 * SHORT_TURNS short ones, all waiting for a vector. Committing them here would leave this process
 * (the clients that time the server) collecting their extraction's garbage while it measures: pauses
 * of 10–20 ms measured here that are the test's, not the server's.
 */
function writeBacklog(store: string): void {
  const scope = { user_id: 'stall-u0', agent_id: 'assistant', session_id: 's1', run_id: 'r1' };
  const long = Array.from({ length: LONG_TURNS }, (_, index) => {
    let content = '';
    for (let line = index * 200; content.length < 20_000; line += 1) content += sentence(line);
    return {
      scope,
      turn_id: `long-${index}`,
      messages: [{ role: 'user' as const, content: content.slice(0, 20_000) }],
    };
  });
  const short = Array.from({ length: SHORT_TURNS }, (_, index) => ({
    scope,
    turn_id: `short-${index}`,
    messages: [
      {
        role: 'user' as const,
        content: `I prefer ${['green tea', 'black coffee', 'oat milk'][index % 3]} in the morning; note ${index}.`,
      },
    ],
  }));
  const committed = runEngram(['--store', store, '--json', 'commit'], JSON.stringify([...long, ...short]));
  if (committed.code !== 0) throw new Error(`engram commit failed (${String(committed.code)}): ${committed.stderr}`);
}

const figures: Record<string, unknown> = {};
afterAll(() => recordOutcome('embedding-stalls', figures));

describe('event-loop stalls under embedding load', () => {
  const store = sqliteStore('stalls');
  let reader: Engram | undefined;
  afterAll(async () => {
    await reader?.close();
    await store.cleanup();
  });

  it(
    `keeps the request p99 within 2× of idle (or under ${FLOOR_MS} ms) while the in-process worker embeds ${LONG_TURNS} × 20,000 characters and ${SHORT_TURNS} short turns`,
    async () => {
      const server = startEngram([
        '--store',
        store.address(),
        'serve',
        '--port',
        '0',
        '--quiet',
        '--rate-limit',
        '1000000',
      ]);
      try {
        const [, base, key] = await server.waitFor(/log in: (http:\S+)\/ui\/#key=(\S+)\)/);
        const headers = { authorization: `Bearer ${key!}`, 'content-type': 'application/json' };
        reader = await createEngram({ store: store.address(), embeddings: { provider: 'none' } });
        await writeListed(reader);

        const warmUpEnds = performance.now() + WARM_UP_MS;
        await measure(base!, headers, () => performance.now() < warmUpEnds);
        await loopDelay(base!);
        const idleEnds = performance.now() + IDLE_MS;
        const idle = await measure(base!, headers, () => performance.now() < idleEnds);
        const idleLoop = await loopDelay(base!);

        writeBacklog(store.address());
        const backlogAtStart = await reader.maintenance.embeddingBacklog();
        const loadStarted = performance.now();
        let waiting = backlogAtStart;
        const poll = setInterval(() => {
          void reader!.maintenance.embeddingBacklog().then((count) => {
            waiting = count;
          });
        }, 250);
        const embedding = () => waiting > 0 && performance.now() - loadStarted < BACKLOG_DEADLINE_MS;
        await loopDelay(base!);
        const [loaded, search] = await Promise.all([
          measure(base!, headers, embedding),
          searches(base!, headers, embedding),
        ]);
        const loadedLoop = await loopDelay(base!);
        clearInterval(poll);
        const embeddingSeconds = (performance.now() - loadStarted) / 1000;
        const backlogLeft = await reader.maintenance.embeddingBacklog();
        // The same searches with the model idle (and loaded): what the query's own pass costs.
        const quietEnds = performance.now() + 3000;
        const quietSearch = await searches(base!, headers, () => performance.now() < quietEnds);

        const all = (run: { latencies: Record<Route, number[]> }) => [
          ...run.latencies.healthz,
          ...run.latencies.events,
        ];
        const idleSummary = summary(all(idle));
        const loadedSummary = summary(all(loaded));
        const allowedMs = Math.max(2 * idleSummary.p99_ms, FLOOR_MS);
        const result = {
          clients: CLIENTS,
          requests:
            idleSummary.requests + loadedSummary.requests + search.latencies.length + quietSearch.latencies.length,
          latency: {
            idle: idleSummary,
            idle_healthz: summary(idle.latencies.healthz),
            idle_events: summary(idle.latencies.events),
            embedding: loadedSummary,
            embedding_healthz: summary(loaded.latencies.healthz),
            embedding_events: summary(loaded.latencies.events),
            search_with_query_while_embedding: summary(search.latencies),
            search_with_query_idle: summary(quietSearch.latencies),
          },
          event_loop_delay: { idle: idleLoop, embedding: loadedLoop },
          idle_p99_ms: idleSummary.p99_ms,
          embedding_p99_ms: loadedSummary.p99_ms,
          p99_allowed_ms: Number(allowedMs.toFixed(2)),
          p99_ratio: Number((loadedSummary.p99_ms / idleSummary.p99_ms).toFixed(2)),
          p99_over_allowed: loadedSummary.p99_ms > allowedMs ? 1 : 0,
          texts_embedded: backlogAtStart - backlogLeft,
          texts_missing_vectors: backlogLeft,
          embedding_seconds: Number(embeddingSeconds.toFixed(1)),
          errors: idle.failures.length + loaded.failures.length + search.failures.length + quietSearch.failures.length,
          first_errors: [...idle.failures, ...loaded.failures, ...search.failures, ...quietSearch.failures].slice(0, 5),
        };
        figures['sqlite'] = result;
        expect(loadedSummary.p99_ms).toBeLessThanOrEqual(allowedMs);
        expect(result.p99_over_allowed).toBe(0);
        expect(result.first_errors).toEqual([]);
        expect(backlogAtStart).toBeGreaterThan(100);
        expect(backlogLeft).toBe(0);
        expect(loadedSummary.requests).toBeGreaterThan(100);
      } finally {
        await server.stop();
      }
    },
    BACKLOG_DEADLINE_MS + 90_000,
  );
});
