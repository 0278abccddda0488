// Requests and results of the two paths (commit_turn and compose), as the library, CLI and
// transports take them. Their JSON Schemas live in schemas/ and are the validation contract.

import type { ScopeInput, Scope } from './scope.js';
import type { StatePatch } from './working-state.js';
import type { Sensitivity, Marker, ResonanceLink, EventKind, EventRole, EmbeddingStatus } from './event.js';
import type { Budget, BudgetSection, Cues, Purpose } from './packet.js';

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
}

/** A request for a MemoryPacket. */
export interface ComposeRequest {
  scope: ScopeInput;
  purpose: Purpose;
  task_type?: string;
  policy_id?: string;
  cues?: Cues;
  budget?: { max_tokens?: number; per_section?: Partial<Record<BudgetSection, number>> };
  /** How many recent messages to include; 0 turns the window off. */
  conversation_window?: number;
  /** Compose as the stores were at this recorded time. */
  as_of?: string;
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

/** Full-text search over a user's events. */
export interface SearchEventsRequest {
  scope: { tenant_id?: string; user_id: string; agent_id?: string; session_id?: string; run_id?: string };
  query: string;
  limit?: number;
  time_range?: { start?: string; end?: string };
}
