// Embeddings from any server that speaks OpenAI's POST /embeddings (OpenAI, Ollama, vLLM, LM Studio,
// text-embeddings-inference). It owns the request, the timeout, the mapping of HTTP failures to
// EngramError, and the validation of the response body; the API key never appears in a message.

import { EngramError } from '../../spec/errors.js';
import type { EmbeddingModel } from '../../spec/providers.js';
import { normalise } from '../../util/vectors.js';

/**
 * Where and how to reach an OpenAI-compatible embeddings server.
 *
 * @example
 * { baseUrl: 'https://api.openai.com/v1', apiKey: process.env.OPENAI_API_KEY, model: 'text-embedding-3-small' }
 */
export interface OpenAiCompatibleEmbeddingsOptions {
  /** Up to and including the version segment, for example `https://api.openai.com/v1` or `http://localhost:11434/v1`. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer …` when set. */
  apiKey?: string;
  model: string;
  /**
   * The vector size. When set it is also sent as the request's `dimensions` (text-embedding-3 models
   * shorten to it) and every response must match it. When unset it is known for OpenAI's own models
   * and otherwise learned from the first response (0 until then).
   */
  dimensions?: number;
  /** Most texts per request. Default 32, which text-embeddings-inference accepts by default. */
  maxBatchSize?: number;
  /** Extra request headers, for example a gateway's own key header. */
  headers?: Record<string, string>;
  /** Per request, including reading the body. Default 30 000 ms. */
  timeoutMs?: number;
}

const knownDimensions: Record<string, number> = {
  'text-embedding-3-small': 1536,
  'text-embedding-3-large': 3072,
  'text-embedding-ada-002': 1536,
};

function configError(field: string, message: string): EngramError {
  return new EngramError('CONFIG_INVALID', `embeddings.${field} ${message}`, { field: `embeddings.${field}` });
}

function positiveInteger(value: unknown, field: string): void {
  if (value !== undefined && (typeof value !== 'number' || !Number.isInteger(value) || value < 1)) {
    throw configError(field, `must be a positive integer, got ${JSON.stringify(value)}`);
  }
}

function parseBaseUrl(baseUrl: unknown): URL {
  let url: URL | undefined;
  try {
    if (typeof baseUrl === 'string') url = new URL(baseUrl);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw configError(
      'baseUrl',
      `must be an http(s) URL such as https://api.openai.com/v1, got ${JSON.stringify(baseUrl)}`,
    );
  }
  // fetch refuses URLs with credentials; saying so here is clearer than its TypeError on first use.
  if (url.username !== '' || url.password !== '')
    throw configError('baseUrl', 'must not contain credentials; use apiKey or headers');
  return url;
}

function validateOptions(options: OpenAiCompatibleEmbeddingsOptions): URL {
  const url = parseBaseUrl(options.baseUrl);
  if (typeof options.model !== 'string' || options.model.trim() === '')
    throw configError('model', 'must name the embedding model');
  if (options.apiKey !== undefined && typeof options.apiKey !== 'string')
    throw configError('apiKey', 'must be a string');
  positiveInteger(options.dimensions, 'dimensions');
  positiveInteger(options.maxBatchSize, 'maxBatchSize');
  positiveInteger(options.timeoutMs, 'timeoutMs');
  const headers: unknown = options.headers;
  if (
    headers !== undefined &&
    (typeof headers !== 'object' ||
      headers === null ||
      Object.values(headers).some((value) => typeof value !== 'string'))
  ) {
    throw configError('headers', 'must map header names to strings');
  }
  return url;
}

/** True for localhost, 127.0.0.0/8 and ::1: texts sent there do not leave this machine. */
function isLoopback(url: URL): boolean {
  const host = url.hostname.toLowerCase();
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host === '[::1]' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)
  );
}

/** The provider's own words from an error body (OpenAI, Ollama and TEI shapes), else the raw text. */
function providerMessage(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: unknown; message?: unknown; detail?: unknown } | null;
    const error = body?.error;
    if (typeof error === 'string') return error;
    if (typeof error === 'object' && error !== null && typeof (error as { message?: unknown }).message === 'string') {
      return (error as { message: string }).message;
    }
    if (typeof body?.message === 'string') return body.message;
    if (typeof body?.detail === 'string') return body.detail;
  } catch {
    // Not JSON: fall through to the text itself.
  }
  return text.trim().slice(0, 300) || '(empty body)';
}

/** The embedding arrays of a response body in input order, or a description of what is wrong. */
function readVectors(body: unknown, count: number): number[][] | string {
  const data = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) return 'has no data array';
  if (data.length !== count) return `has ${data.length} embeddings for ${count} inputs`;
  const ordered = new Array<number[] | undefined>(count);
  for (const [position, item] of data.entries()) {
    const { index, embedding } = (item ?? {}) as { index?: unknown; embedding?: unknown };
    const slot = index === undefined ? position : index;
    if (typeof slot !== 'number' || !Number.isInteger(slot) || slot < 0 || slot >= count)
      return `has data[${position}].index ${JSON.stringify(index)} outside 0..${count - 1}`;
    if (ordered[slot] !== undefined) return `has index ${slot} twice`;
    if (
      !Array.isArray(embedding) ||
      embedding.length === 0 ||
      !embedding.every((value) => typeof value === 'number' && Number.isFinite(value))
    ) {
      return `has data[${position}].embedding that is not a non-empty array of finite numbers`;
    }
    ordered[slot] = embedding as number[];
  }
  const size = ordered[0]!.length;
  const odd = ordered.findIndex((vector) => vector!.length !== size);
  if (odd !== -1) return `mixes vector sizes (${size} and ${ordered[odd]!.length})`;
  return ordered as number[][];
}

/** What error messages need to name the endpoint without leaking the key. */
interface Endpoint {
  url: string;
  where: string;
  modelId: string;
  redact: (text: string) => string;
}

function failure(endpoint: Endpoint, message: string, extra: { status?: number; cause?: unknown } = {}): EngramError {
  return new EngramError(
    'INTERNAL',
    `embeddings from ${endpoint.where} (model ${endpoint.modelId}) ${endpoint.redact(message)}`,
    {
      field: 'embeddings',
      cause: extra.cause,
      details:
        extra.status === undefined
          ? {}
          : { status: extra.status, retryable: extra.status === 429 || extra.status >= 500 },
    },
  );
}

/** The error for a non-2xx answer: a refused key or a wrong URL/model is configuration, the rest is not. */
function statusError(endpoint: Endpoint, status: number, text: string): EngramError {
  const said = endpoint.redact(providerMessage(text));
  if (status === 401 || status === 403) {
    return new EngramError(
      'CONFIG_INVALID',
      `embeddings.apiKey was refused by ${endpoint.where} (HTTP ${status}): ${said}`,
      {
        field: 'embeddings.apiKey',
        details: { status },
      },
    );
  }
  if (status === 404) {
    const hint = 'check embeddings.baseUrl (it usually ends in /v1) and embeddings.model';
    return new EngramError(
      'CONFIG_INVALID',
      `${endpoint.where} answered HTTP 404 for model ${endpoint.modelId}: ${said}; ${hint}`,
      {
        field: 'embeddings',
        details: { status },
      },
    );
  }
  return failure(endpoint, `failed with HTTP ${status}: ${said}`, { status });
}

async function post(
  endpoint: Endpoint,
  request: { body: string; headers: Record<string, string>; timeoutMs: number; signal: AbortSignal | undefined },
): Promise<{ status: number; text: string }> {
  const { signal, timeoutMs } = request;
  const timeout = AbortSignal.timeout(timeoutMs);
  try {
    const response = await fetch(endpoint.url, {
      method: 'POST',
      headers: request.headers,
      body: request.body,
      signal: signal === undefined ? timeout : AbortSignal.any([signal, timeout]),
    });
    return { status: response.status, text: await response.text() };
  } catch (cause) {
    if (signal?.aborted === true) throw signal.reason;
    if (timeout.aborted) throw failure(endpoint, `timed out after ${timeoutMs} ms`, { cause });
    const reason =
      cause instanceof Error ? ((cause.cause as Error | undefined)?.message ?? cause.message) : String(cause);
    throw failure(endpoint, `could not be fetched: ${reason}`, { cause });
  }
}

/**
 * An embedding model behind an OpenAI-compatible `/embeddings` endpoint, called with Node's fetch.
 * `remote` is false only when the server is on loopback.
 *
 * @example
 * const model = createOpenAiCompatibleEmbeddings({ baseUrl: 'http://localhost:11434/v1', model: 'nomic-embed-text', dimensions: 768 });
 * const vectors = await embedTexts(model, ['I prefer tea in the morning']);
 */
export function createOpenAiCompatibleEmbeddings(options: OpenAiCompatibleEmbeddingsOptions): EmbeddingModel {
  const url = validateOptions(options);
  const { apiKey, model: modelId, timeoutMs = 30_000 } = options;
  const target = new URL(url.href);
  target.pathname = `${target.pathname.replace(/\/+$/, '')}/embeddings`;
  const endpoint: Endpoint = {
    url: target.href,
    // Named without credentials or query string, which may carry a key.
    where: `${url.origin}${url.pathname.replace(/\/+$/, '')}/embeddings`,
    modelId,
    redact: (text) => (apiKey !== undefined && apiKey.length >= 4 ? text.replaceAll(apiKey, '[redacted]') : text),
  };
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json',
    ...(apiKey === undefined ? {} : { authorization: `Bearer ${apiKey}` }),
    ...options.headers,
  };
  const declared = options.dimensions ?? knownDimensions[modelId];
  let dimensions = declared ?? 0;

  return {
    specificationVersion: 'v1',
    provider: 'openai-compatible',
    modelId,
    get dimensions() {
      return dimensions;
    },
    maxBatchSize: options.maxBatchSize ?? 32,
    remote: !isLoopback(url),
    async doEmbed({ values, signal }) {
      if (values.length === 0) return { embeddings: [] };
      const body = JSON.stringify({
        model: modelId,
        input: values,
        ...(options.dimensions === undefined ? {} : { dimensions: options.dimensions }),
      });
      const { status, text } = await post(endpoint, { body, headers, timeoutMs, signal });
      if (status < 200 || status >= 300) throw statusError(endpoint, status, text);
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch (cause) {
        throw failure(endpoint, `returned a body that is not JSON: ${text.slice(0, 200)}`, { cause });
      }
      const vectors = readVectors(parsed, values.length);
      if (typeof vectors === 'string') throw failure(endpoint, `returned a response that ${vectors}`);
      const size = vectors[0]!.length;
      if (declared !== undefined && size !== declared) {
        const expected =
          options.dimensions === undefined
            ? `${modelId} normally has ${declared} dimensions`
            : `embeddings.dimensions is ${declared}`;
        throw new EngramError(
          'CONFIG_INVALID',
          `${expected} but ${endpoint.where} returned ${size}-dimensional vectors`,
          {
            field: 'embeddings.dimensions',
            details: { expected: declared, actual: size },
          },
        );
      }
      if (dimensions !== 0 && size !== dimensions)
        throw failure(endpoint, `changed its vector size from ${dimensions} to ${size}`);
      dimensions = size;
      return { embeddings: vectors.map((vector) => normalise(vector)) };
    },
  };
}
