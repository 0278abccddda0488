// The process's side of the local model's thread: starts it on first use, hands it calls through
// two bounded lanes (interactive, background), turns its answers and failures into resolved
// vectors or EngramErrors, starts a new thread on the next call after one died, and stops it on
// close. The thread keeps the process alive only while a call waits on it.

import { Worker } from 'node:worker_threads';

import { EngramError } from '../../spec/errors.js';
import type { EmbeddingPriority } from '../../spec/providers.js';
import { BoundedLane } from './bounded-lane.js';
import { fromWire, type FromThread, type ThreadData, type ToThread } from './thread-protocol.js';

/**
 * How the thread is run and how much may wait for it.
 *
 * @example
 * { thread: { packages: DEFAULT_USE_LITE_PACKAGES, passTokens: 256 }, maxPending: 4, queueTimeoutMs: 30_000 }
 */
export interface ModelThreadOptions {
  thread: ThreadData;
  /** Calls of one lane inside the thread at once; later ones wait in the lane. */
  maxPending: number;
  /** Longest wait for a place in a lane before the call is refused. */
  queueTimeoutMs: number;
}

interface PendingCall {
  worker: Worker;
  resolve(vectors: Float32Array[]): void;
  reject(error: unknown): void;
}

/**
 * The module the thread runs: the built JavaScript file, or, when this file is TypeScript (tests,
 * tsx), a small module that registers tsx in the thread first and then imports the TypeScript one.
 */
function threadScript(): URL {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return new URL('./use-lite-thread.js', here);
  const entry = JSON.stringify(new URL('./use-lite-thread.ts', here).href);
  let register = '';
  try {
    register = `const tsx = await import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}); tsx.register();`;
  } catch {
    // No tsx: the import below fails, and the first call says why.
  }
  return new URL(`data:text/javascript,${encodeURIComponent(`${register} await import(${entry});`)}`);
}

function closedError(): EngramError {
  return new EngramError('CONFIG_INVALID', 'this embedding model is closed', { field: 'embeddings' });
}

function stoppedError(cause: unknown, code: number): EngramError {
  const reason = cause instanceof Error ? cause.message : `exit code ${code}`;
  return new EngramError(
    'INTERNAL',
    `the local embedding model's thread stopped (${reason}); the next call starts it again`,
    {
      field: 'embeddings',
      ...(cause === undefined ? {} : { cause }),
    },
  );
}

/**
 * The local model's thread as seen from the process that owns it.
 *
 * @example
 * const thread = new ModelThread({ thread: { packages, passTokens: 256 }, maxPending: 4, queueTimeoutMs: 30_000 });
 * const vectors = await thread.embed(['hello'], 'interactive');
 * await thread.close();
 */
export class ModelThread {
  private worker: Worker | undefined;
  private ready: Promise<Worker> | undefined;
  private readonly calls = new Map<number, PendingCall>();
  private readonly lanes: Record<EmbeddingPriority, BoundedLane>;
  private nextId = 1;
  /** Calls past their lane's door: while any, the thread keeps the process alive. */
  private busy = 0;
  private closed = false;

  constructor(private readonly options: ModelThreadOptions) {
    this.lanes = {
      interactive: new BoundedLane('interactive', options.maxPending, options.queueTimeoutMs),
      background: new BoundedLane('background', options.maxPending, options.queueTimeoutMs),
    };
  }

  /** Unit vectors of `texts`, in order, computed on the thread. */
  async embed(texts: string[], lane: EmbeddingPriority, signal?: AbortSignal): Promise<Float32Array[]> {
    this.ensureOpen();
    const leave = await this.lanes[lane].enter(signal);
    this.hold(1);
    try {
      this.ensureOpen();
      const worker = await this.started();
      signal?.throwIfAborted();
      return await this.call(worker, lane, texts, signal);
    } finally {
      this.hold(-1);
      leave();
    }
  }

  /** Stops the thread; calls in it fail, later calls are refused. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const worker = this.worker;
    this.worker = undefined;
    this.ready = undefined;
    const error = closedError();
    for (const [id, call] of this.calls) {
      this.calls.delete(id);
      call.reject(error);
    }
    await worker?.terminate();
  }

  private ensureOpen(): void {
    if (this.closed) throw closedError();
  }

  private hold(change: number): void {
    this.busy += change;
    if (this.busy > 0) this.worker?.ref();
    else this.worker?.unref();
  }

  private call(
    worker: Worker,
    lane: EmbeddingPriority,
    texts: string[],
    signal: AbortSignal | undefined,
  ): Promise<Float32Array[]> {
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      const onAbort = () => {
        if (!this.calls.delete(id)) return;
        worker.postMessage({ type: 'cancel', id } satisfies ToThread);
        reject(signal?.reason);
      };
      const settled = () => signal?.removeEventListener('abort', onAbort);
      this.calls.set(id, {
        worker,
        resolve: (vectors) => {
          settled();
          resolve(vectors);
        },
        reject: (error) => {
          settled();
          reject(error);
        },
      });
      signal?.addEventListener('abort', onAbort, { once: true });
      worker.postMessage({ type: 'embed', id, lane, texts } satisfies ToThread);
    });
  }

  /** The running thread with its model loaded, started when there is none. */
  private started(): Promise<Worker> {
    this.ready ??= this.start().catch((error: unknown) => {
      this.ready = undefined;
      throw error;
    });
    return this.ready;
  }

  private start(): Promise<Worker> {
    return new Promise((resolve, reject) => {
      // None of the process's Node options: the thread needs none, and some break it (a parent run
      // with --input-type=module cannot start a thread from a file).
      const worker = new Worker(threadScript(), { workerData: this.options.thread, execArgv: [] });
      this.worker = worker;
      let failure: unknown;
      worker.on('message', (message: FromThread) => {
        if (message.type === 'ready') resolve(worker);
        else if (message.type === 'load-failed') {
          reject(fromWire(message.error));
          // A new thread on the next call imports the packages afresh (an install may have fixed them).
          void worker.terminate();
        } else this.settle(message);
      });
      worker.on('error', (error) => {
        failure = error;
      });
      worker.on('exit', (code) => {
        const error = this.closed ? closedError() : stoppedError(failure, code);
        reject(error);
        if (this.worker === worker) {
          this.worker = undefined;
          this.ready = undefined;
        }
        for (const [id, call] of this.calls) {
          if (call.worker !== worker) continue;
          this.calls.delete(id);
          call.reject(error);
        }
      });
      // After the listeners: adding one references the thread's port again.
      this.hold(0);
    });
  }

  private settle(message: Extract<FromThread, { id: number }>): void {
    const call = this.calls.get(message.id);
    if (call === undefined) return; // Its caller stopped waiting.
    this.calls.delete(message.id);
    if (message.type === 'done') call.resolve(message.vectors);
    else call.reject(fromWire(message.error));
  }
}
