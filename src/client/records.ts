// The records the HTTP API answers with where they differ from the library's own: items and
// candidates carry the line a packet shows for them, lists come a page at a time, and a few bodies
// exist only on the wire. Types only: the route table (src/server/routes-*.ts) names them.

import type {
  ApiKeyInfo,
  ContextBuild,
  EraseCounts,
  InsightRecord,
  ItemDiff,
  KeyRole,
  MemoryItem,
  ReviewCandidate,
  SearchHit,
  TransferCounts,
} from '../index.js';

/**
 * One page of a list and the cursor of the next (null at the end).
 *
 * @example
 * const page: Page<EventRecord> = await engram.events.list({ user_id: 'mira' });
 * if (page.next_cursor !== null) await engram.events.list({ user_id: 'mira', cursor: page.next_cursor });
 */
export interface Page<T> {
  items: T[];
  next_cursor: string | null;
}

/**
 * A memory item as the API answers it, with `text`: the line a packet shows for it.
 *
 * @example
 * const item: ItemRecord = await engram.items.get('mem_…'); // item.text: 'Prefers a concise tone'
 */
export type ItemRecord = MemoryItem & { text: string };

/**
 * An item search hit whose item carries `text`.
 *
 * @example
 * const [best]: ItemHit[] = await engram.items.search({ scope: { user_id: 'mira' }, query: 'tone' });
 */
export type ItemHit = Omit<SearchHit, 'item'> & { item: ItemRecord };

/**
 * A review candidate as listed, with `text`: the line a packet would show for the item approving
 * it writes (null when it writes no item).
 *
 * @example
 * const { items }: Page<CandidateRecord> = await engram.review.list({ user_id: 'mira', status: ['pending'] });
 */
export type CandidateRecord = ReviewCandidate & { text: string | null };

/**
 * A context build, with its packet as prompt text when asked for with `?render=`.
 *
 * @example
 * const build: BuildRecord = await engram.builds.get('ctx_…');
 */
export type BuildRecord = ContextBuild & { text?: string };

/**
 * What a write of items changed (or, on a dry run, would change).
 *
 * @example
 * const { diffs }: ItemDiffs = await engram.request('remember', { body });
 */
export interface ItemDiffs {
  diffs: ItemDiff[];
}

/**
 * A promoted insight and what promoting it wrote.
 *
 * @example
 * const { items }: PromoteResult = await engram.insights.promote('ins_…', { type: 'procedure', key, value });
 */
export interface PromoteResult {
  insight: InsightRecord;
  items: ItemDiff[];
}

/**
 * The body of POST /v1/keys.
 *
 * @example
 * const request: CreateKeyRequest = { role: 'read', label: 'dashboard' };
 */
export interface CreateKeyRequest {
  role: KeyRole;
  label?: string;
  /** Optional; must be the key's own tenant. */
  tenant_id?: string;
}

/**
 * The body of POST /v1/erase: a user, or one session of theirs.
 *
 * @example
 * const request: EraseRequest = { user_id: 'mira', session_id: 's1' };
 */
export interface EraseRequest {
  user_id: string;
  session_id?: string;
  /** Optional; must be the key's own tenant. */
  tenant_id?: string;
}

/**
 * The answer of POST /v1/erase: what was removed, by table.
 *
 * @example
 * const { erased }: EraseResult = await engram.maintenance.erase({ user_id: 'mira' });
 */
export interface EraseResult {
  erased: EraseCounts;
}

/**
 * The answer of POST /v1/import: the records written, and those skipped because the tenant held them already, by kind.
 *
 * @example
 * const { counts }: ImportResult = await engram.maintenance.importData(lines);
 */
export interface ImportResult {
  tenant_id: string;
  counts: TransferCounts;
  skipped: TransferCounts;
}

/**
 * The answer of POST /v1/keys: the new key and its secret, shown this once.
 *
 * @example
 * const { key }: CreatedKey = await engram.keys.create({ role: 'read' });
 */
export interface CreatedKey {
  info: ApiKeyInfo;
  key: string;
}
