// The default, offline embedding model: a static table distilled from the Universal Sentence
// Encoder lite (scripts/distill-embeddings.ts), shipped in the package as models/*.bin. A text's
// vector is the normalised sum of its SentencePiece tokens' rows: no TensorFlow.js, no thread, a
// few microseconds per text, so it runs on the calling thread.

import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

import { EngramError } from '../../spec/errors.js';
import type { EmbeddingModel } from '../../spec/providers.js';
import { normalise } from '../../util/vectors.js';
import { checkCall, positiveInteger } from './call-checks.js';
import { PieceTokenizer } from './piece-tokenizer.js';
import { readStaticTable, type StaticTable } from './static-table.js';

/** The id stored with every vector of this model (`vector_model`), never that of the transformer it came from. */
export const USE_LITE_STATIC_MODEL_ID = 'use-lite-static-v3';

/** Dimensions of the shipped table: the model's 512 outputs reduced by PCA to 256. */
export const USE_LITE_STATIC_DIMENSIONS = 256;

/** The table shipped in the package, at the same place relative to src/ and dist/. */
export const USE_LITE_STATIC_TABLE = new URL(`../../../models/${USE_LITE_STATIC_MODEL_ID}.bin`, import.meta.url);

/**
 * Characters of a text that are read: a vector is a mean, so beyond this a text adds cost and
 * little meaning. It bounds one text to about 2 ms of the calling thread.
 */
export const STATIC_MAX_CHARS = 8_192;

/** Longest run of work on the calling thread inside one call before it lets other callbacks run. */
const YIELD_AFTER_MS = 2;

/**
 * Options of {@link createLocalStaticEmbeddings}.
 *
 * @example
 * createLocalStaticEmbeddings({ maxBatchSize: 64 })
 */
export interface LocalStaticOptions {
  /** Most texts per doEmbed call. Default 32. */
  maxBatchSize?: number;
  /** Where the table is read from (a bundler that moves it); default the table shipped in the package. */
  table?: string | URL;
}

/** A loaded table with its tokenizer: turns one text into its unit vector. */
class StaticEncoder {
  private readonly tokenizer: PieceTokenizer;

  constructor(private readonly table: StaticTable) {
    this.tokenizer = new PieceTokenizer(table.pieces, table.scores);
  }

  embed(text: string): Float32Array {
    const { dimensions, rows, scales } = this.table;
    // Float64 sums: measured faster than float32 ones here (no rounding on every store).
    const sum = new Float64Array(dimensions);
    for (const id of this.tokenizer.encode(prepare(text))) {
      const scale = scales[id]!;
      if (scale === 0) continue;
      const base = id * dimensions;
      for (let index = 0; index < dimensions; index += 1) sum[index]! += rows[base + index]! * scale;
    }
    return normalise(sum);
  }
}

/**
 * The text the tokenizer reads: its first {@link STATIC_MAX_CHARS} characters, each run of white
 * space one space (a line break would otherwise become an unknown piece and change the next word's
 * pieces), without leading or trailing space.
 */
function prepare(text: string): string {
  return text.slice(0, STATIC_MAX_CHARS).replace(/\s+/gu, ' ').trim();
}

/** Tables by file, loaded once per process: every Engram of the process shares one. */
const loaded = new Map<string, StaticEncoder>();

function loadEncoder(location: string | URL): StaticEncoder {
  const path = typeof location === 'string' ? location : fileURLToPath(location);
  let encoder = loaded.get(path);
  if (encoder !== undefined) return encoder;
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(path);
  } catch (cause) {
    throw new EngramError(
      'CONFIG_INVALID',
      `the static embedding table ${path} cannot be read; reinstall the package or rebuild the table (npm run distill:embeddings)`,
      {
        field: 'embeddings',
        cause,
      },
    );
  }
  const table = readStaticTable(bytes, path);
  if (table.modelId !== USE_LITE_STATIC_MODEL_ID || table.dimensions !== USE_LITE_STATIC_DIMENSIONS) {
    throw new EngramError(
      'CONFIG_INVALID',
      `the static embedding table ${path} holds ${table.modelId} (${table.dimensions}-d), not ${USE_LITE_STATIC_MODEL_ID} (${USE_LITE_STATIC_DIMENSIONS}-d)`,
      {
        field: 'embeddings',
      },
    );
  }
  encoder = new StaticEncoder(table);
  loaded.set(path, encoder);
  return encoder;
}

/**
 * The local static model: 256 dimensions, no network, no thread. Its table (2 MiB) is read on
 * the first call (about 40 ms) and shared by the process. A query costs about 0.04 ms and a
 * 1,000-character turn about 0.4 ms, so calls are answered on the calling thread (a batch gives the
 * event loop back every 2 ms) and `priority` changes nothing. It reads up to 8,192 characters of a
 * text. After `close()` calls fail, as with every local model.
 *
 * @example
 * const model = createLocalStaticEmbeddings();
 * const [vector] = await embedTexts(model, ['I prefer tea in the morning']);
 */
export function createLocalStaticEmbeddings(
  options: LocalStaticOptions = {},
): EmbeddingModel & { close(): Promise<void> } {
  const maxBatchSize = positiveInteger(options.maxBatchSize, 32, 'maxBatchSize');
  const table = options.table ?? USE_LITE_STATIC_TABLE;
  let closed = false;
  return {
    specificationVersion: 'v1',
    provider: 'local',
    modelId: USE_LITE_STATIC_MODEL_ID,
    dimensions: USE_LITE_STATIC_DIMENSIONS,
    maxBatchSize,
    remote: false,
    async doEmbed({ values, signal, priority }) {
      // As every local model: calls after close() fail (the shared table stays for other models).
      if (closed) throw new EngramError('CONFIG_INVALID', 'this embedding model is closed', { field: 'embeddings' });
      checkCall(values, priority, maxBatchSize);
      signal?.throwIfAborted();
      const encoder = loadEncoder(table);
      const embeddings: Float32Array[] = [];
      let since = performance.now();
      for (const text of values) {
        embeddings.push(encoder.embed(text));
        // A batch of long texts takes ~10 ms: give the event loop back between texts every 2 ms.
        if (performance.now() - since < YIELD_AFTER_MS) continue;
        await new Promise((resolve) => setImmediate(resolve));
        signal?.throwIfAborted();
        since = performance.now();
      }
      return { embeddings };
    },
    close() {
      closed = true;
      return Promise.resolve();
    },
  };
}
