// How the local embedding provider's thread serves calls, with stand-in packages: an aborted call
// never starts, interactive calls go before a background backlog, each lane holds a bounded number
// of calls, and close fails what is in flight.

import { afterAll, describe, expect, it } from 'vitest';

import { caught } from '../../testing/expect-code.js';
import { createLocalUseLiteEmbeddings } from './local-use-lite.js';
import { fakePackages, removeFakePackages } from './use-lite-test-kit.js';

afterAll(removeFakePackages);

describe('local embeddings: the thread, loading and failures (stand-in packages)', () => {
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
});
