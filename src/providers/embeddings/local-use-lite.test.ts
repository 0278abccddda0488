import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';

import { caught } from '../../testing/expect-code.js';
import { dot } from '../../util/vectors.js';
import { embedTexts } from './embed.js';
import { createLocalUseLiteEmbeddings, localEmbeddingPackages } from './local-use-lite.js';
import { cutForModel } from './use-lite-input.js';

const modelLoad = 120_000;
const run = promisify(execFile);
const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/**
 * Stand-ins for the two packages, written as modules the model's thread imports. `embed` is the
 * body of the encoder's `embed(values)`; it may call `log(line)` and `busy(ms)` (holds the thread's
 * CPU like a forward pass). Every load and embed call is logged to a file the test reads.
 */
function fakePackages(embed = 'return values.map((value) => [value.length, 1, 0]);') {
  const folder = mkdtempSync(join(tmpdir(), 'engram-fake-use-lite-'));
  folders.push(folder);
  const logPath = join(folder, 'calls.log');
  writeFileSync(logPath, '');
  writeFileSync(
    join(folder, 'embeddings.mjs'),
    `import { appendFileSync } from 'node:fs';
const log = (line) => appendFileSync(${JSON.stringify(logPath)}, line + '\\n');
const busy = (ms) => { const until = Date.now() + ms; while (Date.now() < until); };
export async function initModel(source) {
  log('init ' + (source && source.fromPackage === true ? 'package-source' : 'other-source'));
  await new Promise((resolve) => setTimeout(resolve, 20));
  return { async embed(values) { log('embed ' + JSON.stringify(values)); ${embed} } };
}
`,
  );
  writeFileSync(
    join(folder, 'model.mjs'),
    'export const modelSource = Object.assign(async () => ({}), { fromPackage: true });\n',
  );
  const packages = {
    embeddings: pathToFileURL(join(folder, 'embeddings.mjs')).href,
    model: pathToFileURL(join(folder, 'model.mjs')).href,
  };
  const calls = () =>
    readFileSync(logPath, 'utf8')
      .split('\n')
      .filter((line) => line !== '');
  return { folder, packages, calls };
}

describe('local Universal Sentence Encoder lite (the real model, offline, on its thread)', () => {
  const model = createLocalUseLiteEmbeddings();
  afterAll(() => model.close());

  it('declares itself local, 512-dimensional, batching 32', () => {
    expect(model).toMatchObject({
      specificationVersion: 'v1',
      provider: 'local-use-lite',
      dimensions: 512,
      maxBatchSize: 32,
      remote: false,
    });
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
    'embeds a batch of 40 (several passes of the model) with the same vectors as one at a time',
    async () => {
      const texts = Array.from(
        { length: 40 },
        (_, index) => `Note number ${index}: the user mentioned topic ${index % 7}.`,
      );
      const vectors = await embedTexts(model, texts, { priority: 'background' });
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

  it(
    'gives a long text the vector of its first 128 words: the model reads no further, so the cut loses nothing',
    async () => {
      const sentence = (index: number) =>
        `On day ${index} the team reviewed release ${index % 13} of Atlas and wrote down what broke.`;
      const long = Array.from({ length: 1200 }, (_, index) => sentence(index)).join(' ');
      expect(long.length).toBeGreaterThan(20_000);
      const prefixes = [long.split(' ').slice(0, 128).join(' '), long.slice(0, 4000), long.slice(0, 10_000)];
      // Called with the uncut prefixes: each is cut the same way on its way to the model.
      const [whole, ...cut] = await embedTexts(model, [long, ...prefixes]);
      for (const vector of cut) expect(dot(whole!, vector)).toBeCloseTo(1, 5);
      // A prefix shorter than what the model reads is a different text to it.
      const [shorter] = await embedTexts(model, [long.split(' ').slice(0, 40).join(' ')]);
      expect(dot(whole!, shorter!)).toBeLessThan(0.99);
      // Without spaces, the 2,048-code-point bound keeps what the model reads.
      const run = 'atlas'.repeat(4000);
      const [runVector, runCut] = await embedTexts(model, [run, run.slice(0, 2048)]);
      expect(dot(runVector!, runCut!)).toBeCloseTo(1, 5);
    },
    modelLoad,
  );

  it(
    'answers an interactive call while a long background backlog is embedded, long before the backlog ends',
    async () => {
      await embedTexts(model, ['loaded before the clock starts']);
      const backlog = Array.from(
        { length: 16 },
        (_, index) =>
          `Backlog entry ${index}: ${'the quarterly report lists every open item of the release '.repeat(40)}`,
      );
      const events: string[] = [];
      const started = performance.now();
      const background = embedTexts(model, backlog, { priority: 'background' }).then(() => events.push('background'));
      await new Promise((resolve) => setTimeout(resolve, 300));
      const queryStarted = performance.now();
      await embedTexts(model, ['what tone do I like?'], { priority: 'interactive' }).then(() =>
        events.push('interactive'),
      );
      const queryMs = performance.now() - queryStarted;
      await background;
      const backlogMs = performance.now() - started;
      expect(events).toEqual(['interactive', 'background']);
      // The query waits for the pass in flight (at most 256 tokens) and its own, not for the 16 texts.
      expect(queryMs).toBeLessThan(backlogMs / 3);
    },
    modelLoad,
  );
});

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

  it('does not start an aborted call, and drops a call whose caller stopped waiting', async () => {
    const fake = fakePackages('busy(150); return values.map(() => [1, 0, 0]);');
    const model = createLocalUseLiteEmbeddings({ packages: fake.packages });
    try {
      await expect(model.doEmbed({ values: ['never'], signal: AbortSignal.abort() })).rejects.toMatchObject({
        name: 'AbortError',
      });
      const controller = new AbortController();
      // Without a tokenizer every text counts 128 tokens: two texts a pass, so five passes.
      const first = model.doEmbed({
        values: ['p1', 'p1', 'p2', 'p2', 'p3', 'p3', 'p4', 'p4', 'p5', 'p5'],
        signal: controller.signal,
        priority: 'background',
      });
      await new Promise((resolve) => setTimeout(resolve, 250));
      controller.abort();
      await expect(first).rejects.toMatchObject({ name: 'AbortError' });
      await model.doEmbed({ values: ['next'] });
      const embedded = fake.calls().filter((line) => line.startsWith('embed'));
      expect(embedded.some((line) => line.includes('never'))).toBe(false);
      expect(embedded.some((line) => line.includes('p5'))).toBe(false);
      expect(embedded.at(-1)).toBe('embed ["next"]');
    } finally {
      await model.close();
    }
  });

  it('runs interactive calls before the background backlog waiting in the thread', async () => {
    const fake = fakePackages('busy(60); return values.map(() => [1, 0, 0]);');
    const model = createLocalUseLiteEmbeddings({ packages: fake.packages });
    try {
      await model.doEmbed({ values: ['warm'] });
      const backlog = Array.from({ length: 16 }, (_, index) => `b${index}`);
      const finished: string[] = [];
      const background = model
        .doEmbed({ values: backlog, priority: 'background' })
        .then(() => finished.push('background'));
      await new Promise((resolve) => setTimeout(resolve, 100));
      await model.doEmbed({ values: ['query'], priority: 'interactive' }).then(() => finished.push('query'));
      await background;
      expect(finished).toEqual(['query', 'background']);
      // Eight passes of two (a stand-in without a tokenizer counts 128 tokens a text); the query
      // took the place of the next background pass once the one in flight had ended.
      const passes = fake.calls().filter((line) => line.startsWith('embed ['));
      const query = passes.indexOf('embed ["query"]');
      expect(passes).toHaveLength(1 + 8 + 1);
      expect(query).toBeGreaterThan(1);
      expect(query).toBeLessThan(passes.length - 2);
      for (const pass of passes.slice(1).filter((line) => line !== 'embed ["query"]'))
        expect(JSON.parse(pass.slice(6))).toHaveLength(2);
    } finally {
      await model.close();
    }
  });

  it('holds at most maxPending calls a lane in the thread; a caller that waits past queueTimeoutMs is refused, the other lane unaffected', async () => {
    const fake = fakePackages('busy(100); return values.map(() => [1, 0, 0]);');
    const model = createLocalUseLiteEmbeddings({ packages: fake.packages, maxPending: 1, queueTimeoutMs: 150 });
    try {
      await model.doEmbed({ values: ['warm'] });
      const long = model.doEmbed({
        values: Array.from({ length: 8 }, (_, index) => `b${index}`),
        priority: 'background',
      });
      const refused = await caught(model.doEmbed({ values: ['waits too long'], priority: 'background' }));
      expect(refused).toMatchObject({
        code: 'OVERLOADED',
        field: 'embeddings',
        details: { reason: 'queue_full', lane: 'background' },
      });
      await expect(model.doEmbed({ values: ['query'], priority: 'interactive' })).resolves.toMatchObject({
        embeddings: [expect.any(Float32Array)],
      });
      await long;
      expect(fake.calls().some((line) => line.includes('waits too long'))).toBe(false);
    } finally {
      await model.close();
    }
  });

  it('fails calls in flight on close and refuses later ones', async () => {
    const fake = fakePackages('busy(100); return values.map(() => [1, 0, 0]);');
    const model = createLocalUseLiteEmbeddings({ packages: fake.packages });
    await model.doEmbed({ values: ['warm'] });
    const inFlight = model.doEmbed({ values: ['a', 'b', 'c', 'd'] });
    const inFlightError = caught(inFlight);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await model.close();
    expect(await inFlightError).toMatchObject({ code: 'CONFIG_INVALID', message: 'this embedding model is closed' });
    expect(await caught(model.doEmbed({ values: ['later'] }))).toMatchObject({
      code: 'CONFIG_INVALID',
      field: 'embeddings',
    });
    await model.close();
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
