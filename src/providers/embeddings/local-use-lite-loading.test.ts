// The local embedding provider with stand-in packages: loading once, cutting long texts before the
// model, typed errors for missing or wrong packages and for a failing or dying thread, running as
// built JavaScript, and the checks of its options and calls.

import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';

import { caught } from '../../testing/expect-code.js';
import { createLocalUseLiteEmbeddings, localEmbeddingPackages } from './local-use-lite.js';
import { fakePackages, removeFakePackages } from './use-lite-test-kit.js';
import { cutForModel } from './use-lite-input.js';

const run = promisify(execFile);
afterAll(removeFakePackages);

describe('local embeddings: the thread, loading and failures (stand-in packages)', () => {
  it('loads once for concurrent first calls, passing the package modelSource to initModel', async () => {
    const fake = fakePackages();
    const model = createLocalUseLiteEmbeddings({ packages: fake.packages });
    try {
      expect(fake.calls()).toEqual([]);
      const results = await Promise.all([
        model.doEmbed({ values: ['a'] }),
        model.doEmbed({ values: ['bb'] }),
        model.doEmbed({ values: ['ccc'] }),
      ]);
      expect(fake.calls().filter((line) => line.startsWith('init'))).toEqual(['init package-source']);
      expect(results.map((result) => result.embeddings[0]![0])).toEqual(
        [1 / Math.sqrt(2), 2 / Math.sqrt(5), 3 / Math.sqrt(10)].map(Math.fround),
      );
      expect(results[0]!.embeddings[0]).toBeInstanceOf(Float32Array);
    } finally {
      await model.close();
    }
  });

  it('cuts long texts before they reach the model', async () => {
    const fake = fakePackages();
    const model = createLocalUseLiteEmbeddings({ packages: fake.packages });
    try {
      const long = 'word '.repeat(4000);
      const run = 'x'.repeat(20_000);
      const { embeddings } = await model.doEmbed({ values: [long, run, 'short text'] });
      expect(embeddings).toHaveLength(3);
      const sent = fake
        .calls()
        .filter((line) => line.startsWith('embed '))
        .flatMap((line) => JSON.parse(line.slice('embed '.length)) as string[]);
      expect(sent).toEqual([cutForModel(long), cutForModel(run), 'short text']);
      expect(sent[0]!.split(' ')).toHaveLength(128);
      expect(sent[1]).toHaveLength(2048);
    } finally {
      await model.close();
    }
  });

  it('says which npm packages to install when they are missing, and imports them again on the next call', async () => {
    const fake = fakePackages();
    const missing = join(fake.folder, 'later.mjs');
    const model = createLocalUseLiteEmbeddings({
      packages: { ...fake.packages, embeddings: pathToFileURL(missing).href },
    });
    try {
      const error = await caught(model.doEmbed({ values: ['a'] }));
      expect(error.code).toBe('CONFIG_INVALID');
      expect(error.field).toBe('embeddings');
      expect(error.message).toContain(`npm install ${localEmbeddingPackages.join(' ')}`);
      expect(error.message).toContain('are not installed');
      writeFileSync(missing, readFileSync(join(fake.folder, 'embeddings.mjs')));
      await expect(model.doEmbed({ values: ['a'] })).resolves.toMatchObject({ embeddings: [expect.any(Float32Array)] });
    } finally {
      await model.close();
    }
  });

  it('rejects a package without the expected exports as misconfigured', async () => {
    const fake = fakePackages();
    const empty = join(fake.folder, 'empty.mjs');
    writeFileSync(empty, 'export const nothing = 1;\n');
    const model = createLocalUseLiteEmbeddings({
      packages: { ...fake.packages, embeddings: pathToFileURL(empty).href },
    });
    try {
      const error = await caught(model.doEmbed({ values: ['a'] }));
      expect(error.code).toBe('CONFIG_INVALID');
      expect(error.message).toMatch(/does not export a function initModel/);
    } finally {
      await model.close();
    }
  });

  it('refuses a wrong row count from the model rather than misaligning vectors, and keeps serving', async () => {
    const fake = fakePackages('return values.length === 2 ? [[1, 0, 0]] : values.map(() => [0, 1, 0]);');
    const model = createLocalUseLiteEmbeddings({ packages: fake.packages });
    try {
      const error = await caught(model.doEmbed({ values: ['a', 'b'] }));
      expect(error.code).toBe('INTERNAL');
      expect(error.message).toMatch(/1 vectors for 2 texts/);
      await expect(model.doEmbed({ values: ['c'] })).resolves.toMatchObject({ embeddings: [expect.any(Float32Array)] });
    } finally {
      await model.close();
    }
  });

  it('turns an error thrown inside the model into a typed error', async () => {
    const fake = fakePackages("throw new RangeError('tensor shape mismatch');");
    const model = createLocalUseLiteEmbeddings({ packages: fake.packages });
    try {
      const error = await caught(model.doEmbed({ values: ['a'] }));
      expect(error).toMatchObject({ code: 'INTERNAL', field: 'embeddings' });
      expect(error.message).toMatch(/the local embedding model failed: tensor shape mismatch/);
    } finally {
      await model.close();
    }
  });

  it('starts a new thread on the next call after the thread died, and fails only the calls it held', async () => {
    const fake = fakePackages("if (values.includes('die')) process.exit(3); return values.map(() => [1, 1, 0]);");
    const model = createLocalUseLiteEmbeddings({ packages: fake.packages });
    try {
      await model.doEmbed({ values: ['before'] });
      const error = await caught(model.doEmbed({ values: ['die'] }));
      expect(error).toMatchObject({ code: 'INTERNAL', field: 'embeddings' });
      expect(error.message).toMatch(/thread stopped \(exit code 3\); the next call starts it again/);
      await expect(model.doEmbed({ values: ['after'] })).resolves.toMatchObject({
        embeddings: [expect.any(Float32Array)],
      });
      expect(fake.calls().filter((line) => line.startsWith('init'))).toHaveLength(2);
    } finally {
      await model.close();
    }
  });

  it('runs as built JavaScript too: keeps a process alive while a call waits on the thread, and lets it exit on its own when idle (no close)', async () => {
    // The provider and its thread's module bundled to plain JavaScript, run by node without tsx
    // (tsx keeps a port of its own open, which would hide a thread that holds no reference).
    const fake = fakePackages('busy(300); return values.map(() => [3, 4, 0]);');
    const here = import.meta.dirname;
    await build({
      entryPoints: {
        'local-use-lite': join(here, 'local-use-lite.ts'),
        'use-lite-thread': join(here, 'use-lite-thread.ts'),
      },
      outdir: join(fake.folder, 'built'),
      bundle: true,
      platform: 'node',
      format: 'esm',
      packages: 'external',
      logLevel: 'silent',
    });
    const script = `
      import { createLocalUseLiteEmbeddings } from ${JSON.stringify(pathToFileURL(join(fake.folder, 'built', 'local-use-lite.js')).href)};
      const model = createLocalUseLiteEmbeddings({ packages: ${JSON.stringify(fake.packages)} });
      await model.doEmbed({ values: ['first call'] });
      // The thread is idle (unreferenced) between the calls; the second must hold the process again.
      await new Promise((resolve) => setTimeout(resolve, 50));
      const { embeddings } = await model.doEmbed({ values: ['second call'] });
      console.log('vector', Array.from(embeddings[0]).join(','));
    `;
    const started = performance.now();
    const { stdout } = await run(process.execPath, ['--input-type=module', '--eval', script], { timeout: 30_000 });
    expect(stdout.trim()).toBe('vector 0.6000000238418579,0.800000011920929,0');
    expect(performance.now() - started).toBeLessThan(20_000);
  });

  it('validates its options and each call', async () => {
    expect(() => createLocalUseLiteEmbeddings({ maxBatchSize: 0 })).toThrow(/maxBatchSize must be a positive integer/);
    expect(() => createLocalUseLiteEmbeddings({ passTokens: 1.5 })).toThrow(/passTokens must be a positive integer/);
    expect(() => createLocalUseLiteEmbeddings({ maxPending: -1 })).toThrow(/maxPending must be a positive integer/);
    expect(() => createLocalUseLiteEmbeddings({ queueTimeoutMs: 0 })).toThrow(
      /queueTimeoutMs must be a positive integer/,
    );
    const model = createLocalUseLiteEmbeddings({ maxBatchSize: 2 });
    try {
      expect(await caught(model.doEmbed({ values: ['a', 'b', 'c'] }))).toMatchObject({
        code: 'VALIDATION_FAILED',
        field: 'values',
      });
      expect(await caught(model.doEmbed({ values: ['a', 7 as unknown as string] }))).toMatchObject({
        code: 'VALIDATION_FAILED',
        field: 'values[1]',
      });
      expect(await caught(model.doEmbed({ values: ['a'], priority: 'urgent' as 'interactive' }))).toMatchObject({
        code: 'VALIDATION_FAILED',
        field: 'priority',
      });
      await expect(model.doEmbed({ values: [] })).resolves.toEqual({ embeddings: [] });
    } finally {
      await model.close();
    }
  });
});
