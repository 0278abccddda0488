// Requests and results of the two paths (commit_turn and compose), as the library, CLI and
// transports take them. Their JSON Schemas live in schemas/ and are the validation contract.

import type { ScopeInput, Scope } from './scope.js';
import type { StatePatch } from './working-state.js';
import type { RunPayload } from './compaction.js';
import type { Sensitivity, Marker, ResonanceLink, EventKind, EventRole, EmbeddingStatus } from './event.js';
import type { Budget, BudgetSection, Purpose, TimeRange } from './packet.js';
import type { EvidenceRef, ItemStatus, MemoryType, Salience, ScopeLevel } from './items.js';

interface RecordOptions {
  sensitivity?: Sensitivity;
  embeddable?: boolean;
  tags?: string[];
  ts?: string;
  expires_at?: string | null;
  snapshot_ref?: string | null;
  metadata?: Record<string, unknown>;
}

/** A message of a turn. Roles accept both the packet names and the stored names. */
export interface TurnMessage extends RecordOptions {
  role: 'user' | 'assistant' | 'system' | 'human' | 'agent';
  content: string | Record<string, unknown>;
  content_type?: 'text' | 'snapshot' | 'command' | 'observation';
  speaker?: string;
  resonance_links?: ResonanceLink[];
}

/** The output of one tool call. */
export interface TurnToolResult extends RecordOptions {
  tool_name: string;
  call_id?: string;
  content: string | Record<string, unknown>;
  status?: 'ok' | 'error';
}

export type TurnMarker = Marker | { marker: Marker; ts?: string; metadata?: Record<string, unknown> };

/** Everything one agent turn hands to Engram. */
export interface CommitTurnRequest {
  scope: ScopeInput;
  turn_id: string;
  ts?: string;
  messages?: TurnMessage[];
  tool_results?: TurnToolResult[];
  state_patch?: StatePatch;
  markers?: TurnMarker[];
  /** What the turn records about its run for compaction snapshots (docs/compaction.md). */
  run?: RunPayload;
  metadata?: Record<string, unknown>;
  /** Compute and return the result without writing anything. */
  dry_run?: boolean;
}

/** One event a turn wrote (or, in a dry run, would write). */
export interface WrittenEvent {
  event_id: string;
  kind: EventKind;
  role: EventRole;
  marker: Marker | null;
  sensitivity: Sensitivity;
  embedding_status: EmbeddingStatus;
  ts: string;
}

/** The retention gate's decision on one event (MemoryTypes v0.1 §5), with its reason. */
export interface GateDecision {
  event_id: string;
  /** must write, may write (and did, or did not), or never (the event stays in the log only). */
  decision: 'must' | 'may' | 'never';
  wrote: boolean;
  reason: string;
  /** The extraction rules that matched. */
  rules: string[];
}

/** A change to long-term memory. */
export interface ItemDiff {
  action: 'created' | 'updated' | 'superseded' | 'retracted' | 'unchanged' | 'deleted';
  item_id: string;
  type: MemoryType;
  key: string;
  version: number;
  /** The version this one replaced or, for `superseded`/`retracted`, the version that ended. */
  previous_id: string | null;
  rule: string;
}

/** An extraction whose output could not be used (invalid twice, or the provider failed); memory was untouched by it. */
export interface ExtractionFailureRecord {
  extractor: string;
  model?: string;
  reason: string;
  attempts: number;
  /** The model's last answer, cut to 2,000 characters. */
  raw: string;
  issues: Array<{ field: string; rule: string; message: string }>;
}

/** What a turn wrote and why. A repeated turn_id returns the first result with `replayed: true`. */
export interface CommitTurnResult {
  turn_id: string;
  scope: Scope;
  recorded_at: string;
  dry_run: boolean;
  replayed: boolean;
  events: WrittenEvent[];
  working_state: { changed: boolean; state_version: number };
  summary: { version: number; sentences_added: number; key_quotes_added: number };
  /** The retention gate's decision on each message and tool result. */
  gate: GateDecision[];
  /** What changed in long-term memory. */
  items: ItemDiff[];
  /** Extractions that failed (LLM output invalid twice, or the provider unreachable). */
  extraction_failures: ExtractionFailureRecord[];
  /** The snapshot this turn triggered, if its markers completed a compaction interval. */
  compaction?: CompactionOutcome;
}

/** A compaction a turn triggered: the snapshot stored and, when it failed its gate twice, the stop. */
export interface CompactionOutcome {
  snapshot_id: string;
  sequence: number;
  status: 'PASS' | 'FAIL';
  /** Build-and-validate attempts: 1, or 2 when the first failed and it was retried once. */
  attempts: number;
  /** True when the run is now stopped (SYSTEM_ERROR): its next commit_turn fails until it is resumed. */
  stopped: boolean;
  diagnostic: string | null;
}

/**
 * What the next step is about. A closed shape, every field size-limited (see the compose-request
 * schema): a cue Engram does not read is refused, not stored with the context build.
 */
export type ComposeCues = {
  /** At most 64, each 1–128 characters. */
  tags?: string[];
  /** At most 64, each 1–256 characters. */
  entities?: string[];
  /** At most 64, each 1–256 characters. */
  keywords?: string[];
  time_range?: TimeRange;
  /** Free text, at most 10,000 characters; matched against the user's history with full-text search. */
  query?: string;
};

/** A request for a MemoryPacket. */
export interface ComposeRequest {
  scope: ScopeInput;
  purpose: Purpose;
  task_type?: string;
  policy_id?: string;
  cues?: ComposeCues;
  budget?: { max_tokens?: number; per_section?: Partial<Record<BudgetSection, number>> };
  /** How many recent messages to include; 0 turns the window off. */
  conversation_window?: number;
  /** Compose as the stores were at this recorded time; not later than now. */
  as_of?: string;
  /**
   * When the question is asked: relative times in the cues ("four weeks ago", "上周五") are read
   * against it. Defaults to the packet's time (as_of, else now).
   */
  reference_time?: string;
}

export type { Budget };

/** The scope of one session; `run_id` is not needed to name a session. */
export interface SessionScopeInput {
  tenant_id?: string;
  user_id: string;
  agent_id: string;
  session_id: string;
  run_id?: string;
}

/** A page of events: a session's when the scope names one, else the user's (or the agent's). */
export interface ListEventsRequest {
  scope: { tenant_id?: string; user_id: string; agent_id?: string; session_id?: string; run_id?: string };
  kinds?: EventKind[];
  order?: 'asc' | 'desc';
  /** The last event id of the previous page. */
  cursor?: string;
  limit?: number;
  /** Show the content of secret events (for their owner's inspection); off by default. */
  include_secret_content?: boolean;
}

/** Full-text search over a user's events (the episodic log; long-term items are `SearchMemoryRequest`). */
export interface SearchEventsRequest {
  scope: { tenant_id?: string; user_id: string; agent_id?: string; session_id?: string; run_id?: string };
  query: string;
  /** Hits per page, 1–200 (default 20). */
  limit?: number;
  time_range?: { start?: string; end?: string };
  /**
   * The `next_cursor` of the previous page: the next page ranks as the first did (the store as of
   * the first page's time), so events recorded since neither shift nor repeat hits.
   */
  cursor?: string;
}

/** Why an event or item is, or is not, in a stored packet. */
export interface ExplainBuildRequest {
  tenant_id?: string;
  /** The context build (`ctx_…`). */
  build_id: string;
  /** The event (`evt_…`) or item version (`mem_…`) asked about. */
  id: string;
}

/** A scope that can write items: the user and the agent (the session and run are optional). */
export interface WriterScope {
  tenant_id?: string;
  user_id: string;
  agent_id: string;
  session_id?: string;
  run_id?: string;
}

/** A scope that reads items: a user, optionally one agent. */
export interface ReaderScope {
  tenant_id?: string;
  user_id: string;
  agent_id?: string;
  session_id?: string;
  run_id?: string;
}

/** An explicit write to long-term memory, merged like an extracted one. */
export interface RememberRequest {
  scope: WriterScope;
  type: MemoryType;
  key: string;
  value: Record<string, unknown>;
  confidence?: number;
  scope_level?: ScopeLevel;
  sensitivity?: 'normal' | 'private';
  valid_from?: string | null;
  valid_to?: string | null;
  salience?: Partial<Salience>;
  tags?: string[];
  entities?: string[];
  source_event_ids?: string[];
  evidence_refs?: EvidenceRef[];
  /** A label for the provenance of the write (default `api.remember`). */
  rule?: string;
  /** The value replaces the current one whole (fields it leaves out go) instead of merging into it. */
  replace?: boolean;
}

/** Make an earlier version of a key current again: a new version with exactly its value. */
export interface RestoreRequest {
  scope: WriterScope;
  /** The version to bring back (superseded or retracted). */
  item_id: string;
  /** A label for the provenance of the new version (default `api.restore`). */
  rule?: string;
}

/** Retract (default) or delete an item: every current version of a key, or one version by id. */
export interface ForgetRequest {
  scope: WriterScope;
  key?: string;
  item_id?: string;
  scope_level?: ScopeLevel;
  /** `retract` keeps history (status retracted); `delete` removes every version, chunk and vector. */
  mode?: 'retract' | 'delete';
  reason?: string;
  /** Answer what would change, and change nothing. */
  dry_run?: boolean;
}

export interface HistoryRequest {
  scope: ReaderScope;
  key: string;
}

export interface ListItemsRequest {
  scope: ReaderScope;
  types?: MemoryType[];
  /** Statuses to list (default active). */
  status?: ItemStatus[];
  cursor?: string;
  limit?: number;
}

export interface SearchMemoryRequest {
  scope: ReaderScope;
  query: string;
  types?: MemoryType[];
  k?: number;
  filters?: {
    status?: ItemStatus[];
    time_range?: { start?: string; end?: string };
    tags?: string[];
    entities?: string[];
    scope_levels?: ScopeLevel[];
  };
}
