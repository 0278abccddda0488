// SQLite beside PostgreSQL in one run: commit_turn one at a time, commitTurns batches, and compose
// (with the bare full-text search of the same queries) on the same generated sessions, so the two
// stores' figures compare as ratios measured on the same machine at the same time.

import { planSessions, seededRandom, sessionsHolding, turnsOf } from './corpus.js';
import { benchCompose, type ComposeResult } from './read-bench.js';
import { table } from './report.js';
import { withBenchStore, type BenchStore } from './temp-store.js';
import { BatchImporter, benchSingleTurns, type BatchImportResult, type SingleTurnResult } from './write-bench.js';

export interface StoresSizes {
  singleTurns: { warmupTurns: number; rounds: number; turnsPerRound: number };
  batchSize: number;
  /** Events in the store when compose is measured. */
  composeEvents: number;
  composeWarmup: number;
  composeSamples: number;
}

export interface StoreFigures {
  store: 'sqlite' | 'postgres';
  single_turns: SingleTurnResult;
  batch_import: BatchImportResult;
  compose: ComposeResult;
}

const USERS = 100;
const SEED = 20_240_611;

/** SQLite (synchronous=FULL, the default) and PostgreSQL, one after the other, on the same workload. */
export async function benchStores(sizes: StoresSizes, log: (message: string) => void): Promise<StoreFigures[]> {
  const figures: StoreFigures[] = [];
  for (const store of ['full', 'postgres'] as const satisfies readonly BenchStore[]) {
    const name = store === 'postgres' ? 'postgres' : 'sqlite';
    log(`stores: ${name}: commit_turn one at a time`);
    const single = await benchSingleTurns(store, { ...sizes.singleTurns, users: USERS, seed: SEED });
    log(`stores: ${name}: commitTurns batches of ${sizes.batchSize} to ${sizes.composeEvents} events, then compose`);
    const { batch, compose } = await withBenchStore(store, async (engram, sizeMiB, unkept) => {
      const random = seededRandom(SEED);
      const plans = planSessions(random, Math.ceil(sizes.composeEvents / 80) + 10, USERS, 'p');
      const importer = new BatchImporter(engram, sizes.batchSize, turnsOf(plans, random));
      await importer.growTo(sizes.composeEvents);
      const sessions = sessionsHolding(plans, importer.turnsWritten);
      const composed = await benchCompose(
        engram,
        sessions,
        { events: importer.events, mib: await sizeMiB() },
        {
          warmup: sizes.composeWarmup,
          samples: sizes.composeSamples,
          seed: SEED,
          searcher: unkept,
        },
      );
      return { batch: importer.result(), compose: composed };
    });
    figures.push({ store: name, single_turns: single, batch_import: batch, compose });
  }
  return figures;
}

/** One row per store, and the PostgreSQL / SQLite ratios. */
export function storesTable(figures: readonly StoreFigures[]): string {
  const rows = figures.map((f) => [
    f.store,
    String(f.single_turns.turns_per_s),
    `${f.single_turns.latency.p50_ms} ms`,
    String(f.batch_import.events_per_s),
    String(f.compose.store_events),
    `${f.compose.store_mib} MiB`,
    `${f.compose.compose.p50_ms} / ${f.compose.compose.p95_ms} ms`,
    `${f.compose.search.p50_ms} / ${f.compose.search.p95_ms} ms`,
  ]);
  const [sqlite, postgres] = [figures.find((f) => f.store === 'sqlite'), figures.find((f) => f.store === 'postgres')];
  if (sqlite !== undefined && postgres !== undefined) {
    const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
    rows.push([
      'postgres / sqlite',
      ratio(postgres.single_turns.turns_per_s, sqlite.single_turns.turns_per_s),
      ratio(postgres.single_turns.latency.p50_ms, sqlite.single_turns.latency.p50_ms),
      ratio(postgres.batch_import.events_per_s, sqlite.batch_import.events_per_s),
      '',
      '',
      `${ratio(postgres.compose.compose.p50_ms, sqlite.compose.compose.p50_ms)} (p50)`,
      `${ratio(postgres.compose.search.p50_ms, sqlite.compose.search.p50_ms)} (p50)`,
    ]);
  }
  return table(
    [
      'store',
      'commit_turn turns/s',
      'commit_turn p50',
      'commitTurns events/s',
      'events',
      'size',
      'compose p50 / p95',
      'search p50 / p95',
    ],
    rows,
  );
}
