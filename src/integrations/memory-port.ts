// The part of Engram the framework integrations use, over either an Engram instance or the HTTP
// client (`engram/client`). The two differ in small ways (pages against arrays, the tenant of a
// key against a tenant in the scope, rendering on the server); this module is the one place that knows.

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
 * What the integrations need of Engram. Scopes may name a tenant; over HTTP the key's tenant
 * applies and the named one is left out.
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

/** A scope without its tenant: over HTTP the tenant is the key's. */
function untenanted<T extends { tenant_id?: string }>(scope: T): Omit<T, 'tenant_id'> {
  const { tenant_id: _tenant, ...rest } = scope;
  return rest;
}

function pageOf<T extends { id: string }>(items: T[], limit: number | undefined, fallback: number): PortPage<T> {
  return { items, next_cursor: items.length === (limit ?? fallback) ? (items.at(-1)?.id ?? null) : null };
}

function fromEngram(engram: Engram): MemoryPort {
  return {
    remember: (request) => engram.remember(request),
    forget: (request) => engram.forget(request),
    history: (request) => engram.history(request),
    listItems: async (request) => pageOf(await engram.listItems(request), request.limit, 100),
    searchItems: (request) => engram.searchItems(request),
    listUsers: async (tenantId) => (await engram.scopes({ ...(tenantId === undefined ? {} : { tenant_id: tenantId }), limit: 1 })).users.map((user) => user.user_id),
    commitTurn: (request) => engram.commitTurn(request),
    listEvents: async (request) => pageOf(await engram.listEvents(request), request.limit, 100),
    compose: async (request, format) => {
      const packet = await engram.compose(request);
      // The caller holds an Engram, so the library is loaded already; a client-only import never reaches here.
      const { renderPacket } = await import('../index.js');
      return { packet, text: renderPacket(packet, { format }) };
    },
  };
}

function fromClient(client: EngramClient): MemoryPort {
  return {
    remember: (request) => client.remember({ ...request, scope: untenanted(request.scope) }),
    forget: (request) => client.forget({ ...request, scope: untenanted(request.scope) }),
    history: async (request) => (await client.history({ ...untenanted(request.scope), key: request.key })).items,
    listItems: (request) => {
      const { scope, ...query } = request;
      return client.listItems({ ...untenanted(scope), ...query });
    },
    searchItems: (request) => client.searchItems({ ...request, scope: untenanted(request.scope) }),
    listUsers: async () => (await client.scopes({ limit: 1 })).users.map((user) => user.user_id),
    commitTurn: (request) => client.commitTurn({ ...request, scope: untenanted(request.scope) }),
    listEvents: (request) => {
      const { scope, include_secret_content: _secret, ...query } = request;
      return client.listEvents({ ...untenanted(scope), ...query });
    },
    compose: async (request, format) => {
      const { packet, text } = await client.compose({ ...request, scope: untenanted(request.scope) }, format);
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
