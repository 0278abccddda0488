// The default, offline embedding model: a static table distilled from the Universal Sentence
// Encoder lite (scripts/distill-embeddings.ts) with GloVe word vectors beside it
// (scripts/build-word-vectors.ts), both shipped in the package as models/*.bin. A text's vector is
// the normalised sum of its SentencePiece tokens' rows, joined to the weighted mean of its words'
// vectors (word-vectors.ts): no TensorFlow.js, no thread, a few microseconds per text, so it runs
// on the calling thread.

import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

import { EngramError } from '../../spec/errors.js';
import type { EmbeddingModel } from '../../spec/providers.js';
import { spacedShare } from '../../util/segment.js';
import { normalise } from '../../util/vectors.js';
import { checkCall, positiveInteger } from './call-checks.js';
import { PieceTokenizer } from './piece-tokenizer.js';
import { readStaticTable, type StaticTable } from './static-table.js';
import { WORD_VECTORS_DIMENSIONS, WORD_VECTORS_ID, WORD_VECTORS_TABLE, WordVectors } from './word-vectors.js';

/** The id of the piece table alone, a model of its own (`model: 'use-lite-static-v3'`), never that of the transformer it came from. */
export const USE_LITE_STATIC_MODEL_ID = 'use-lite-static-v3';

/** Dimensions of the shipped piece table: the model's 512 outputs reduced by PCA to 256. */
export const USE_LITE_STATIC_DIMENSIONS = 256;

/** The id stored with every vector of the default model (`vector_model`): the piece table and the word vectors. */
export const LOCAL_STATIC_MODEL_ID = 'use-lite-glove-static-v4';

/** Dimensions of the default model: the piece table's 256, then the word vectors' 100. */
export const LOCAL_STATIC_DIMENSIONS = USE_LITE_STATIC_DIMENSIONS + WORD_VECTORS_DIMENSIONS;

/** The static models: the default, and the piece table alone (the default before word vectors, for stores embedded with it). */
export type LocalStaticModelId = typeof LOCAL_STATIC_MODEL_ID | typeof USE_LITE_STATIC_MODEL_ID;

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
  /** Which model: the default `use-lite-glove-static-v4`, or the piece table alone `use-lite-static-v3`. */
  model?: LocalStaticModelId;
  /** Where the piece table is read from (a bundler that moves it); default the table shipped in the package. */
  table?: string | URL;
  /** Where the word table is read from; default the table shipped in the package. */
  words?: string | URL;
}

/** Turns one text into its unit vector. */
interface Encoder {
  embed(text: string): Float32Array;
}

/** A loaded piece table with its tokenizer: turns one text into its unit vector. */
class StaticEncoder implements Encoder {
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
 * The piece table's vector and the word vectors', joined and normalised: the first at unit length,
 * the second at the share of the text's words written with spaces (an English text's halves count
 * for as much; a Chinese one keeps the piece table's alone, and a Chinese text naming a brand in
 * English mostly so, whatever English the other texts hold), zero when the text has no word the
 * table knows.
 */
class WithWordsEncoder implements Encoder {
  constructor(
    private readonly pieces: StaticEncoder,
    private readonly words: WordVectors,
  ) {}

  embed(text: string): Float32Array {
    const pieces = this.pieces.embed(text);
    const joined = new Float64Array(LOCAL_STATIC_DIMENSIONS);
    joined.set(pieces);
    const words = this.words.embed(prepare(text));
    if (words.vector !== null)
      joined.set(
        normalise(words.vector).map((value) => value * words.share),
        pieces.length,
      );
    return normalise(joined);
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

/** What a table must hold, and the command that builds it again. */
interface TableKind {
  modelId: string;
  dimensions: number;
  rebuild: string;
}

const PIECE_TABLE: TableKind = {
  modelId: USE_LITE_STATIC_MODEL_ID,
  dimensions: USE_LITE_STATIC_DIMENSIONS,
  rebuild: 'npm run distill:embeddings',
};
const WORD_TABLE: TableKind = {
  modelId: WORD_VECTORS_ID,
  dimensions: WORD_VECTORS_DIMENSIONS,
  rebuild: 'npm run build:word-vectors',
};

/** A table of the package, read and checked: it must hold what `expected` names; the error says how to build it again. */
function readTable(location: string | URL, expected: TableKind): StaticTable {
  const { rebuild } = expected;
  const path = typeof location === 'string' ? location : fileURLToPath(location);
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(path);
  } catch (cause) {
    throw new EngramError(
      'CONFIG_INVALID',
      `the static embedding table ${path} cannot be read; reinstall the package or rebuild the table (${rebuild})`,
      {
        field: 'embeddings',
        cause,
      },
    );
  }
  const table = readStaticTable(bytes, path);
  if (table.modelId !== expected.modelId || table.dimensions !== expected.dimensions) {
    throw new EngramError(
      'CONFIG_INVALID',
      `the static embedding table ${path} holds ${table.modelId} (${table.dimensions}-d), not ${expected.modelId} (${expected.dimensions}-d)`,
      {
        field: 'embeddings',
      },
    );
  }
  return table;
}

/** Tables by file, loaded once per process: every Engram of the process shares one. */
const loadedPieces = new Map<string, StaticEncoder>();
const loadedWords = new Map<string, WordVectors>();

/** What `make` gives for the table at `location`, read and checked once per file and process. */
function loadOnce<T>(
  loaded: Map<string, T>,
  location: string | URL,
  kind: TableKind,
  make: (table: StaticTable) => T,
): T {
  const key = typeof location === 'string' ? location : fileURLToPath(location);
  let value = loaded.get(key);
  if (value === undefined) {
    value = make(readTable(location, kind));
    loaded.set(key, value);
  }
  return value;
}

/** The encoder of a model, its tables loaded on first use. */
function encoderOf(model: LocalStaticModelId, options: LocalStaticOptions): Encoder {
  const pieceTable = options.table ?? USE_LITE_STATIC_TABLE;
  const pieces = loadOnce(loadedPieces, pieceTable, PIECE_TABLE, (table) => new StaticEncoder(table));
  if (model === USE_LITE_STATIC_MODEL_ID) return pieces;
  const wordTable = options.words ?? WORD_VECTORS_TABLE;
  return new WithWordsEncoder(
    pieces,
    loadOnce(loadedWords, wordTable, WORD_TABLE, (table) => new WordVectors(table)),
  );
}

/**
 * The local static model: no network, no thread. By default (`use-lite-glove-static-v4`, 356
 * dimensions) the piece table's vector joined to the GloVe words' vector; `model:
 * 'use-lite-static-v3'` is the piece table alone (256 dimensions). Its tables (13 MiB) are read on
 * the first call (about 0.3 s) and shared by the process. A query costs about 0.05 ms and a
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
  const model: unknown = options.model ?? LOCAL_STATIC_MODEL_ID;
  if (model !== LOCAL_STATIC_MODEL_ID && model !== USE_LITE_STATIC_MODEL_ID)
    throw new EngramError(
      'CONFIG_INVALID',
      `embeddings.model must be "${LOCAL_STATIC_MODEL_ID}" or "${USE_LITE_STATIC_MODEL_ID}", got ${JSON.stringify(model)}`,
      { field: 'embeddings.model' },
    );
  let encoder: Encoder | undefined;
  let closed = false;
  return {
    specificationVersion: 'v1',
    provider: 'local',
    modelId: model,
    dimensions: model === USE_LITE_STATIC_MODEL_ID ? USE_LITE_STATIC_DIMENSIONS : LOCAL_STATIC_DIMENSIONS,
    maxBatchSize,
    remote: false,
    // Its vocabularies hold words written with spaces only: no Chinese, Japanese or Thai.
    coverage: spacedShare,
    async doEmbed({ values, signal, priority }) {
      // As every local model: calls after close() fail (the shared tables stay for other models).
      if (closed) throw new EngramError('CONFIG_INVALID', 'this embedding model is closed', { field: 'embeddings' });
      checkCall(values, priority, maxBatchSize);
      signal?.throwIfAborted();
      encoder ??= encoderOf(model, options);
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
