// A LangGraph.js BaseStore over Engram's long-term memory. One abstract method, `batch`, runs each
// operation in order; the base class builds get, put, delete, search and listNamespaces on it.
// Namespaces map to users (store-keys.ts); search with a query is Engram's hybrid search.

import { BaseStore, validateNamespace } from '@langchain/langgraph-checkpoint';
import type {
  GetOperation,
  Item,
  ListNamespacesOperation,
  Operation,
  OperationResults,
  PutOperation,
  SearchItem,
  SearchOperation,
} from '@langchain/langgraph-checkpoint';

import type { ComposeRequest, MemoryItem, RenderFormat } from '../../index.js';
import {
  allPages,
  composeForPrompt,
  memoryPort,
  type ComposedMemory,
  type EngramSource,
  type MemoryPort,
} from '../memory-port.js';
import { matchesFilter, meetsConditions, startsWith } from './store-filter.js';
import { createdAtOf, entryOf, itemKeyOf, rememberRequest, type StoredEntry } from './store-keys.js';

/** Hits a query search reads from Engram per user: the most its hybrid search returns. */
const SEARCH_DEPTH = 100;
const LIST_PAGE = 1000;

export interface EngramStoreOptions {
  /** An Engram instance (`createEngram`) or an HTTP client (`createClient` from `engram/client`). */
  engram: EngramSource;
  /** The agent the store's writes are recorded for; reads see the user's items whatever agent wrote them. */
  agentId: string;
  /** The tenant (default `default`). Over HTTP the API key's tenant applies: leave it out, or name that tenant (another is refused with FORBIDDEN). */
  tenantId?: string;
}

/** What to compose: the session and run of the graph's thread, the purpose and the cues. */
export interface StoreComposeRequest {
  userId: string;
  sessionId: string;
  runId: string;
  purpose?: ComposeRequest['purpose'];
  query?: string;
  budget?: ComposeRequest['budget'];
  format?: RenderFormat;
}

function itemOf(entry: StoredEntry): Item {
  return {
    namespace: entry.namespace,
    key: entry.key,
    value: entry.value,
    createdAt: entry.createdAt,
    updatedAt: entry.updatedAt,
  };
}

/**
 * A LangGraph store whose items are Engram long-term memory: namespace `[user_id, ...rest]` belongs
 * to that user, each item a profile item `profile:langgraph.<rest…>.<key>` whose fact holds the value.
 *
 * @example
 * const store = new EngramStore({ engram, agentId: 'assistant' });
 * const graph = builder.compile({ store });
 * await store.put(['mira', 'memories'], 'food', { likes: 'ramen' });
 */
export class EngramStore extends BaseStore {
  readonly port: MemoryPort;
  readonly agentId: string;
  readonly tenantId: string | undefined;

  constructor(options: EngramStoreOptions) {
    super();
    this.port = memoryPort(options.engram);
    this.agentId = options.agentId;
    this.tenantId = options.tenantId;
  }

  async batch<Op extends Operation[]>(operations: Op): Promise<OperationResults<Op>> {
    const results: unknown[] = [];
    for (const operation of operations) results.push(await this.run(operation));
    return results as OperationResults<Op>;
  }

  /**
   * Composes a packet for a user's session over everything Engram holds for them, the store's items
   * included, and renders it for a prompt.
   *
   * @example
   * const { text } = await store.compose({ userId: 'mira', sessionId: 'thread-1', runId: 'thread-1', query: 'dinner ideas' });
   */
  async compose(request: StoreComposeRequest): Promise<ComposedMemory> {
    const { userId, sessionId, runId, purpose, query, budget, format } = request;
    return composeForPrompt(this.port, {
      scope: { ...this.tenant(), user_id: userId, agent_id: this.agentId, session_id: sessionId, run_id: runId },
      purpose,
      query,
      budget,
      format,
    });
  }

  private tenant(): { tenant_id?: string } {
    return this.tenantId === undefined ? {} : { tenant_id: this.tenantId };
  }

  private run(operation: Operation): Promise<unknown> {
    if ('namespacePrefix' in operation) return this.find(operation);
    if (!('namespace' in operation)) return this.namespaces(operation);
    if ('value' in operation) return operation.value === null ? this.remove(operation) : this.write(operation);
    return this.read(operation);
  }

  private async current(namespace: readonly string[], key: string): Promise<MemoryItem | undefined> {
    const versions = await this.port.history({
      scope: { ...this.tenant(), user_id: namespace[0]! },
      key: itemKeyOf(namespace, key),
    });
    return versions.filter((item) => item.status === 'active' && entryOf(item, namespace[0]!) !== undefined).at(-1);
  }

  private async read(operation: GetOperation): Promise<Item | null> {
    validateNamespace(operation.namespace, { allowReservedRoot: true });
    const item = await this.current(operation.namespace, operation.key);
    const entry = item === undefined ? undefined : entryOf(item, operation.namespace[0]!);
    return entry === undefined ? null : itemOf(entry);
  }

  private async write(operation: PutOperation): Promise<void> {
    validateNamespace(operation.namespace);
    const [userId] = operation.namespace;
    const existing = await this.current(operation.namespace, operation.key);
    const scope = { ...this.tenant(), user_id: userId!, agent_id: this.agentId };
    await this.port.remember(
      rememberRequest(
        scope,
        operation.namespace,
        operation.key,
        operation.value!,
        existing === undefined ? undefined : createdAtOf(existing),
      ),
    );
  }

  private async remove(operation: PutOperation): Promise<void> {
    validateNamespace(operation.namespace, { allowReservedRoot: true });
    const scope = { ...this.tenant(), user_id: operation.namespace[0]!, agent_id: this.agentId };
    await this.port.forget({
      scope,
      key: itemKeyOf(operation.namespace, operation.key),
      reason: 'langgraph store delete',
    });
  }

  /** The users a namespace prefix can reach: its first label, or every user for none or `*`. */
  private async users(prefix: readonly string[]): Promise<string[]> {
    const [first] = prefix;
    return first !== undefined && first !== '*' ? [first] : this.port.listUsers(this.tenantId);
  }

  private async entries(userId: string): Promise<StoredEntry[]> {
    const items = await allPages((cursor) =>
      this.port.listItems({
        scope: { ...this.tenant(), user_id: userId },
        types: ['profile'],
        limit: LIST_PAGE,
        ...cursor,
      }),
    );
    return items.flatMap((item) => entryOf(item, userId) ?? []);
  }

  private async matches(userId: string, query: string): Promise<Array<{ entry: StoredEntry; score: number }>> {
    const hits = await this.port.searchItems({
      scope: { ...this.tenant(), user_id: userId },
      query,
      types: ['profile'],
      k: SEARCH_DEPTH,
    });
    return hits.flatMap((hit) => {
      const entry = entryOf(hit.item, userId);
      return entry === undefined ? [] : [{ entry, score: hit.score }];
    });
  }

  private async find(operation: SearchOperation): Promise<SearchItem[]> {
    const { namespacePrefix: prefix, filter, query } = operation;
    const offset = operation.offset ?? 0;
    const limit = operation.limit ?? 10;
    const found: SearchItem[] = [];
    for (const userId of await this.users(prefix)) {
      const scored =
        query === undefined || query === ''
          ? (await this.entries(userId)).map((entry) => ({ entry, score: undefined }))
          : await this.matches(userId, query);
      for (const { entry, score } of scored) {
        if (startsWith(entry.namespace, prefix) && matchesFilter(entry.value, filter))
          found.push({ ...itemOf(entry), ...(score === undefined ? {} : { score }) });
      }
    }
    // Best match first with a query; otherwise the most recently written first.
    found.sort((a, b) => (b.score ?? 0) - (a.score ?? 0) || b.updatedAt.getTime() - a.updatedAt.getTime());
    return found.slice(offset, offset + limit);
  }

  private async namespaces(operation: ListNamespacesOperation): Promise<string[][]> {
    const prefix = operation.matchConditions?.find((condition) => condition.matchType === 'prefix')?.path ?? [];
    const seen = new Map<string, string[]>();
    for (const userId of await this.users(prefix)) {
      for (const { namespace } of await this.entries(userId)) {
        if (!meetsConditions(namespace, operation.matchConditions)) continue;
        const shown = operation.maxDepth === undefined ? namespace : namespace.slice(0, operation.maxDepth);
        seen.set(shown.join('\u0000'), shown);
      }
    }
    const sorted = [...seen.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, namespace]) => namespace);
    return sorted.slice(operation.offset, operation.offset + operation.limit);
  }
}
