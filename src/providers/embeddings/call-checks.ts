// The checks every local embedding model makes on its options and on each doEmbed call, so a bad
// option or call fails the same way (CONFIG_INVALID, ValidationError) whichever model runs.

import { EngramError, ValidationError } from '../../spec/errors.js';
import type { EmbeddingPriority } from '../../spec/providers.js';

const LANES: readonly EmbeddingPriority[] = ['interactive', 'background'];

/**
 * `value`, or `fallback` when it is undefined; throws CONFIG_INVALID naming `embeddings.<option>`
 * unless the result is a positive integer.
 *
 * @example
 * positiveInteger(options.maxBatchSize, 32, 'maxBatchSize') // 32
 */
export function positiveInteger(value: number | undefined, fallback: number, option: string): number {
  const resolved = value ?? fallback;
  if (!Number.isInteger(resolved) || resolved < 1) {
    throw new EngramError(
      'CONFIG_INVALID',
      `embeddings.${option} must be a positive integer, got ${String(resolved)}`,
      { field: `embeddings.${option}` },
    );
  }
  return resolved;
}

/**
 * Throws a ValidationError unless the call is a list of at most `maxBatchSize` strings and a known priority.
 *
 * @example
 * checkCall(['hello'], 'background', 32) // passes
 */
export function checkCall(values: unknown, priority: unknown, maxBatchSize: number): asserts values is string[] {
  if (!Array.isArray(values))
    throw new ValidationError([{ field: 'values', rule: 'type', message: 'must be an array of strings' }]);
  if (values.length > maxBatchSize) {
    throw new ValidationError([
      {
        field: 'values',
        rule: 'maxItems',
        message: `holds ${values.length} texts; this model takes at most ${maxBatchSize} a call (embedTexts batches)`,
      },
    ]);
  }
  const bad = values.findIndex((value) => typeof value !== 'string');
  if (bad >= 0) throw new ValidationError([{ field: `values[${bad}]`, rule: 'type', message: 'must be a string' }]);
  if (priority !== undefined && !LANES.includes(priority as EmbeddingPriority)) {
    throw new ValidationError([{ field: 'priority', rule: 'enum', message: `must be one of ${LANES.join(', ')}` }]);
  }
}
