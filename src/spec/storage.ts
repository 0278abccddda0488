// The storage contract every adapter (SQLite, PostgreSQL) implements. Writes go through one method
// that applies a list of operations in one transaction; reads are small, scoped by tenant first.
// Domain code never asks which database it runs on: differences are capability flags.

import type { EventFlags, EventKind, EventRecord, Sensitivity } from './event.js';
import type { SessionKey } from './scope.js';
import type { StmSummary } from './summary.js';
import type { WorkingState } from './working-state.js';
import type { CommitTurnResult } from './requests.js';

/** What an adapter can do; domain code branches on these, never on the adapter's name. */
export interface StorageCapabilities {
  /** Full-text search over event text with a BM25-like rank. */
  fullTextSearch: boolean;
  /** Several processes may write to the same store at once. */
  multiProcess: boolean;
}

/** Record a turn as seen; fails with DUPLICATE_TURN if the session already has this turn_id. */
export interface InsertTurnOp {
  op: 'insert_turn';
  key: SessionKey;
  turn_id: string;
  result: CommitTurnResult;
}

/** Append one event; `search_text` is its segmented text for full-text search, null to not index it. */
export interface AppendEventOp {
  op: 'append_event';
  event: EventRecord;
  search_text: string | null;
}

/** Replace a session's working state; fails with STATE_VERSION_CONFLICT unless the stored version is `expected_version`. */
export interface PutWorkingStateOp {
  op: 'put_working_state';
  key: SessionKey;
  state: WorkingState;
  expected_version: number;
  updated_at: string;
}

/** Replace a session's short-term summary; fails with STATE_VERSION_CONFLICT unless the stored version is `expected_version`. */
export interface PutSummaryOp {
  op: 'put_summary';
  key: SessionKey;
  summary: StmSummary;
  expected_version: number;
}

export type WriteOp = InsertTurnOp | AppendEventOp | PutWorkingStateOp | PutSummaryOp;

/** A page of a scope's events. Expired events are never returned. */
export interface EventQuery {
  tenant_id: string;
  user_id?: string;
  agent_id?: string;
  session_id?: string;
  run_id?: string;
  kinds?: EventKind[];
  /** Sensitivities to leave out (for example `['secret']` on every read path that feeds a packet). */
  exclude_sensitivity?: Sensitivity[];
  /** Current time: events whose `expires_at` is at or before it are invisible. */
  now: string;
  /** Only events recorded at or before this time. */
  as_of?: string;
  /** Only events whose event time is at or after this time. */
  ts_from?: string;
  /** Only events whose event time is at or before this time. */
  ts_to?: string;
  /** Only events with an id after (ascending) or before (descending) this one. */
  cursor?: string;
  order?: 'asc' | 'desc';
  limit: number;
}

/** A full-text query over event text; `terms` are already segmented and normalised. */
export interface EventSearchQuery {
  tenant_id: string;
  user_id: string;
  agent_id?: string;
  session_id?: string;
  terms: string[];
  exclude_sensitivity?: Sensitivity[];
  now: string;
  as_of?: string;
  ts_from?: string;
  ts_to?: string;
  limit: number;
}

export interface EventSearchHit {
  event: EventRecord;
  /** Higher is better; comparable only within one result list. */
  score: number;
}

/**
 * A storage backend. Implementations live in `src/storage/*` and pass `test/storage-conformance.ts`.
 *
 * @example
 * const storage = await openSqliteStorage({ path: './.engram/engram.db' });
 * await storage.write([{ op: 'append_event', event, search_text: 'hello world' }]);
 */
export interface StorageAdapter {
  readonly specificationVersion: 'v1';
  readonly name: string;
  readonly capabilities: StorageCapabilities;

  /** Applies every operation in order, in one transaction: all of them or none. */
  write(ops: readonly WriteOp[]): Promise<void>;

  getTurn(key: SessionKey, turnId: string): Promise<CommitTurnResult | null>;
  getEvent(tenantId: string, eventId: string, now: string): Promise<EventRecord | null>;
  listEvents(query: EventQuery): Promise<EventRecord[]>;
  searchEvents(query: EventSearchQuery): Promise<EventSearchHit[]>;
  getWorkingState(key: SessionKey): Promise<WorkingState | null>;
  getSummary(key: SessionKey): Promise<StmSummary | null>;

  /** Changes an event's status flags; any other field is refused with APPEND_ONLY_VIOLATION. */
  updateEventFlags(tenantId: string, eventId: string, flags: EventFlags): Promise<void>;
  /** Deletes events whose `expires_at` is at or before `now`, with their index entries; returns how many. */
  purgeExpired(now: string): Promise<number>;

  close(): Promise<void>;
}
