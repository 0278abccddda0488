// TypeScript shape of MemoryPacket v1 (schemas/memory-packet-v1.schema.json is the contract;
// a test keeps the two in step by validating packets built from these types).

import type { WorkingState, OpenLoop, ToolEvidence } from './working-state.js';
import type { Scope } from './scope.js';

export type Purpose = 'planner' | 'tool' | 'responder';
export type PacketRole = 'user' | 'assistant' | 'tool';

/** The six budget sections of MemoryPacket v1 `meta.budget.per_section`. */
export type BudgetSection = 'working_state' | 'facts' | 'procedures' | 'short_term_summary' | 'episodes' | 'insights';

export const BUDGET_SECTIONS: readonly BudgetSection[] = [
  'working_state',
  'facts',
  'procedures',
  'short_term_summary',
  'episodes',
  'insights',
];

export interface Budget {
  max_tokens: number;
  per_section: Record<BudgetSection, number>;
}

export interface TimeRange {
  start?: string;
  end?: string;
}

export interface Cues {
  tags?: string[];
  entities?: string[];
  keywords?: string[];
  time_range?: TimeRange;
  /** Free text; matched against the user's history with full-text search. */
  query?: string;
  [extra: string]: unknown;
}

export interface PacketMeta {
  schema_version: 'v1';
  scope: Scope;
  generated_at: string;
  purpose: Purpose;
  task_type?: string;
  cues?: Cues;
  budget: Budget;
  policy_id?: string;
}

export interface KeyQuote {
  evidence_id: string;
  quote: string;
  role?: PacketRole;
  ts?: string;
}

export interface WindowMessage {
  evidence_id: string;
  role: PacketRole;
  content: string;
  ts?: string;
}

/** The working state as it appears in a packet (open loops move to `short_term.open_loops`). */
export type PacketWorkingState = Partial<Omit<WorkingState, 'open_loops' | 'state_version'>> & {
  state_version: number;
};

export interface ShortTerm {
  working_state: PacketWorkingState;
  rolling_summary: string;
  key_quotes?: KeyQuote[];
  conversation_window?: WindowMessage[];
  open_loops?: OpenLoop[];
  last_tool_evidence?: ToolEvidence[];
}

export interface Fact {
  fact_id: string;
  fact_key: string;
  value: unknown;
  status: 'active' | 'disputed' | 'deprecated';
  validity?: { valid_from?: string; valid_to?: string | null };
  confidence?: number;
  sources: string[];
  scope_level?: 'user' | 'agent' | 'tenant';
  notes?: string;
}

export interface Procedure {
  procedure_id: string;
  task_type: string;
  content: Record<string, unknown>;
  priority?: number;
  sources?: string[];
  applicability?: Record<string, unknown>;
}

export interface Episode {
  episode_id: string;
  time_range: { start: string; end?: string };
  summary: string;
  highlights?: string[];
  tags?: string[];
  entities?: string[];
  sources: string[];
  compression_level?: 'raw' | 'phase_summary' | 'milestone';
  recency_score?: number;
}

export interface LongTerm {
  facts: Fact[];
  preferences?: Fact[];
  procedures: Procedure[];
  episodes: Episode[];
}

export interface InsightItem {
  id: string;
  type: 'hypothesis' | 'strategy' | 'pattern';
  statement: string;
  trigger?: 'conflict' | 'failure' | 'synthesis' | 'analogy';
  confidence?: number;
  validation_state: 'unvalidated' | 'testing' | 'validated' | 'rejected';
  tests_suggested?: string[];
  expires_at?: string | null;
  sources?: string[];
}

export interface Insight {
  usage_policy: { allow_in_responder: boolean };
  hypotheses: InsightItem[];
  strategy_sketches: InsightItem[];
  patterns: InsightItem[];
}

export interface Citation {
  id: string;
  type: string;
  ts?: string;
  summary?: string;
}

export interface Degradation {
  section: string;
  action: string;
  reason: string;
}

export interface Omission {
  item: string;
  reason: string;
}

export interface BudgetReport {
  max_tokens: number;
  used_tokens_est: number;
  section_usage: Record<string, number>;
  degradations: Degradation[];
  omissions?: Omission[];
}

export interface ExplainOmission {
  item: string;
  reason: string;
  [extra: string]: unknown;
}

export interface ExplainConflict {
  type: string;
  detail: string;
  fact_ids?: string[];
  [extra: string]: unknown;
}

export interface Explain {
  selected: string[];
  omitted: ExplainOmission[];
  filters: Record<string, unknown>;
  conflicts: ExplainConflict[];
  determinism?: Record<string, unknown>;
}

/** The output contract of `compose`. */
export interface MemoryPacket {
  meta: PacketMeta;
  short_term: ShortTerm;
  long_term: LongTerm;
  insight: Insight;
  citations: Citation[];
  budget_report: BudgetReport;
  explain: Explain;
}
