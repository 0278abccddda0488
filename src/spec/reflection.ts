// Reflection over one run (a trace), the review queue of what it proposes, and insights (DESIGN §1,
// §3; SessionReflection schema; MemoryPacket v1 §5). A reflection only proposes: nothing it says
// becomes memory until a person (or an explicit auto-approve policy) approves the candidate.

import type { Sensitivity } from './event.js';
import type { MemoryType, Salience, ScopeLevel } from './items.js';
import type { StructuredFailure } from './providers.js';
import type { ItemDiff } from './requests.js';

/** Memory types of the reflection schema (BUILD_SPEC §13.1). */
export type ReflectionMemoryType = 'semantic' | 'episodic' | 'procedural' | 'strategic' | 'affective' | 'correction';

export const REFLECTION_MEMORY_TYPES: readonly ReflectionMemoryType[] = [
  'semantic',
  'episodic',
  'procedural',
  'strategic',
  'affective',
  'correction',
];

/** An episode a reflection proposes (SessionReflection `EpisodeCandidate`). */
export interface EpisodeCandidate {
  summary: string;
  entities: string[];
  domains: string[];
  source_event_ids: string[];
  confidence: number;
  candidate_meaning?: string | null;
}

/** A memory a reflection proposes (SessionReflection `MemoryCandidate`). */
export interface MemoryCandidate {
  claim: string;
  memory_type: ReflectionMemoryType;
  applies_when: string[];
  does_not_apply_when: string[];
  initial_salience: Salience;
  /** Indexes into `episode_candidates`: the episodes that support the claim. */
  source_episode_indexes: number[];
  confidence: number;
}

/** The output of one reflection, exactly as `session-reflection.schema.json` describes it. */
export interface SessionReflection {
  trace_id: string;
  episode_candidates: EpisodeCandidate[];
  memory_candidates: MemoryCandidate[];
  /** Opaque in the schema; Engram's own are `ContradictionProposal`s. */
  contradictions: unknown[];
  /** Opaque in the schema; never promoted by any automatic path. */
  doctrine_suggestions: unknown[];
}

/** Two or more current items that cannot all be true. */
export interface ContradictionProposal {
  /** What is in dispute, in one line. */
  detail: string;
  /** The items in dispute (mem_ ids), at least two, or one item against what the run said. */
  item_ids: string[];
  /** The events that show the disagreement. */
  source_event_ids: string[];
  /** The question to settle it, opened in the session's open loops. */
  question: string;
}

/** A doctrine suggestion: a standing rule for the agent. Reviewed by people only. */
export interface DoctrineSuggestion {
  statement: string;
  rationale?: string;
  source_event_ids?: string[];
}

export type CandidateKind = 'episode' | 'memory' | 'contradiction' | 'doctrine';
export type CandidateStatus = 'pending' | 'approved' | 'edited' | 'rejected';
export type ReflectionSource = 'llm' | 'rules';
export type InsightType = 'hypothesis' | 'strategy' | 'pattern';
export type InsightTrigger = 'conflict' | 'failure' | 'synthesis' | 'analogy';
export type ValidationState = 'unvalidated' | 'testing' | 'validated' | 'rejected';

/**
 * What approving a candidate writes. Reflection derives it; a reviewer may edit it at approval.
 * - `item`: a memory item through the normal merge (semantic, episodic, procedural, affective, correction);
 * - `retract`: a correction that denies a key;
 * - `insight`: an insight (strategic claims stay strategy sketches until validated; doctrine);
 * - `resolve`: a contradiction settled by keeping `keep` and retracting the other items;
 * - `none`: nothing can be written without an edit (the reviewer must supply a key and value).
 */
export type CandidateTarget =
  | {
      write: 'item';
      type: MemoryType;
      key: string;
      value: Record<string, unknown>;
      scope_level?: ScopeLevel;
      tags?: string[];
      entities?: string[];
      valid_from?: string | null;
    }
  | { write: 'retract'; key: string }
  // An edit may leave out the trigger, tests and expiry: the insight then takes their defaults.
  | {
      write: 'insight';
      insight_type: InsightType;
      statement: string;
      trigger?: InsightTrigger;
      tests_suggested?: string[];
      expires_at?: string | null;
    }
  | { write: 'resolve'; keep: string | null }
  | { write: 'none' };

/** A reviewer's decision on a candidate. */
export interface CandidateDecision {
  by: string;
  at: string;
  /** Why (required for a rejection). */
  reason: string | null;
  /** The target as edited by the reviewer, when it was edited. */
  edit: CandidateTarget | null;
  /** What the approval wrote: item versions and insights. */
  written: { item_ids: string[]; insight_ids: string[]; retracted_item_ids: string[] };
}

/** One proposal of a reflection, waiting for (or past) review. */
export interface ReviewCandidate {
  id: string;
  tenant_id: string;
  user_id: string;
  agent_id: string;
  session_id: string;
  run_id: string;
  trace_id: string;
  kind: CandidateKind;
  source: ReflectionSource;
  status: CandidateStatus;
  /** The proposal as the reflection made it: an EpisodeCandidate, MemoryCandidate, ContradictionProposal or DoctrineSuggestion. */
  payload: Record<string, unknown>;
  memory_type: ReflectionMemoryType | null;
  confidence: number;
  salience: Salience;
  /** The events that support it: its evidence. */
  source_event_ids: string[];
  /**
   * The strongest sensitivity of its evidence (of everything the reflection read, when it cites
   * none). Anything but `normal` keeps what approving it writes at the user's level.
   */
  sensitivity: Sensitivity;
  /** Items the candidate is about (the disputed items of a contradiction, the item a correction corrects). */
  item_ids: string[];
  target: CandidateTarget;
  /** The open loop a contradiction opened in its session's working state. */
  open_loop_id: string | null;
  created_at: string;
  decision: CandidateDecision | null;
}

/** One change of an insight's validation state. */
export interface InsightTransition {
  state: ValidationState;
  by: string;
  at: string;
  note: string | null;
}

/**
 * A hypothesis, strategy sketch or pattern (MemoryPacket v1 §5). `expires_at` is `run_end` (gone when
 * the run's RUN_END marker arrives), a time, or null (kept until rejected or expired by hand).
 */
export interface InsightRecord {
  id: string;
  tenant_id: string;
  user_id: string;
  agent_id: string;
  session_id: string;
  run_id: string;
  type: InsightType;
  statement: string;
  trigger: InsightTrigger;
  confidence: number;
  validation_state: ValidationState;
  tests_suggested: string[];
  expires_at: string | null;
  /** Evidence: event ids (and the candidate it came from, if any). */
  sources: string[];
  /** Set when the run ended (`run_end`) or the insight was expired; null while live. */
  expired_at: string | null;
  /** The item a validated insight was promoted to. */
  promoted_to: string | null;
  candidate_id: string | null;
  /** Every validation state it has had, oldest first (the first is its creation). */
  history: InsightTransition[];
  /** Bumped by every change; a write names the version it read. */
  version: number;
  created_at: string;
  updated_at: string;
}

/** One run of reflect: what it produced, or why nothing was produced. */
export interface ReflectionRecord {
  trace_id: string;
  tenant_id: string;
  user_id: string;
  agent_id: string;
  session_id: string;
  run_id: string;
  source: ReflectionSource;
  /** The model, when an LLM reflected. */
  model: string | null;
  status: 'succeeded' | 'failed';
  reflection: SessionReflection | null;
  failure: (StructuredFailure & { stage: 'model' | 'evidence' }) | null;
  /** The events reflected over. */
  event_count: number;
  candidate_ids: string[];
  created_at: string;
}

/** Requests of the reflection API (validated against schemas/reflection-requests.schema.json). */
export interface ReflectRequest {
  /** The run to reflect on: its events are the trace. `session_id` picks the session whose open loops get contradiction questions (default: the run's last session). */
  scope: { tenant_id?: string; user_id: string; agent_id: string; session_id?: string; run_id: string };
  /** `auto` (default): the configured LLM if any, else rules. */
  use?: 'auto' | 'rules' | 'llm';
}

export interface ReflectResult {
  trace_id: string;
  source: ReflectionSource;
  status: 'succeeded' | 'failed';
  reflection: SessionReflection | null;
  failure: ReflectionRecord['failure'];
  /** The candidates it stored (pending, or approved by the auto-approve policy). */
  candidates: ReviewCandidate[];
}

export interface ListCandidatesRequest {
  scope: { tenant_id?: string; user_id: string; agent_id?: string; session_id?: string; run_id?: string };
  status?: CandidateStatus[];
  kind?: CandidateKind[];
  trace_id?: string;
  cursor?: string;
  limit?: number;
}

export interface ApproveRequest {
  tenant_id?: string;
  candidate_id: string;
  /** Who approves (default `user`). */
  by?: string;
  /** What to write instead of the candidate's own target (`none` writes nothing, so it is no edit). */
  edit?: Exclude<CandidateTarget, { write: 'none' }>;
}

export interface RejectRequest {
  tenant_id?: string;
  candidate_id: string;
  by?: string;
  reason: string;
}

/** A decided candidate and what deciding it wrote. */
export interface DecisionResult {
  candidate: ReviewCandidate;
  items: ItemDiff[];
  insight_ids: string[];
}

export interface AddInsightRequest {
  scope: { tenant_id?: string; user_id: string; agent_id: string; session_id?: string; run_id: string };
  type: InsightType;
  statement: string;
  trigger?: InsightTrigger;
  confidence?: number;
  tests_suggested?: string[];
  expires_at?: string | null;
  sources?: string[];
  by?: string;
}

export interface ListInsightsRequest {
  scope: { tenant_id?: string; user_id: string; agent_id?: string; session_id?: string; run_id?: string };
  states?: ValidationState[];
  types?: InsightType[];
  include_expired?: boolean;
  cursor?: string;
  limit?: number;
}

export interface UpdateInsightRequest {
  tenant_id?: string;
  insight_id: string;
  state: ValidationState;
  note?: string;
  by?: string;
}

export interface PromoteInsightRequest {
  tenant_id?: string;
  insight_id: string;
  type: MemoryType;
  key: string;
  value: Record<string, unknown>;
  by?: string;
}
