// WAL checkpoints off the request path. SQLite copies the write-ahead log back into the database
// file (a checkpoint) inside whichever commit makes the log pass `wal_autocheckpoint` pages: on a
// store that composes and commits all the time, one request in a few hundred waited 40–60 ms for
// it. A worker thread with a connection of its own runs PASSIVE checkpoints every tenth of a second
// instead, alongside the writers (a passive checkpoint takes no lock a writer waits on), so
// the log stays short and the committing connection's own checkpoint, kept as the backstop, finds
// little or nothing left to copy. It is started only once a store's log has grown to
// START_AFTER_WAL_PAGES: a store that writes little never needs the thread.

import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** A store's log this many pages long (a quarter of the auto-checkpoint) starts the thread. */
const START_AFTER_WAL_PAGES = 1000;

/** Milliseconds between the thread's checkpoints. */
const CHECKPOINT_EVERY_MS = 100;

/** Writes between two looks at the log's size, until the thread has started. */
const LOOK_EVERY_WRITES = 64;

// CommonJS run by the worker (eval), given the driver's resolved path: the package's own files are
// TypeScript in development and JavaScript once built, and this code is the same in both.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path, { fileMustExist: true });
db.pragma('busy_timeout = 5000');
db.pragma('synchronous = ' + workerData.synchronous);
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
const timer = setInterval(() => {
  try {
    checkpoint.run();
  } catch {
    // Busy or locked (another connection's checkpoint, VACUUM): the next tick tries again.
  }
}, workerData.everyMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

/**
 * The background checkpoints of one SQLite store file: call `wrote()` after each write
 * transaction (cheap: it looks at the log's size only every LOOK_EVERY_WRITES calls, and never
 * once started), and `stop()` before closing the store's own connection, so that connection is
 * the last and removes the log on close.
 *
 * @example
 * const checkpoints = new Checkpointer(path, 4096, 'FULL');
 * checkpoints.wrote(); // after a commit
 * await checkpoints.stop();
 */
export class Checkpointer {
  /** Whether the log has reached START_AFTER_WAL_PAGES (or the store closed): the thread runs, ran, or could not start. */
  private started = false;
  private worker: Worker | undefined;
  /** Settles when the thread has exited, however it ended. */
  private exited: Promise<void> = Promise.resolve();
  private writes = 0;

  constructor(
    private readonly path: string,
    private readonly pageSize: number,
    private readonly synchronous: 'FULL' | 'NORMAL',
  ) {}

  /** A write transaction has committed: starts the thread once the log is long enough. */
  wrote(): void {
    if (this.started) return;
    this.writes += 1;
    if (this.writes % LOOK_EVERY_WRITES !== 0) return;
    if (walBytes(this.path) < START_AFTER_WAL_PAGES * this.pageSize) return;
    this.started = true;
    try {
      this.start();
    } catch {
      // No thread here (a runtime that refuses them): the committing connection checkpoints as before.
    }
  }

  /** Stops the thread after its checkpoint in flight and closes its connection. */
  async stop(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    this.started = true;
    // Held until it exits: an unreferenced thread's exit alone would not keep the process waiting for it.
    worker?.ref();
    worker?.postMessage('stop');
    await this.exited;
  }

  private start(): void {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { driver, path: this.path, synchronous: this.synchronous, everyMs: CHECKPOINT_EVERY_MS },
    });
    this.exited = new Promise((resolve) => worker.once('exit', () => resolve()));
    // The thread never keeps the process alive; a checkpoint cut short by an exit is safe (the log stays authoritative).
    worker.unref();
    worker.on('error', () => {
      // Without the thread the committing connection checkpoints as before: slower tails, nothing lost.
      this.worker = undefined;
    });
    this.worker = worker;
  }
}

/** The size of a store's write-ahead log file in bytes (0 when there is none). */
function walBytes(path: string): number {
  try {
    return statSync(`${path}-wal`).size;
  } catch {
    return 0; // No log yet.
  }
}
