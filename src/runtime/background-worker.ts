// The background worker of a service process (and of `engram worker`): runs queued jobs
// (reflections of ended runs), embeds what waits for a vector and purges expired events, tick by tick. Stopping waits for the tick in flight, so work it
// claimed is finished; work claimed by a process that died is claimed again when its lease ends.

import type { Engram } from './engram.js';

export interface BackgroundWorkerOptions {
  /** Milliseconds between embedding ticks (default 1,000). */
  intervalMs?: number;
  /** Texts embedded per tick at most (default 256). */
  batch?: number;
  /** Milliseconds between expiry purges (default 60,000; 0 turns them off). */
  purgeEveryMs?: number;
  /** Called with the error of a tick; the next tick tries again. */
  onError?: (error: unknown, task: 'embeddings' | 'purge' | 'jobs') => void;
  /** Called after a tick that did something. */
  onTick?: (report: { embedded: number; skipped: number; purged: number; jobs: number }) => void;
}

export interface BackgroundWorker {
  /** Stops after the tick in flight; resolves when it has finished. */
  stop(): Promise<void>;
  /** What the worker has done since it started. */
  readonly totals: { embedded: number; skipped: number; purged: number; jobs: number; errors: number };
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
  const totals = { embedded: 0, skipped: 0, purged: 0, jobs: 0, errors: 0 };
  let stopping = false;
  let lastPurge = Date.now();
  let inFlight: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;

  async function tick(): Promise<void> {
    const report = { embedded: 0, skipped: 0, purged: 0, jobs: 0 };
    try {
      const jobs = await engram.runJobs();
      report.jobs = jobs.done + jobs.failed;
    } catch (error) {
      totals.errors += 1;
      options.onError?.(error, 'jobs');
    }
    try {
      const run = await engram.runEmbeddings(options.batch ?? 256);
      report.embedded = run.embedded;
      report.skipped = run.skipped;
    } catch (error) {
      totals.errors += 1;
      options.onError?.(error, 'embeddings');
    }
    if (purgeEveryMs > 0 && Date.now() - lastPurge >= purgeEveryMs) {
      lastPurge = Date.now();
      try {
        report.purged = await engram.purgeExpired();
      } catch (error) {
        totals.errors += 1;
        options.onError?.(error, 'purge');
      }
    }
    totals.embedded += report.embedded;
    totals.skipped += report.skipped;
    totals.purged += report.purged;
    totals.jobs += report.jobs;
    if (report.embedded + report.skipped + report.purged + report.jobs > 0) options.onTick?.(report);
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
