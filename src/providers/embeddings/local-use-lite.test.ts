// The local Universal Sentence Encoder lite with the real model, offline, on its thread: what it
// declares, unit vectors that tell a paraphrase from an unrelated sentence, batches, empty and long
// texts, and an interactive call served during a background backlog. The thread, loading and
// failures with stand-in packages are local-use-lite-loading and local-use-lite-scheduling.test.ts.

import { afterAll, describe, expect, it } from 'vitest';

import { dot } from '../../util/vectors.js';
import { embedTexts } from './embed.js';
import { createLocalUseLiteEmbeddings } from './local-use-lite.js';

const modelLoad = 120_000;

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
