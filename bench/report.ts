// Turns benchmark results into the Markdown tables printed to stdout (with the issues' targets and
// PASS/MISS per row) and the JSON written to bench/results/ (core, retrieval, search latency, compose shapes).

import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';

import type { ComposeShapeResult } from './compose-shapes-bench.js';
import type { ComposeResult } from './read-bench.js';
import type { RetrievalMode, RetrievalResult, SignalView } from './retrieval-bench.js';
import type { SearchLatencyResult } from './search-latency-bench.js';
import type { LatencySummary } from './stats.js';
import type { BatchImportResult, SingleTurnResult } from './write-bench.js';

/** The targets of the issue, on the embedded store. */
export const TARGETS = {
  singleTurnsPerSecond: 1_000,
  batchedEventsPerSecond: 20_000,
  composeP95Ms: 10,
} as const;

export interface CoreResults {
  mode: 'quick' | 'full';
  date: string;
  commit: string;
  machine: Machine;
  targets: typeof TARGETS;
  single_turns: SingleTurnResult[];
  batch_import: BatchImportResult;
  compose: ComposeResult[];
}

/** The short commit, or a note that there is none. */
export function currentCommit(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return 'uncommitted working tree';
  }
}

export interface Machine {
  cpu: string;
  /** The processor's family, model and stepping where the system tells them (Linux): a VM may name only the maker, as in `AMD EPYC`, for processors generations apart. */
  cpu_id: string | null;
  cores: number;
  memory_gib: number;
  node: string;
  platform: string;
}

/** `family 26, model 2, stepping 1` from /proc/cpuinfo, or null where it cannot be read. */
function cpuId(): string | null {
  let info: string;
  try {
    info = readFileSync('/proc/cpuinfo', 'utf8');
  } catch {
    return null; // Not Linux: the model name is all there is.
  }
  const field = (name: string) => new RegExp(`^${name}\\s*:\\s*(.+)$`, 'm').exec(info)?.[1]?.trim();
  const parts = [
    ['family', field('cpu family')],
    ['model', field('model')],
    ['stepping', field('stepping')],
  ].filter(([, value]) => value !== undefined);
  return parts.length === 0 ? null : parts.map(([name, value]) => `${name} ${value}`).join(', ');
}

/** The machine a run measured, as its results record it. */
export function machine(): Machine {
  return {
    cpu: cpus()[0]?.model ?? 'unknown',
    cpu_id: cpuId(),
    cores: cpus().length,
    memory_gib: Math.round(totalmem() / 1024 ** 3),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
  };
}

/** `AMD EPYC (family 26, model 2, stepping 1), 2 cores, Node v20.20.2`: the machine as a run's log names it. */
export function machineLine(): string {
  const { cpu, cpu_id: id, cores, node } = machine();
  return `${cpu}${id === null ? '' : ` (${id})`}, ${cores} cores, Node ${node}`;
}

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

function count(value: number): string {
  return integer.format(value);
}

function ms(value: number): string {
  return `${value.toFixed(value < 10 ? 2 : 1)} ms`;
}

function storeLabel(events: number): string {
  return events >= 1000 ? `${count(Math.round(events / 1000))}k events` : `${count(events)} events`;
}

function status(pass: boolean): string {
  return pass ? 'PASS' : 'MISS';
}

type Row = [
  measurement: string,
  store: string,
  result: string,
  p50: string,
  p95: string,
  target: string,
  status: string,
];

function singleTurnRow(result: SingleTurnResult): Row {
  return [
    `commit_turn, one at a time, synchronous=${result.durability}`,
    `fresh, ${result.rounds}×${count(result.turns_per_round)} turns`,
    `${count(result.turns_per_s)} turns/s · ${count(result.events_per_s)} events/s`,
    ms(result.latency.p50_ms),
    ms(result.latency.p95_ms),
    `≥ ${count(TARGETS.singleTurnsPerSecond)} turns/s`,
    status(result.turns_per_s >= TARGETS.singleTurnsPerSecond),
  ];
}

function batchRow(result: BatchImportResult): Row {
  return [
    `commitTurns, batches of ${result.batch_size} turns, synchronous=full`,
    `0 → ${storeLabel(result.events)}`,
    `${count(result.events_per_s)} events/s (overall ${count(result.overall_events_per_s)})`,
    `${ms(result.batch_latency.p50_ms)}/batch`,
    `${ms(result.batch_latency.p95_ms)}/batch`,
    `≥ ${count(TARGETS.batchedEventsPerSecond)} events/s`,
    status(result.events_per_s >= TARGETS.batchedEventsPerSecond),
  ];
}

function composeRows(result: ComposeResult): Row[] {
  const store = storeLabel(result.store_events);
  const target = `p95 ≤ ${TARGETS.composeP95Ms} ms`;
  const latencyRow = (label: string, summary: ComposeResult['compose'], note: string): Row => [
    label,
    store,
    note,
    ms(summary.p50_ms),
    ms(summary.p95_ms),
    target,
    status(summary.p95_ms <= TARGETS.composeP95Ms),
  ];
  return [
    latencyRow(
      'compose, all requests',
      result.compose,
      `${result.compose.samples} samples, ~${count(result.mean_packet_tokens)} tokens/packet`,
    ),
    latencyRow('compose with cues.query', result.compose_with_query, `${result.compose_over_search_p50}× the FTS p50`),
    latencyRow(
      'compose without query',
      result.compose_without_query,
      `${result.compose_without_query.samples} samples`,
    ),
    [
      'searchEvents (FTS5), same queries',
      store,
      `${result.search.samples} queries, ${result.mean_search_hits} hits avg`,
      ms(result.search.p50_ms),
      ms(result.search.p95_ms),
      '—',
      '—',
    ],
  ];
}

/** The results as one Markdown table. */
export function markdownTable(results: CoreResults): string {
  const header: Row = ['measurement', 'store', 'result (median)', 'p50', 'p95', 'target', 'status'];
  const rows: Row[] = [
    ...results.single_turns.map(singleTurnRow),
    batchRow(results.batch_import),
    ...results.compose.flatMap(composeRows),
  ];
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

// ---- Long-term memory: retrieval quality and search latency (bench/retrieval-bench.ts, bench/search-latency-bench.ts) ----

/** The targets of the long-term memory issue. */
export const MEMORY_TARGETS = { searchP95Ms: 20 } as const;

/** Whether the working tree differs from HEAD (results then describe uncommitted code). */
export function hasUncommittedChanges(): boolean {
  try {
    return (
      execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }).trim() !== ''
    );
  } catch {
    return false;
  }
}

/** Writes a part's figures to bench/results/<name>.json (gitignored). */
export function writeResults(name: string, results: unknown): void {
  const dir = fileURLToPath(new URL('./results/', import.meta.url));
  mkdirSync(dir, { recursive: true });
  writeFileSync(`${dir}${name}.json`, `${JSON.stringify(results, null, 2)}\n`);
}

const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;

export function table(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

const MODE_LABEL: Readonly<Record<RetrievalMode, string>> = {
  hybrid: 'hybrid (default: full text + vectors + recency + salience)',
  full_text: 'full text only (`embeddings: none`: full text + recency + salience)',
};

const VIEW_LABEL: Readonly<Record<SignalView, string>> = {
  vector: 'vector similarity alone',
  full_text: 'full-text rank alone',
  text_and_vector: 'text + vector fused, no recency/salience (counterfactual)',
};

function fixed(value: number): string {
  return value.toFixed(3);
}

function rank(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : String(value);
}

/** The retrieval scores, the signals on their own, and the paraphrase queries hybrid search missed at 5. */
export function retrievalTables(result: RetrievalResult): string {
  const scores = table(
    ['mode', 'queries', 'recall@1', 'recall@5', 'MRR@10', 'p50 (first search of a query)'],
    result.scores.map((score) => [
      MODE_LABEL[score.mode],
      `${score.kind} (${score.queries})`,
      fixed(score.recall_at_1),
      fixed(score.recall_at_5),
      fixed(score.mrr_at_10),
      ms(score.latency.p50_ms),
    ]),
  );
  const signals = table(
    ['ranking (from the per-signal scores of the hybrid run)', 'queries', 'recall@1', 'recall@5', 'MRR@10'],
    result.signal_scores.map((score) => [
      VIEW_LABEL[score.signal],
      score.kind,
      fixed(score.recall_at_1),
      fixed(score.recall_at_5),
      fixed(score.mrr_at_10),
    ]),
  );
  const misses = result.traces.filter(
    (trace) => trace.kind === 'paraphrase' && (trace.hybrid_rank === null || trace.hybrid_rank > 5),
  );
  const missTable = table(
    [
      'query',
      'expected',
      'hybrid rank',
      'vector rank (cos)',
      'recency / salience rank',
      'ranked first (text rank, vector rank, cos)',
    ],
    misses.map((trace) => [
      `${trace.id} ${trace.query}`,
      `\`${trace.expected}\``,
      rank(trace.hybrid_rank),
      trace.signals?.vector == null
        ? '—'
        : `${trace.signals.vector.rank} (${trace.signals.vector.similarity.toFixed(2)})`,
      trace.signals === null ? '—' : `${trace.signals.recency.rank} / ${trace.signals.salience.rank}`,
      `\`${trace.top_key}\` (${rank(trace.top_signals.full_text?.rank)}, ${rank(trace.top_signals.vector?.rank)}, ${trace.top_signals.vector?.similarity.toFixed(2) ?? '—'})`,
    ]),
  );
  const causes = result.paraphrase_miss_causes;
  const verdict = result.hybrid_beats_full_text
    ? 'PASS: hybrid beats full text alone on paraphrases'
    : 'MISS: hybrid does not beat full text alone on paraphrases';
  return [
    scores,
    '',
    `${verdict} (recall@5 and MRR@10). ${result.paraphrases_with_text_match} paraphrase queries share an indexed word with their item; ` +
      `${result.lost_in_fusion} queries had the item first by vector similarity but not after fusion. ` +
      `Paraphrase queries not answered first, by what put another item first: another item matched a query word ${causes.word_match_elsewhere}, ` +
      `higher vector similarity ${causes.vector_similarity}, recency and salience ${causes.recency_salience}.`,
    '',
    signals,
    '',
    `Paraphrase queries hybrid search missed at 5 (${misses.length}):`,
    '',
    missTable,
  ].join('\n');
}

/** The population, embedding and search latency rows of the large-tenant benchmark. */
export function searchLatencyTable(result: SearchLatencyResult): string {
  const store = `${count(Math.round(result.items / 1000))}k items, ${count(result.users)} users, ${result.store_mib} MiB`;
  const target = `p95 ≤ ${MEMORY_TARGETS.searchP95Ms} ms`;
  const searchRow = (label: string, summary: LatencySummary, note: string) => [
    label,
    store,
    note,
    ms(summary.p50_ms),
    ms(summary.p95_ms),
    target,
    status(summary.p95_ms <= MEMORY_TARGETS.searchP95Ms),
  ];
  const rows: string[][] = [
    [
      'remember, one at a time, empty store',
      `0 → ${count(result.remember_empty.items)} items`,
      `${count(result.remember_empty.items_per_s)} items/s`,
      ms(result.remember_empty.latency.p50_ms),
      ms(result.remember_empty.latency.p95_ms),
      '—',
      '—',
    ],
    [
      `storage.write, ${result.bulk.batch_items} items/batch (the ops remember plans)`,
      `→ ${count(Math.round((result.items - result.remember_full.items) / 1000))}k items`,
      `${count(result.bulk.items_per_s)} items/s`,
      `${ms(result.bulk.batch_latency.p50_ms)}/batch`,
      `${ms(result.bulk.batch_latency.p95_ms)}/batch`,
      '—',
      '—',
    ],
    [
      'remember, one at a time, full store (new keys)',
      `+${count(result.remember_full.items)} items`,
      `${count(result.remember_full.items_per_s)} items/s`,
      ms(result.remember_full.latency.p50_ms),
      ms(result.remember_full.latency.p95_ms),
      '—',
      '—',
    ],
    [
      'runEmbeddings, local model',
      `${count(result.embeddings.texts)} texts`,
      `${count(result.embeddings.texts_per_s)} texts/s (${result.embeddings.seconds} s)`,
      '—',
      '—',
      '—',
      '—',
    ],
    searchRow(
      'engram.items.search, query seen first (embeds it)',
      result.search_first,
      `${result.search_first.samples} queries, ${result.mean_hits} hits avg`,
    ),
    searchRow(
      'engram.items.search, same query again (cached vector)',
      result.search_cached,
      `${result.embeddings.vectors_per_search} vectors scanned/search`,
    ),
    [
      'storage.searchItems (full text), same terms',
      store,
      `${result.mean_text_hits} hits avg (limit 100)`,
      ms(result.full_text.p50_ms),
      ms(result.full_text.p95_ms),
      '—',
      '—',
    ],
    [
      'storage.itemVectors (vector candidates read)',
      store,
      `${result.embeddings.vectors_per_search} vectors avg`,
      ms(result.item_vectors.p50_ms),
      ms(result.item_vectors.p95_ms),
      '—',
      '—',
    ],
    [
      'query embedding, local model, one query',
      '—',
      `${result.query_embedding.samples} distinct queries`,
      ms(result.query_embedding.p50_ms),
      ms(result.query_embedding.p95_ms),
      '—',
      '—',
    ],
  ];
  return table(['measurement', 'store', 'result (median)', 'p50', 'p95', 'target', 'status'], rows);
}

// ---- Compose in two store shapes (bench/compose-shapes-bench.ts) ----

/** The targets of issue 4 for compose on the embedded store. */
export const COMPOSE_SHAPE_TARGETS = { p50Ms: 3, p95Ms: 10 } as const;

function shapeStore(result: ComposeShapeResult): string {
  const { counts } = result;
  const events = counts.events >= 100_000 ? `${(counts.events / 1e6).toFixed(2)}M` : count(counts.events);
  return `${count(result.users)} user${result.users === 1 ? '' : 's'}, ${events} events, ${count(counts.items)} items, ${result.store_mib} MiB`;
}

/** Population, compose (with PASS/MISS against p50 and p95), its parts, and the raw reads, per shape. */
export function composeShapesTable(results: readonly ComposeShapeResult[]): string {
  const target = `p50 ≤ ${COMPOSE_SHAPE_TARGETS.p50Ms} ms, p95 ≤ ${COMPOSE_SHAPE_TARGETS.p95Ms} ms`;
  const pass = (summary: LatencySummary) =>
    status(summary.p50_ms <= COMPOSE_SHAPE_TARGETS.p50Ms && summary.p95_ms <= COMPOSE_SHAPE_TARGETS.p95Ms);
  const rows = results.flatMap((result): string[][] => {
    const store = shapeStore(result);
    const shape = `**${result.shape}**`;
    const plain = (label: string, summary: LatencySummary, note: string) => [
      `${shape}: ${label}`,
      store,
      note,
      ms(summary.p50_ms),
      ms(summary.p95_ms),
      '—',
      '—',
    ];
    const checked = (label: string, summary: LatencySummary, note: string) => [
      `${shape}: ${label}`,
      store,
      note,
      ms(summary.p50_ms),
      ms(summary.p95_ms),
      target,
      pass(summary),
    ];
    const events = result.events_import;
    const items = result.items_import;
    return [
      [
        `${shape}: commitTurns, ${events.batch_size} turns/batch`,
        `0 → ${count(events.events)} events, ${count(result.sessions)} sessions`,
        `${count(events.events_per_s)} events/s (overall ${count(events.overall_events_per_s)})`,
        `${ms(events.batch_latency.p50_ms)}/batch`,
        `${ms(events.batch_latency.p95_ms)}/batch`,
        '—',
        '—',
      ],
      [
        `${shape}: storage.write, ${items.batch_items} items/batch (remember's ops)`,
        `+${count(items.items)} items (${count(result.counts.extracted_items)} more extracted by commitTurns)`,
        `${count(items.items_per_s)} items/s`,
        `${ms(items.batch_latency.p50_ms)}/batch`,
        `${ms(items.batch_latency.p95_ms)}/batch`,
        '—',
        '—',
      ],
      checked(
        'engram.compose, all requests, right after the import',
        result.compose_before_merge,
        `${result.compose_before_merge.samples} samples, store file as the import left it; memory probe ${result.memory_probe_before_merge_ms} ms`,
      ),
      [
        `${shape}: engram.maintenance.mergeIndexes until done (the worker's step)`,
        store,
        `${count(result.index_merge.steps)} steps, ${result.index_merge.seconds} s`,
        '—',
        '—',
        '—',
        '—',
      ],
      [
        `${shape}: store file read once into the OS page cache (for the rows below)`,
        store,
        `${result.page_cache_read_s} s`,
        '—',
        '—',
        '—',
        '—',
      ],
      checked(
        'engram.compose, all requests, indexes merged',
        result.compose,
        `${result.compose.samples} samples, ~${count(result.mean_packet_tokens)} tokens/packet; memory probe ${result.memory_probe_ms} ms`,
      ),
      checked(
        'engram.compose with cues.query',
        result.compose_with_query,
        `${result.compose_over_full_text_p50}× the raw full-text p50`,
      ),
      checked(
        'engram.compose without query',
        result.compose_without_query,
        `${result.compose_without_query.samples} samples`,
      ),
      plain(
        'compose, all requests, nothing kept between reads (keptSearchTerms 0, keptItems 0)',
        result.compose_nothing_kept,
        'same requests, a connection of its own',
      ),
      plain('compose, build not stored (persist: false)', result.compose_no_persist, 'same requests'),
      plain(
        'compose with cues.query, build not stored',
        result.compose_no_persist_with_query,
        `${result.compose_no_persist_with_query.samples} samples`,
      ),
      plain('put_context_build write alone', result.build_write, `~${result.mean_build_kib} KiB/build`),
      plain(
        'engram.builds.replay of a stored build (every tenth)',
        result.replay,
        `${result.replays_identical} of ${result.replay.samples} byte-identical`,
      ),
      plain(
        'storage.searchEvents (FTS5, no words kept), same terms',
        result.search_events,
        `${result.mean_event_hits} hits avg`,
      ),
      plain(
        'storage.searchItems (FTS5, no words kept), same terms',
        result.search_items,
        `${result.mean_item_hits} hits avg (limit 100)`,
      ),
      plain(
        'searchEvents + searchItems, per query',
        result.full_text_total,
        `${result.full_text_total.samples} queries`,
      ),
      plain(
        'storage.listItems ×2–3 of compose (always, procedures, episodes)',
        result.item_lists,
        `${result.mean_listed_items} items read avg`,
      ),
    ];
  });
  return table(['measurement', 'store', 'result (median)', 'p50', 'p95', 'target', 'status'], rows);
}
