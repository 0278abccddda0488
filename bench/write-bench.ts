// The write path: commit_turn one turn at a time (per durability setting) and batched imports
// through commitTurns. Turn text is generated before the clock starts; only Engram is timed.

import type { CommitTurnRequest, Engram } from '../src/index.js';
import { eventCount, planSessions, seededRandom, turnsOf } from './corpus.js';
import { median, nowMs, summarize, type LatencySummary } from './stats.js';
import { withBenchStore, type BenchStore } from './temp-store.js';

export interface SingleTurnOptions {
  warmupTurns: number;
  rounds: number;
  turnsPerRound: number;
  users: number;
  seed: number;
}

export interface SingleTurnResult {
  /** SQLite's durability setting, or `postgres`. */
  durability: BenchStore;
  rounds: number;
  turns_per_round: number;
  /** Turns and events committed per second in the median round (by turns/s). */
  turns_per_s: number;
  events_per_s: number;
  round_turns_per_s: number[];
  latency: LatencySummary;
}

/** The next `count` turns; fewer only when `partial` and the source runs out, never none. */
function takeTurns(source: Iterator<CommitTurnRequest>, count: number, partial = false): CommitTurnRequest[] {
  const out: CommitTurnRequest[] = [];
  for (let index = 0; index < count; index += 1) {
    const next = source.next();
    if (next.done === true) {
      if (partial && out.length > 0) break;
      throw new RangeError('the planned sessions ran out of turns; plan more sessions');
    }
    out.push(next.value);
  }
  return out;
}

/** Awaits `engram.commitTurn` once per turn, in rounds, on a fresh store (SQLite with this durability, or PostgreSQL). */
export async function benchSingleTurns(durability: BenchStore, options: SingleTurnOptions): Promise<SingleTurnResult> {
  return withBenchStore(durability, async (engram) => {
    const random = seededRandom(options.seed);
    const needed = options.warmupTurns + options.rounds * options.turnsPerRound;
    const source = turnsOf(planSessions(random, Math.ceil(needed / 40) + 1, options.users, 'w'), random);
    for (const turn of takeTurns(source, options.warmupTurns)) await engram.commitTurn(turn);

    const latencies: number[] = [];
    const turnRates: number[] = [];
    const eventRates: number[] = [];
    for (let round = 0; round < options.rounds; round += 1) {
      const turns = takeTurns(source, options.turnsPerRound);
      const events = turns.reduce((sum, turn) => sum + eventCount(turn), 0);
      const start = nowMs();
      for (const turn of turns) {
        const before = nowMs();
        await engram.commitTurn(turn);
        latencies.push(nowMs() - before);
      }
      const seconds = (nowMs() - start) / 1000;
      turnRates.push(turns.length / seconds);
      eventRates.push(events / seconds);
    }
    // Both rates of the median round, so turns/s and events/s describe the same round.
    const middle = turnRates.indexOf(median(turnRates));
    return {
      durability,
      rounds: options.rounds,
      turns_per_round: options.turnsPerRound,
      turns_per_s: Math.round(turnRates[middle]!),
      events_per_s: Math.round(eventRates[middle]!),
      round_turns_per_s: turnRates.map((rate) => Math.round(rate)),
      latency: summarize(latencies),
    };
  });
}

export interface BatchImportResult {
  batch_size: number;
  batches: number;
  turns: number;
  events: number;
  /** Median over batches of events written per second. */
  events_per_s: number;
  /** All events over all batch time. */
  overall_events_per_s: number;
  batch_latency: LatencySummary;
}

/**
 * Grows a store with `commitTurns` batches and keeps the timings: the benchmark of batched imports
 * and the way the read benchmark fills its store.
 */
export class BatchImporter {
  private readonly source: Iterator<CommitTurnRequest>;
  private readonly batchMs: number[] = [];
  private readonly batchRates: number[] = [];
  private turns = 0;
  private written = 0;

  constructor(
    private readonly engram: Engram,
    readonly batchSize: number,
    turns: Iterable<CommitTurnRequest>,
  ) {
    this.source = turns[Symbol.iterator]();
  }

  /** Events written so far. */
  get events(): number {
    return this.written;
  }

  /** Turns written so far. */
  get turnsWritten(): number {
    return this.turns;
  }

  /** Commits batches until the store holds at least `targetEvents` events. */
  async growTo(targetEvents: number): Promise<void> {
    while (this.written < targetEvents) {
      const batch = takeTurns(this.source, this.batchSize, true);
      const events = batch.reduce((sum, turn) => sum + eventCount(turn), 0);
      const start = nowMs();
      await this.engram.commitTurns(batch);
      const ms = nowMs() - start;
      this.batchMs.push(ms);
      this.batchRates.push(events / (ms / 1000));
      this.turns += batch.length;
      this.written += events;
    }
  }

  result(): BatchImportResult {
    const totalSeconds = this.batchMs.reduce((sum, ms) => sum + ms, 0) / 1000;
    return {
      batch_size: this.batchSize,
      batches: this.batchMs.length,
      turns: this.turns,
      events: this.written,
      events_per_s: Math.round(median(this.batchRates)),
      overall_events_per_s: Math.round(this.written / totalSeconds),
      batch_latency: summarize(this.batchMs),
    };
  }
}
