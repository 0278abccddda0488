// The storage contract every adapter (SQLite, PostgreSQL) implements. Writes go through one method
// that applies a list of operations in one transaction; reads are small, scoped by tenant first.
// Domain code never asks which database it runs on: differences are capability flags.

import type { EventFlags, EventKind, EventRecord, Sensitivity } from './event.js';
import type { SessionKey } from './scope.js';
import type { StmSummary } from './summary.js';
import type { WorkingState } from './working-state.js';
import type { CommitTurnResult } from './requests.js';
import type { ItemStatus, MemoryItem, MemoryType } from './items.js';
import type { MemoryPacket } from './packet.js';
import type { ApiKeyRecord } from './auth.js';
import type { LedgerEntry, RunKey, RunState, SnapshotRecord } from './compaction.js';
import type { CandidateDecision, CandidateKind, CandidateStatus, InsightRecord, InsightType, ReflectionRecord, ReviewCandidate } from './reflection.js';

/** What an adapter can do; domain code branches on these, never on the adapter's name. */
export interface StorageCapabilities {
  /** Full-text search over event and item text. */
  fullTextSearch: boolean;
  /**
   * Where vectors are compared: `exact` reads the visible vectors and compares them in the process
   * (itemVectors); `index` asks the database's vector index (nearestItems).
   */
  vectorSearch: 'exact' | 'index';
  /** Several processes may write to the same store at once. */
  multiProcess: boolean;
}

/** What bringing a store's schema up to date did: its version before and after, and the migrations applied. */
export interface MigrationResult {
  from: number;
  to: number;
  applied: string[];
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

/**
 * Replace the full-text entry of a stored event (derived from its text: `reindex` rebuilds it);
 * `search_text` null removes it. Fails with NOT_FOUND for an event the tenant does not hold.
 */
export interface IndexEventOp {
  op: 'index_event';
  tenant_id: string;
  event_id: string;
  search_text: string | null;
}

/**
 * Replace the token count kept with a stored event or item version (derived from its text, like a
 * full-text entry: `reindex` counts it again); null clears it. Fails with NOT_FOUND for a row the
 * tenant does not hold.
 */
export interface PutTextTokensOp {
  op: 'put_text_tokens';
  tenant_id: string;
  target: 'event' | 'item';
  id: string;
  text_tokens: number | null;
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

/** Insert one version of an item (its row is never rewritten, only its status). */
export interface PutItemOp {
  op: 'put_item';
  item: MemoryItem;
}

/**
 * Change an item version's status (superseded, retracted) and when it ended. Fails with
 * STATE_VERSION_CONFLICT unless its status is still `expected_status`, so two writers cannot both
 * supersede the same version.
 */
export interface SetItemStatusOp {
  op: 'set_item_status';
  tenant_id: string;
  item_id: string;
  expected_status: ItemStatus;
  status: ItemStatus;
  ended_at: string | null;
  updated_at: string;
}

/** Delete an item version for good, with its chunk, index entry and vector. */
export interface DeleteItemOp {
  op: 'delete_item';
  tenant_id: string;
  item_id: string;
}

/**
 * Replace the derived chunk of an item version: its text, its index entry and (when the item is
 * embeddable) an embedding to compute. `text` null removes the chunk.
 */
export interface PutChunkOp {
  op: 'put_chunk';
  tenant_id: string;
  item_id: string;
  owner: string;
  text: string | null;
  search_text: string | null;
  embedding_status: 'pending' | 'skipped';
}

/** A composed packet, kept so it can be listed, replayed and compared. */
export interface ContextBuild {
  id: string;
  tenant_id: string;
  user_id: string;
  agent_id: string;
  session_id: string;
  run_id: string;
  purpose: string;
  /** The validated compose request. */
  request: Record<string, unknown>;
  /** The time the packet describes (its generated_at). */
  as_of: string;
  /** The ids of every item the packet selected (explain.selected). */
  selected: string[];
  packet_hash: string;
  packet: MemoryPacket;
  created_at: string;
  /**
   * Present once an erase removed from this build what it quoted or cited of erased data (another
   * user's items, another session's events…): one entry per such erase, oldest first. The packet is
   * then no longer the one composed, and a replay says so.
   */
  redactions?: BuildRedaction[];
}

/** What one erase removed from a stored context build (it never names what was erased). */
export interface BuildRedaction {
  /** When the erase ran. */
  at: string;
  /** What was erased: a user (another one than the build's) or a session. */
  erased: 'user' | 'session';
  /** Entries of the packet removed (quotes, facts, citations, explain lines…) and text fields blanked. */
  removed_entries: number;
  /** Ids removed from `selected`. */
  removed_ids: number;
}

export interface PutContextBuildOp {
  op: 'put_context_build';
  build: ContextBuild;
  /** `JSON.stringify(build.packet)` when the caller has it already (compose hashed it), so it is not serialised twice. */
  packet_json?: string;
}

export interface BuildQuery {
  tenant_id: string;
  user_id?: string;
  agent_id?: string;
  session_id?: string;
  run_id?: string;
  /** Only builds created strictly after this time (for example the run's last snapshot). */
  created_after?: string;
  /** Page before this build id (newest first). */
  cursor?: string;
  limit: number;
}

/** Store the record of one reflection (its trace id is new: a second put of the same id fails). */
export interface PutReflectionOp {
  op: 'put_reflection';
  record: ReflectionRecord;
}

/** Insert a review candidate (status `pending`, or already decided by an auto-approve policy). */
export interface PutCandidateOp {
  op: 'put_candidate';
  candidate: ReviewCandidate;
}

/**
 * Record the decision on a pending candidate; fails with STATE_VERSION_CONFLICT when it is no
 * longer pending (another reviewer decided first) and NOT_FOUND when there is no such candidate.
 */
export interface DecideCandidateOp {
  op: 'decide_candidate';
  tenant_id: string;
  candidate_id: string;
  status: Exclude<CandidateStatus, 'pending'>;
  decision: CandidateDecision;
}

/**
 * Insert an insight (`expected_version: null`) or replace it when the stored version is
 * `expected_version` (STATE_VERSION_CONFLICT otherwise; NOT_FOUND when it is missing).
 */
export interface PutInsightOp {
  op: 'put_insight';
  insight: InsightRecord;
  expected_version: number | null;
}

/** The run has ended: every live insight of it that expires at `run_end` expires now. */
export interface ExpireRunInsightsOp {
  op: 'expire_run_insights';
  tenant_id: string;
  user_id: string;
  agent_id: string;
  run_id: string;
  at: string;
}

/**
 * Insert (`expected_version: 0`) or replace a run's state when the stored version is
 * `expected_version` (STATE_VERSION_CONFLICT, field `run.version`, otherwise).
 */
export interface PutRunStateOp {
  op: 'put_run_state';
  state: RunState;
  expected_version: number;
}

/** Add pointers to a run's evidence ledger; an entry already there (same evidence_id) is kept as it was. */
export interface PutEvidenceOp {
  op: 'put_evidence';
  run: RunKey;
  entries: LedgerEntry[];
}

/**
 * Append a snapshot. Snapshots never change; a second snapshot with the same run and sequence fails
 * with STATE_VERSION_CONFLICT (field `snapshot.sequence`).
 */
export interface PutSnapshotOp {
  op: 'put_snapshot';
  record: SnapshotRecord;
}

/** Store a new API key (its hash; a second key with the same id or hash fails). */
export interface PutApiKeyOp {
  op: 'put_api_key';
  api_key: ApiKeyRecord;
}

/** Revoke a key of a tenant (NOT_FOUND when the tenant has no such key); revoking twice keeps the first time. */
export interface RevokeApiKeyOp {
  op: 'revoke_api_key';
  tenant_id: string;
  key_id: string;
  revoked_at: string;
}

/**
 * A unit of background work: `reflect` a run that ended, or `extract` a turn's items with the LLM.
 * Its payload's `scope` names the user, agent and run it belongs to (an erase deletes it with them).
 */
export interface Job {
  tenant_id: string;
  /**
   * Deterministic from the work, so the same work is queued once (`reflect:<user>/<agent>/<run>`,
   * `extract:<first event id of the turn>`).
   */
  id: string;
  kind: 'reflect' | 'extract';
  payload: Record<string, unknown>;
  status: 'pending' | 'running' | 'done' | 'failed';
  attempts: number;
  /** Running: when the claim's lease ends. Pending: not claimed before this time (a retry's backoff), or null. */
  lease_until: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

/** Every kind of job. */
export const JOB_KINDS: readonly Job['kind'][] = ['reflect', 'extract'];
/** Every status of a job. */
export const JOB_STATUSES: readonly Job['status'][] = ['pending', 'running', 'done', 'failed'];

/** Queue a job; a job with the same tenant and id already queued (in any status) is kept as it is. */
export interface EnqueueJobOp {
  op: 'enqueue_job';
  job: Job;
}

/**
 * Finish a claimed (running) job in the transaction that writes its work, so the work and the
 * record that it was done land together; NOT_FOUND when the job is not running.
 */
export interface CompleteJobOp {
  op: 'complete_job';
  tenant_id: string;
  job_id: string;
  status: 'done' | 'failed';
  error: string | null;
  now: string;
}

/** Jobs of a tenant, newest first. */
export interface JobQuery {
  tenant_id: string;
  kinds?: readonly Job['kind'][];
  statuses?: readonly Job['status'][];
  limit: number;
}

export type WriteOp =
  | EnqueueJobOp
  | CompleteJobOp
  | PutApiKeyOp
  | RevokeApiKeyOp
  | PutRunStateOp
  | PutEvidenceOp
  | PutSnapshotOp
  | PutReflectionOp
  | PutCandidateOp
  | DecideCandidateOp
  | PutInsightOp
  | ExpireRunInsightsOp
  | PutContextBuildOp
  | InsertTurnOp
  | AppendEventOp
  | IndexEventOp
  | PutTextTokensOp
  | PutWorkingStateOp
  | PutSummaryOp
  | PutItemOp
  | SetItemStatusOp
  | DeleteItemOp
  | PutChunkOp;

export interface SnapshotQuery {
  tenant_id: string;
  user_id?: string;
  agent_id?: string;
  run_id?: string;
  /** Only snapshots created at or before this time. */
  created_at_or_before?: string;
  /**
   * `asc` (default): by sequence, oldest first; snapshots of different runs with the same sequence
   * in the order they were stored. `desc`: the reverse.
   */
  order?: 'asc' | 'desc';
  /** Page after this snapshot id in the chosen order (an id the tenant does not have: an empty page). */
  cursor?: string;
  limit: number;
}

export interface ReflectionQuery {
  tenant_id: string;
  user_id?: string;
  agent_id?: string;
  run_id?: string;
  /** Page before this trace id (newest first). */
  cursor?: string;
  limit: number;
}

export interface CandidateQuery {
  tenant_id: string;
  user_id?: string;
  agent_id?: string;
  session_id?: string;
  run_id?: string;
  trace_id?: string;
  statuses?: readonly CandidateStatus[];
  kinds?: readonly CandidateKind[];
  /** Only candidates that were pending at this time (created by then, decided after it, or not yet). */
  pending_at?: string;
  /** `asc` (default, oldest first) or `desc`. */
  order?: 'asc' | 'desc';
  /** Page after this candidate id in the chosen order. */
  cursor?: string;
  limit: number;
}

export interface InsightQuery {
  tenant_id: string;
  user_id?: string;
  agent_id?: string;
  run_id?: string;
  types?: readonly InsightType[];
  /** Current validation states to include (for a past time, filter on `history` instead). */
  states?: readonly InsightRecord['validation_state'][];
  /**
   * Only insights live at this time: created by then, not expired by then (`expired_at`), and not
   * past an `expires_at` that is a time.
   */
  live_at?: string;
  /** `asc` (default, oldest first) or `desc`. */
  order?: 'asc' | 'desc';
  /** Page after this insight id in the chosen order. */
  cursor?: string;
  limit: number;
}

/** Items visible to a caller: owners are `u:<user_id>`, `a:<agent_id>` and `t` (see ownerOf). */
export interface ItemQuery {
  tenant_id: string;
  owners: readonly string[];
  types?: readonly MemoryType[];
  statuses?: readonly ItemStatus[];
  keys?: readonly string[];
  /** Only these item versions. */
  ids?: readonly string[];
  /** Only versions recorded at or before this time. */
  as_of?: string;
  /** Only versions current at this time (recorded by then, not ended by then), whatever their status now. */
  active_at?: string;
  /** Vector reads only: chunk vectors stored strictly before this time (a replay's), of this model. */
  vectors_before?: string;
  vector_model?: string;
  /** Page after (asc) or before (desc) this item id (ids sort in creation order). */
  cursor?: string;
  /** Oldest first (default) or newest first. */
  order?: 'asc' | 'desc';
  limit: number;
}

export interface ItemSearchQuery {
  tenant_id: string;
  owners: readonly string[];
  terms: string[];
  types?: readonly MemoryType[];
  statuses?: readonly ItemStatus[];
  /**
   * Only versions current at this time; words are then ranked by the chunks of items recorded by
   * then (their rarity and newest matches), as a search at that time ranked them.
   */
  active_at?: string;
  limit: number;
}

export interface ItemSearchHit {
  item: MemoryItem;
  score: number;
}

/** Work for the embedding worker: the text of an item chunk, or an event (the domain reads its text). */
export type EmbeddingWork =
  | { target: 'chunk'; tenant_id: string; id: string; text: string }
  | { target: 'event'; tenant_id: string; id: string; event: EventRecord };

export interface EmbeddingResult {
  target: 'chunk' | 'event';
  tenant_id: string;
  id: string;
  /** The vector, or null when the text is skipped (for example private text and a remote model). */
  vector: Float32Array | null;
}

export interface VectorCandidate {
  item_id: string;
  vector: Float32Array;
}

/** The visible item versions nearest to a unit vector; only vectors of its dimension are compared. */
export interface NearestItemsQuery extends Omit<ItemQuery, 'cursor' | 'keys' | 'ids' | 'as_of'> {
  vector: Float32Array;
}

export interface NearestItem {
  item_id: string;
  /** Cosine similarity, in [-1, 1]. */
  similarity: number;
}

/** A page of a scope's events. Expired events are never returned. */
export interface EventQuery {
  tenant_id: string;
  user_id?: string;
  agent_id?: string;
  session_id?: string;
  run_id?: string;
  kinds?: EventKind[];
  /** Only these events. */
  ids?: readonly string[];
  /** Sensitivities to leave out (for example `['secret']` on every read path that feeds a packet). */
  exclude_sensitivity?: Sensitivity[];
  /** Current time: events whose `expires_at` is at or before it are invisible. */
  now: string;
  /** Return expired (not yet purged) events too: only for rebuilding derived state exactly. */
  include_expired?: boolean;
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

/**
 * The events right before and right after some anchor events in their own sessions, among those
 * the filters let through (kinds, sensitivity, time, expiry). The anchors themselves need not pass.
 */
/** Where a walk over the events of every tenant stands: the last event read. */
export interface EventPosition {
  tenant_id: string;
  id: string;
}

export interface NeighbourQuery extends Omit<EventQuery, 'ids' | 'cursor' | 'order' | 'limit' | 'session_id' | 'run_id'> {
  user_id: string;
  agent_id: string;
  anchors: ReadonlyArray<{ id: string; session_id: string }>;
}

/** One anchor's neighbours: the nearest passing event before it and after it in its session. */
export interface EventNeighbours {
  anchor_id: string;
  before: EventRecord | null;
  after: EventRecord | null;
}

/** One session (and run) of a tenant's log: its owner and how many events it holds, when. */
export interface SessionCounts {
  user_id: string;
  agent_id: string;
  session_id: string;
  run_id: string;
  events: number;
  first_ts: string;
  last_ts: string;
}

/** One user of a tenant: current items they own and review candidates waiting for them. */
export interface UserCounts {
  user_id: string;
  items: number;
  pending_candidates: number;
}

/** A tenant's scopes with counts: sessions most recent first (at most the limit asked), every user. */
export interface ScopeCounts {
  sessions: SessionCounts[];
  users: UserCounts[];
}

/**
 * What compacting a store did: the size of its files before and after (SQLite: the file and its
 * write-ahead log; PostgreSQL: the store's tables with their indexes and TOAST; null in memory), and
 * whether every step did its whole job. When `complete` is false, `not_done` says what other
 * processes kept it from doing: erased data may then still be in the files until compact runs again.
 */
export interface CompactResult {
  before_bytes: number | null;
  after_bytes: number | null;
  complete: boolean;
  not_done: string[];
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
  /**
   * Only events recorded at or before this time; words are then ranked by those events alone (their
   * rarity, newest matches and the scope's size), as a search at that time ranked them.
   */
  as_of?: string;
  ts_from?: string;
  ts_to?: string;
  limit: number;
}

/**
 * The events of a user whose stored vectors are nearest to a query vector (cosine), with the same
 * filters as a full-text search. Only vectors of `model` stored strictly before `embedded_before`
 * are compared: a replay sees the vectors its original saw.
 */
export interface NearestEventsQuery extends Omit<EventSearchQuery, 'terms'> {
  vector: Float32Array;
  /** The model the vectors were stored with (`provider:modelId`, as `completeEmbeddingWork` was told). */
  model: string;
  embedded_before?: string;
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

  /**
   * Applies every operation in order, in one transaction: all of them or none. An operation that
   * would store a second record under a key the store holds once (an event's or item's id, …) fails
   * with RECORD_CONFLICT (field `<table>.<key>`), unless its own contract says otherwise.
   */
  write(ops: readonly WriteOp[]): Promise<void>;

  getTurn(key: SessionKey, turnId: string): Promise<CommitTurnResult | null>;
  getEvent(tenantId: string, eventId: string, now: string): Promise<EventRecord | null>;
  listEvents(query: EventQuery): Promise<EventRecord[]>;
  /** For each anchor, in order, its nearest neighbours in its session (one read for all of them). */
  neighbourEvents(query: NeighbourQuery): Promise<EventNeighbours[]>;
  searchEvents(query: EventSearchQuery): Promise<EventSearchHit[]>;
  /** A tenant's sessions (latest event first, at most `limit`) and users, with counts. */
  scopeCounts(tenantId: string, limit: number): Promise<ScopeCounts>;
  getWorkingState(key: SessionKey): Promise<WorkingState | null>;
  getSummary(key: SessionKey): Promise<StmSummary | null>;

  getItem(tenantId: string, itemId: string): Promise<MemoryItem | null>;
  /** Item versions matching the query, in creation order (oldest first, or newest first with `order: 'desc'`). */
  listItems(query: ItemQuery): Promise<MemoryItem[]>;
  /** Keys of the current (active) items of some owners, newest first, at most `limit`. */
  activeKeys(tenantId: string, owners: readonly string[], limit: number): Promise<string[]>;
  /** Full-text search over the chunks of items, best first. */
  searchItems(query: ItemSearchQuery): Promise<ItemSearchHit[]>;
  /** The embedded chunks of visible items, for a vector scan. */
  itemVectors(query: Omit<ItemQuery, 'cursor' | 'limit' | 'keys' | 'ids' | 'as_of'>): Promise<VectorCandidate[]>;
  /**
   * The `limit` visible item versions whose chunk vectors are nearest to `query.vector` (cosine),
   * best first. With `vectorSearch: 'index'` an approximate index answers (nearly exact); otherwise
   * an exact scan.
   */
  nearestItems(query: NearestItemsQuery): Promise<NearestItem[]>;
  /**
   * Events of one tenant (or all), in (tenant, id) order after `after`, at most `limit`: every event,
   * expired or secret ones too, for rebuilding the full-text index.
   */
  eventsForReindex(tenantId: string | undefined, after: EventPosition | undefined, limit: number): Promise<EventRecord[]>;
  /** Every item version (of one tenant, or all), for rebuilding the index. */
  itemsForReindex(tenantId: string | undefined): Promise<MemoryItem[]>;
  /** Deletes every chunk, index entry and vector of items (of one tenant, or all). */
  clearItemIndex(tenantId: string | undefined): Promise<void>;

  /**
   * Claims up to `limit` texts waiting for an embedding (chunks first, then events): their status
   * becomes `processing` until `leaseUntil`, after which unfinished work can be claimed again.
   */
  claimEmbeddingWork(limit: number, now: string, leaseUntil: string): Promise<EmbeddingWork[]>;
  /** Stores vectors (status `done`, stored at `now`), or marks skipped ones (`skipped`). */
  completeEmbeddingWork(results: readonly EmbeddingResult[], model: string, now: string): Promise<void>;
  /** Events nearest to a query vector, best first; `score` is the cosine similarity. */
  nearestEvents(query: NearestEventsQuery): Promise<EventSearchHit[]>;
  /** How much embedding work is pending or in progress. */
  embeddingBacklog(): Promise<number>;

  getContextBuild(tenantId: string, buildId: string): Promise<ContextBuild | null>;
  /** Builds, newest first. */
  listContextBuilds(query: BuildQuery): Promise<ContextBuild[]>;

  /** Changes an event's status flags; any other field is refused with APPEND_ONLY_VIOLATION. */
  updateEventFlags(tenantId: string, eventId: string, flags: EventFlags): Promise<void>;
  /** Deletes events whose `expires_at` is at or before `now`, with their index entries; returns how many. */
  purgeExpired(now: string): Promise<number>;

  /**
   * Every record of a tenant (or one user of it), read page by page (memory stays flat however large
   * the store): the events in the order they were written, each turn right after the last event its
   * result lists (so an import can write a turn with its events), turns none of whose events are
   * there after them; then the other kinds in EXPORT_KINDS order, each in the order it was written.
   * Derived data (chunks, full-text entries, vectors) and API keys are not exported.
   */
  exportRecords(scope: ExportScope): AsyncIterable<ExportRecord>;
  /**
   * Deletes a user (or one session of theirs) in one transaction: events with their full-text
   * entries and vectors, turns, working states, summaries, context builds, items with their chunks,
   * reflections, candidates, insights, run states, ledgers, snapshots and queued jobs (a session: see
   * EraseScope). Copies elsewhere go too: every remaining context build (of another user or session)
   * that quoted or cited an erased event, item or insight is redacted (see ContextBuild.redactions,
   * counted as `context_builds_redacted`).
   */
  erase(scope: EraseScope): Promise<EraseCounts>;
  /**
   * Gives the space of deleted rows back and rewrites what still holds their bytes (SQLite: merges the
   * full-text indexes, checkpoints the write-ahead log and VACUUMs the file; PostgreSQL: VACUUM FULL
   * and ANALYZE of each of the store's tables, which holds each table exclusively while it is
   * rewritten), so erased data is gone from the files too. Reads are unchanged. What another process
   * kept it from doing is reported, never claimed done (CompactResult.complete).
   */
  compact(): Promise<CompactResult>;
  /**
   * One bounded step of full-text index upkeep, for a background worker: SQLite merges segments of
   * its FTS5 indexes (about `pages` pages written; levels holding two or more segments), PostgreSQL
   * moves the pending entries of its GIN indexes into the index. A read costs about a seek per
   * segment, so a store whose index was written in many small transactions (a bulk import, or a
   * long run of single turns) reads faster once merged. True when the step did some work (call
   * again until false). Reads return the same rows either way.
   */
  mergeIndexes(pages: number): Promise<boolean>;
  /**
   * Claims up to `limit` jobs of these kinds (pending and past any backoff, or running with a lease
   * that ended), oldest first: they become `running` with `leaseUntil` and one more attempt. One transaction, so two
   * workers never claim the same job.
   */
  claimJobs(kinds: readonly Job['kind'][], limit: number, now: string, leaseUntil: string): Promise<Job[]>;
  /**
   * Finishes a claimed job: `done`, `failed`, or back to `pending` for another attempt, which is not
   * claimed before `retryAt` when given (a backoff). NOT_FOUND when the job is not running.
   */
  completeJob(tenantId: string, jobId: string, status: 'done' | 'failed' | 'pending', error: string | null, now: string, retryAt?: string): Promise<void>;
  /** A tenant's jobs, newest first, of some kinds and statuses (all when not given). */
  listJobs(query: JobQuery): Promise<Job[]>;
  /** The key with this hash, whichever tenant it belongs to (the tenant comes from the key). */
  findApiKey(hash: string): Promise<ApiKeyRecord | null>;
  /** A tenant's keys (every tenant's with `undefined`), oldest first, revoked ones included. */
  listApiKeys(tenantId: string | undefined): Promise<ApiKeyRecord[]>;
  /** A run's state, null before its first put_run_state. */
  getRunState(run: RunKey): Promise<RunState | null>;
  /** The entries of a run's ledger with these evidence ids (the ones it has, each once, in any order). */
  ledgerEntries(run: RunKey, evidenceIds: readonly string[]): Promise<LedgerEntry[]>;
  /** A stored snapshot by its snapshot_id. */
  getSnapshot(tenantId: string, snapshotId: string): Promise<SnapshotRecord | null>;
  /** Snapshots by sequence, oldest first (or newest first with `order: 'desc'`). */
  listSnapshots(query: SnapshotQuery): Promise<SnapshotRecord[]>;
  getReflection(tenantId: string, traceId: string): Promise<ReflectionRecord | null>;
  /** Reflections, newest first. */
  listReflections(query: ReflectionQuery): Promise<ReflectionRecord[]>;
  getCandidate(tenantId: string, candidateId: string): Promise<ReviewCandidate | null>;
  listCandidates(query: CandidateQuery): Promise<ReviewCandidate[]>;
  getInsight(tenantId: string, insightId: string): Promise<InsightRecord | null>;
  listInsights(query: InsightQuery): Promise<InsightRecord[]>;
  close(): Promise<void>;
}

// Moving a tenant (or one user of it) between stores (see spec/export.ts for EXPORT_KINDS).

/** What an export covers: a whole tenant, or one user of it. */
export interface ExportScope {
  tenant_id: string;
  user_id?: string;
}

/** One record of an export; `kind` says which. */
export type ExportRecord =
  | { kind: 'event'; event: EventRecord }
  | { kind: 'turn'; key: SessionKey; turn_id: string; result: CommitTurnResult }
  | { kind: 'working_state'; key: SessionKey; state: WorkingState; updated_at: string }
  | { kind: 'summary'; key: SessionKey; summary: StmSummary }
  | { kind: 'item'; item: MemoryItem }
  | { kind: 'context_build'; build: ContextBuild }
  | { kind: 'reflection'; record: ReflectionRecord }
  | { kind: 'candidate'; candidate: ReviewCandidate }
  | { kind: 'insight'; insight: InsightRecord }
  | { kind: 'run_state'; state: RunState }
  | { kind: 'ledger'; run: RunKey; entry: LedgerEntry }
  | { kind: 'snapshot'; record: SnapshotRecord };

export type ExportKind = ExportRecord['kind'];

/** What erasing a user or a session removed, by table. */
export type EraseCounts = Record<string, number>;

/** A user (all their data) or one of their sessions to erase. */
export interface EraseScope {
  tenant_id: string;
  user_id: string;
  /**
   * Only this session: its events, turns, working state, summary, builds and candidates; the items
   * all of whose sources were in it (the user's other items lose the session's events from their
   * sources); and every record of the runs it took part in (reflections, candidates, insights, run
   * states, ledgers, snapshots, builds and jobs of those runs, in any session), since each of them
   * summarises the whole run.
   */
  session_id?: string;
  /** When the erase runs, as redacted builds record it (default: now). */
  at?: string;
}
