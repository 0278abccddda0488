// A small OpenAI-compatible HTTP server on loopback for provider tests: /v1/embeddings and
// /v1/chat/completions answer from handlers the test supplies, and every request is recorded, so a
// test exercises the real client code path and can check what was sent. A chat request with
// `stream: true` gets the handler's completion as server-sent chunks.

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
  /**
   * Answers POST /v1/chat/completions with a completion body (see `chatReply`), which a request
   * with `stream: true` receives as chunks; the default returns 500 (tests that chat must say what
   * to answer).
   */
  chat?: (body: ChatRequest, call: number) => Reply | Promise<Reply>;
  /** The bearer token the server requires; none when undefined. */
  apiKey?: string;
}

/** A chat completion request as the server reads it. */
export interface ChatRequest {
  model?: string;
  /** Assistant messages that call tools have `content: null` and `tool_calls`. */
  messages: Array<{
    role: string;
    content: string;
    tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
    tool_call_id?: string;
  }>;
  response_format?: unknown;
  stream?: boolean;
  tools?: Array<{ type: 'function'; function: { name: string } }>;
}

export interface OpenAiCompatibleServer {
  /** Base URL including `/v1`, for example `http://127.0.0.1:41234/v1`. */
  baseUrl: string;
  requests: RecordedRequest[];
  /** The chat completion requests received so far, in order. */
  chats(): ChatRequest[];
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

/** A message's text: some clients send an assistant's reply as text parts. */
export function textOf(message: ChatRequest['messages'][number]): string {
  const content: unknown = message.content;
  if (typeof content === 'string') return content;
  return Array.isArray(content)
    ? content.map((part: { text?: unknown }) => (typeof part.text === 'string' ? part.text : '')).join('')
    : '';
}

/**
 * The conversation a chat request carried: role and text of each message but the system prompt.
 *
 * @example
 * said(server.chats()[1]!) // [['user', 'Hi!'], ['assistant', 'Hello.'], ['user', 'Remember …']]
 */
export function said(body: ChatRequest): Array<[string, string]> {
  return body.messages.filter((message) => message.role !== 'system').map((message) => [message.role, textOf(message)]);
}

/** The system prompt a chat request carried (its system messages, joined). */
export function systemOf(body: ChatRequest): string {
  return body.messages
    .filter((message) => message.role === 'system')
    .map(textOf)
    .join('\n');
}

/**
 * A chat completion body carrying `content` as the assistant's message.
 *
 * @example
 * chatReply(JSON.stringify({ items: [] }))
 */
export function chatReply(content: string): Reply {
  return completion({ role: 'assistant', content }, 'stop');
}

/**
 * A chat completion body that calls tools instead of answering.
 *
 * @example
 * toolCallsReply([{ id: 'call-1', name: 'remember', arguments: { type: 'preferences', key: 'pref:food:snack', value } }])
 */
export function toolCallsReply(calls: Array<{ id: string; name: string; arguments: Record<string, unknown> }>): Reply {
  const toolCalls = calls.map((call) => ({
    id: call.id,
    type: 'function',
    function: { name: call.name, arguments: JSON.stringify(call.arguments) },
  }));
  return completion({ role: 'assistant', content: null, tool_calls: toolCalls }, 'tool_calls');
}

function completion(message: Record<string, unknown>, finishReason: string): Reply {
  return {
    body: {
      id: 'chatcmpl-test',
      object: 'chat.completion',
      created: 0,
      model: 'test-model',
      choices: [{ index: 0, finish_reason: finishReason, message }],
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
  return [...(body.messages.at(-1)?.content ?? '').matchAll(/"event_id":"(evt_[0-9A-Z]{26})"/gu)].map(
    (match) => match[1]!,
  );
}

/** A completion body as the chunks of a streamed answer: the content word by word, then tool calls, then the finish. */
function streamChunks(completion: Record<string, unknown>): unknown[] {
  const { choices, usage, ...head } = completion as {
    choices: Array<{ finish_reason: string; message: { content: string | null; tool_calls?: unknown[] } }>;
    usage?: unknown;
  };
  const choice = choices[0]!;
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) => ({
    ...head,
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  });
  const words = (choice.message.content ?? '').split(/(?<= )/u).filter((word) => word !== '');
  return [
    chunk({ role: 'assistant', content: '' }),
    ...words.map((word) => chunk({ content: word })),
    ...(choice.message.tool_calls ?? []).map((call, index) =>
      chunk({ tool_calls: [{ index, ...(call as Record<string, unknown>) }] }),
    ),
    { ...chunk({}, choice.finish_reason), usage },
  ];
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
export async function startOpenAiCompatibleServer(
  options: OpenAiCompatibleServerOptions = {},
): Promise<OpenAiCompatibleServer> {
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
            data: values.map((text, index) => ({
              object: 'embedding',
              index,
              embedding: fakeEmbedding(text, input.dimensions ?? 8),
            })),
            usage: { prompt_tokens: values.length, total_tokens: values.length },
          },
        });
      }
      if (request.method === 'POST' && path === '/v1/chat/completions') {
        chatCalls += 1;
        if (options.chat === undefined)
          return send({ status: 500, body: { error: { message: 'no chat handler in this test' } } });
        const chat = body as ChatRequest;
        const reply = await options.chat(chat, chatCalls);
        if (chat.stream !== true || (reply.status ?? 200) !== 200) return send(reply);
        response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        for (const chunk of streamChunks(reply.body as Record<string, unknown>))
          response.write(`data: ${JSON.stringify(chunk)}\n\n`);
        return response.end('data: [DONE]\n\n');
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
    chats: () =>
      requests
        .filter((request) => request.path === '/v1/chat/completions')
        .map((request) => request.body as ChatRequest),
    close: () =>
      (closing ??= new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      )),
  };
}
