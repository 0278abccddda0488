// Writes recomputed when another writer got there first: how often, and the pause between tries.
// Writers of one busy session on several servers can lose a few races in a row, so retries back
// off: a random pause of up to 2, 4, 8 … ms (at most 100).

import { ConflictError } from '../spec/errors.js';
import type { StorageAdapter, WriteOp } from '../spec/storage.js';

/** How many times a write is planned again after losing a race. */
export const WRITE_RETRIES = 12;
const BACKOFF_CAP_MS = 100;

/**
 * Waits before the next try of a write that lost a race.
 *
 * @example
 * if (attempt > 0) await pauseBeforeRetry(attempt);
 */
export function pauseBeforeRetry(attempt: number): Promise<void> {
  const ms = Math.random() * Math.min(BACKOFF_CAP_MS, 2 ** (attempt + 1));
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Writes what `plan` returns, planning it again on top of what a concurrent writer changed (a
 * retryable conflict), after a pause, up to WRITE_RETRIES times; any other error, or a conflict
 * after the last retry, throws. Reflection, review decisions and extraction jobs write this way.
 *
 * @example
 * await writeWithRetry(storage, async () => [{ op: 'put_working_state', … }]);
 */
export async function writeWithRetry(storage: StorageAdapter, plan: () => Promise<WriteOp[]>): Promise<void> {
  for (let attempt = 0; ; attempt += 1) {
    const ops = await plan();
    try {
      await storage.write(ops);
      return;
    } catch (error) {
      if (!(ConflictError.isInstance(error) && error.isRetryable) || attempt >= WRITE_RETRIES) throw error;
      await pauseBeforeRetry(attempt);
    }
  }
}
