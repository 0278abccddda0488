// The part of Engram the framework integrations use, over either an Engram instance or the HTTP
// client (`engram/client`). The two differ in small ways (pages against arrays, a query string
// against a scope, rendering on the server); this module is the one place that knows.

import { renderPacket } from '../index.js';
import type {
  CommitTurnRequest,
  CommitTurnResult,
  ComposeRequest,
  Engram,
  EventRecord,
  ForgetRequest,
  HistoryRequest,
  ItemDiff,
  ListEventsRequest,
  ListItemsRequest,
  MemoryItem,
  MemoryPacket,
  Purpose,
  RememberRequest,
  RenderFormat,
  SearchHit,
  SearchMemoryRequest,
} from '../index.js';
import type { EngramClient } from '../client/index.js';

/** An Engram the integrations accept: an instance from `createEngram`, or a client from `engram/client`. */
export type EngramSource = Engram | EngramClient;

/** One page of a listing and the cursor of the next (null at the end). */
export interface PortPage<T> {
  items: T[];
  next_cursor: string | null;
}

/** A composed packet with its prompt text. */
export interface ComposedMemory {
  /** The rendered packet, ready for a system prompt. */
  text: string;
  packet: MemoryPacket;
}

/**
 * What the integrations need of Engram. A scope may name its tenant: over HTTP it must be the API
 * key's (the server refuses another with FORBIDDEN), and left out the key's tenant applies.
 */
export interface MemoryPort {
  remember(request: RememberRequest): Promise<ItemDiff[]>;
  forget(request: ForgetRequest): Promise<ItemDiff[]>;
  history(request: HistoryRequest): Promise<MemoryItem[]>;
  listItems(request: ListItemsRequest): Promise<PortPage<MemoryItem>>;
  searchItems(request: SearchMemoryRequest): Promise<SearchHit[]>;
  /** The users of the tenant that hold current items. */
  listUsers(tenantId: string | undefined): Promise<string[]>;
  commitTurn(request: CommitTurnRequest): Promise<CommitTurnResult>;
  listEvents(request: ListEventsRequest): Promise<PortPage<EventRecord>>;
  compose(request: ComposeRequest, format: RenderFormat): Promise<ComposedMemory>;
}

function isClient(source: EngramSource): source is EngramClient {
  return typeof (source as Partial<EngramClient>).healthz === 'function';
}

function tenantOf(tenantId: string | undefined): { tenant_id?: string } {
  return tenantId === undefined ? {} : { tenant_id: tenantId };
}

function pageOf<T extends { id: string }>(items: T[], limit: number | undefined, fallback: number): PortPage<T> {
  return { items, next_cursor: items.length === (limit ?? fallback) ? (items.at(-1)?.id ?? null) : null };
}

function fromEngram(engram: Engram): MemoryPort {
  return {
    remember: (request) => engram.items.remember(request),
    forget: (request) => engram.items.forget(request),
    history: (request) => engram.items.history(request),
    listItems: async (request) => pageOf(await engram.items.list(request), request.limit, 100),
    searchItems: (request) => engram.items.search(request),
    listUsers: async (tenantId) =>
      (await engram.sessions.scopes({ ...tenantOf(tenantId), limit: 1 })).users.map((user) => user.user_id),
    commitTurn: (request) => engram.commitTurn(request),
    listEvents: async (request) => pageOf(await engram.events.list(request), request.limit, 100),
    compose: async (request, format) => {
      const packet = await engram.compose(request);
      return { packet, text: renderPacket(packet, { format }) };
    },
  };
}

// The client's JSON calls take any object (`Record<string, unknown>`), which a request interface
// is not: a spread copy is. Listings take their scope as query parameters beside the others.
function fromClient(client: EngramClient): MemoryPort {
  return {
    remember: (request) => client.items.remember({ ...request }),
    forget: (request) => client.items.forget({ ...request }),
    history: async (request) => (await client.items.history({ ...request.scope, key: request.key })).items,
    listItems: ({ scope, ...query }) => client.items.list({ ...scope, ...query }),
    searchItems: (request) => client.items.search({ ...request }),
    listUsers: async (tenantId) =>
      (await client.sessions.scopes({ ...tenantOf(tenantId), limit: 1 })).users.map((user) => user.user_id),
    commitTurn: (request) => client.commitTurn(request),
    // The HTTP listing has no include_secret_content: a secret event's content stays hidden there.
    listEvents: ({ scope, include_secret_content: _secret, ...query }) => client.events.list({ ...scope, ...query }),
    compose: async (request, format) => {
      const { packet, text } = await client.compose(request, format);
      return { packet, text: text ?? '' };
    },
  };
}

/**
 * The port of an Engram instance or an HTTP client.
 *
 * @example
 * const port = memoryPort(await createEngram({ store: 'sqlite::memory:' }));
 * const port = memoryPort(createClient({ baseUrl: 'http://127.0.0.1:8787', apiKey }));
 */
export function memoryPort(source: EngramSource): MemoryPort {
  return isClient(source) ? fromClient(source) : fromEngram(source);
}

/**
 * Every page of a listing, in order.
 *
 * @example
 * const items = await allPages((cursor) => port.listItems({ scope, types: ['profile'], limit: 1000, ...cursor }));
 */
export async function allPages<T>(read: (cursor: { cursor?: string }) => Promise<PortPage<T>>): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | null = null;
  do {
    const page: PortPage<T> = await read(cursor === null ? {} : { cursor });
    out.push(...page.items);
    cursor = page.next_cursor;
  } while (cursor !== null);
  return out;
}

/** A packet for a prompt: whose, for what purpose, for which question, and how it is written. */
export interface PromptComposeRequest extends Pick<
  ComposeRequest,
  'scope' | 'budget' | 'policy_id' | 'task_type' | 'conversation_window'
> {
  /** Default `responder`. */
  purpose?: Purpose | undefined;
  /** The question the packet is for, its cue; none (or empty) composes without one. */
  query?: string | undefined;
  /** Default `markdown`. */
  format?: RenderFormat | undefined;
}

/** Compose reads a query of at most this many characters (its request schema's limit). */
const MAX_QUERY = 10_000;

/**
 * Composes the packet for a prompt and renders it. A query longer than compose reads is cut to
 * its first 10,000 characters, so a long message still finds what its start names.
 *
 * @example
 * const { text } = await composeForPrompt(port, { scope, query: 'What should I cook tonight?' });
 */
export function composeForPrompt(port: MemoryPort, request: PromptComposeRequest): Promise<ComposedMemory> {
  const { query, purpose, format, ...rest } = request;
  const cue = query === undefined || query.length <= MAX_QUERY ? query : [...query].slice(0, MAX_QUERY).join('');
  return port.compose(
    { ...rest, purpose: purpose ?? 'responder', ...(cue === undefined || cue === '' ? {} : { cues: { query: cue } }) },
    format ?? 'markdown',
  );
}
