import { afterEach, describe, expect, it } from 'vitest';

import { caught } from '../../testing/expect-code.js';
import {
  fakeEmbedding,
  startOpenAiCompatibleServer,
  type OpenAiCompatibleServer,
  type OpenAiCompatibleServerOptions,
} from '../../../test/helpers/openai-compatible-server.js';
import { EngramError } from '../../spec/errors.js';
import { dot, normalise } from '../../util/vectors.js';
import { embedTexts } from './embed.js';
import { createOpenAiCompatibleEmbeddings } from './openai-compatible.js';

let server: OpenAiCompatibleServer | undefined;

async function start(options: OpenAiCompatibleServerOptions = {}): Promise<OpenAiCompatibleServer> {
  server = await startOpenAiCompatibleServer(options);
  return server;
}

afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('OpenAI-compatible embeddings', () => {
  it('posts { model, input, dimensions } with the bearer key and returns the server vectors, unit length', async () => {
    const { baseUrl, requests } = await start({ apiKey: 'sk-test-key' });
    const model = createOpenAiCompatibleEmbeddings({
      baseUrl,
      apiKey: 'sk-test-key',
      model: 'nomic-embed-text',
      dimensions: 8,
    });
    const { embeddings } = await model.doEmbed({ values: ['hello', 'world'] });
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ method: 'POST', path: '/v1/embeddings' });
    expect(requests[0]!.headers.authorization).toBe('Bearer sk-test-key');
    expect(requests[0]!.headers['content-type']).toBe('application/json');
    expect(requests[0]!.body).toEqual({ model: 'nomic-embed-text', input: ['hello', 'world'], dimensions: 8 });
    expect(embeddings.map((vector) => [...vector])).toEqual([
      [...normalise(fakeEmbedding('hello'))],
      [...normalise(fakeEmbedding('world'))],
    ]);
  });

  it('sends no dimensions and no authorization when none are configured, and learns the size from the answer', async () => {
    const { baseUrl, requests } = await start();
    const model = createOpenAiCompatibleEmbeddings({
      baseUrl: `${baseUrl}/?api-version=2`,
      model: 'm',
      headers: { 'x-gateway': 'g1' },
    });
    expect(model.dimensions).toBe(0);
    await model.doEmbed({ values: ['a'] });
    expect(model.dimensions).toBe(8);
    expect(requests[0]!.path).toBe('/v1/embeddings');
    expect(requests[0]!.body).toEqual({ model: 'm', input: ['a'] });
    expect(requests[0]!.headers.authorization).toBeUndefined();
    expect(requests[0]!.headers['x-gateway']).toBe('g1');
  });

  it('is local on loopback and remote elsewhere; knows the size of OpenAI models', () => {
    const of = (baseUrl: string) => createOpenAiCompatibleEmbeddings({ baseUrl, model: 'text-embedding-3-small' });
    expect(of('http://127.0.0.1:8080/v1').remote).toBe(false);
    expect(of('http://localhost:11434/v1').remote).toBe(false);
    expect(of('http://[::1]:8080/v1').remote).toBe(false);
    expect(of('https://api.openai.com/v1').remote).toBe(true);
    expect(of('http://192.168.1.20:8080/v1').remote).toBe(true);
    expect(of('https://api.openai.com/v1').dimensions).toBe(1536);
  });

  it('splits into requests of maxBatchSize through embedTexts and keeps input order', async () => {
    const { baseUrl, requests } = await start();
    const model = createOpenAiCompatibleEmbeddings({ baseUrl, model: 'm', dimensions: 8, maxBatchSize: 2 });
    const texts = ['one', 'two', 'three', 'four', 'five'];
    const vectors = await embedTexts(model, texts);
    expect(requests.map((request) => (request.body as { input: string[] }).input)).toEqual([
      ['one', 'two'],
      ['three', 'four'],
      ['five'],
    ]);
    texts.forEach((text, index) => expect(dot(vectors[index]!, normalise(fakeEmbedding(text)))).toBeCloseTo(1, 6));
  });

  it('orders vectors by their index, not by their place in the answer', async () => {
    const { baseUrl } = await start({
      embeddings: ({ input }) => {
        const values = input as string[];
        const data = values.map((text, index) => ({ object: 'embedding', index, embedding: fakeEmbedding(text) }));
        return { body: { object: 'list', data: data.reverse() } };
      },
    });
    const model = createOpenAiCompatibleEmbeddings({ baseUrl, model: 'm' });
    const { embeddings } = await model.doEmbed({ values: ['first', 'second', 'third'] });
    expect(embeddings.map((vector) => vector[0])).toEqual(
      ['first', 'second', 'third'].map((text) => normalise(fakeEmbedding(text))[0]),
    );
  });

  it('reports a size that differs from the declared dimensions as a configuration error', async () => {
    const { baseUrl } = await start({
      embeddings: ({ input }) => ({
        body: { data: (input as string[]).map((text, index) => ({ index, embedding: fakeEmbedding(text, 4) })) },
      }),
    });
    const model = createOpenAiCompatibleEmbeddings({ baseUrl, model: 'm', dimensions: 8 });
    const error = await caught(model.doEmbed({ values: ['a'] }));
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.field).toBe('embeddings.dimensions');
    expect(error.message).toMatch(/embeddings\.dimensions is 8 .* returned 4-dimensional/);
  });

  it('refuses malformed answers: wrong count, bad numbers, duplicate index, mixed sizes, not JSON', async () => {
    const answers: unknown[] = [
      { data: [{ index: 0, embedding: [1, 0] }] },
      {
        data: [
          { index: 0, embedding: [1, 0] },
          { index: 1, embedding: [1, 'x'] },
        ],
      },
      {
        data: [
          { index: 0, embedding: [1, 0] },
          { index: 0, embedding: [0, 1] },
        ],
      },
      {
        data: [
          { index: 0, embedding: [1, 0] },
          { index: 1, embedding: [0, 1, 0] },
        ],
      },
      { result: [] },
    ];
    let call = 0;
    const { baseUrl } = await start({ embeddings: () => ({ body: answers[call++] }) });
    const model = createOpenAiCompatibleEmbeddings({ baseUrl, model: 'm' });
    const messages: string[] = [];
    for (let index = 0; index < answers.length; index += 1) {
      const error = await caught(model.doEmbed({ values: ['a', 'b'] }));
      expect(error.code).toBe('INTERNAL');
      expect(error.field).toBe('embeddings');
      messages.push(error.message);
    }
    expect(messages[0]).toMatch(/1 embeddings for 2 inputs/);
    expect(messages[1]).toMatch(/data\[1\]\.embedding that is not a non-empty array of finite numbers/);
    expect(messages[2]).toMatch(/index 0 twice/);
    expect(messages[3]).toMatch(/mixes vector sizes \(2 and 3\)/);
    expect(messages[4]).toMatch(/has no data array/);
  });

  it('maps 401 to CONFIG_INVALID on embeddings.apiKey without repeating the key', async () => {
    const { baseUrl } = await start({ apiKey: 'sk-right-key' });
    const model = createOpenAiCompatibleEmbeddings({ baseUrl, apiKey: 'sk-wrong-key', model: 'm' });
    const error = await caught(model.doEmbed({ values: ['a'] }));
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.field).toBe('embeddings.apiKey');
    expect(error.message).toContain('HTTP 401');
    expect(error.message).toContain('invalid api key');
    expect(JSON.stringify(error.toJSON())).not.toContain('sk-wrong-key');
  });

  it('maps 404 to CONFIG_INVALID with a hint about the base URL', async () => {
    const { baseUrl } = await start();
    const model = createOpenAiCompatibleEmbeddings({ baseUrl: baseUrl.replace(/\/v1$/, ''), model: 'm' });
    const error = await caught(model.doEmbed({ values: ['a'] }));
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toMatch(/HTTP 404 .*no route POST \/embeddings.*usually ends in \/v1/);
  });

  it('maps 500 to INTERNAL carrying the status and the server message, with any echoed key redacted', async () => {
    const { baseUrl } = await start({
      embeddings: () => ({ status: 500, body: { error: { message: 'model sk-secret-123 crashed: out of memory' } } }),
    });
    const model = createOpenAiCompatibleEmbeddings({ baseUrl, apiKey: 'sk-secret-123', model: 'm' });
    const error = await caught(model.doEmbed({ values: ['a'] }));
    expect(error.code).toBe('INTERNAL');
    expect(error.message).toContain('HTTP 500');
    expect(error.message).toContain('crashed: out of memory');
    expect(error.message).not.toContain('sk-secret-123');
    expect(error.details).toEqual({ status: 500, retryable: true });
  });

  it('gives up after timeoutMs with an error saying so', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const { baseUrl } = await start({
      embeddings: async () => {
        await held;
        return { body: { data: [] } };
      },
    });
    const model = createOpenAiCompatibleEmbeddings({ baseUrl, model: 'm', timeoutMs: 100 });
    const started = performance.now();
    const error = await caught(model.doEmbed({ values: ['a'] }));
    release();
    expect(error.code).toBe('INTERNAL');
    expect(error.message).toMatch(/timed out after 100 ms/);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('passes a caller abort through as the abort reason, not as a timeout', async () => {
    const { baseUrl } = await start({ embeddings: () => new Promise(() => undefined) });
    const model = createOpenAiCompatibleEmbeddings({ baseUrl, model: 'm', timeoutMs: 5_000 });
    const controller = new AbortController();
    const pending = model.doEmbed({ values: ['a'], signal: controller.signal });
    setTimeout(() => controller.abort(new Error('caller gave up')), 50);
    await expect(pending).rejects.toThrow('caller gave up');
  });

  it('reports an unreachable server as INTERNAL naming the endpoint', async () => {
    const { baseUrl } = await start();
    await server!.close();
    server = undefined;
    const model = createOpenAiCompatibleEmbeddings({ baseUrl, model: 'm' });
    const error = await caught(model.doEmbed({ values: ['a'] }));
    expect(error.code).toBe('INTERNAL');
    expect(error.message).toContain(`${baseUrl}/embeddings`);
    expect(error.message).toMatch(/could not be fetched: .*ECONNREFUSED/);
  });

  it('validates its options', () => {
    const field = (options: Parameters<typeof createOpenAiCompatibleEmbeddings>[0]) => {
      try {
        createOpenAiCompatibleEmbeddings(options);
      } catch (error) {
        return EngramError.isInstance(error) ? `${error.code} ${error.field}` : 'other';
      }
      return 'ok';
    };
    expect(field({ baseUrl: 'ftp://x', model: 'm' })).toBe('CONFIG_INVALID embeddings.baseUrl');
    expect(field({ baseUrl: 'not a url', model: 'm' })).toBe('CONFIG_INVALID embeddings.baseUrl');
    expect(field({ baseUrl: 'https://user:secret@example.com/v1', model: 'm' })).toBe(
      'CONFIG_INVALID embeddings.baseUrl',
    );
    expect(field({ baseUrl: 'http://localhost/v1', model: ' ' })).toBe('CONFIG_INVALID embeddings.model');
    expect(field({ baseUrl: 'http://localhost/v1', model: 'm', dimensions: 0 })).toBe(
      'CONFIG_INVALID embeddings.dimensions',
    );
    expect(field({ baseUrl: 'http://localhost/v1', model: 'm', maxBatchSize: 1.5 })).toBe(
      'CONFIG_INVALID embeddings.maxBatchSize',
    );
    expect(field({ baseUrl: 'http://localhost/v1', model: 'm', timeoutMs: -1 })).toBe(
      'CONFIG_INVALID embeddings.timeoutMs',
    );
    expect(field({ baseUrl: 'http://localhost/v1', model: 'm' })).toBe('ok');
  });
});
