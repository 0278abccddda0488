// Long-term memory (engram.items): list, get, history, remember, restore, forget, reextract and
// search, with POST /v1/memory/search kept as the earlier name of the search. Every item answered
// carries `text`, the line a packet shows for it.

import {
  MEMORY_TYPES,
  describeItem,
  ITEM_STATUSES,
  type ForgetRequest,
  type HistoryRequest,
  type ListItemsRequest,
  type MemoryItem,
  type ReextractRequest,
  type RememberRequest,
  type RestoreRequest,
  type SearchMemoryRequest,
} from '../index.js';
import { attributed } from './attribution.js';
import { type RouteCall, type RouteSpec } from './route-kit.js';
import { limitOf, page, PAGE_PARAMS, pick } from './route-query.js';
import { objectOf, pageOf, ref } from './schema-refs.js';
import { bindTenant } from './tenancy.js';

const READER_PARAMS = [
  { name: 'user_id', type: 'string', description: 'The user (required).', required: true },
  { name: 'agent_id', type: 'string', description: 'Also the items of this agent.' },
] as const;

/** An item with the line a packet shows for it. */
const withText = (item: MemoryItem): MemoryItem & { text: string } => ({ ...item, text: describeItem(item) });

async function listItems({ engram, tenant, query }: RouteCall): Promise<unknown> {
  const limit = limitOf(query);
  const request = {
    scope: { ...pick(query, ['user_id', 'agent_id']), tenant_id: tenant },
    ...pick(query, ['types', 'status', 'cursor']),
    limit,
  };
  return page(
    (await engram.items.list(request as unknown as ListItemsRequest)).map(withText),
    limit,
    (item) => item.id,
  );
}

async function getItem({ engram, tenant, params }: RouteCall): Promise<unknown> {
  return withText(await engram.items.get(params['id']!, tenant));
}

async function history({ engram, tenant, query }: RouteCall): Promise<unknown> {
  const request = { scope: { ...pick(query, ['user_id', 'agent_id']), tenant_id: tenant }, ...pick(query, ['key']) };
  const versions = await engram.items.history(request as unknown as HistoryRequest);
  return { items: versions.map(withText), next_cursor: null };
}

async function searchItems({ engram, tenant, body }: RouteCall): Promise<unknown> {
  return {
    hits: (await engram.items.search(bindTenant(body, tenant) as SearchMemoryRequest)).map((hit) => ({
      ...hit,
      item: withText(hit.item),
    })),
  };
}

/** What changed: the answer of every write of items. */
const DIFFS = {
  status: 200,
  description: 'What changed.',
  schema: objectOf({ diffs: { type: 'array', items: ref('records', '/$defs/item_diff') } }, ['diffs']),
};

/** An item as answered: a MemoryItem with `text`. */
const ITEM = ref('records', '/$defs/item_record');

const ITEM_HITS = {
  status: 200,
  description: 'Item hits, best first (each item with `text`).',
  schema: objectOf({ hits: { type: 'array', items: ref('records', '/$defs/item_hit') } }, ['hits']),
};

/** The item search: listed under its own address and its earlier one. */
const SEARCH_ITEMS: RouteSpec = {
  method: 'POST',
  url: '/v1/items/search',
  operationId: 'searchItems',
  wire: { body: 'SearchMemoryRequest', response: '{ hits: ItemHit[] }' },
  role: 'read',
  tag: 'memory',
  summary:
    "Search a user's long-term memory items (facts, preferences, tasks, procedures, …): hybrid, with per-signal scores; the conversation's events are POST /v1/events/search",
  body: { required: true, schema: ref('memoryRequests', '/$defs/search') },
  response: ITEM_HITS,
  errors: [413, 415],
  handle: searchItems,
};

/** Long-term memory items. */
export const itemRoutes: readonly RouteSpec[] = [
  {
    method: 'GET',
    url: '/v1/items',
    operationId: 'listItems',
    wire: { response: 'Page<ItemRecord>' },
    role: 'read',
    tag: 'memory',
    summary: "Items visible to a user (theirs, their agent's, the tenant's); current ones by default",
    query: [
      ...READER_PARAMS,
      { name: 'types', type: 'list', enum: MEMORY_TYPES, description: 'Memory types (comma-separated).' },
      { name: 'status', type: 'list', enum: ITEM_STATUSES, description: 'Statuses (default active).' },
      ...PAGE_PARAMS,
    ],
    response: { status: 200, description: 'A page of items.', schema: pageOf(ITEM) },
    handle: listItems,
  },
  {
    method: 'GET',
    url: '/v1/items/history',
    operationId: 'itemHistory',
    wire: { response: 'Page<ItemRecord>' },
    role: 'read',
    tag: 'memory',
    summary: 'Every version of a key, oldest first',
    query: [
      ...READER_PARAMS,
      { name: 'key', type: 'string', description: 'The item key (required), e.g. pref:writing:tone.', required: true },
    ],
    response: { status: 200, description: 'All versions (one page).', schema: pageOf(ITEM) },
    handle: history,
  },
  {
    method: 'GET',
    url: '/v1/items/:id',
    operationId: 'getItem',
    wire: { response: 'ItemRecord' },
    role: 'read',
    tag: 'memory',
    summary: 'One item version by id',
    response: { status: 200, description: 'The item.', schema: ITEM },
    errors: [404],
    handle: getItem,
  },
  {
    method: 'POST',
    url: '/v1/items',
    operationId: 'remember',
    wire: { body: 'RememberRequest', response: 'ItemDiffs' },
    role: 'write',
    tag: 'memory',
    summary:
      "Write an item explicitly, merged under its type's conflict policy (with replace, its value replaces the current one whole); a rule naming the inspector is stamped with the key's label",
    body: { required: true, schema: ref('memoryRequests', '/$defs/remember') },
    response: DIFFS,
    errors: [413, 415],
    handle: async ({ engram, principal, tenant, body }) => ({
      diffs: await engram.items.remember(
        bindTenant(await attributed(engram, principal, body), tenant) as RememberRequest,
      ),
    }),
  },
  {
    method: 'POST',
    url: '/v1/items/restore',
    operationId: 'restore',
    wire: { body: 'RestoreRequest', response: 'ItemDiffs' },
    role: 'write',
    tag: 'memory',
    summary:
      "Make an earlier version of a key current again: a new version with exactly its value; a rule naming the inspector is stamped with the key's label",
    body: { required: true, schema: ref('memoryRequests', '/$defs/restore') },
    response: DIFFS,
    errors: [404, 413, 415],
    handle: async ({ engram, principal, tenant, body }) => ({
      diffs: await engram.items.restore(
        bindTenant(await attributed(engram, principal, body), tenant) as RestoreRequest,
      ),
    }),
  },
  {
    method: 'POST',
    url: '/v1/items/forget',
    operationId: 'forget',
    wire: { body: 'ForgetRequest', response: 'ItemDiffs' },
    role: 'write',
    tag: 'memory',
    summary: 'Retract (or delete) every current version of a key, or one version by id (dry_run: what would change)',
    body: { required: true, schema: ref('memoryRequests', '/$defs/forget') },
    response: DIFFS,
    errors: [404, 413, 415],
    handle: async ({ engram, tenant, body }) => ({
      diffs: await engram.items.forget(bindTenant(body, tenant) as ForgetRequest),
    }),
  },
  {
    method: 'POST',
    url: '/v1/items/reextract',
    operationId: 'reextract',
    wire: { body: 'ReextractRequest', response: 'ReextractResult' },
    role: 'admin',
    tag: 'memory',
    summary: "Re-run today's rule extraction over a user's log and bring their items in line (dry_run: plan only)",
    body: { required: true, schema: ref('memoryRequests', '/$defs/reextract') },
    response: {
      status: 200,
      description: 'What changed (or would change), and the keys left alone.',
      schema: objectOf(
        {
          tenant_id: { type: 'string' },
          user_id: { type: 'string' },
          turns: { type: 'integer', minimum: 0 },
          items: { type: 'array', items: ref('records', '/$defs/item_diff') },
          kept: { type: 'array', items: { type: 'string' } },
          dry_run: { type: 'boolean' },
        },
        ['tenant_id', 'user_id', 'turns', 'items', 'kept', 'dry_run'],
      ),
    },
    errors: [413, 415],
    handle: async ({ engram, tenant, body }) =>
      engram.items.reextract(bindTenant(body, tenant, { top: true }) as ReextractRequest),
  },
  SEARCH_ITEMS,
  // Its earlier name, kept: the same route under another address.
  {
    ...SEARCH_ITEMS,
    url: '/v1/memory/search',
    operationId: 'searchMemory',
    summary: 'The same as POST /v1/items/search (its earlier name): long-term memory items, not events',
  },
];
