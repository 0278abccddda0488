// Writes recomputed when another writer got there first: how often, and the pause between tries.
// Writers of one busy session on several servers can lose a few races in a row, so retries back
// off: a random pause of up to 2, 4, 8 … ms (at most 100).

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
