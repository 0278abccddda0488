// The background worker of a service process (and of `engram worker`): runs queued jobs
// (reflections of ended runs, the LLM's extraction of committed turns), embeds what waits for a
// vector, purges expired events and merges the full-text indexes a step, tick by tick. Stopping waits for the tick in flight, so work it claimed
// is finished; work claimed by a process that died is claimed again when its lease ends.

import { requireCount } from './arguments.js';
import type { Engram } from './engram.js';
import { DEFAULT_MERGE_PAGES } from './maintenance-api.js';

export interface BackgroundWorkerOptions {
  /** Milliseconds between embedding ticks (default 1,000). */
  intervalMs?: number;
  /** Texts embedded per tick at most (default 256). */
  batch?: number;
  /** Milliseconds between expiry purges (default 60,000; 0 turns them off). */
  purgeEveryMs?: number;
  /**
   * Pages of full-text index merging per tick (default DEFAULT_MERGE_PAGES, a few milliseconds of
   * work on SQLite; 0 turns it off). A step runs only in a tick that found nothing else to do.
   */
  mergePages?: number;
  /** Called with the error of a tick; the next tick tries again. */
  onError?: (error: unknown, task: 'embeddings' | 'purge' | 'jobs' | 'indexes') => void;
  /** Called after a tick that did something. */
  onTick?: (report: TickReport) => void;
}

/** What one tick did: jobs run, texts embedded or skipped, events purged, index merge steps that did work. */
export interface TickReport {
  embedded: number;
  skipped: number;
  purged: number;
  jobs: number;
  merged: number;
}

export interface BackgroundWorker {
  /** Stops after the tick in flight; resolves when it has finished. */
  stop(): Promise<void>;
  /** What the worker has done since it started. */
  readonly totals: TickReport & { errors: number };
}

/**
 * Starts the worker on an Engram.
 *
 * @example
 * const worker = startBackgroundWorker(engram, { intervalMs: 500 });
 * process.on('SIGTERM', () => void worker.stop().then(() => engram.close()));
 */
export function startBackgroundWorker(engram: Engram, options: BackgroundWorkerOptions = {}): BackgroundWorker {
  const intervalMs = options.intervalMs ?? 1000;
  const purgeEveryMs = options.purgeEveryMs ?? 60_000;
  const mergePages = options.mergePages ?? DEFAULT_MERGE_PAGES;
  // Checked now: a bad size would otherwise fail every quiet tick.
  requireCount(mergePages, 'mergePages', 0, 100_000);
  const totals = { embedded: 0, skipped: 0, purged: 0, jobs: 0, merged: 0, errors: 0 };
  let stopping = false;
  let lastPurge = Date.now();
  let inFlight: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;

  async function tick(): Promise<void> {
    const report: TickReport = { embedded: 0, skipped: 0, purged: 0, jobs: 0, merged: 0 };
    try {
      const jobs = await engram.maintenance.runJobs();
      report.jobs = jobs.done + jobs.failed;
    } catch (error) {
      totals.errors += 1;
      options.onError?.(error, 'jobs');
    }
    try {
      const run = await engram.maintenance.runEmbeddings(options.batch ?? 256);
      report.embedded = run.embedded;
      report.skipped = run.skipped;
    } catch (error) {
      totals.errors += 1;
      options.onError?.(error, 'embeddings');
    }
    if (purgeEveryMs > 0 && Date.now() - lastPurge >= purgeEveryMs) {
      lastPurge = Date.now();
      try {
        report.purged = await engram.maintenance.purgeExpired();
      } catch (error) {
        totals.errors += 1;
        options.onError?.(error, 'purge');
      }
    }
    // Index upkeep waits for a quiet tick: it is never more urgent than the work above.
    if (mergePages > 0 && report.embedded + report.skipped + report.purged + report.jobs === 0) {
      try {
        if (await engram.maintenance.mergeIndexes(mergePages)) report.merged = 1;
      } catch (error) {
        totals.errors += 1;
        options.onError?.(error, 'indexes');
      }
    }
    totals.embedded += report.embedded;
    totals.skipped += report.skipped;
    totals.purged += report.purged;
    totals.jobs += report.jobs;
    totals.merged += report.merged;
    if (report.embedded + report.skipped + report.purged + report.jobs + report.merged > 0) options.onTick?.(report);
  }

  function schedule(): void {
    if (stopping) return;
    timer = setTimeout(() => {
      inFlight = tick().finally(schedule);
    }, intervalMs);
    timer.unref();
  }
  schedule();

  return {
    totals,
    async stop() {
      stopping = true;
      if (timer !== undefined) clearTimeout(timer);
      await inFlight;
    },
  };
}
