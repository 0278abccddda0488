// A small OpenAI-compatible HTTP server on loopback for provider tests: /v1/embeddings and
// /v1/chat/completions answer from handlers the test supplies, and every request is recorded, so a
// test exercises the real client code path and can check what was sent.

import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

/** What a handler returns: a JSON body, with a status (default 200). */
export interface Reply {
  status?: number;
  body: unknown;
}

export interface OpenAiCompatibleServerOptions {
  /** Answers POST /v1/embeddings; the default returns a deterministic vector per input. */
  embeddings?: (body: { input: string | string[]; model?: string; dimensions?: number }) => Reply | Promise<Reply>;
  /** Answers POST /v1/chat/completions; the default returns 500 (tests that chat must say what to answer). */
  chat?: (body: { model?: string; messages: Array<{ role: string; content: string }>; response_format?: unknown }, call: number) => Reply | Promise<Reply>;
  /** The bearer token the server requires; none when undefined. */
  apiKey?: string;
}

export interface OpenAiCompatibleServer {
  /** Base URL including `/v1`, for example `http://127.0.0.1:41234/v1`. */
  baseUrl: string;
  requests: RecordedRequest[];
  /** Stops listening (a second call does nothing): the base URL then refuses connections, as a model that is down. */
  close(): Promise<void>;
}

/** A deterministic unit vector for a text (hash-seeded), so tests can predict similarities. */
export function fakeEmbedding(text: string, dimensions = 8): number[] {
  let seed = 2166136261;
  for (const char of text) seed = Math.imul(seed ^ char.codePointAt(0)!, 16777619) >>> 0;
  const vector = Array.from({ length: dimensions }, (_, index) => Math.sin(seed + index * 7.1));
  const norm = Math.hypot(...vector);
  return vector.map((value) => value / norm);
}

/**
 * A chat completion body carrying `content` as the assistant's message.
 *
 * @example
 * chatReply(JSON.stringify({ items: [] }))
 */
export function chatReply(content: string): Reply {
  return {
    body: {
      id: 'chatcmpl-test',
      object: 'chat.completion',
      created: 0,
      model: 'test-model',
      choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } }],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    },
  };
}

/**
 * The event ids an extraction prompt shows the model, in the order it lists them (none for a
 * prompt of another kind).
 *
 * @example
 * chat: (body) => chatReply(JSON.stringify({ items: [{ ...item, source_event_ids: promptEventIds(body).slice(0, 1) }] }))
 */
export function promptEventIds(body: { messages: Array<{ content: string }> }): string[] {
  return [...(body.messages.at(-1)?.content ?? '').matchAll(/"event_id":"(evt_[0-9A-Z]{26})"/gu)].map((match) => match[1]!);
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? null : (JSON.parse(text) as unknown);
}

/**
 * Starts the server on 127.0.0.1 with a free port.
 *
 * @example
 * const server = await startOpenAiCompatibleServer({ chat: () => chatReply('{"items": []}') });
 * // ... point the provider at server.baseUrl ...
 * await server.close();
 */
export async function startOpenAiCompatibleServer(options: OpenAiCompatibleServerOptions = {}): Promise<OpenAiCompatibleServer> {
  const requests: RecordedRequest[] = [];
  let chatCalls = 0;
  const server: Server = createServer((request, response) => {
    void (async () => {
      const body = await readJson(request).catch(() => undefined);
      const path = (request.url ?? '').split('?')[0]!;
      requests.push({ method: request.method ?? '', path, headers: request.headers, body });
      const send = (reply: Reply) => {
        response.writeHead(reply.status ?? 200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(reply.body));
      };
      if (options.apiKey !== undefined && request.headers.authorization !== `Bearer ${options.apiKey}`) {
        return send({ status: 401, body: { error: { message: 'invalid api key', type: 'invalid_request_error' } } });
      }
      if (request.method === 'POST' && path === '/v1/embeddings') {
        const input = body as { input: string | string[]; model?: string; dimensions?: number };
        if (options.embeddings !== undefined) return send(await options.embeddings(input));
        const values = Array.isArray(input.input) ? input.input : [input.input];
        return send({
          body: {
            object: 'list',
            model: input.model ?? 'test-embedding',
            data: values.map((text, index) => ({ object: 'embedding', index, embedding: fakeEmbedding(text, input.dimensions ?? 8) })),
            usage: { prompt_tokens: values.length, total_tokens: values.length },
          },
        });
      }
      if (request.method === 'POST' && path === '/v1/chat/completions') {
        chatCalls += 1;
        if (options.chat === undefined) return send({ status: 500, body: { error: { message: 'no chat handler in this test' } } });
        return send(await options.chat(body as Parameters<NonNullable<OpenAiCompatibleServerOptions['chat']>>[0], chatCalls));
      }
      send({ status: 404, body: { error: { message: `no route ${request.method} ${path}` } } });
    })().catch((error: unknown) => {
      response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: String(error) } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => (closing ??= new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())))),
  };
}
