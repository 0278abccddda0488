// The operations one write() applies in one transaction, all of them or none: one kind per record
// the store keeps, each with the conflict it fails with.

import type { SessionKey } from '../scope.js';
import type { EventRecord } from '../event.js';
import type { StmSummary } from '../summary.js';
import type { WorkingState } from '../working-state.js';
import type { CommitTurnResult } from '../requests.js';
import type { ItemStatus, MemoryItem } from '../items.js';
import type { ApiKeyRecord } from '../auth.js';
import type { LedgerEntry, RunKey, RunState, SnapshotRecord } from '../compaction.js';
import type {
  CandidateDecision,
  CandidateStatus,
  InsightRecord,
  ReflectionRecord,
  ReviewCandidate,
} from '../reflection.js';
import type { ContextBuild } from './sessions.js';
import type { Job } from './service.js';

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
 * Replace the full-text entry of a stored event (derived from its text: `maintenance.reindex` rebuilds it);
 * `search_text` null removes it. Fails with NOT_FOUND for an event the tenant does not hold.
 */
export interface IndexEventOp {
  op: 'index_event';
  tenant_id: string;
  event_id: string;
  search_text: string | null;
  /**
   * The name vectors are now stored under (`provider:modelId`): an embedded event with no vector of
   * that model is queued for one again (`embedding_status` back to `pending`; its old vector stays
   * until the new one replaces it). Absent: the embedding is left as it is.
   */
  embedding_model?: string;
}

/**
 * Replace the token count kept with a stored event or item version (derived from its text, like a
 * full-text entry: `maintenance.reindex` counts it again); null clears it. Fails with NOT_FOUND for a row the
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

export interface PutContextBuildOp {
  op: 'put_context_build';
  build: ContextBuild;
  /** `JSON.stringify(build.packet)` when the caller has it already (compose hashed it), so it is not serialised twice. */
  packet_json?: string;
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
