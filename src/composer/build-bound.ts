// The size bound of a stored context build. Every compose stores one, so this bounds what a caller
// with a read key makes Engram write per call: the request's shape is bounded by its schema (closed
// cues, each field size-limited), the packet by its budget, and their stored sum by MAX_BUILD_BYTES.

import { ValidationError } from '../spec/errors.js';

/** The most a stored context build may hold: 8 MiB of UTF-8 JSON, its request and packet together. */
export const MAX_BUILD_BYTES = 8 * 1024 * 1024;

/**
 * The UTF-8 bytes a build's request and packet take as stored JSON.
 *
 * @example
 * buildBytes(JSON.stringify(packet), { scope, purpose: 'responder' }) // 41_207
 */
export function buildBytes(packetJson: string, request: unknown): number {
  // JSON.stringify gives undefined for undefined (an import record without a request).
  const requestJson: string | undefined = JSON.stringify(request);
  return Buffer.byteLength(packetJson) + Buffer.byteLength(requestJson ?? '');
}

/**
 * Refuses a compose whose build would store more than MAX_BUILD_BYTES (VALIDATION_FAILED on
 * `budget.max_tokens`, rule `max_build_bytes`): a smaller budget makes a smaller packet.
 *
 * @example
 * assertBuildBound(json, { ...request, resolved_policy: policy });
 */
export function assertBuildBound(packetJson: string, request: unknown): void {
  const bytes = buildBytes(packetJson, request);
  if (bytes <= MAX_BUILD_BYTES) return;
  throw ValidationError.of(
    'budget.max_tokens',
    'max_build_bytes',
    `the context build of this packet would store ${bytes} bytes, more than the ${MAX_BUILD_BYTES} (8 MiB) a build may hold: ask for a smaller budget`,
  );
}
