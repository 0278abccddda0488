// The StructuredModel for any OpenAI-compatible chat endpoint (OpenAI, Ollama, vLLM, LM Studio): one
// POST to `/chat/completions` with a strict `json_schema` response format. Transport faults become
// typed EngramErrors; an answer that is not JSON comes back as `object: undefined`, for the wrapper to retry.

import { EngramError } from '../../spec/errors.js';
import type { StructuredModel } from '../../spec/providers.js';

/** Where the chat endpoint is and how to call it. */
export interface OpenAiCompatibleChatOptions {
  /** The API root including the version, for example `https://api.openai.com/v1` or `http://localhost:11434/v1`. */
  baseUrl: string;
  /** Sent as a bearer token; never appears in an error message. */
  apiKey?: string;
  model: string;
  /** Extra request headers (an organisation id, a gateway token). */
  headers?: Record<string, string>;
  /** Default 60,000 ms. */
  timeoutMs?: number;
  /** Sent only when given: some reasoning models refuse any temperature but the default. */
  temperature?: number;
}

type GenerateInput = Parameters<StructuredModel['doGenerateObject']>[0];
type GenerateOutput = Awaited<ReturnType<StructuredModel['doGenerateObject']>>;

const DEFAULT_TIMEOUT_MS = 60_000;
const LOOPBACK_HOSTS = new Set(['localhost', '[::1]', '::1']);

/**
 * A StructuredModel backed by an OpenAI-compatible `/chat/completions` endpoint. `remote` is false
 * for loopback hosts (localhost, 127.0.0.0/8, ::1), true otherwise.
 *
 * @example
 * const model = createOpenAiCompatibleChat({ baseUrl: 'http://localhost:11434/v1', model: 'qwen2.5:7b' });
 * const { object } = await model.doGenerateObject({ system, prompt, schema, schemaName: 'items' });
 */
export function createOpenAiCompatibleChat(options: OpenAiCompatibleChatOptions): StructuredModel {
  const url = parseBaseUrl(options.baseUrl);
  // The query string stays on the request (Azure's api-version) but out of messages: it may carry a key.
  const endpoint = `${url.origin}${url.pathname.replace(/\/+$/u, '')}/chat/completions`;
  const requestUrl = `${endpoint}${url.search}`;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json',
    ...options.headers,
  };
  if (options.apiKey !== undefined && options.apiKey !== '') headers['authorization'] = `Bearer ${options.apiKey}`;
  const apiKey = options.apiKey ?? '';
  const redact = (text: string): string => (apiKey.length >= 4 ? text.split(apiKey).join('[redacted]') : text);

  return {
    specificationVersion: 'v1',
    provider: 'openai-compatible',
    modelId: options.model,
    remote: !isLoopback(url.hostname),
    async doGenerateObject(input: GenerateInput): Promise<GenerateOutput> {
      const body = {
        model: options.model,
        messages: [
          { role: 'system', content: input.system },
          { role: 'user', content: input.prompt },
        ],
        response_format: {
          type: 'json_schema',
          json_schema: { name: schemaNameOf(input.schemaName), schema: input.schema, strict: input.strict ?? true },
        },
        ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
      };
      const { status, text } = await post(
        requestUrl,
        endpoint,
        { method: 'POST', headers, body: JSON.stringify(body) },
        timeoutMs,
        input.signal,
      );
      if (status < 200 || status > 299) throw httpError(endpoint, status, redact(providerMessage(text)));
      return readCompletion(endpoint, text, redact);
    },
  };
}

function parseBaseUrl(baseUrl: string): URL {
  try {
    const url = new URL(baseUrl);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url;
  } catch {
    // reported below
  }
  throw new EngramError('CONFIG_INVALID', `llm: baseUrl must be an http(s) URL, got ${JSON.stringify(baseUrl)}`, {
    field: 'llm',
  });
}

function isLoopback(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return LOOPBACK_HOSTS.has(host) || host.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/u.test(host);
}

// OpenAI accepts names of [a-zA-Z0-9_-], at most 64 characters.
function schemaNameOf(name: string): string {
  return name.replace(/[^a-zA-Z0-9_-]/gu, '_').slice(0, 64) || 'output';
}

async function post(
  requestUrl: string,
  endpoint: string,
  init: RequestInit,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<{ status: number; text: string }> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const combined = signal === undefined ? timeout : AbortSignal.any([signal, timeout]);
  try {
    const response = await fetch(requestUrl, { ...init, signal: combined });
    return { status: response.status, text: await response.text() };
  } catch (cause) {
    // The caller's own abort comes back as the caller's reason, as the embeddings provider does.
    if (signal?.aborted === true) throw signal.reason;
    const why = timeout.aborted ? `timed out after ${timeoutMs} ms` : `failed: ${describe(cause)}`;
    throw new EngramError('INTERNAL', `llm: POST ${endpoint} ${why}`, { field: 'llm', cause });
  }
}

// fetch reports every network fault as "fetch failed"; the useful part (ECONNREFUSED…) is its cause.
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const inner = error.cause;
  const code = isRecord(inner) && typeof inner['code'] === 'string' ? ` (${inner['code']})` : '';
  return `${error.message}${code}`;
}

function httpError(endpoint: string, status: number, message: string): EngramError {
  const details = { status, provider_message: message, retryable: status === 429 || status >= 500 };
  if (status === 401 || status === 403 || status === 404) {
    const hint = status === 404 ? 'check baseUrl and model' : 'check apiKey';
    return new EngramError('CONFIG_INVALID', `llm: POST ${endpoint} answered HTTP ${status} (${hint}): ${message}`, {
      field: 'llm',
      details,
    });
  }
  return new EngramError('INTERNAL', `llm: POST ${endpoint} answered HTTP ${status}: ${message}`, {
    field: 'llm',
    cause: { status, message },
    details,
  });
}

/** The provider's own error message from an error body, or the start of the body. */
function providerMessage(text: string): string {
  const body = tryParse(text);
  if (isRecord(body)) {
    const error = body['error'];
    if (isRecord(error) && typeof error['message'] === 'string') return error['message'];
    if (typeof error === 'string') return error;
    for (const field of ['message', 'detail']) if (typeof body[field] === 'string') return body[field];
  }
  return text.trim().slice(0, 300) || '(empty body)';
}

function readCompletion(endpoint: string, text: string, redact: (text: string) => string): GenerateOutput {
  const body = tryParse(text);
  const choices = isRecord(body) ? body['choices'] : undefined;
  const message = Array.isArray(choices) && isRecord(choices[0]) ? choices[0]['message'] : undefined;
  if (!isRecord(message)) {
    throw new EngramError(
      'INTERNAL',
      `llm: POST ${endpoint} answered a body without choices[0].message: ${redact(text.slice(0, 300))}`,
      {
        field: 'llm',
        cause: { body: redact(text.slice(0, 2_000)) },
      },
    );
  }
  const usage = usageOf(isRecord(body) ? body['usage'] : undefined);
  const content = message['content'];
  // A refusal or an empty answer is bad output, not a transport fault: the wrapper retries it.
  if (typeof content !== 'string') {
    const refusal = typeof message['refusal'] === 'string' ? message['refusal'] : '';
    return { object: undefined, raw: refusal, ...usage };
  }
  return { object: tryParse(unfence(content)), raw: content, ...usage };
}

function usageOf(usage: unknown): { usage?: { inputTokens?: number; outputTokens?: number } } {
  if (!isRecord(usage)) return {};
  const read = (field: string) => (typeof usage[field] === 'number' ? usage[field] : undefined);
  return { usage: { inputTokens: read('prompt_tokens'), outputTokens: read('completion_tokens') } };
}

// Servers that ignore response_format sometimes wrap the JSON in a Markdown fence.
function unfence(content: string): string {
  const match = /^\s*```[a-zA-Z]*\s*\n([\s\S]*?)\n?```\s*$/u.exec(content);
  return match === null ? content : match[1]!;
}

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
