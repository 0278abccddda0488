// `engram/client`: a small fetch-based client for Engram's HTTP API with the library's types. Every
// call sends the API key; the tenant comes from the key. A problem document becomes an
// EngramHttpError carrying the typed code, the field and the rule's issues.

import type {
  ApiKeyInfo,
  BuildExplanation,
  CommitTurnRequest,
  CommitTurnResult,
  ComposeRequest,
  ContextBuild,
  DecisionResult,
  EventRecord,
  EventSearchHit,
  EventSearchPage,
  InsightRecord,
  ItemDiff,
  MemoryItem,
  MemoryPacket,
  ReextractRequest,
  ReextractResult,
  ReflectResult,
  ReplayResult,
  ReviewCandidate,
  RunState,
  ScopeCounts,
  SearchHit,
  SnapshotRecord,
  WorkingState,
  WorkingStateUpdate,
} from '../index.js';

export interface ClientOptions {
  /** The server's address, for example `http://127.0.0.1:8787`. */
  baseUrl: string;
  /** An API key (`egk_…`). */
  apiKey: string;
  /** A fetch implementation (default: the global one). */
  fetch?: typeof fetch;
  /** Milliseconds before a request is abandoned (default 30 s). */
  timeoutMs?: number;
}

/** One page of a list and the cursor of the next (null at the end). */
export interface Page<T> {
  items: T[];
  next_cursor: string | null;
}

/** An error answered by the server (`application/problem+json`). */
export class EngramHttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field: string | undefined,
    readonly issues: unknown[] | undefined,
    readonly requestId: string | undefined,
  ) {
    super(message);
    this.name = 'EngramHttpError';
  }
}

type Query = Record<string, string | number | boolean | readonly string[] | undefined>;

function queryString(query: Query | undefined): string {
  if (query === undefined) return '';
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) params.set(name, value.join(','));
    else params.set(name, String(value));
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

/**
 * A client of one Engram server.
 *
 * @example
 * const engram = createClient({ baseUrl: 'http://127.0.0.1:8787', apiKey: process.env.ENGRAM_API_KEY! });
 * await engram.commitTurn({ scope, turn_id: 't1', messages: [{ role: 'user', content: 'Hi' }] });
 * const { packet } = await engram.compose({ scope, purpose: 'responder' });
 */
export function createClient(options: ClientOptions) {
  const base = options.baseUrl.replace(/\/+$/u, '');
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 30_000;

  async function call<T>(method: string, path: string, body?: unknown, query?: Query): Promise<T> {
    const response = await doFetch(`${base}${path}${queryString(query)}`, {
      method,
      headers: { authorization: `Bearer ${options.apiKey}`, accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    const parsed: unknown = text === '' ? null : response.headers.get('content-type')?.includes('json') === true ? JSON.parse(text) : text;
    if (!response.ok) {
      const problem = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as Record<string, unknown>;
      throw new EngramHttpError(
        response.status,
        typeof problem['code'] === 'string' ? problem['code'] : `HTTP_${response.status}`,
        typeof problem['detail'] === 'string' ? problem['detail'] : `${method} ${path} answered ${response.status}`,
        typeof problem['field'] === 'string' ? problem['field'] : undefined,
        Array.isArray(problem['issues']) ? problem['issues'] : undefined,
        response.headers.get('x-request-id') ?? undefined,
      );
    }
    return parsed as T;
  }

  const id = (value: string) => encodeURIComponent(value);
  type SessionScope = { user_id: string; agent_id?: string; session_id?: string; run_id?: string };

  return {
    commitTurn: (turn: CommitTurnRequest) => call<CommitTurnResult>('POST', '/v1/turns', turn),
    commitTurns: async (turns: CommitTurnRequest[]) => (await call<{ results: CommitTurnResult[] }>('POST', '/v1/turns', { turns })).results,
    compose: (request: ComposeRequest, render?: 'markdown' | 'xml') =>
      call<{ packet: MemoryPacket; text?: string }>('POST', '/v1/compose', request, render === undefined ? undefined : { render }),
    listEvents: (query: SessionScope & { kinds?: string[]; order?: 'asc' | 'desc'; cursor?: string; limit?: number }) => call<Page<EventRecord>>('GET', '/v1/events', undefined, query),
    getEvent: (eventId: string) => call<EventRecord>('GET', `/v1/events/${id(eventId)}`),
    /** Full-text search over a user's events (the episodic log): the hits of one page. */
    searchEvents: async (request: Record<string, unknown>) => (await call<{ hits: EventSearchHit[] }>('POST', '/v1/events/search', request)).hits,
    /** One page of an event search and the cursor of the next (pass it as `cursor`; null at the end). */
    searchEventsPage: (request: Record<string, unknown>) => call<EventSearchPage>('POST', '/v1/events/search', request),
    listItems: (query: SessionScope & { types?: string[]; status?: string[]; cursor?: string; limit?: number }) => call<Page<MemoryItem>>('GET', '/v1/items', undefined, query),
    getItem: (itemId: string) => call<MemoryItem>('GET', `/v1/items/${id(itemId)}`),
    history: (query: { user_id: string; agent_id?: string; key: string }) => call<Page<MemoryItem>>('GET', '/v1/items/history', undefined, query),
    remember: async (request: Record<string, unknown>) => (await call<{ diffs: ItemDiff[] }>('POST', '/v1/items', request)).diffs,
    forget: async (request: Record<string, unknown>) => (await call<{ diffs: ItemDiff[] }>('POST', '/v1/items/forget', request)).diffs,
    /** Makes an earlier version of a key current again (`{ scope, item_id, rule? }`): a new version with exactly its value. */
    restore: async (request: Record<string, unknown>) => (await call<{ diffs: ItemDiff[] }>('POST', '/v1/items/restore', request)).diffs,
    /** Re-runs rule extraction over a user's log (an admin key); `dry_run` plans without writing. */
    reextract: (request: ReextractRequest) => call<ReextractResult>('POST', '/v1/items/reextract', request),
    /** Hybrid search over a user's long-term memory items. */
    searchItems: async (request: Record<string, unknown>) => (await call<{ hits: SearchHit[] }>('POST', '/v1/items/search', request)).hits,
    /** The same as `searchItems` (its earlier name). */
    search: async (request: Record<string, unknown>) => (await call<{ hits: SearchHit[] }>('POST', '/v1/memory/search', request)).hits,
    getWorkingState: (query: { user_id: string; agent_id: string; session_id: string }) => call<WorkingState>('GET', '/v1/working-state', undefined, query),
    updateWorkingState: (request: { scope: Record<string, string>; expected_version: number; set?: Record<string, unknown>; append?: Record<string, unknown[]>; turn_id?: string }) =>
      call<WorkingStateUpdate>('PATCH', '/v1/working-state', request),
    reflect: (request: { scope: { user_id: string; agent_id: string; run_id: string; session_id?: string }; use?: 'auto' | 'rules' | 'llm' }) => call<ReflectResult>('POST', '/v1/reflections', request),
    review: {
      list: (query: SessionScope & { status?: string[]; kind?: string[]; trace_id?: string; cursor?: string; limit?: number }) => call<Page<ReviewCandidate>>('GET', '/v1/review', undefined, query),
      get: (candidateId: string) => call<ReviewCandidate>('GET', `/v1/review/${id(candidateId)}`),
      approve: (candidateId: string, body: { by?: string; edit?: Record<string, unknown> } = {}) => call<DecisionResult>('POST', `/v1/review/${id(candidateId)}/approve`, body),
      reject: (candidateId: string, body: { by?: string; reason: string }) => call<DecisionResult>('POST', `/v1/review/${id(candidateId)}/reject`, body),
    },
    insights: {
      list: (query: SessionScope & { states?: string[]; types?: string[]; include_expired?: boolean; cursor?: string; limit?: number }) => call<Page<InsightRecord>>('GET', '/v1/insights', undefined, query),
      get: (insightId: string) => call<InsightRecord>('GET', `/v1/insights/${id(insightId)}`),
      add: (request: Record<string, unknown>) => call<InsightRecord>('POST', '/v1/insights', request),
      update: (insightId: string, body: { state: string; note?: string; by?: string }) => call<InsightRecord>('POST', `/v1/insights/${id(insightId)}/state`, body),
      promote: (insightId: string, body: { type: string; key: string; value: Record<string, unknown>; by?: string }) =>
        call<{ insight: InsightRecord; items: ItemDiff[] }>('POST', `/v1/insights/${id(insightId)}/promote`, body),
    },
    runs: {
      get: (query: { user_id: string; agent_id: string; run_id: string }) => call<RunState>('GET', '/v1/runs', undefined, query),
      resume: (request: { scope: { user_id: string; agent_id: string; run_id: string }; by?: string; note?: string }) => call<RunState>('POST', '/v1/runs/resume', request),
      snapshots: (query: { user_id: string; agent_id?: string; run_id?: string; order?: 'asc' | 'desc'; cursor?: string; limit?: number }) => call<Page<SnapshotRecord>>('GET', '/v1/snapshots', undefined, query),
      snapshot: (snapshotId: string) => call<SnapshotRecord>('GET', `/v1/snapshots/${id(snapshotId)}`),
      narrative: (snapshotId: string) => call<string>('GET', `/v1/snapshots/${id(snapshotId)}/narrative`),
    },
    builds: {
      list: (query: Partial<SessionScope> & { cursor?: string; limit?: number } = {}) => call<Page<ContextBuild>>('GET', '/v1/builds', undefined, query),
      get: (buildId: string) => call<ContextBuild>('GET', `/v1/builds/${id(buildId)}`),
      replay: (buildId: string) => call<ReplayResult>('POST', `/v1/builds/${id(buildId)}/replay`, {}),
      diff: (a: string, b: string) => call<Record<string, unknown>>('GET', '/v1/builds/diff', undefined, { a, b }),
      /** Why an event (`evt_…`) or item (`mem_…`) is, or is not, in the build's packet. */
      explain: (buildId: string, recordId: string) => call<BuildExplanation>('POST', `/v1/builds/${id(buildId)}/explain`, { id: recordId }),
    },
    keys: {
      /** The key these calls are sent with: its id, tenant, role and label. */
      whoami: () => call<{ key_id: string; tenant_id: string; role: 'read' | 'write' | 'admin'; label: string }>('GET', '/v1/whoami'),
      list: () => call<Page<ApiKeyInfo>>('GET', '/v1/keys'),
      create: (body: { role: 'read' | 'write' | 'admin'; label?: string }) => call<{ info: ApiKeyInfo; key: string }>('POST', '/v1/keys', body),
      revoke: async (keyId: string) => {
        await call<null>('DELETE', `/v1/keys/${id(keyId)}`);
      },
    },
    /** The tenant's sessions (most recently active first, at most `limit`) and its users with their current items. */
    scopes: (query: { limit?: number } = {}) => call<ScopeCounts>('GET', '/v1/scopes', undefined, query),
    healthz: () => call<Record<string, unknown>>('GET', '/healthz'),
  };
}

/** The client `createClient` returns. */
export type EngramClient = ReturnType<typeof createClient>;
