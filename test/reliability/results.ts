// The figures the reliability tests measure, written as JSON under reliability-results/ (gitignored)
// for `npm run reliability` to turn into RELIABILITY.md. One file per part (and per long run of a
// part); a later run of the same form replaces it.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const RESULTS_FOLDER = join(import.meta.dirname, '..', '..', 'reliability-results');

/** How many hostile cases a boundary saw, and how it answered them. */
export interface BoundaryTally {
  cases: number;
  accepted: number;
  rejected: number;
  /** Rejections by error code. */
  codes: Record<string, number>;
}

/** A tally with nothing counted yet. */
export function emptyTally(): BoundaryTally {
  return { cases: 0, accepted: 0, rejected: 0, codes: {} };
}

/**
 * Writes one part's figures (with the time and whether the long form ran) to reliability-results/<part>.json.
 *
 * @example
 * recordOutcome('library', { commitTurn: { cases: 40, accepted: 3, rejected: 37 } });
 */
export function recordOutcome(part: string, figures: unknown): void {
  mkdirSync(RESULTS_FOLDER, { recursive: true });
  const long = process.env['ENGRAM_RELIABILITY_LONG'] === '1';
  const record = { part, recorded_at: new Date().toISOString(), long, figures };
  // A long run's figures stay beside the quick ones: the next quick run (CI) does not replace them.
  writeFileSync(
    join(RESULTS_FOLDER, long ? `${part}.long.json` : `${part}.json`),
    `${JSON.stringify(record, null, 2)}\n`,
  );
}
