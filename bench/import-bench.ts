// The `import` part of `npm run bench`: a bulk import of realistic chat turns and the embedding of
// its backlog while the service answers. LoCoMo's turns (two consecutive turns of a conversation as
// one user and one assistant message) go through commitTurns in batches of 500 turns into a fresh
// SQLite file with the default configuration (rule extraction, the local static model, no worker:
// commits never wait for vectors), then the served store (the same createServer as `engram serve`)
// embeds that backlog in this process, as its worker would, while clients ask /healthz.

import type { CommitTurnRequest, Engram } from '../src/index.js';
import { createServer, listen } from '../src/server/index.js';
import { loadLocomo, type LocomoConversation } from './locomo-data.js';
import { table } from './report.js';
import { median, nowMs, percentile, round, summarize, type LatencySummary } from './stats.js';
import { withTempStore } from './temp-store.js';

export interface ImportSizes {
  /** LoCoMo conversations read (the first n). */
  conversations: number;
  /** How many times their turns are imported, each time as other users. */
  copies: number;
  /** Turns per commitTurns call. */
  batchSize: number;
  /** Milliseconds /healthz is asked with nothing to embed, before the backlog. */
  idleMs: number;
}

/** The targets for a bulk import and its embedding (issue 27, "Done when"). */
export const IMPORT_TARGETS = { events_per_s: 5_000, embedded_per_s: 300, healthz_p99_ms: 50 } as const;

export interface ImportResult {
  turns: number;
  events: number;
  /** Mean characters of a message imported. */
  message_chars_mean: number;
  batch_size: number;
  /** The median batch's events per second, and over the whole import. */
  events_per_s: number;
  events_per_s_overall: number;
  batch: LatencySummary;
  /** Vectors written for the backlog (events and item chunks), and how fast. */
  embedding: { embedded: number; seconds: number; per_s: number };
  healthz_idle: LatencySummary & { p99_ms: number };
  healthz_embedding: LatencySummary & { p99_ms: number; failures: number };
}

/** Clients asking /healthz at once, and their pause between two requests. */
const CLIENTS = 4;
const PAUSE_MS = 10;

/** The conversations' turns as chat turns: each two consecutive turns of a session, a user message and the reply. */
function chatTurns(conversations: readonly LocomoConversation[], copy: number): CommitTurnRequest[] {
  const turns: CommitTurnRequest[] = [];
  for (const conversation of conversations) {
    const user_id = `import-${copy}-${conversation.sample_id}`;
    const all = conversation.turns;
    for (let index = 0; index + 1 < all.length; index += 2) {
      const [said, reply] = [all[index]!, all[index + 1]!];
      turns.push({
        scope: { user_id, agent_id: 'assistant', session_id: `session_${said.session}`, run_id: `run-${copy}` },
        turn_id: said.dia_id,
        ts: said.ts,
        messages: [
          { role: 'user', content: said.text },
          { role: 'assistant', content: reply.text },
        ],
      });
    }
  }
  return turns;
}

/** /healthz latencies from CLIENTS clients while `keepGoing` says so, with the requests that failed. */
async function askHealth(base: string, keepGoing: () => boolean): Promise<{ latencies: number[]; failures: number }> {
  const latencies: number[] = [];
  let failures = 0;
  const client = async () => {
    while (keepGoing()) {
      const start = nowMs();
      try {
        const response = await fetch(`${base}/healthz`);
        await response.arrayBuffer();
        if (!response.ok) failures += 1;
      } catch {
        failures += 1;
      }
      latencies.push(nowMs() - start);
      await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, () => client()));
  return { latencies, failures };
}

function withP99(latencies: readonly number[]): LatencySummary & { p99_ms: number } {
  const sorted = [...latencies].sort((a, b) => a - b);
  return { ...summarize(sorted), p99_ms: round(percentile(sorted, 99), 3) };
}

/** Commits the turns in batches: each batch's events per second and time, and the events and seconds in all. */
async function importInBatches(engram: Engram, turns: readonly CommitTurnRequest[], batchSize: number) {
  const rates: number[] = [];
  const batchMs: number[] = [];
  let events = 0;
  const start = nowMs();
  for (let index = 0; index < turns.length; index += batchSize) {
    const batchStart = nowMs();
    const results = await engram.commitTurns(turns.slice(index, index + batchSize));
    const ms = nowMs() - batchStart;
    const written = results.reduce((sum, result) => sum + result.events.length, 0);
    events += written;
    batchMs.push(ms);
    rates.push(written / (ms / 1000));
  }
  return { rates, batchMs, events, seconds: (nowMs() - start) / 1000 };
}

/** Serves the Engram and embeds its backlog in this process, /healthz asked first idle for `idleMs`, then meanwhile. */
async function embedWhileServed(engram: Engram, idleMs: number) {
  const app = await createServer(engram, { auth: 'none', host: '127.0.0.1', logger: false });
  try {
    const base = await listen(app, { host: '127.0.0.1', port: 0 });
    const idleUntil = nowMs() + idleMs;
    const idle = await askHealth(base, () => nowMs() < idleUntil);
    let embedding = true;
    const start = nowMs();
    const [run, busy] = await Promise.all([
      engram.maintenance.runEmbeddings().finally(() => {
        embedding = false;
      }),
      askHealth(base, () => embedding),
    ]);
    return { embedded: run.embedded, seconds: (nowMs() - start) / 1000, idle, busy };
  } finally {
    await app.close();
  }
}

/**
 * Imports LoCoMo's turns in batches into a fresh store, then embeds the backlog while /healthz is asked.
 *
 * @example
 * const result = await benchImport({ conversations: 10, copies: 4, batchSize: 500, idleMs: 3000 }, console.error);
 */
export async function benchImport(sizes: ImportSizes, log: (line: string) => void): Promise<ImportResult> {
  const conversations = loadLocomo().conversations.slice(0, sizes.conversations);
  const turns = Array.from({ length: sizes.copies }, (_, copy) => chatTurns(conversations, copy)).flat();
  const characters = conversations.flatMap((conversation) => conversation.turns.map((turn) => turn.text.length));
  return withTempStore('full', async (engram) => {
    // One turn of another user, committed and embedded first, loads the rules and the model's tables.
    await engram.commitTurns(chatTurns(conversations.slice(0, 1), -1).slice(0, 1));
    await engram.maintenance.runEmbeddings();
    log(`import: ${turns.length} turns of LoCoMo in batches of ${sizes.batchSize}`);
    const imported = await importInBatches(engram, turns, sizes.batchSize);
    log(`import: embedding the backlog of ${imported.events} events while /healthz is asked`);
    const served = await embedWhileServed(engram, sizes.idleMs);
    return {
      turns: turns.length,
      events: imported.events,
      message_chars_mean: Math.round(characters.reduce((sum, length) => sum + length, 0) / characters.length),
      batch_size: sizes.batchSize,
      events_per_s: Math.round(median(imported.rates)),
      events_per_s_overall: Math.round(imported.events / imported.seconds),
      batch: summarize(imported.batchMs),
      embedding: {
        embedded: served.embedded,
        seconds: round(served.seconds, 2),
        per_s: Math.round(served.embedded / served.seconds),
      },
      healthz_idle: withP99(served.idle.latencies),
      healthz_embedding: { ...withP99(served.busy.latencies), failures: served.busy.failures + served.idle.failures },
    };
  });
}

const verdict = (met: boolean) => (met ? 'PASS' : 'MISS');

/** The import, the embedding of its backlog and /healthz meanwhile, each against its target. */
export function importTable(result: ImportResult): string {
  const { healthz_idle: idle, healthz_embedding: busy } = result;
  return table(
    ['measure', 'figure', 'target', ''],
    [
      [
        `commitTurns, ${result.turns.toLocaleString('en')} turns (${result.events.toLocaleString('en')} events, ${result.message_chars_mean} characters a message), batches of ${result.batch_size}`,
        `${result.events_per_s.toLocaleString('en')} events/s median batch (overall ${result.events_per_s_overall.toLocaleString('en')}; batch p50 / p95 ${result.batch.p50_ms} / ${result.batch.p95_ms} ms)`,
        `≥ ${IMPORT_TARGETS.events_per_s.toLocaleString('en')} events/s`,
        verdict(result.events_per_s >= IMPORT_TARGETS.events_per_s),
      ],
      [
        'embedding the backlog (default local model, in the serving process)',
        `${result.embedding.per_s.toLocaleString('en')} vectors/s (${result.embedding.embedded.toLocaleString('en')} events and item chunks in ${result.embedding.seconds} s)`,
        `≥ ${IMPORT_TARGETS.embedded_per_s} turns/s`,
        verdict(result.embedding.per_s >= IMPORT_TARGETS.embedded_per_s),
      ],
      [
        `/healthz while the backlog is embedded (${CLIENTS} clients; idle p50 / p99 ${idle.p50_ms} / ${idle.p99_ms} ms)`,
        `p50 / p99 / max ${busy.p50_ms} / ${busy.p99_ms} / ${busy.max_ms} ms, ${busy.samples} requests, ${busy.failures} failed`,
        `p99 ≤ ${IMPORT_TARGETS.healthz_p99_ms} ms`,
        verdict(busy.p99_ms <= IMPORT_TARGETS.healthz_p99_ms && busy.failures === 0),
      ],
    ],
  );
}
