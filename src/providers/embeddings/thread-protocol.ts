// The messages between the local model's thread and the process that owns it, and how an error
// crosses between them: as its code, message and field, made an EngramError again on arrival (a
// structured clone keeps neither the class nor the code).

import { EngramError, type EngramErrorCode } from '../../spec/errors.js';
import type { EmbeddingPriority } from '../../spec/providers.js';
import type { UseLitePackages } from './use-lite-loader.js';

/**
 * What the thread is started with.
 *
 * @example
 * { packages: DEFAULT_USE_LITE_PACKAGES, passTokens: 256 }
 */
export interface ThreadData {
  packages: UseLitePackages;
  /** Most tokens one forward pass holds: texts × the longest text's tokens (the model pads to it). */
  passTokens: number;
}

/**
 * A message to the thread: texts to embed in a lane, or a call whose caller stopped waiting.
 *
 * @example
 * { type: 'embed', id: 7, lane: 'background', texts: ['hello'] }
 */
export type ToThread =
  { type: 'embed'; id: number; lane: EmbeddingPriority; texts: string[] } | { type: 'cancel'; id: number };

/**
 * An error as it crosses the thread boundary.
 *
 * @example
 * { code: 'CONFIG_INVALID', message: 'local embeddings need the npm packages …', field: 'embeddings' }
 */
export interface WireError {
  code: EngramErrorCode;
  message: string;
  field?: string;
  /** The message of the underlying error, when there was one. */
  cause?: string;
}

/**
 * A message from the thread: the model loaded (or could not be), or a call's unit vectors (or why not).
 *
 * @example
 * { type: 'done', id: 7, vectors: [new Float32Array(512)] }
 */
export type FromThread =
  | { type: 'ready' }
  | { type: 'load-failed'; error: WireError }
  | { type: 'done'; id: number; vectors: Float32Array[] }
  | { type: 'failed'; id: number; error: WireError };

function messageOf(value: unknown): string {
  return value instanceof Error ? value.message : String(value);
}

/**
 * An error as the thread sends it: an EngramError keeps its code and field, anything else is INTERNAL.
 *
 * @example
 * toWire(new Error('out of memory')) // { code: 'INTERNAL', message: 'the local embedding model failed: out of memory', field: 'embeddings' }
 */
export function toWire(error: unknown): WireError {
  if (EngramError.isInstance(error)) {
    const cause = (error as { cause?: unknown }).cause;
    return {
      code: error.code,
      message: error.message,
      ...(error.field === undefined ? {} : { field: error.field }),
      ...(cause === undefined ? {} : { cause: messageOf(cause) }),
    };
  }
  return { code: 'INTERNAL', message: `the local embedding model failed: ${messageOf(error)}`, field: 'embeddings' };
}

/**
 * The EngramError a wire error stands for.
 *
 * @example
 * throw fromWire(message.error);
 */
export function fromWire(wire: WireError): EngramError {
  return new EngramError(wire.code, wire.message, {
    ...(wire.field === undefined ? {} : { field: wire.field }),
    // The original error lived on the other thread; its message is what is left of it.
    ...(wire.cause === undefined ? {} : { cause: new Error(wire.cause) }),
  });
}
