// The explicit long-term memory operations: remember (through the same merge as extraction, or
// replacing the current value whole), restore an earlier version, forget (retract, or delete with
// chunks and vectors), history, listing, hybrid search and reindexing the derived chunks from the
// items alone. Each write is one transaction.

import { NotFoundError, ValidationError } from '../spec/errors.js';
import type { ConflictPolicy, MemoryItem, MemoryType } from '../spec/items.js';
import { ownerOf, visibleOwners } from '../spec/items.js';
import type {
  ForgetRequest,
  HistoryRequest,
  ItemDiff,
  ListItemsRequest,
  RememberRequest,
  RestoreRequest,
  SearchMemoryRequest,
} from '../spec/requests.js';
import { DEFAULT_TENANT } from '../spec/scope.js';
import type { EventRecord } from '../spec/event.js';
import type { StorageAdapter, WriteOp } from '../spec/storage.js';
import type { TextTokenCounter } from '../spec/text-tokens.js';
import { validateMemoryRequest } from '../spec/validators.js';
import { chunkOp } from '../items/chunk.js';
import { analyseEvent } from '../events/analyze.js';
import { assertKey, typeOfKey } from '../items/keys.js';
import { ItemMerger, placement } from '../items/merge.js';
import { assertLevelAllowed, confinedLevel } from '../events/sensitivity.js';
import { hybridSearch, type QueryEmbedder, type SearchHit } from '../retrieval/hybrid-search.js';
import { isoOrNull, isoRange } from '../util/clock.js';
import { replacingValue } from './replacement-value.js';

export interface MemoryApiContext {
  storage: StorageAdapter;
  now: () => string;
  policies: Readonly<Record<MemoryType, ConflictPolicy>>;
  embedQuery: QueryEmbedder | undefined;
  /** The name the query model's vectors are stored under: only those are compared. */
  vectorModel?: string | undefined;
  /** Counts kept with event and item rows, which reindex makes again (none: it leaves them as they are). */
  textTokens?: TextTokenCounter | undefined;
}

const tenantOf = (scope: { tenant_id?: string }) => scope.tenant_id ?? DEFAULT_TENANT;

/**
 * Writes an item explicitly, merged under its type's policy like an extracted one.
 *
 * @example
 * await remember(context, { scope, type: 'preferences', key: 'pref:writing:tone', value: { scope: 'writing', name: 'tone', value: 'concise' } });
 */
export async function remember(context: MemoryApiContext, input: unknown): Promise<ItemDiff[]> {
  const request = validateMemoryRequest<RememberRequest>('remember', input);
  assertKey(request.type, request.key);
  const scope = {
    tenant_id: tenantOf(request.scope),
    user_id: request.scope.user_id,
    agent_id: request.scope.agent_id,
  };
  const candidate = {
    action: 'upsert' as const,
    type: request.type,
    key: request.key,
    value: request.value,
    confidence: request.confidence ?? 0.95,
    rule: request.rule ?? 'api.remember',
    gate: 'must' as const,
    source_event_ids: request.source_event_ids ?? [],
    ...(request.evidence_refs === undefined ? {} : { evidence_refs: request.evidence_refs }),
    ...(request.salience === undefined ? {} : { salience: request.salience }),
    ...(request.scope_level === undefined ? {} : { scope_level: request.scope_level }),
    ...(request.valid_from === undefined ? {} : { valid_from: isoOrNull(request.valid_from, 'valid_from') }),
    ...(request.valid_to === undefined ? {} : { valid_to: isoOrNull(request.valid_to, 'valid_to') }),
    ...(request.tags === undefined ? {} : { tags: request.tags }),
    ...(request.entities === undefined ? {} : { entities: request.entities }),
  };
  // A private item stays with its user: its level defaults to the user's, and sharing it is refused.
  const sensitivity = request.sensitivity ?? 'normal';
  assertLevelAllowed(request.scope_level, sensitivity, 'scope_level');
  const placed = { ...candidate, scope_level: confinedLevel(placement(candidate, scope).level, sensitivity) };
  const { owner } = placement(placed, scope);
  const stored = await context.storage.items.list({
    tenant_id: scope.tenant_id,
    owners: [owner],
    keys: [request.key],
    limit: 10_000,
  });
  const merger = new ItemMerger(scope, stored, {
    now: context.now(),
    policies: context.policies,
    extractor: 'explicit',
    sensitivityOf: () => sensitivity,
  });
  const { ops, diffs } = merger.plan(
    request.replace === true ? { ...placed, value: replacingValue(request.type, stored, request.value) } : placed,
  );
  if (ops.length > 0) await context.storage.write(ops);
  return diffs;
}

/** An item version the scope can see (its user's, its agent's or the tenant's), else NOT_FOUND. */
async function visibleItem(
  context: MemoryApiContext,
  tenant: string,
  scope: { user_id: string; agent_id: string },
  itemId: string,
): Promise<MemoryItem> {
  const item = await context.storage.items.get(tenant, itemId);
  if (
    item === null ||
    !visibleOwners(scope.user_id, scope.agent_id).includes(ownerOf(item.scope_level, item.user_id, item.agent_id))
  )
    throw new NotFoundError('item_id', itemId);
  return item;
}

/**
 * Makes an earlier version of a key current again: a new version with exactly its value (and its
 * level, validity, confidence and evidence), written through the same merge as remember, so it
 * supersedes the current version under an overwrite policy. Restoring the current version changes nothing.
 *
 * @example
 * await restore(context, { scope, item_id: 'mem_…', rule: 'inspector:ops' });
 */
export async function restore(context: MemoryApiContext, input: unknown): Promise<ItemDiff[]> {
  const request = validateMemoryRequest<RestoreRequest>('restore', input);
  const version = await visibleItem(context, tenantOf(request.scope), request.scope, request.item_id);
  const rule = request.rule ?? 'api.restore';
  if (version.status === 'active')
    return [
      {
        action: 'unchanged',
        item_id: version.id,
        type: version.type,
        key: version.key,
        version: version.version,
        previous_id: null,
        rule,
      },
    ];
  return remember(context, {
    scope: request.scope,
    type: version.type,
    key: version.key,
    value: version.value,
    replace: true,
    rule,
    confidence: version.confidence,
    scope_level: version.scope_level,
    sensitivity: version.sensitivity === 'normal' ? 'normal' : 'private',
    valid_from: version.valid_from,
    valid_to: version.valid_to,
    salience: version.salience,
    tags: version.tags,
    entities: version.entities,
    source_event_ids: version.source_event_ids,
    evidence_refs: version.evidence_refs,
  });
}

/**
 * Retracts every current version of a key (history kept), or deletes versions for good.
 *
 * @example
 * await forget(context, { scope, key: 'pref:writing:tone' });
 */
export async function forget(context: MemoryApiContext, input: unknown): Promise<ItemDiff[]> {
  const request = validateMemoryRequest<ForgetRequest>('forget', input);
  const tenant = tenantOf(request.scope);
  let targets: MemoryItem[];
  if (request.item_id !== undefined) {
    targets = [await visibleItem(context, tenant, request.scope, request.item_id)];
  } else {
    const key = request.key!;
    const type = typeOfKey(key);
    if (type === undefined)
      throw ValidationError.of('key', 'key_rule', `${JSON.stringify(key)} does not start with a known type prefix`);
    const { owner } = placement(
      { type, ...(request.scope_level === undefined ? {} : { scope_level: request.scope_level }) },
      { tenant_id: tenant, ...request.scope },
    );
    targets = await context.storage.items.list({ tenant_id: tenant, owners: [owner], keys: [key], limit: 10_000 });
  }
  const now = context.now();
  const rule = `api.forget${request.reason === undefined ? '' : `: ${request.reason}`}`;
  const ops: WriteOp[] = [];
  const diffs: ItemDiff[] = [];
  for (const item of targets) {
    const diff = {
      item_id: item.id,
      type: item.type,
      key: item.key,
      version: item.version,
      previous_id: item.id,
      rule,
    };
    if (request.mode === 'delete') {
      ops.push({ op: 'delete_item', tenant_id: tenant, item_id: item.id });
      diffs.push({ action: 'deleted', ...diff });
    } else if (item.status === 'active') {
      ops.push({
        op: 'set_item_status',
        tenant_id: tenant,
        item_id: item.id,
        expected_status: 'active',
        status: 'retracted',
        ended_at: now,
        updated_at: now,
      });
      diffs.push({ action: 'retracted', ...diff });
    }
  }
  if (ops.length > 0 && request.dry_run !== true) await context.storage.write(ops);
  return diffs;
}

/**
 * Every version of a key visible to the caller, oldest first, with its evidence.
 *
 * @example
 * const versions = await history(context, { scope: { user_id: 'mira' }, key: 'pref:writing:tone' });
 */
export async function history(context: MemoryApiContext, input: unknown): Promise<MemoryItem[]> {
  const request = validateMemoryRequest<HistoryRequest>('history', input);
  const items = await context.storage.items.list({
    tenant_id: tenantOf(request.scope),
    owners: visibleOwners(request.scope.user_id, request.scope.agent_id),
    keys: [request.key],
    limit: 10_000,
  });
  return items.sort((a, b) => a.version - b.version || (a.id < b.id ? -1 : 1));
}

/**
 * Items visible to the caller (current ones unless `status` says otherwise), in creation order.
 *
 * @example
 * const items = await listItems(context, { scope: { user_id: 'mira', agent_id: 'assistant' }, types: ['preferences'] });
 */
export async function listItems(context: MemoryApiContext, input: unknown): Promise<MemoryItem[]> {
  const request = validateMemoryRequest<ListItemsRequest>('list_items', input);
  return context.storage.items.list({
    tenant_id: tenantOf(request.scope),
    owners: visibleOwners(request.scope.user_id, request.scope.agent_id),
    statuses: request.status ?? ['active'],
    ...(request.types === undefined ? {} : { types: request.types }),
    ...(request.cursor === undefined ? {} : { cursor: request.cursor }),
    limit: request.limit ?? 100,
  });
}

/**
 * Hybrid search over the items visible to the caller; each hit carries its per-signal scores.
 *
 * @example
 * const hits = await search(context, { scope: { user_id: 'mira', agent_id: 'assistant' }, query: 'how should posts sound?' });
 */
export async function search(context: MemoryApiContext, input: unknown): Promise<SearchHit[]> {
  const request = validateMemoryRequest<SearchMemoryRequest>('search', input);
  return hybridSearch(context.storage, context.embedQuery, {
    scope: {
      tenant_id: tenantOf(request.scope),
      user_id: request.scope.user_id,
      ...(request.scope.agent_id === undefined ? {} : { agent_id: request.scope.agent_id }),
    },
    query: request.query,
    k: request.k ?? 10,
    ...(context.vectorModel === undefined ? {} : { vector_model: context.vectorModel }),
    ...(request.types === undefined ? {} : { types: request.types }),
    ...(request.filters === undefined
      ? {}
      : { filters: { ...request.filters, time_range: isoRange(request.filters.time_range, 'filters.time_range') } }),
  });
}

/** What a reindex rebuilt. */
export interface ReindexResult {
  /** Item versions whose chunk, full-text entry and (queued) embedding were rebuilt. */
  items: number;
  /** Events whose full-text entry (and token count) was rebuilt from their text. */
  events: number;
}

function recount(tenantId: string, target: 'event' | 'item', id: string, tokens: number | null): WriteOp {
  return { op: 'put_text_tokens', tenant_id: tenantId, target, id, text_tokens: tokens };
}

/** What reindex has done so far: items (of a known total), then events (the total is not counted). */
export type ReindexProgress = (part: 'items' | 'events', done: number, total: number | null) => void;

const REINDEX_BATCH = 500;

/**
 * Rebuilds every derived index from what it derives from: each item version's chunk, full-text
 * entry and (queued) embedding from the items alone, and each event's full-text entry from its
 * text (an event embedded under another model than the configured one is queued for a vector
 * again), in transactions of 500.
 *
 * @example
 * const { items, events } = await reindex(context);
 */
export async function reindex(
  context: MemoryApiContext,
  tenantId?: string,
  onProgress?: ReindexProgress,
): Promise<ReindexResult> {
  await context.storage.items.clearIndex(tenantId);
  const items = await context.storage.items.forReindex(tenantId);
  const { textTokens } = context;
  for (let start = 0; start < items.length; start += REINDEX_BATCH) {
    const batch = items.slice(start, start + REINDEX_BATCH);
    const ops: WriteOp[] = batch.map(chunkOp);
    if (textTokens !== undefined)
      ops.push(...batch.map((item) => recount(item.tenant_id, 'item', item.id, textTokens.item(item))));
    await context.storage.write(ops);
    onProgress?.('items', Math.min(items.length, start + REINDEX_BATCH), items.length);
  }
  let events = 0;
  for (let after: EventRecord | undefined; ;) {
    const page = await context.storage.events.forReindex(
      tenantId,
      after === undefined ? undefined : { tenant_id: after.tenant_id, id: after.id },
      REINDEX_BATCH,
    );
    if (page.length === 0) break;
    const ops: WriteOp[] = page.map((event) => ({
      op: 'index_event',
      tenant_id: event.tenant_id,
      event_id: event.id,
      search_text: analyseEvent(event).searchText,
      // Events embedded under another model (the configuration or the shipped table changed) wait for a vector again.
      ...(context.vectorModel === undefined ? {} : { embedding_model: context.vectorModel }),
    }));
    if (textTokens !== undefined)
      ops.push(...page.map((event) => recount(event.tenant_id, 'event', event.id, textTokens.event(event))));
    await context.storage.write(ops);
    events += page.length;
    onProgress?.('events', events, null);
    after = page.at(-1);
  }
  return { items: items.length, events };
}
