// The inspector's only way to Engram: the HTTP API of the server it is served by, with the API key
// the user pasted (or that came in the login link's fragment), kept for this browser tab only.

const KEY_STORAGE = 'engram.inspector.key';

/** An error answered by the API (a problem document), or a failure to reach it. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly field: string | null,
    message: string,
    readonly requestId: string | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** One line for the user: code, field and message. */
  describe(): string {
    return `${this.code}${this.field === null ? '' : ` (${this.field})`}: ${this.message}`;
  }
}

/** The key of this tab, or null when none was given (a server without auth needs none). */
export function currentKey(): string | null {
  return sessionStorage.getItem(KEY_STORAGE);
}

/** Keeps (or, with null, forgets) the key for this tab. */
export function setKey(key: string | null): void {
  if (key === null) sessionStorage.removeItem(KEY_STORAGE);
  else sessionStorage.setItem(KEY_STORAGE, key);
}

/**
 * Takes a key from a login link (`/ui/#key=…`) and removes it from the address bar and history.
 *
 * @example
 * adoptKeyFromLocation(); // true when the link carried a key
 */
export function adoptKeyFromLocation(): boolean {
  const match = /^#key=([^&]+)/.exec(window.location.hash);
  if (match === null) return false;
  setKey(decodeURIComponent(match[1]!));
  history.replaceState(null, '', `${window.location.pathname}${window.location.search}#/scopes`);
  return true;
}

/** A query string from defined, non-empty values (lists joined by commas). */
export function query(
  params: Record<string, string | number | boolean | readonly string[] | undefined | null>,
): string {
  const parts: string[] = [];
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '') continue;
    const text = Array.isArray(value) ? value.join(',') : String(value);
    if (text === '') continue;
    parts.push(`${encodeURIComponent(name)}=${encodeURIComponent(text)}`);
  }
  return parts.length === 0 ? '' : `?${parts.join('&')}`;
}

interface Problem {
  code?: string;
  field?: string | null;
  detail?: string;
  title?: string;
  request_id?: string;
}

/**
 * Calls the API; resolves to the parsed JSON (or text) answer, rejects with an ApiError.
 *
 * @example
 * const page = await api<Page<ItemRecord>>('GET', `/v1/items${query({ user_id: 'mira', agent_id: 'assistant' })}`);
 */
export async function api<T>(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json, text/markdown;q=0.9' };
  const key = currentKey();
  if (key !== null) headers['authorization'] = `Bearer ${key}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(path, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  } catch (error) {
    throw new ApiError(
      0,
      'UNREACHABLE',
      null,
      `the Engram server did not answer (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  const type = response.headers.get('content-type') ?? '';
  const text = await response.text();
  if (!response.ok) {
    let problem: Problem = {};
    try {
      problem = JSON.parse(text) as Problem;
    } catch {
      problem = { detail: text.slice(0, 300) };
    }
    throw new ApiError(
      response.status,
      problem.code ?? `HTTP_${response.status}`,
      problem.field ?? null,
      problem.detail ?? problem.title ?? response.statusText,
      response.headers.get('x-request-id'),
    );
  }
  return (type.includes('json') ? JSON.parse(text) : text) as T;
}

/** A page of a list route. */
export type { Page } from '../../src/client/index.js';
