// Small measurement helpers: a monotonic timer, percentiles from sorted samples, and a summary of
// a list of latencies. Nothing here knows about Engram.

import { performance } from 'node:perf_hooks';

/** Milliseconds since an arbitrary origin, sub-millisecond resolution. */
export function nowMs(): number {
  return performance.now();
}

/**
 * The p-th percentile (0–100) of ascending samples, nearest-rank: the smallest sample with at
 * least p% of the samples at or below it.
 */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

/** Median, p95, mean and count of a set of latencies in milliseconds. */
export interface LatencySummary {
  samples: number;
  p50_ms: number;
  p95_ms: number;
  mean_ms: number;
  max_ms: number;
}

export function summarize(samples: readonly number[]): LatencySummary {
  const sorted = [...samples].sort((a, b) => a - b);
  const total = sorted.reduce((sum, value) => sum + value, 0);
  return {
    samples: sorted.length,
    p50_ms: round(percentile(sorted, 50), 3),
    p95_ms: round(percentile(sorted, 95), 3),
    mean_ms: round(sorted.length === 0 ? Number.NaN : total / sorted.length, 3),
    max_ms: round(sorted.at(-1) ?? Number.NaN, 3),
  };
}

/** The median of a list of numbers (rates, for example). */
export function median(values: readonly number[]): number {
  return percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
}

export function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

/** Runs `body`, adds its wall time in ms to `into`, and returns its result. */
export async function timed<T>(body: () => Promise<T>, into: number[]): Promise<T> {
  const start = nowMs();
  const result = await body();
  into.push(nowMs() - start);
  return result;
}

const PROBE_SLOTS = 1 << 22; // 32 MiB of doubles: far more than the caches hold
const PROBE_READS = 2_000_000;
let probeArray: Float64Array | undefined;

/**
 * Milliseconds for 2M dependent-free random reads over 32 MiB: how fast this machine's memory
 * answers right now. Compose is bound by memory latency (index pages, the tokenizer's vocabulary),
 * and on shared virtual machines this figure moves by 2× within seconds; a benchmark takes it
 * between its samples so its latencies can be read against it.
 *
 * @example
 * const ms = memoryProbeMs(); // about 30 on a quiet run here, about 60 on a busy one
 */
export function memoryProbeMs(): number {
  probeArray ??= Float64Array.from({ length: PROBE_SLOTS }, (_, index) => index);
  const start = nowMs();
  let slot = 12_345;
  let sum = 0;
  for (let read = 0; read < PROBE_READS; read += 1) {
    slot = (Math.imul(slot, 1_103_515_245) + 12_345) & (PROBE_SLOTS - 1);
    sum += probeArray[slot]!;
  }
  const elapsed = nowMs() - start;
  // The sum is used, so the reads cannot be optimised away.
  return sum < 0 ? Number.NaN : round(elapsed, 1);
}
