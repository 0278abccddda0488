// Admission to one lane of the local model's queue: at most `capacity` calls are inside (handed to
// the model's thread) at once; later callers wait their turn in order and hold no place in the
// thread meanwhile, and give up with a typed error when their deadline passes or their signal aborts.

import { EngramError } from '../../spec/errors.js';

interface Waiter {
  admit(): void;
}

/**
 * A lane with a bounded number of calls inside.
 *
 * @example
 * const leave = await lane.enter(signal);
 * try { await work(); } finally { leave(); }
 */
export class BoundedLane {
  private inside = 0;
  private readonly waiting: Waiter[] = [];

  /**
   * @param name the lane, for errors (`interactive`, `background`)
   * @param capacity calls inside at once
   * @param timeoutMs longest wait to get in before the caller is refused
   */
  constructor(
    readonly name: string,
    private readonly capacity: number,
    private readonly timeoutMs: number,
  ) {}

  /** Callers waiting to get in. */
  get queued(): number {
    return this.waiting.length;
  }

  /** Resolves with the function that leaves the lane once the caller is in; rejects on the deadline or an abort. */
  enter(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted === true) return Promise.reject(signal.reason);
    if (this.inside < this.capacity && this.waiting.length === 0) {
      this.inside += 1;
      return Promise.resolve(this.leaver());
    }
    return new Promise((resolve, reject) => {
      const started = Date.now();
      const waiter: Waiter = {
        admit: () => {
          stopWaiting();
          resolve(this.leaver());
        },
      };
      const giveUp = (error: unknown) => {
        const index = this.waiting.indexOf(waiter);
        if (index >= 0) this.waiting.splice(index, 1);
        stopWaiting();
        reject(error);
      };
      const timer = setTimeout(() => giveUp(this.refusal(Date.now() - started)), this.timeoutMs);
      const onAbort = () => giveUp(signal?.reason);
      const stopWaiting = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(waiter);
    });
  }

  /** Leaves once (a second call does nothing): the next waiter takes the place, or it frees. */
  private leaver(): () => void {
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const next = this.waiting.shift();
      if (next === undefined) this.inside -= 1;
      else next.admit();
    };
  }

  private refusal(waitedMs: number): EngramError {
    return new EngramError(
      'OVERLOADED',
      `the local embedding model's ${this.name} queue stayed full for ${waitedMs} ms (${this.capacity} calls in the model, ${this.waiting.length} waiting): try again later`,
      { field: 'embeddings', details: { reason: 'queue_full', lane: this.name, waited_ms: waitedMs } },
    );
  }
}
