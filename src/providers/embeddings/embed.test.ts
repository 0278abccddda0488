import { describe, expect, it } from 'vitest';

import { caught } from '../../testing/expect-code.js';
import { EngramError } from '../../spec/errors.js';
import type { EmbeddingModel, EmbeddingPriority } from '../../spec/providers.js';
import { createEmbeddingModel, embedTexts, type EmbeddingConfig } from './embed.js';

/** A model that encodes each text's length and records every call. */
function recordingModel(
  overrides: { maxBatchSize?: number; answer?: (values: string[]) => Float32Array[] | Promise<Float32Array[]> } = {},
) {
  const calls: Array<{ values: string[]; signal: AbortSignal | undefined; priority?: EmbeddingPriority | undefined }> =
    [];
  const model: EmbeddingModel = {
    specificationVersion: 'v1',
    provider: 'recording',
    modelId: 'lengths',
    dimensions: 2,
    maxBatchSize: overrides.maxBatchSize ?? 3,
    remote: false,
    async doEmbed({ values, signal, priority }) {
      calls.push({ values, signal, ...(priority === undefined ? {} : { priority }) });
      const embeddings = overrides.answer
        ? await overrides.answer(values)
        : values.map((value) => new Float32Array([value.length, 1]));
      return { embeddings };
    },
  };
  return { model, calls };
}

function configFailure(config: unknown): string {
  try {
    createEmbeddingModel(config as EmbeddingConfig);
  } catch (error) {
    return EngramError.isInstance(error) ? `${error.code} ${error.field}` : `other ${String(error)}`;
  }
  return 'ok';
}

describe('embedTexts', () => {
  it('returns [] for no texts without calling the model', async () => {
    const { model, calls } = recordingModel();
    await expect(embedTexts(model, [])).resolves.toEqual([]);
    expect(calls).toEqual([]);
  });

  it('calls the model in batches of maxBatchSize and returns one vector per text in input order', async () => {
    const { model, calls } = recordingModel({ maxBatchSize: 3 });
    const texts = ['a', 'bb', 'ccc', 'dddd', 'eeeee', 'ffffff', 'g'];
    const vectors = await embedTexts(model, texts);
    expect(calls.map((call) => call.values)).toEqual([['a', 'bb', 'ccc'], ['dddd', 'eeeee', 'ffffff'], ['g']]);
    expect(vectors.map((vector) => vector[0])).toEqual([1, 2, 3, 4, 5, 6, 1]);
  });

  it('passes the priority to every batch, and none when the caller gave none', async () => {
    const { model, calls } = recordingModel({ maxBatchSize: 2 });
    await embedTexts(model, ['a', 'b', 'c'], { priority: 'background' });
    expect(calls.map((call) => call.priority)).toEqual(['background', 'background']);
    await embedTexts(model, ['query']);
    expect(calls.at(-1)).not.toHaveProperty('priority');
  });

  it('names the provider when a batch has the wrong number of vectors', async () => {
    const { model } = recordingModel({ answer: (values) => values.slice(1).map(() => new Float32Array(2)) });
    const error = await caught(embedTexts(model, ['a', 'b']));
    expect(error.code).toBe('INTERNAL');
    expect(error.field).toBe('embeddings');
    expect(error.message).toBe('embedding model recording/lengths returned 1 vectors for 2 texts');
  });

  it('refuses vectors of the wrong size, with non-finite numbers, or of the wrong type', async () => {
    const answers: Array<() => unknown[]> = [
      () => [new Float32Array(3)],
      () => [new Float32Array([1, Number.NaN])],
      () => [new Float32Array([Number.POSITIVE_INFINITY, 0])],
      () => [[1, 0]],
    ];
    const messages: string[] = [];
    for (const answer of answers) {
      const { model } = recordingModel({ answer: answer as () => Float32Array[] });
      const error = await caught(embedTexts(model, ['a']));
      expect(error.code).toBe('INTERNAL');
      messages.push(error.message);
    }
    expect(messages).toEqual([
      'embedding model recording/lengths returned a 3-dimensional vector, not 2',
      'embedding model recording/lengths returned a vector containing NaN',
      'embedding model recording/lengths returned a vector containing Infinity',
      'embedding model recording/lengths returned vector 0 as something other than a Float32Array',
    ]);
  });

  it('accepts a model whose dimensions become known during the first call', async () => {
    let dimensions = 0;
    const model: EmbeddingModel = {
      specificationVersion: 'v1',
      provider: 'learning',
      modelId: 'm',
      get dimensions() {
        return dimensions;
      },
      maxBatchSize: 8,
      remote: true,
      async doEmbed({ values }) {
        dimensions = 4;
        return { embeddings: values.map(() => new Float32Array(4)) };
      },
    };
    await expect(embedTexts(model, ['a', 'b'])).resolves.toHaveLength(2);
  });

  it('wraps a provider that throws a plain error, and passes an EngramError through unchanged', async () => {
    const plain = recordingModel({ answer: () => Promise.reject(new TypeError('socket hang up')) });
    const wrapped = await caught(embedTexts(plain.model, ['a']));
    expect(wrapped.code).toBe('INTERNAL');
    expect(wrapped.message).toBe('embedding model recording/lengths failed: socket hang up');
    expect(wrapped.cause).toBeInstanceOf(TypeError);
    const original = new EngramError('CONFIG_INVALID', 'bad key', { field: 'embeddings.apiKey' });
    const engram = recordingModel({ answer: () => Promise.reject(original) });
    await expect(embedTexts(engram.model, ['a'])).rejects.toBe(original);
  });

  it('hands the signal to the model and stops between batches once it is aborted', async () => {
    const controller = new AbortController();
    const { model, calls } = recordingModel({
      maxBatchSize: 1,
      answer: (values) => {
        controller.abort();
        return [new Float32Array([values[0]!.length, 1])];
      },
    });
    await expect(embedTexts(model, ['a', 'b', 'c'], { signal: controller.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.signal).toBe(controller.signal);
  });

  it('refuses a model with an unusable maxBatchSize instead of looping forever', async () => {
    const { model } = recordingModel({ maxBatchSize: 0 });
    const error = await caught(embedTexts(model, ['a']));
    expect(error.message).toMatch(/maxBatchSize 0/);
  });
});

describe('createEmbeddingModel', () => {
  it('builds each provider, and null for none', () => {
    expect(createEmbeddingModel({ provider: 'none' })).toBeNull();
    expect(createEmbeddingModel({ provider: 'local' })).toMatchObject({
      provider: 'local',
      modelId: 'use-lite-glove-static-v4',
      dimensions: 356,
      remote: false,
      maxBatchSize: 32,
    });
    expect(createEmbeddingModel({ provider: 'local', model: 'use-lite-static-v3', maxBatchSize: 8 })).toMatchObject({
      modelId: 'use-lite-static-v3',
      dimensions: 256,
      maxBatchSize: 8,
    });
    const transformer = createEmbeddingModel({
      provider: 'local',
      model: 'universal-sentence-encoder-lite',
      maxBatchSize: 8,
    });
    expect(transformer).toMatchObject({
      provider: 'local-use-lite',
      modelId: 'universal-sentence-encoder-lite',
      dimensions: 512,
      remote: false,
      maxBatchSize: 8,
    });
    const remote = createEmbeddingModel({
      provider: 'openai-compatible',
      baseUrl: 'https://api.example.com/v1',
      apiKey: 'k',
      model: 'e5',
      dimensions: 1024,
    });
    expect(remote).toMatchObject({ provider: 'openai-compatible', modelId: 'e5', dimensions: 1024, remote: true });
  });

  it('names the offending field of a bad configuration', () => {
    expect(configFailure({ provider: 'openai' })).toBe('CONFIG_INVALID embeddings.provider');
    expect(configFailure({})).toBe('CONFIG_INVALID embeddings.provider');
    expect(configFailure(null)).toBe('CONFIG_INVALID embeddings');
    expect(configFailure('local')).toBe('CONFIG_INVALID embeddings');
    expect(configFailure({ provider: 'local', dimensions: 512 })).toBe('CONFIG_INVALID embeddings.dimensions');
    expect(configFailure({ provider: 'local', maxBatchSize: -1 })).toBe('CONFIG_INVALID embeddings.maxBatchSize');
    expect(configFailure({ provider: 'local', model: 'all-MiniLM-L6-v2' })).toBe('CONFIG_INVALID embeddings.model');
    expect(configFailure({ provider: 'openai-compatible', model: 'm' })).toBe('CONFIG_INVALID embeddings.baseUrl');
    expect(configFailure({ provider: 'openai-compatible', baseUrl: 'http://localhost/v1' })).toBe(
      'CONFIG_INVALID embeddings.model',
    );
    expect(
      configFailure({ provider: 'openai-compatible', baseUrl: 'http://localhost/v1', model: 'm', dimension: 8 }),
    ).toBe('CONFIG_INVALID embeddings.dimension');
    expect(configFailure({ provider: 'none', model: 'm' })).toBe('CONFIG_INVALID embeddings.model');
  });

  it('lists the valid provider names in the message', () => {
    expect(() => createEmbeddingModel({ provider: 'openai' } as unknown as EmbeddingConfig)).toThrow(
      'must be one of "local", "openai-compatible", "none", got "openai"',
    );
  });
});
