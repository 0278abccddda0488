// Retrieval quality of engram.items.search on the labelled set bench/data/retrieval-set.json: hybrid search
// (full text + local vectors + recency + salience) against full text alone on the same store, for
// paraphrased and lexical queries, with per-signal ranks of every query that misses.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createEngram, type Engram, type RememberRequest, type SearchHit } from '../src/index.js';
import { seededRandom } from './corpus.js';
import { nowMs, round, summarize, type LatencySummary } from './stats.js';

export type QueryKind = 'paraphrase' | 'lexical';
export type RetrievalMode = 'hybrid' | 'full_text';
/** One signal of the hybrid run on its own, or text and vectors fused without recency and salience. */
export type SignalView = 'vector' | 'full_text' | 'text_and_vector';
/** Why the hybrid top hit outranked the expected item. */
export type MissCause = 'word_match_elsewhere' | 'vector_similarity' | 'recency_salience';

interface LabelledQuery {
  id: string;
  kind: QueryKind;
  scope: { user_id: string; agent_id: string };
  query: string;
  expected: string[];
}

interface RetrievalSet {
  items: RememberRequest[];
  queries: LabelledQuery[];
}

/** Recall@1 and @5 count a query as found when any of its expected keys is in the top k. */
export interface RetrievalScores {
  mode: RetrievalMode;
  kind: QueryKind;
  queries: number;
  recall_at_1: number;
  recall_at_5: number;
  mrr_at_10: number;
  latency: LatencySummary;
}

/** The ranks of the expected item in one query, and what ranked first instead. */
export interface QueryTrace {
  id: string;
  kind: QueryKind;
  query: string;
  expected: string;
  /** Rank in each mode's top 10, null when absent. */
  hybrid_rank: number | null;
  full_text_rank: number | null;
  signals: SearchHit['signals'] | null;
  top_key: string;
  top_signals: SearchHit['signals'];
  /** Set when the expected item is not first in the hybrid run. */
  cause: MissCause | null;
}

export interface RetrievalResult {
  items: number;
  embedded: number;
  embed_seconds: number;
  scores: RetrievalScores[];
  /** Each signal of the hybrid run on its own: the rank it gives the expected item (from `signals`). */
  signal_scores: Array<{
    signal: SignalView;
    kind: QueryKind;
    recall_at_1: number;
    recall_at_5: number;
    mrr_at_10: number;
  }>;
  /** Paraphrase queries whose expected item is not first in the hybrid run, by cause. */
  paraphrase_miss_causes: Record<MissCause, number>;
  /** Paraphrase queries whose expected item shares an indexed word with the query. */
  paraphrases_with_text_match: number;
  /** Queries where the vector signal ranked the expected item first but the fused list did not. */
  lost_in_fusion: number;
  traces: QueryTrace[];
  hybrid_beats_full_text: boolean;
}

const SET_PATH = new URL('./data/retrieval-set.json', import.meta.url);
const SEED = 20_261_201;

function isQuery(value: unknown): value is LabelledQuery {
  const query = value as Partial<LabelledQuery> | null;
  return (
    typeof query?.id === 'string' &&
    (query.kind === 'paraphrase' || query.kind === 'lexical') &&
    typeof query.query === 'string' &&
    typeof query.scope?.user_id === 'string' &&
    typeof query.scope.agent_id === 'string' &&
    Array.isArray(query.expected) &&
    query.expected.length > 0 &&
    query.expected.every((key) => typeof key === 'string')
  );
}

/** Reads and checks the set's shape; the items themselves are checked by `remember`. */
export function loadRetrievalSet(): RetrievalSet {
  const parsed = JSON.parse(readFileSync(SET_PATH, 'utf8')) as { items?: unknown; queries?: unknown };
  if (!Array.isArray(parsed.items) || !Array.isArray(parsed.queries) || !parsed.queries.every(isQuery)) {
    throw new TypeError(
      'bench/data/retrieval-set.json: expected { items: RememberRequest[], queries: LabelledQuery[] }',
    );
  }
  const set = { items: parsed.items as RememberRequest[], queries: parsed.queries };
  const keys = new Set(set.items.map((item) => item.key));
  const missing = set.queries.flatMap((query) => query.expected.filter((key) => !keys.has(key)));
  if (missing.length > 0) throw new TypeError(`retrieval set: queries expect unknown keys ${missing.join(', ')}`);
  return set;
}

function shuffled<T>(values: readonly T[], random: () => number): T[] {
  const out = [...values];
  for (let index = out.length - 1; index > 0; index -= 1) {
    const other = Math.floor(random() * (index + 1));
    [out[index], out[other]] = [out[other]!, out[index]!];
  }
  return out;
}

/** 1-based position of the first expected key in the hits, or null. */
function rankOf(hits: readonly SearchHit[], expected: readonly string[]): number | null {
  const index = hits.findIndex((hit) => expected.includes(hit.item.key));
  return index === -1 ? null : index + 1;
}

function scoresOf(ranks: ReadonlyArray<number | null>): {
  recall_at_1: number;
  recall_at_5: number;
  mrr_at_10: number;
} {
  const n = Math.max(1, ranks.length);
  const within = (k: number) => ranks.filter((rank) => rank !== null && rank <= k).length / n;
  const reciprocal = ranks.reduce<number>((sum, rank) => sum + (rank !== null && rank <= 10 ? 1 / rank : 0), 0);
  return { recall_at_1: round(within(1), 3), recall_at_5: round(within(5), 3), mrr_at_10: round(reciprocal / n, 3) };
}

interface Run {
  top10: SearchHit[];
  ms: number;
}

const VIEWS: readonly SignalView[] = ['vector', 'full_text', 'text_and_vector'];

/** One query in both modes: the expected item's rank in each, the time of each, and the hybrid trace. */
interface QueryOutcome {
  ranks: Record<RetrievalMode, number | null>;
  ms: Record<RetrievalMode, number>;
  views: Record<SignalView, number | null>;
  trace: QueryTrace;
}

async function timedSearch(engram: Engram, query: LabelledQuery): Promise<Run> {
  const start = nowMs();
  const top10 = await engram.items.search({ scope: query.scope, query: query.query, k: 10 });
  return { top10, ms: nowMs() - start };
}

/** Reciprocal rank fusion of text and vector ranks only (k = 60, as src/retrieval/hybrid-search.ts). */
function textAndVector(signals: SearchHit['signals']): number {
  return (
    (signals.full_text === null ? 0 : 1 / (60 + signals.full_text.rank)) +
    (signals.vector === null ? 0 : 1 / (60 + signals.vector.rank))
  );
}

/**
 * The rank a view gives the first expected item among all of the query's candidates: a signal's own
 * rank, or the candidates re-sorted by text and vector fusion alone (ties by id, as fusion breaks them).
 */
function viewRank(all: readonly SearchHit[], expected: readonly string[], view: SignalView): number | null {
  if (view === 'text_and_vector') {
    const sorted = [...all].sort(
      (a, b) => textAndVector(b.signals) - textAndVector(a.signals) || (a.item.id < b.item.id ? 1 : -1),
    );
    return rankOf(
      sorted.filter((hit) => textAndVector(hit.signals) > 0),
      expected,
    );
  }
  const ranks = all
    .filter((hit) => expected.includes(hit.item.key))
    .map((hit) => hit.signals[view]?.rank ?? Number.POSITIVE_INFINITY);
  const best = Math.min(Number.POSITIVE_INFINITY, ...ranks);
  return Number.isFinite(best) ? best : null;
}

function causeOf(target: SearchHit | undefined, top: SearchHit): MissCause {
  if (top.signals.full_text !== null && target?.signals.full_text == null) return 'word_match_elsewhere';
  const topVector = top.signals.vector?.rank ?? Number.POSITIVE_INFINITY;
  const targetVector = target?.signals.vector?.rank ?? Number.POSITIVE_INFINITY;
  return topVector < targetVector ? 'vector_similarity' : 'recency_salience';
}

async function searchBoth(hybrid: Engram, fullText: Engram, query: LabelledQuery): Promise<QueryOutcome> {
  const hybridRun = await timedSearch(hybrid, query);
  const textRun = await timedSearch(fullText, query);
  // What each mode measures: the full-text Engram never sees a vector; the hybrid one always does.
  if (textRun.top10.some((hit) => hit.signals.vector !== null))
    throw new RangeError('the full-text Engram returned a vector signal');
  if (hybridRun.top10.some((hit) => hit.signals.vector === null))
    throw new RangeError(`hybrid search returned a hit without a vector for ${query.id}`);
  // Every visible candidate with its signals (fusion sorts all candidates, then cuts to k).
  const all = await hybrid.items.search({ scope: query.scope, query: query.query, k: 100 });
  const ranks = { hybrid: rankOf(hybridRun.top10, query.expected), full_text: rankOf(textRun.top10, query.expected) };
  const target = all.find((hit) => query.expected.includes(hit.item.key));
  const top = all[0]!;
  return {
    ranks,
    ms: { hybrid: hybridRun.ms, full_text: textRun.ms },
    views: {
      vector: viewRank(all, query.expected, 'vector'),
      full_text: viewRank(all, query.expected, 'full_text'),
      text_and_vector: viewRank(all, query.expected, 'text_and_vector'),
    },
    trace: {
      id: query.id,
      kind: query.kind,
      query: query.query,
      expected: target?.item.key ?? query.expected[0]!,
      hybrid_rank: ranks.hybrid,
      full_text_rank: ranks.full_text,
      signals: target?.signals ?? null,
      top_key: top.item.key,
      top_signals: top.signals,
      cause: ranks.hybrid === 1 ? null : causeOf(target, top),
    },
  };
}

/** Loads the set into a fresh store through `remember` (seeded shuffle) and embeds it; returns the embedding time. */
async function load(engram: Engram, items: readonly RememberRequest[]): Promise<number> {
  // Recency ranks the order of writes: shuffled, it carries no trace of how the file is laid out.
  for (const item of shuffled(items, seededRandom(SEED))) await engram.items.remember(item);
  const start = nowMs();
  const run = await engram.maintenance.runEmbeddings();
  const backlog = await engram.maintenance.embeddingBacklog();
  if (backlog !== 0 || run.embedded !== items.length)
    throw new RangeError(`expected ${items.length} embedded items, got ${run.embedded} (backlog ${backlog})`);
  return (nowMs() - start) / 1000;
}

/** The scores of both modes and the diagnostics, from every query's outcome. */
function resultOf(
  set: RetrievalSet,
  outcomes: ReadonlyMap<string, QueryOutcome>,
  embedSeconds: number,
): RetrievalResult {
  const queries = set.queries;
  const kinds: QueryKind[] = ['paraphrase', 'lexical'];
  const of = (kind: QueryKind) =>
    queries.filter((query) => query.kind === kind).map((query) => outcomes.get(query.id)!);
  const scores = kinds.flatMap((kind) =>
    (['hybrid', 'full_text'] as const).map((mode): RetrievalScores => ({
      mode,
      kind,
      queries: of(kind).length,
      ...scoresOf(of(kind).map((outcome) => outcome.ranks[mode])),
      latency: summarize(of(kind).map((outcome) => outcome.ms[mode])),
    })),
  );
  const traces = queries.map((query) => outcomes.get(query.id)!.trace);
  const paraphrases = traces.filter((trace) => trace.kind === 'paraphrase');
  const missCauses: Record<MissCause, number> = { word_match_elsewhere: 0, vector_similarity: 0, recency_salience: 0 };
  for (const trace of paraphrases) if (trace.cause !== null) missCauses[trace.cause] += 1;
  const paraphrase = (mode: RetrievalMode) =>
    scores.find((score) => score.kind === 'paraphrase' && score.mode === mode)!;
  return {
    items: set.items.length,
    embedded: set.items.length,
    embed_seconds: round(embedSeconds, 1),
    scores,
    signal_scores: kinds.flatMap((kind) =>
      VIEWS.map((signal) => ({ signal, kind, ...scoresOf(of(kind).map((outcome) => outcome.views[signal])) })),
    ),
    paraphrase_miss_causes: missCauses,
    paraphrases_with_text_match: paraphrases.filter((trace) => trace.signals?.full_text != null).length,
    lost_in_fusion: paraphrases.filter((trace) => trace.signals?.vector?.rank === 1 && trace.hybrid_rank !== 1).length,
    traces,
    hybrid_beats_full_text:
      paraphrase('hybrid').mrr_at_10 > paraphrase('full_text').mrr_at_10 &&
      paraphrase('hybrid').recall_at_5 > paraphrase('full_text').recall_at_5,
  };
}

/**
 * Loads the set into a fresh store through `remember`, embeds it with the local model, and searches
 * every query twice: with the default (hybrid) Engram, and with a second Engram on the same file
 * opened with `embeddings: { provider: 'none' }`, which ranks by full text, recency and salience.
 */
export async function benchRetrieval(log: (message: string) => void): Promise<RetrievalResult> {
  const set = loadRetrievalSet();
  const dir = mkdtempSync(join(tmpdir(), 'engram-retrieval-'));
  const store = `sqlite:${join(dir, 'engram.db')}`;
  const hybrid = await createEngram({ store, embeddings: { provider: 'local' } });
  let fullText: Engram | undefined;
  try {
    const embedSeconds = await load(hybrid, set.items);
    log(`retrieval: ${set.items.length} items embedded in ${embedSeconds.toFixed(1)} s; ${set.queries.length} queries`);
    fullText = await createEngram({ store, embeddings: { provider: 'none' } });
    const outcomes = new Map<string, QueryOutcome>();
    for (const query of set.queries) outcomes.set(query.id, await searchBoth(hybrid, fullText, query));
    return resultOf(set, outcomes, embedSeconds);
  } finally {
    await fullText?.close();
    await hybrid.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
