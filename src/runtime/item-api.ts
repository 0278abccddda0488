// The item area (`engram.items`): long-term memory written on purpose, restored, forgotten, read by
// id, key, scope or meaning, and brought in line with today's rules by re-extraction.

import { NotFoundError } from '../spec/errors.js';
import type { MemoryItem } from '../spec/items.js';
import type {
  ForgetRequest,
  HistoryRequest,
  ItemDiff,
  ListItemsRequest,
  RememberRequest,
  RestoreRequest,
  SearchMemoryRequest,
} from '../spec/requests.js';
import type { SearchHit } from '../retrieval/hybrid-search.js';
import { requireId, requireTenant, tenantOrDefault } from './arguments.js';
import { forget, history, listItems, remember, restore, search } from './memory-api.js';
import { reextract, type ReextractRequest, type ReextractResult } from './reextract.js';
import type { Runtime } from './runtime.js';

/** Long-term memory items (`engram.items`). */
export interface Items {
  /**
   * Writes an item explicitly, merged under its type's conflict policy; returns what changed.
   *
   * @example
   * await engram.items.remember({ scope, type: 'preferences', key: 'pref:writing:tone', value: { scope: 'writing', name: 'tone', value: 'concise' } });
   */
  remember(request: RememberRequest): Promise<ItemDiff[]>;
  /**
   * Makes an earlier version of a key current again: a new version with exactly its value.
   *
   * @example
   * await engram.items.restore({ scope, item_id: 'mem_…' });
   */
  restore(request: RestoreRequest): Promise<ItemDiff[]>;
  /**
   * Retracts every current version of a key (history kept), or with `mode: 'delete'` removes its
   * versions, chunks and vectors for good.
   *
   * @example
   * await engram.items.forget({ scope, key: 'pref:writing:tone' });
   */
  forget(request: ForgetRequest): Promise<ItemDiff[]>;
  /**
   * One item version by id, in a tenant (default: the default tenant), whatever its status; an id
   * the tenant does not hold is NOT_FOUND.
   *
   * @example
   * const item = await engram.items.get('mem_01J…');
   */
  get(itemId: string, tenantId?: string): Promise<MemoryItem>;
  /**
   * Every version of a key, oldest first, each with its evidence and provenance.
   *
   * @example
   * const versions = await engram.items.history({ scope: { user_id: 'mira' }, key: 'pref:writing:tone' });
   */
  history(request: HistoryRequest): Promise<MemoryItem[]>;
  /**
   * Items visible to a user (theirs, their agent's, the tenant's); current ones by default.
   *
   * @example
   * const items = await engram.items.list({ scope: { user_id: 'mira', agent_id: 'assistant' } });
   */
  list(request: ListItemsRequest): Promise<MemoryItem[]>;
  /**
   * Hybrid search (full text, vectors, recency, salience) over long-term memory items, with
   * per-signal scores; the events of the conversation are `engram.events.search`.
   *
   * @example
   * const hits = await engram.items.search({ scope: { user_id: 'mira', agent_id: 'assistant' }, query: 'tone for posts', k: 5 });
   */
  search(request: SearchMemoryRequest): Promise<SearchHit[]>;
  /**
   * Re-runs today's rule extraction over a user's whole log and brings their user-level items in
   * line with it: new versions where a value changed, new items the rules now find, and what earlier
   * rules wrote that they no longer find (an assistant's advice kept as the user's task) retracted.
   * Items written on purpose (remember, inspector, reflection, import, a model) and retracted keys
   * are left alone (listed in `kept`). One transaction; `dry_run` plans without writing.
   *
   * @example
   * const { items } = await engram.items.reextract({ user_id: 'noor', dry_run: true });
   */
  reextract(request: ReextractRequest): Promise<ReextractResult>;
}

export function itemsOf(runtime: Runtime): Items {
  return {
    remember: async (request) => remember(runtime.memory(), request),
    restore: async (request) => restore(runtime.memory(), request),
    forget: async (request) => forget(runtime.memory(), request),
    get: async (itemId, tenantId) => {
      const { storage } = runtime.store();
      requireId('mem', itemId, 'item_id');
      const item = await storage.items.get(tenantOrDefault(tenantId), itemId);
      if (item === null) throw new NotFoundError('item_id', itemId);
      return item;
    },
    history: async (request) => history(runtime.memory(), request),
    list: async (request) => listItems(runtime.memory(), request),
    search: async (request) => search(runtime.memory(), request),
    reextract: async (request) => {
      const store = runtime.store();
      if (request.tenant_id !== undefined) requireTenant(request.tenant_id);
      return reextract({ ...store, longTerm: runtime.config.longTerm }, request);
    },
  };
}
