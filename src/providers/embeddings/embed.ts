// What the rest of Engram calls to embed: `embedTexts` batches by the model's limit and checks every
// vector a provider returns, and `createEmbeddingModel` turns the `embeddings` section of a
// configuration into a model (or null when embeddings are turned off).

import { EngramError } from '../../spec/errors.js';
import type { EmbeddingModel, EmbeddingPriority } from '../../spec/providers.js';
import { createLocalUseLiteEmbeddings } from './local-use-lite.js';
import { createOpenAiCompatibleEmbeddings, type OpenAiCompatibleEmbeddingsOptions } from './openai-compatible.js';

/**
 * The `embeddings` section of a configuration: the local model, an OpenAI-compatible server, or none.
 *
 * @example
 * { provider: 'openai-compatible', baseUrl: 'http://localhost:11434/v1', model: 'nomic-embed-text', dimensions: 768 }
 */
export type EmbeddingConfig =
  | { provider: 'local'; maxBatchSize?: number }
  | ({ provider: 'openai-compatible' } & OpenAiCompatibleEmbeddingsOptions)
  | { provider: 'none' };

const allowedKeys: Record<EmbeddingConfig['provider'], readonly string[]> = {
  local: ['provider', 'maxBatchSize'],
  'openai-compatible': ['provider', 'baseUrl', 'apiKey', 'model', 'dimensions', 'maxBatchSize', 'headers', 'timeoutMs'],
  none: ['provider'],
};

function modelName(model: EmbeddingModel): string {
  return `${model.provider}/${model.modelId}`;
}

/** Throws unless the batch holds one vector per text, each of `model.dimensions` finite numbers. */
function checkBatch(model: EmbeddingModel, batch: readonly string[], result: unknown): Float32Array[] {
  const embeddings = (result as { embeddings?: unknown } | null)?.embeddings;
  const problem = (message: string) => new EngramError('INTERNAL', `embedding model ${modelName(model)} ${message}`, { field: 'embeddings' });
  if (!Array.isArray(embeddings) || embeddings.length !== batch.length) {
    throw problem(`returned ${Array.isArray(embeddings) ? embeddings.length : 'no'} vectors for ${batch.length} texts`);
  }
  // Read after the call: a provider may learn its size from the first response.
  const dimensions = model.dimensions;
  for (const [index, vector] of embeddings.entries()) {
    if (!(vector instanceof Float32Array)) throw problem(`returned vector ${index} as something other than a Float32Array`);
    if (vector.length !== dimensions) throw problem(`returned a ${vector.length}-dimensional vector, not ${dimensions}`);
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
    throw new EngramError('INTERNAL', `embedding model ${modelName(model)} has maxBatchSize ${size}; it must be a positive integer`, { field: 'embeddings' });
  }
  const vectors: Float32Array[] = [];
  for (let start = 0; start < texts.length; start += size) {
    signal?.throwIfAborted();
    const batch = texts.slice(start, start + size);
    let result: unknown;
    try {
      result = await model.doEmbed({ values: batch, ...(signal === undefined ? {} : { signal }), ...(priority === undefined ? {} : { priority }) });
    } catch (error) {
      if (EngramError.isInstance(error) || signal?.aborted === true) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      throw new EngramError('INTERNAL', `embedding model ${modelName(model)} failed: ${reason}`, { field: 'embeddings', cause: error });
    }
    vectors.push(...checkBatch(model, batch, result));
  }
  return vectors;
}

function configError(field: string, message: string): EngramError {
  return new EngramError('CONFIG_INVALID', `${field} ${message}`, { field });
}

/**
 * Builds the embedding model a configuration names, or null for `{ provider: 'none' }`. The
 * configuration is checked as untrusted input (it usually comes from a file or the environment).
 *
 * @example
 * createEmbeddingModel({ provider: 'local' }) // Universal Sentence Encoder lite, loaded on first use
 * createEmbeddingModel({ provider: 'openai-compatible', baseUrl: 'https://api.openai.com/v1', apiKey, model: 'text-embedding-3-small' })
 */
export function createEmbeddingModel(config: EmbeddingConfig): EmbeddingModel | null {
  if (typeof config !== 'object' || config === null || Array.isArray(config)) {
    throw configError('embeddings', 'must be an object such as { "provider": "local" }');
  }
  const provider: unknown = config.provider;
  if (typeof provider !== 'string' || !Object.hasOwn(allowedKeys, provider)) {
    const names = Object.keys(allowedKeys).map((name) => JSON.stringify(name)).join(', ');
    throw configError('embeddings.provider', `must be one of ${names}, got ${JSON.stringify(provider)}`);
  }
  const allowed = allowedKeys[provider as EmbeddingConfig['provider']];
  const unknown = Object.keys(config).find((key) => !allowed.includes(key));
  if (unknown !== undefined) throw configError(`embeddings.${unknown}`, `is not an option of the ${provider} provider (allowed: ${allowed.join(', ')})`);
  switch (config.provider) {
    case 'none':
      return null;
    case 'local':
      return createLocalUseLiteEmbeddings(config.maxBatchSize === undefined ? {} : { maxBatchSize: config.maxBatchSize });
    case 'openai-compatible': {
      const { provider: _provider, ...options } = config;
      return createOpenAiCompatibleEmbeddings(options);
    }
  }
}
