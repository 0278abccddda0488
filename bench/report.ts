// Turns benchmark results into the Markdown table printed to stdout (with the targets and
// PASS/MISS per row) and the JSON written to bench/results/core.json.

import { execFileSync } from 'node:child_process';
import { cpus, totalmem } from 'node:os';

import type { ComposeResult } from './read-bench.js';
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
  machine: { cpu: string; cores: number; memory_gib: number; node: string; platform: string };
  targets: typeof TARGETS;
  single_turns: SingleTurnResult[];
  batch_import: BatchImportResult;
  compose: ComposeResult[];
}

/** The short commit, or a note that there is none. */
export function currentCommit(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return 'uncommitted working tree';
  }
}

export function machine(): CoreResults['machine'] {
  return {
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    memory_gib: Math.round(totalmem() / 1024 ** 3),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
  };
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

type Row = [measurement: string, store: string, result: string, p50: string, p95: string, target: string, status: string];

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
    latencyRow('compose, all requests', result.compose, `${result.compose.samples} samples, ~${count(result.mean_packet_tokens)} tokens/packet`),
    latencyRow('compose with cues.query', result.compose_with_query, `${result.compose_over_search_p50}× the FTS p50`),
    latencyRow('compose without query', result.compose_without_query, `${result.compose_without_query.samples} samples`),
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
