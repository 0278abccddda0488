// What the in-memory store holds: one table per kind of record, the two full-text indexes, and the
// count of events per user and agent that search weighs words by. Records are copied in when
// written and out when read, so no caller shares an object with the store.

import {
  ConflictError,
  withTextTokens,
  type ApiKeyRecord,
  type CommitTurnResult,
  type ContextBuild,
  type EmbeddingStatus,
  type EventRecord,
  type InsightRecord,
  type Job,
  type LedgerEntry,
  type MemoryItem,
  type ReflectionRecord,
  type ReviewCandidate,
  type RunKey,
  type RunState,
  type SessionKey,
  type SnapshotRecord,
  type StmSummary,
  type TextTokenCounter,
  type WorkingState,
} from '../../src/index.js';
import { Journal, keyOf, Table } from './journal.js';
import { WordIndex } from './word-index.js';

/** A vector as stored: the model that made it and when. */
export interface StoredVector {
  values: Float32Array;
  model: string;
  at: string;
}

/** An event with the count and vector kept beside it, and the end of an embedding claim's lease. */
export interface EventRow {
  seq: number;
  event: EventRecord;
  tokens: number | null;
  lease: string | null;
  vector: StoredVector | null;
}

/** An item version with its owner and the count kept beside it. */
export interface ItemRow {
  seq: number;
  item: MemoryItem;
  owner: string;
  tokens: number | null;
}

/** An item version's chunk: its text, its embedding work (with the end of a claim's lease) and vector. */
export interface ChunkRow {
  seq: number;
  tenant_id: string;
  item_id: string;
  owner: string;
  text: string;
  status: EmbeddingStatus;
  lease: string | null;
  vector: StoredVector | null;
}

/** A turn a session committed, with the result it returned. */
export interface TurnRow {
  seq: number;
  key: SessionKey;
  turn_id: string;
  result: CommitTurnResult;
}

/** A session's working state or summary, with its version and when it was written. */
export interface SessionRecordRow<T> {
  seq: number;
  key: SessionKey;
  record: T;
  version: number;
  updated_at: string;
}

/** An entry of a run's evidence ledger. */
export interface LedgerRow {
  seq: number;
  run: RunKey;
  entry: LedgerEntry;
}

/** A row holding one record. */
export interface RecordRow<T> {
  seq: number;
  record: T;
}

/** The copy of a value the store keeps or gives (no caller shares an object with the store). */
export const copy = <T>(value: T): T => structuredClone(value);

/** Keys of rows by their record's fields. */
export const keys = {
  byId: (tenantId: string, id: string): string => keyOf(tenantId, id),
  user: (tenantId: string, userId: string): string => keyOf(tenantId, userId),
  session: (key: SessionKey): string => keyOf(key.tenant_id, key.user_id, key.agent_id, key.session_id),
  turn: (key: SessionKey, turnId: string): string =>
    keyOf(key.tenant_id, key.user_id, key.agent_id, key.session_id, turnId),
  run: (run: RunKey): string => keyOf(run.tenant_id, run.user_id, run.agent_id, run.run_id),
  /** The full-text scope of an event: its user with one agent. */
  eventScope: (tenantId: string, userId: string, agentId: string): string => keyOf(tenantId, userId, agentId),
  /** The full-text scope of a chunk: its owner (`u:<user>`, `a:<agent>`, `t`). */
  chunkScope: (tenantId: string, owner: string): string => keyOf(tenantId, owner),
};

/**
 * A second record under a key the store holds once: RECORD_CONFLICT naming the table and key, as
 * every adapter reports it.
 */
export function recordConflict(table: string, key: string, id: string): ConflictError {
  const field = `${table}.${key}`;
  return new ConflictError(`${field}: the store already holds ${id}; nothing of the write was stored`, {
    code: 'RECORD_CONFLICT',
    field,
    origin: 'caller',
    details: { table, columns: ['tenant_id', key] },
  });
}

/** The scope fields a read may name (besides its tenant, each one optional). */
export interface ScopeFilter {
  tenant_id: string;
  user_id?: string;
  agent_id?: string;
  session_id?: string;
  run_id?: string;
}

/** True when a record is of the filter's tenant and of each user, agent, session and run it names. */
export function inScope(
  record: { tenant_id: string; user_id: string | null; agent_id: string | null; session_id?: string; run_id?: string },
  filter: ScopeFilter,
): boolean {
  return (
    record.tenant_id === filter.tenant_id &&
    (filter.user_id === undefined || record.user_id === filter.user_id) &&
    (filter.agent_id === undefined || record.agent_id === filter.agent_id) &&
    (filter.session_id === undefined || record.session_id === filter.session_id) &&
    (filter.run_id === undefined || record.run_id === filter.run_id)
  );
}

/**
 * A page of rows by id: oldest first after the cursor (`asc`, the default), or newest first before
 * it (`desc`), at most `limit`.
 */
export function pageById<T>(
  rows: readonly T[],
  idOf: (row: T) => string,
  page: { order?: 'asc' | 'desc' | undefined; cursor?: string | undefined; limit: number },
): T[] {
  const sign = page.order === 'desc' ? -1 : 1;
  const { cursor } = page;
  const compare = (a: string, b: string): number => (a < b ? -sign : a > b ? sign : 0);
  return rows
    .filter((row) => cursor === undefined || compare(idOf(row), cursor) > 0)
    .sort((a, b) => compare(idOf(a), idOf(b)))
    .slice(0, page.limit);
}

/** The event a caller is given: a copy, with the token count kept beside it. */
export const eventOut = (row: EventRow): EventRecord => withTextTokens(copy(row.event), row.tokens);

/** The item version a caller is given: a copy, with the token count kept beside it. */
export const itemOut = (row: ItemRow): MemoryItem => withTextTokens(copy(row.item), row.tokens);

export class MemoryState {
  readonly journal = new Journal();
  private lastSeq = 0;

  readonly events = new Table<EventRow>(this.journal);
  readonly eventWords = new WordIndex(this.journal);
  /** Events per agent of each user (keys.user): the size of a search's scope. */
  readonly eventCounts = new Map<string, Map<string, number>>();
  readonly turns = new Table<TurnRow>(this.journal);
  readonly workingStates = new Table<SessionRecordRow<WorkingState>>(this.journal);
  readonly summaries = new Table<SessionRecordRow<StmSummary>>(this.journal);
  readonly builds = new Table<RecordRow<ContextBuild>>(this.journal);
  readonly items = new Table<ItemRow>(this.journal);
  readonly chunks = new Table<ChunkRow>(this.journal);
  readonly chunkWords = new WordIndex(this.journal);
  readonly reflections = new Table<RecordRow<ReflectionRecord>>(this.journal);
  readonly candidates = new Table<RecordRow<ReviewCandidate>>(this.journal);
  readonly insights = new Table<RecordRow<InsightRecord>>(this.journal);
  readonly runStates = new Table<RecordRow<RunState>>(this.journal);
  readonly ledger = new Table<LedgerRow>(this.journal);
  readonly snapshots = new Table<RecordRow<SnapshotRecord>>(this.journal);
  readonly apiKeys = new Table<RecordRow<ApiKeyRecord>>(this.journal);
  readonly jobs = new Table<RecordRow<Job>>(this.journal);

  /** `textTokens`: counts the text of each event and item version written (none kept without it). */
  constructor(readonly textTokens: TextTokenCounter | undefined) {}

  /** The number of a new row: greater than every row's before it. */
  nextSeq(): number {
    this.lastSeq += 1;
    return this.lastSeq;
  }

  /** Adds to the events counted for a user and agent (a negative number removes). */
  countEvents(event: EventRecord, delta: number): void {
    const user = keys.user(event.tenant_id, event.user_id);
    let agents = this.eventCounts.get(user);
    if (agents === undefined) this.journal.set(this.eventCounts, user, (agents = new Map()));
    const count = (agents.get(event.agent_id) ?? 0) + delta;
    if (count > 0) this.journal.set(agents, event.agent_id, count);
    else this.journal.delete(agents, event.agent_id);
  }
}
