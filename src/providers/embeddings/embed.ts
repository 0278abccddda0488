// What the rest of Engram calls to embed: `embedTexts` batches by the model's limit and checks every
// vector a provider returns, and `createEmbeddingModel` turns the `embeddings` section of a
// configuration into a model (or null when embeddings are turned off).

import { EngramError } from '../../spec/errors.js';
import type { EmbeddingModel, EmbeddingPriority } from '../../spec/providers.js';
import { createLocalStaticEmbeddings, LOCAL_STATIC_MODEL_ID, USE_LITE_STATIC_MODEL_ID } from './local-static.js';
import { createLocalUseLiteEmbeddings } from './local-use-lite.js';
import { createOpenAiCompatibleEmbeddings, type OpenAiCompatibleEmbeddingsOptions } from './openai-compatible.js';

/** The transformer the static table is distilled from, on a thread of its own: slower, better on paraphrases. */
const USE_LITE_MODEL_ID = 'universal-sentence-encoder-lite';

/** The local models a configuration can name. */
const LOCAL_MODELS = [LOCAL_STATIC_MODEL_ID, USE_LITE_STATIC_MODEL_ID, USE_LITE_MODEL_ID] as const;

/**
 * The `embeddings` section of a configuration: a local model (by default the static tables
 * `use-lite-glove-static-v4`; `model: 'use-lite-static-v3'` is its piece table alone, the default
 * before it; `model: 'universal-sentence-encoder-lite'` runs the transformer the piece table comes
 * from), an OpenAI-compatible server, or none.
 *
 * @example
 * { provider: 'openai-compatible', baseUrl: 'http://localhost:11434/v1', model: 'nomic-embed-text', dimensions: 768 }
 * { provider: 'local', model: 'universal-sentence-encoder-lite' }
 */
export type EmbeddingConfig =
  | { provider: 'local'; model?: (typeof LOCAL_MODELS)[number]; maxBatchSize?: number }
  | ({ provider: 'openai-compatible' } & OpenAiCompatibleEmbeddingsOptions)
  | { provider: 'none' };

const allowedKeys: Record<EmbeddingConfig['provider'], readonly string[]> = {
  local: ['provider', 'model', 'maxBatchSize'],
  'openai-compatible': ['provider', 'baseUrl', 'apiKey', 'model', 'dimensions', 'maxBatchSize', 'headers', 'timeoutMs'],
  none: ['provider'],
};

function modelName(model: EmbeddingModel): string {
  return `${model.provider}/${model.modelId}`;
}

/** Throws unless the batch holds one vector per text, each of `model.dimensions` finite numbers. */
function checkBatch(model: EmbeddingModel, batch: readonly string[], result: unknown): Float32Array[] {
  const embeddings = (result as { embeddings?: unknown } | null)?.embeddings;
  const problem = (message: string) =>
    new EngramError('INTERNAL', `embedding model ${modelName(model)} ${message}`, { field: 'embeddings' });
  if (!Array.isArray(embeddings) || embeddings.length !== batch.length) {
    throw problem(`returned ${Array.isArray(embeddings) ? embeddings.length : 'no'} vectors for ${batch.length} texts`);
  }
  // Read after the call: a provider may learn its size from the first response.
  const dimensions = model.dimensions;
  for (const [index, vector] of embeddings.entries()) {
    if (!(vector instanceof Float32Array))
      throw problem(`returned vector ${index} as something other than a Float32Array`);
    if (vector.length !== dimensions)
      throw problem(`returned a ${vector.length}-dimensional vector, not ${dimensions}`);
    for (const value of vector) if (!Number.isFinite(value)) throw problem(`returned a vector containing ${value}`);
  }
  return embeddings as Float32Array[];
}

/**
 * Embeds texts in batches of `model.maxBatchSize`, one batch at a time, and returns one checked
 * vector per text in input order. An empty list returns [] without calling the model. `priority`
 * (default `interactive`) tells a model with a queue whether a caller waits on the answer.
 *
 * @example
 * const [vector] = await embedTexts(model, ['I prefer tea in the morning']);
 * await embedTexts(model, backlog, { priority: 'background' });
 */
export async function embedTexts(
  model: EmbeddingModel,
  texts: readonly string[],
  options: { signal?: AbortSignal; priority?: EmbeddingPriority } = {},
): Promise<Float32Array[]> {
  const { signal, priority } = options;
  const size = model.maxBatchSize;
  if (!Number.isInteger(size) || size < 1) {
    throw new EngramError(
      'INTERNAL',
      `embedding model ${modelName(model)} has maxBatchSize ${size}; it must be a positive integer`,
      { field: 'embeddings' },
    );
  }
  const vectors: Float32Array[] = [];
  for (let start = 0; start < texts.length; start += size) {
    signal?.throwIfAborted();
    const batch = texts.slice(start, start + size);
    let result: unknown;
    try {
      result = await model.doEmbed({
        values: batch,
        ...(signal === undefined ? {} : { signal }),
        ...(priority === undefined ? {} : { priority }),
      });
    } catch (error) {
      if (EngramError.isInstance(error) || signal?.aborted === true) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      throw new EngramError('INTERNAL', `embedding model ${modelName(model)} failed: ${reason}`, {
        field: 'embeddings',
        cause: error,
      });
    }
    vectors.push(...checkBatch(model, batch, result));
  }
  return vectors;
}

/**
 * How much of a text the model can read (`EmbeddingModel.coverage`), checked: 1 for a model without
 * the method; a number from 0 to 1 otherwise, or a typed error naming `embeddings.coverage` when the
 * model throws or answers anything else.
 *
 * @example
 * textCoverage(createLocalStaticEmbeddings(), '我住在哪个城市？') // 0
 */
export function textCoverage(model: EmbeddingModel, text: string): number {
  if (model.coverage === undefined) return 1;
  let share: unknown;
  try {
    share = model.coverage(text);
  } catch (error) {
    if (EngramError.isInstance(error)) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new EngramError('INTERNAL', `embedding model ${modelName(model)} failed in coverage(): ${reason}`, {
      field: 'embeddings.coverage',
      cause: error,
    });
  }
  if (typeof share !== 'number' || !(share >= 0 && share <= 1))
    throw new EngramError(
      'INTERNAL',
      `embedding model ${modelName(model)} returned coverage ${String(share)}; it must be a number from 0 to 1`,
      { field: 'embeddings.coverage' },
    );
  return share;
}

function configError(field: string, message: string): EngramError {
  return new EngramError('CONFIG_INVALID', `${field} ${message}`, { field });
}

/** The local model a configuration names; its table or weights load on first use. */
function localModel(config: Extract<EmbeddingConfig, { provider: 'local' }>): EmbeddingModel {
  const model: unknown = config.model ?? LOCAL_STATIC_MODEL_ID;
  const options = config.maxBatchSize === undefined ? {} : { maxBatchSize: config.maxBatchSize };
  if (model === LOCAL_STATIC_MODEL_ID || model === USE_LITE_STATIC_MODEL_ID)
    return createLocalStaticEmbeddings({ ...options, model });
  if (model === USE_LITE_MODEL_ID) return createLocalUseLiteEmbeddings(options);
  throw configError(
    'embeddings.model',
    `must be one of ${LOCAL_MODELS.map((name) => JSON.stringify(name)).join(', ')}, got ${JSON.stringify(model)}`,
  );
}

/**
 * Builds the embedding model a configuration names, or null for `{ provider: 'none' }`. The
 * configuration is checked as untrusted input (it usually comes from a file or the environment).
 *
 * @example
 * createEmbeddingModel({ provider: 'local' }) // the static tables: pieces distilled from Universal Sentence Encoder lite, GloVe words
 * createEmbeddingModel({ provider: 'openai-compatible', baseUrl: 'https://api.openai.com/v1', apiKey, model: 'text-embedding-3-small' })
 */
export function createEmbeddingModel(config: EmbeddingConfig): EmbeddingModel | null {
  if (typeof config !== 'object' || config === null || Array.isArray(config)) {
    throw configError('embeddings', 'must be an object such as { "provider": "local" }');
  }
  const provider: unknown = config.provider;
  if (typeof provider !== 'string' || !Object.hasOwn(allowedKeys, provider)) {
    const names = Object.keys(allowedKeys)
      .map((name) => JSON.stringify(name))
      .join(', ');
    throw configError('embeddings.provider', `must be one of ${names}, got ${JSON.stringify(provider)}`);
  }
  const allowed = allowedKeys[provider as EmbeddingConfig['provider']];
  const unknown = Object.keys(config).find((key) => !allowed.includes(key));
  if (unknown !== undefined)
    throw configError(
      `embeddings.${unknown}`,
      `is not an option of the ${provider} provider (allowed: ${allowed.join(', ')})`,
    );
  switch (config.provider) {
    case 'none':
      return null;
    case 'local':
      return localModel(config);
    case 'openai-compatible': {
      const { provider: _provider, ...options } = config;
      return createOpenAiCompatibleEmbeddings(options);
    }
  }
}
