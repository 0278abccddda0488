import { afterEach, describe, expect, it } from 'vitest';

import { EngramError } from '../../spec/errors.js';
import {
  chatReply,
  startOpenAiCompatibleServer,
  type OpenAiCompatibleServer,
} from '../../../test/helpers/openai-compatible-server.js';
import { createOpenAiCompatibleChat } from './openai-compatible.js';

const schema = {
  type: 'object',
  properties: { ok: { type: 'boolean' } },
  required: ['ok'],
  additionalProperties: false,
};
const input = { system: 'You answer in JSON.', prompt: 'Is it ok?', schema, schemaName: 'answer' };

let server: OpenAiCompatibleServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function failureOf(run: () => Promise<unknown>): Promise<EngramError> {
  try {
    await run();
  } catch (error) {
    expect(EngramError.isInstance(error)).toBe(true);
    return error as EngramError;
  }
  throw new Error('expected an EngramError');
}

describe('createOpenAiCompatibleChat', () => {
  it('posts system and user messages with a strict json_schema response format and parses the answer', async () => {
    server = await startOpenAiCompatibleServer({ apiKey: 'sk-test', chat: () => chatReply('{"ok": true}') });
    const model = createOpenAiCompatibleChat({
      baseUrl: `${server.baseUrl}/`,
      apiKey: 'sk-test',
      model: 'test-model',
      temperature: 0,
      headers: { 'x-team': 'memory' },
    });
    const answer = await model.doGenerateObject(input);
    expect(answer).toEqual({ object: { ok: true }, raw: '{"ok": true}', usage: { inputTokens: 10, outputTokens: 5 } });
    const request = server.requests[0]!;
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.headers['authorization']).toBe('Bearer sk-test');
    expect(request.headers['x-team']).toBe('memory');
    expect(request.body).toEqual({
      model: 'test-model',
      messages: [
        { role: 'system', content: input.system },
        { role: 'user', content: input.prompt },
      ],
      response_format: { type: 'json_schema', json_schema: { name: 'answer', schema, strict: true } },
      temperature: 0,
    });
  });

  it('returns content that is not JSON as object undefined with the raw text, and unwraps a Markdown fence', async () => {
    server = await startOpenAiCompatibleServer({
      chat: (_, call) => chatReply(call === 1 ? 'Sure! Here you go.' : '```json\n{"ok": false}\n```'),
    });
    const model = createOpenAiCompatibleChat({ baseUrl: server.baseUrl, model: 'm' });
    expect(await model.doGenerateObject(input)).toMatchObject({ object: undefined, raw: 'Sure! Here you go.' });
    expect(await model.doGenerateObject(input)).toMatchObject({ object: { ok: false } });
    expect((server.requests[0]!.body as Record<string, unknown>)['temperature']).toBeUndefined();
  });

  it('treats a refusal (null content) as bad output, not as a fault', async () => {
    server = await startOpenAiCompatibleServer({
      chat: () => ({
        body: {
          choices: [{ index: 0, message: { role: 'assistant', content: null, refusal: 'I cannot help with that.' } }],
        },
      }),
    });
    const model = createOpenAiCompatibleChat({ baseUrl: server.baseUrl, model: 'm' });
    expect(await model.doGenerateObject(input)).toEqual({ object: undefined, raw: 'I cannot help with that.' });
  });

  it('reports loopback hosts as local and anything else as remote', () => {
    const remote = (baseUrl: string) => createOpenAiCompatibleChat({ baseUrl, model: 'm' }).remote;
    expect(remote('http://localhost:11434/v1')).toBe(false);
    expect(remote('http://127.0.0.1:8000/v1')).toBe(false);
    expect(remote('http://[::1]:8000/v1')).toBe(false);
    expect(remote('https://api.openai.com/v1')).toBe(true);
    expect(remote('http://192.168.1.20:11434/v1')).toBe(true);
  });

  it('rejects a baseUrl that is not an http(s) URL', () => {
    expect(() => createOpenAiCompatibleChat({ baseUrl: 'localhost:11434', model: 'm' })).toThrow(/baseUrl/);
  });

  it('maps 401 and 404 to CONFIG_INVALID without ever showing the API key', async () => {
    server = await startOpenAiCompatibleServer({ apiKey: 'right-key', chat: () => chatReply('{}') });
    const wrongKey = createOpenAiCompatibleChat({ baseUrl: server.baseUrl, apiKey: 'sk-secret-123', model: 'm' });
    const unauthorized = await failureOf(() => wrongKey.doGenerateObject(input));
    expect(unauthorized.code).toBe('CONFIG_INVALID');
    expect(unauthorized.field).toBe('llm');
    expect(unauthorized.details['status']).toBe(401);
    expect(unauthorized.message).toContain('invalid api key');
    expect(JSON.stringify({ ...unauthorized.toJSON(), message: unauthorized.message })).not.toContain('sk-secret-123');

    const wrongPath = createOpenAiCompatibleChat({
      baseUrl: `${server.baseUrl}/nowhere`,
      apiKey: 'right-key',
      model: 'm',
    });
    const notFound = await failureOf(() => wrongPath.doGenerateObject(input));
    expect(notFound.code).toBe('CONFIG_INVALID');
    expect(notFound.details['status']).toBe(404);
  });

  it('redacts the API key when the provider echoes it back', async () => {
    server = await startOpenAiCompatibleServer({
      chat: () => ({ status: 400, body: { error: { message: 'bad key sk-secret-123 for model' } } }),
    });
    const model = createOpenAiCompatibleChat({ baseUrl: server.baseUrl, apiKey: 'sk-secret-123', model: 'm' });
    const error = await failureOf(() => model.doGenerateObject(input));
    expect(error.code).toBe('INTERNAL');
    expect(error.message).toContain('bad key [redacted] for model');
    expect(error.message).not.toContain('sk-secret-123');
  });

  it('maps other HTTP errors to INTERNAL with the status and the provider message', async () => {
    server = await startOpenAiCompatibleServer({
      chat: () => ({ status: 503, body: { error: { message: 'model is loading' } } }),
    });
    const model = createOpenAiCompatibleChat({ baseUrl: server.baseUrl, model: 'm' });
    const error = await failureOf(() => model.doGenerateObject(input));
    expect(error.code).toBe('INTERNAL');
    expect(error.field).toBe('llm');
    expect(error.message).toContain('503');
    expect(error.message).toContain('model is loading');
    expect(error.cause).toEqual({ status: 503, message: 'model is loading' });
  });

  it('maps a body without choices, a timeout and a refused connection to INTERNAL', async () => {
    server = await startOpenAiCompatibleServer({
      chat: async (body) => {
        if (body.model === 'slow') await new Promise((resolve) => setTimeout(resolve, 300));
        return { body: { unexpected: true } };
      },
    });
    const odd = await failureOf(() =>
      createOpenAiCompatibleChat({ baseUrl: server!.baseUrl, model: 'm' }).doGenerateObject(input),
    );
    expect(odd.code).toBe('INTERNAL');
    expect(odd.message).toContain('choices');

    const slow = await failureOf(() =>
      createOpenAiCompatibleChat({ baseUrl: server!.baseUrl, model: 'slow', timeoutMs: 50 }).doGenerateObject(input),
    );
    expect(slow.code).toBe('INTERNAL');
    expect(slow.message).toContain('timed out after 50 ms');

    const closed = await startOpenAiCompatibleServer();
    const closedUrl = closed.baseUrl;
    await closed.close();
    const refused = await failureOf(() =>
      createOpenAiCompatibleChat({ baseUrl: closedUrl, model: 'm' }).doGenerateObject(input),
    );
    expect(refused.code).toBe('INTERNAL');
    expect(refused.message).toContain('ECONNREFUSED');
  });

  it("rejects with the caller's own abort reason when the caller aborts", async () => {
    server = await startOpenAiCompatibleServer({ chat: () => chatReply('{"ok": true}') });
    const model = createOpenAiCompatibleChat({ baseUrl: server.baseUrl, model: 'm' });
    const reason = new Error('turn cancelled');
    await expect(model.doGenerateObject({ ...input, signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
  });

  it('keeps the query string of baseUrl on the request but out of error messages', async () => {
    server = await startOpenAiCompatibleServer({ chat: () => ({ status: 500, body: { error: { message: 'boom' } } }) });
    const model = createOpenAiCompatibleChat({
      baseUrl: `${server.baseUrl}?api-version=2024-10-21&key=secret`,
      model: 'm',
    });
    const error = await failureOf(() => model.doGenerateObject(input));
    expect(server.requests[0]!.path).toBe('/v1/chat/completions');
    expect(error.message).not.toContain('secret');
    expect(error.details['retryable']).toBe(true);
  });
});
