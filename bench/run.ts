// Entry point of `npm run bench`: the write and read benchmarks of the core paths, retrieval quality
// and search latency of long-term memory, compose in two store shapes, on real SQLite files, and the
// same workload on SQLite beside PostgreSQL; prints
// Markdown tables and writes bench/results/*.json. `--quick` is the CI smoke; `--only=a,b` picks parts;
// `--misses` lists what the memory corpus missed, one line each; `--holdout` runs the memory part on the
// held-out sets (bench/data/memory-holdout/), written apart from the rules to tell how they generalise
// (the haystack part too),
// `--holdout=en-3,en-4,zh-3` on those files only (the set whose misses nobody has read).

import { existsSync } from 'node:fs';

import { benchComposeShape, SHAPES_FULL, SHAPES_QUICK } from './compose-shapes-bench.js';
import { planSessions, seededRandom, sessionsHolding, turnsOf } from './corpus.js';
import { benchCompose, type ComposeResult } from './read-bench.js';
import {
  COMPOSE_SHAPE_TARGETS,
  composeShapesTable,
  currentCommit,
  hasUncommittedChanges,
  machine,
  machineLine,
  markdownTable,
  MEMORY_TARGETS,
  retrievalTables,
  searchLatencyTable,
  TARGETS,
  writeResults,
  type CoreResults,
} from './report.js';
import { benchRetrieval } from './retrieval-bench.js';
import { benchLoad, type LoadResult, type LoadSizes } from './load-bench.js';
import { chartsDir, writeLocomoCharts } from './charts.js';
import { benchLocomo, type LocomoSizes } from './locomo-bench.js';
import { locomoPath } from './locomo-data.js';
import { locomoReport } from './locomo-report.js';
import { benchSearchLatency, type LatencySizes } from './search-latency-bench.js';
import { benchStores, storesTable, type StoresSizes } from './stores-bench.js';
import { benchEmbeddings, embeddingsTable, type EmbeddingsSizes } from './embeddings-bench.js';
import { benchImport, IMPORT_TARGETS, importTable, type ImportSizes } from './import-bench.js';
import { benchHaystack, haystackTable, type HaystackSizes } from './haystack-bench.js';
import { benchMemory, memoryReport, type MemorySizes } from './memory-bench.js';
import { corpusDir } from './memory-corpus.js';
import { storeSizeMiB, keepingNothing, withTempStore } from './temp-store.js';
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

/** One tenant of 100k items (1,000 users × 100); queries go to the 50 users whose items are embedded. */
const LATENCY_FULL: LatencySizes = {
  users: 1_000,
  itemsPerUser: 100,
  sharedItems: 100,
  embeddedUsers: 50,
  queries: 300,
  rememberItems: 1_000,
};
const LATENCY_QUICK: LatencySizes = {
  users: 100,
  itemsPerUser: 100,
  sharedItems: 100,
  embeddedUsers: 5,
  queries: 100,
  rememberItems: 300,
};

const PARTS = [
  'core',
  'retrieval',
  'latency',
  'compose-shapes',
  'load',
  'stores',
  'locomo',
  'embeddings',
  'import',
  'memory',
  'haystack',
] as const;
type Part = (typeof PARTS)[number];

const USERS = 100;
const SEED = 20_240_601;

function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
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
      log(
        `store at ${importer.events} events (${storeSizeMiB(path)} MiB) after ${((Date.now() - start) / 1000).toFixed(1)} s; composing`,
      );
      const sessions = sessionsHolding(plans, importer.turnsWritten);
      const searcher = await keepingNothing(path);
      try {
        compose.push(
          await benchCompose(
            engram,
            sessions,
            { events: importer.events, mib: storeSizeMiB(path) },
            {
              warmup: sizes.composeWarmup,
              samples: sizes.composeSamples,
              seed: SEED + target,
              searcher,
            },
          ),
        );
      } finally {
        await searcher.close();
      }
    }
    return { batch: importer.result(), compose };
  });
}

/** The parts named by `--only=a,b` (all when absent). */
function selectedParts(args: readonly string[]): Set<Part> {
  const option = args.find((arg) => arg.startsWith('--only='));
  if (option === undefined) return new Set(PARTS);
  const names = option.slice('--only='.length).split(',');
  const unknown = names.filter((name) => !(PARTS as readonly string[]).includes(name));
  if (unknown.length > 0)
    throw new RangeError(`--only: unknown part(s) ${unknown.join(', ')}; choose from ${PARTS.join(', ')}`);
  return new Set(names as Part[]);
}

async function runCore(quick: boolean): Promise<void> {
  const sizes = quick ? QUICK : FULL;
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
  writeResults('core', results);
  process.stdout.write(`${markdownTable(results)}\n`);
  log(`results written to bench/results/core.json`);
}

/** What every long-term memory results file starts with. */
function header(quick: boolean) {
  return {
    mode: quick ? 'quick' : 'full',
    date: new Date().toISOString(),
    commit: currentCommit(),
    uncommitted_changes: hasUncommittedChanges(),
    machine: machine(),
  };
}

async function runRetrieval(quick: boolean): Promise<void> {
  log('retrieval quality on bench/data/retrieval-set.json (the same set in quick and full runs)');
  const result = await benchRetrieval(log);
  writeResults('retrieval', { ...header(quick), ...result });
  process.stdout.write(`\nRetrieval quality (bench/data/retrieval-set.json):\n\n${retrievalTables(result)}\n`);
  log('results written to bench/results/retrieval.json');
}

async function runLatency(quick: boolean): Promise<void> {
  const sizes = quick ? LATENCY_QUICK : LATENCY_FULL;
  log(`search latency: ${sizes.users} users × ${sizes.itemsPerUser} items, ${sizes.embeddedUsers} users embedded`);
  const result = await benchSearchLatency(sizes, log);
  writeResults('search-latency', { ...header(quick), sizes, targets: MEMORY_TARGETS, ...result });
  process.stdout.write(`\nLong-term memory search latency (one tenant):\n\n${searchLatencyTable(result)}\n`);
  log('results written to bench/results/search-latency.json');
}

async function runComposeShapes(quick: boolean): Promise<void> {
  const shapes = quick ? SHAPES_QUICK : SHAPES_FULL;
  const results = [];
  for (const sizes of shapes) {
    log(
      `compose-shapes ${sizes.name}: ${sizes.users} users, ${sizes.events} events, ${sizes.itemsPerUser} items/user (embeddings: none)`,
    );
    results.push(await benchComposeShape(sizes, log));
  }
  writeResults('compose-shapes', { ...header(quick), sizes: shapes, targets: COMPOSE_SHAPE_TARGETS, shapes: results });
  process.stdout.write(
    `\nCompose in two store shapes (embedded SQLite, no embeddings):\n\n${composeShapesTable(results)}\n`,
  );
  process.stdout.write(
    '\nMemory probe: ms for 2M random reads over 32 MiB, the median of probes taken between compose samples; lower means the machine answered faster during that pass.\n',
  );
  log('results written to bench/results/compose-shapes.json');
}

/** Issue 7's load: commit and compose at once against the served embedded store for 60 s. */
const LOAD_FULL: LoadSizes = { durationSeconds: 60, connections: 5, users: 200 };
const LOAD_QUICK: LoadSizes = { durationSeconds: 5, connections: 2, users: 50 };

function loadTable(result: LoadResult): string {
  const header = ['route', 'requests', 'requests/s', 'p50', 'p99', 'max', 'errors', 'non-2xx', 'timeouts'];
  const row = (name: string, load: LoadResult['commit']) => [
    name,
    String(load.requests),
    String(load.requests_per_s),
    `${load.latency_p50_ms} ms`,
    `${load.latency_p99_ms} ms`,
    `${load.latency_max_ms} ms`,
    String(load.errors),
    String(load.non_2xx),
    String(load.timeouts),
  ];
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [
    line(header),
    line(header.map(() => '---')),
    line(row('POST /v1/turns', result.commit)),
    line(row('POST /v1/compose', result.compose)),
  ].join('\n');
}

async function runLoad(quick: boolean): Promise<void> {
  const sizes = quick ? LOAD_QUICK : LOAD_FULL;
  const result = await benchLoad(sizes, log);
  writeResults('load', { ...header(quick), sizes, ...result });
  process.stdout.write(
    `\nLoad on the served embedded store (${sizes.durationSeconds} s, ${sizes.connections} connections per route, at once):\n\n${loadTable(result)}\n`,
  );
  log('results written to bench/results/load.json');
}

/** Issue 8's comparison: the same workload on SQLite and on the PostgreSQL server. */
const STORES_FULL: StoresSizes = {
  singleTurns: { warmupTurns: 100, rounds: 3, turnsPerRound: 500 },
  batchSize: 500,
  composeEvents: 100_000,
  composeWarmup: 90,
  composeSamples: 600,
};
const STORES_QUICK: StoresSizes = {
  singleTurns: { warmupTurns: 20, rounds: 3, turnsPerRound: 60 },
  batchSize: 500,
  composeEvents: 5_000,
  composeWarmup: 20,
  composeSamples: 90,
};

async function runStores(quick: boolean): Promise<void> {
  const sizes = quick ? STORES_QUICK : STORES_FULL;
  const figures = await benchStores(sizes, log);
  writeResults('stores', { ...header(quick), sizes, stores: figures });
  process.stdout.write(
    `\nSQLite beside PostgreSQL (same workload, same run; compose at ${sizes.composeEvents} events):\n\n${storesTable(figures)}\n`,
  );
  log('results written to bench/results/stores.json');
}

/** LoCoMo evidence recall: every conversation and question, or 2 conversations and every third question. */
const LOCOMO_FULL: LocomoSizes = { conversations: 10, questionStride: 1, warmup: 30 };
const LOCOMO_QUICK: LocomoSizes = { conversations: 2, questionStride: 3, warmup: 10 };

async function runLocomo(quick: boolean): Promise<void> {
  const sizes = quick ? LOCOMO_QUICK : LOCOMO_FULL;
  log(
    `LoCoMo evidence recall: ${sizes.conversations} conversations, ${sizes.questionStride === 1 ? 'every question' : `one question in ${sizes.questionStride}`}`,
  );
  const result = await benchLocomo(sizes, log);
  writeResults('locomo', { ...header(quick), ...result });
  const charts = await writeLocomoCharts(result, chartsDir(quick));
  process.stdout.write(
    `\nLoCoMo evidence recall (responder packets against baselines, same run):\n\n${locomoReport(result)}\n`,
  );
  log(`results written to bench/results/locomo.json, charts to ${charts.join(' and ')}`);
}

/** The local embedding models compared on LoCoMo (all conversations, or 2) and the retrieval set. */
const EMBEDDINGS_FULL: EmbeddingsSizes = {
  conversations: 10,
  turns: { static: 3_000, transformer: 64 },
  queries: { static: 500, transformer: 100 },
};
const EMBEDDINGS_QUICK: EmbeddingsSizes = {
  conversations: 2,
  turns: { static: 1_000, transformer: 64 },
  queries: { static: 200, transformer: 30 },
};

async function runEmbeddings(quick: boolean): Promise<void> {
  const sizes = quick ? EMBEDDINGS_QUICK : EMBEDDINGS_FULL;
  const result = await benchEmbeddings(sizes, log);
  writeResults('embeddings', { ...header(quick), sizes, ...result });
  process.stdout.write(
    `\nLocal embedding models (LoCoMo turn-level evidence recall@10 over ${sizes.conversations} conversations, categories 1–4; vector-only ranks on bench/data/retrieval-set.json):\n\n${embeddingsTable(result)}\n`,
  );
  log('results written to bench/results/embeddings.json');
}

/** A bulk import of LoCoMo's turns (four copies: ~23,500 events), or of two conversations once. */
const IMPORT_FULL: ImportSizes = { conversations: 10, copies: 4, batchSize: 500, idleMs: 3_000 };
const IMPORT_QUICK: ImportSizes = { conversations: 2, copies: 1, batchSize: 500, idleMs: 1_000 };

async function runImport(quick: boolean): Promise<void> {
  const sizes = quick ? IMPORT_QUICK : IMPORT_FULL;
  const result = await benchImport(sizes, log);
  writeResults('import', { ...header(quick), sizes, targets: IMPORT_TARGETS, ...result });
  process.stdout.write(
    `\nBulk import of LoCoMo's turns (commitTurns, default configuration, no worker) and the embedding of its backlog while served:\n\n${importTable(result)}\n`,
  );
  log('results written to bench/results/import.json');
}

/** Memory quality on the corpus: every conversation, or the first 15 of each language. */
const MEMORY_FULL: MemorySizes = { perLanguage: null };
const MEMORY_QUICK: MemorySizes = { perLanguage: 15 };

async function runMemoryQuality(quick: boolean, misses: boolean, holdout: boolean, files?: string[]): Promise<void> {
  const sizes = {
    ...(quick ? MEMORY_QUICK : MEMORY_FULL),
    ...(holdout ? { dir: corpusDir('holdout') } : {}),
    ...(files === undefined ? {} : { files }),
  };
  const rules = await benchMemory(sizes, log, 'rules');
  const scripted = await benchMemory(sizes, log, 'rules+scripted-llm');
  writeResults(holdout ? 'memory-quality-holdout' : 'memory-quality', {
    ...header(quick),
    sizes,
    runs: [rules, scripted],
  });
  const corpus = `${rules.corpus.conversations} conversations, ${rules.corpus.turns} turns, ${rules.corpus.questions} questions; questions as ${rules.budget}-token responder packets`;
  process.stdout.write(
    `\nMemory quality on the ${holdout ? 'held-out set' : 'corpus'} (${corpus}), rule extraction, no LLM:\n\n${memoryReport(rules)}\n`,
  );
  process.stdout.write(
    `\nThe same run with an LLM beside the rules: a scripted model on loopback answering each turn with the facts the corpus expects (the LLM path's upper bound, not a real model):\n\n${memoryReport(scripted)}\n`,
  );
  if (misses) {
    for (const run of [rules, scripted]) {
      for (const score of run.languages)
        process.stdout.write(
          `\nMisses (${run.extraction}, ${score.language}):\n${score.misses.map((line) => `- ${line}`).join('\n')}\n`,
        );
    }
  }
  log(`results written to bench/results/${holdout ? 'memory-quality-holdout' : 'memory-quality'}.json`);
}

/** The corpus in a haystack: every conversation asked, or the first 5 of each language (all are hay). */
const HAYSTACK_FULL: HaystackSizes = { perLanguage: null };
const HAYSTACK_QUICK: HaystackSizes = { perLanguage: 5 };

async function runHaystack(quick: boolean, misses: boolean, holdout: boolean, files?: string[]): Promise<void> {
  const sizes = {
    ...(quick ? HAYSTACK_QUICK : HAYSTACK_FULL),
    ...(holdout ? { dir: corpusDir('holdout') } : {}),
    ...(files === undefined ? {} : { files }),
  };
  const result = await benchHaystack(sizes, log);
  const name = holdout ? 'haystack-holdout' : 'haystack';
  writeResults(name, { ...header(quick), sizes, ...result });
  process.stdout.write(
    `\nThe memory ${holdout ? 'held-out set' : 'corpus'} in a haystack (each conversation among ${result.haystack_conversations} others of its language, as one user's history; responder packets, rule extraction, no LLM):\n\n${haystackTable(result)}\n`,
  );
  if (misses)
    for (const score of result.languages)
      process.stdout.write(
        `\nNot shown at 1,000 tokens (${score.language}):\n${score.misses.map((line) => `- ${line}`).join('\n')}\n`,
      );
  log(`results written to bench/results/${name}.json`);
}

/** Resident memory after each part: now, and the process's peak so far (parts run one after another). */
const memory: Array<{ part: Part; rss_mib: number; peak_rss_mib: number; heap_used_mib: number }> = [];

async function measured(part: Part, run: () => Promise<void>): Promise<void> {
  await run();
  const mib = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
  const usage = process.memoryUsage();
  const entry = {
    part,
    rss_mib: mib(usage.rss),
    peak_rss_mib: mib(process.resourceUsage().maxRSS * 1024),
    heap_used_mib: mib(usage.heapUsed),
  };
  memory.push(entry);
  process.stdout.write(
    `\nResident memory after ${part}: ${entry.rss_mib} MiB (peak so far ${entry.peak_rss_mib} MiB, JS heap ${entry.heap_used_mib} MiB)\n`,
  );
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const quick = args.includes('--quick');
  const parts = selectedParts(args);
  log(`${quick ? 'quick' : 'full'} run on ${machineLine()}`);
  if (parts.has('core')) await measured('core', () => runCore(quick));
  if (parts.has('retrieval')) await measured('retrieval', () => runRetrieval(quick));
  if (parts.has('latency')) await measured('latency', () => runLatency(quick));
  if (parts.has('compose-shapes')) await measured('compose-shapes', () => runComposeShapes(quick));
  if (parts.has('load')) await measured('load', () => runLoad(quick));
  if (parts.has('stores')) await measured('stores', () => runStores(quick));
  if (parts.has('locomo')) {
    // The data set is not part of the repository (CC BY-NC): without it, a run of every part skips
    // this one; asking for it by name (--only=locomo) fails with where to get it.
    if (existsSync(locomoPath()) || args.some((arg) => arg.startsWith('--only=')))
      await measured('locomo', () => runLocomo(quick));
    else log(`locomo skipped: no data set at ${locomoPath()} (set ENGRAM_LOCOMO to locomo10.json)`);
  }
  if (parts.has('embeddings')) {
    if (existsSync(locomoPath()) || args.some((arg) => arg.startsWith('--only=')))
      await measured('embeddings', () => runEmbeddings(quick));
    else log(`embeddings skipped: no data set at ${locomoPath()} (set ENGRAM_LOCOMO to locomo10.json)`);
  }
  if (parts.has('import')) {
    if (existsSync(locomoPath()) || args.some((arg) => arg.startsWith('--only=')))
      await measured('import', () => runImport(quick));
    else log(`import skipped: no data set at ${locomoPath()} (set ENGRAM_LOCOMO to locomo10.json)`);
  }
  const holdoutFiles = args
    .find((arg) => arg.startsWith('--holdout='))
    ?.slice('--holdout='.length)
    .split(',')
    .filter((name) => name !== '');
  const holdout = holdoutFiles !== undefined || args.includes('--holdout');
  if (parts.has('memory'))
    await measured('memory', () => runMemoryQuality(quick, args.includes('--misses'), holdout, holdoutFiles));
  if (parts.has('haystack'))
    await measured('haystack', () => runHaystack(quick, args.includes('--misses'), holdout, holdoutFiles));
  writeResults('memory', { ...header(quick), parts: memory });
}

await main();
