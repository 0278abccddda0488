// Entry point of `npm run bench`: runs the write and read benchmarks of the core paths on real
// SQLite files, prints a Markdown table and writes bench/results/core.json. `--quick` is the CI smoke.

import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { planSessions, seededRandom, turnsOf, type SessionPlan } from './corpus.js';
import { benchCompose, type ComposeResult } from './read-bench.js';
import { currentCommit, machine, markdownTable, TARGETS, type CoreResults } from './report.js';
import { storeSizeMiB, withTempStore } from './temp-store.js';
import { BatchImporter, benchSingleTurns, type BatchImportResult, type SingleTurnResult } from './write-bench.js';

interface Sizes {
  singleTurns: { warmupTurns: number; rounds: number; turnsPerRound: number };
  batchSize: number;
  composeStoreEvents: readonly number[];
  composeSamples: number;
  composeWarmup: number;
}

const FULL: Sizes = {
  singleTurns: { warmupTurns: 100, rounds: 3, turnsPerRound: 1_000 },
  batchSize: 500,
  composeStoreEvents: [10_000, 100_000],
  composeSamples: 600,
  composeWarmup: 90,
};

const QUICK: Sizes = {
  singleTurns: { warmupTurns: 30, rounds: 3, turnsPerRound: 150 },
  batchSize: 500,
  composeStoreEvents: [2_000, 10_000],
  composeSamples: 200,
  composeWarmup: 30,
};

const USERS = 100;
const SEED = 20_240_601;

function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

/** The planned sessions that hold at least one of the first `turns` turns, in import order. */
function existingSessions(plans: readonly SessionPlan[], turns: number): SessionPlan[] {
  const out: SessionPlan[] = [];
  let seen = 0;
  for (const plan of plans) {
    if (seen >= turns) break;
    out.push(plan);
    seen += plan.turns;
  }
  return out;
}

/** Fills one store with batches, stopping at each size to measure compose there. */
async function benchImportAndCompose(sizes: Sizes): Promise<{ batch: BatchImportResult; compose: ComposeResult[] }> {
  return withTempStore('full', async (engram, path) => {
    const random = seededRandom(SEED);
    const largest = Math.max(...sizes.composeStoreEvents);
    // At least 40 turns of 2+ events per session: enough sessions for the largest store.
    const plans = planSessions(random, Math.ceil(largest / 80) + 10, USERS, 'p');
    const importer = new BatchImporter(engram, sizes.batchSize, turnsOf(plans, random));
    const compose: ComposeResult[] = [];
    for (const target of sizes.composeStoreEvents) {
      const start = Date.now();
      await importer.growTo(target);
      log(`store at ${importer.events} events (${storeSizeMiB(path)} MiB) after ${((Date.now() - start) / 1000).toFixed(1)} s; composing`);
      const sessions = existingSessions(plans, importer.turnsWritten);
      compose.push(
        await benchCompose(engram, sessions, { events: importer.events, mib: storeSizeMiB(path) }, {
          warmup: sizes.composeWarmup,
          samples: sizes.composeSamples,
          seed: SEED + target,
        }),
      );
    }
    return { batch: importer.result(), compose };
  });
}

async function main(): Promise<void> {
  const quick = process.argv.slice(2).includes('--quick');
  const sizes = quick ? QUICK : FULL;
  log(`${quick ? 'quick' : 'full'} run on ${machine().cpu}, ${machine().cores} cores, Node ${process.version}`);

  const singleTurns: SingleTurnResult[] = [];
  for (const durability of ['full', 'normal'] as const) {
    log(`commit_turn one at a time, synchronous=${durability}`);
    singleTurns.push(await benchSingleTurns(durability, { ...sizes.singleTurns, users: USERS, seed: SEED }));
  }
  log(`commitTurns batches of ${sizes.batchSize} and compose at ${sizes.composeStoreEvents.join(', ')} events`);
  const { batch, compose } = await benchImportAndCompose(sizes);

  const results: CoreResults = {
    mode: quick ? 'quick' : 'full',
    date: new Date().toISOString(),
    commit: currentCommit(),
    machine: machine(),
    targets: TARGETS,
    single_turns: singleTurns,
    batch_import: batch,
    compose,
  };
  const dir = fileURLToPath(new URL('./results/', import.meta.url));
  mkdirSync(dir, { recursive: true });
  writeFileSync(`${dir}core.json`, `${JSON.stringify(results, null, 2)}\n`);
  process.stdout.write(`${markdownTable(results)}\n`);
  log(`results written to bench/results/core.json`);
}

await main();
