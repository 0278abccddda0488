// Compaction snapshots of long runs (compaction-snapshot-v1.md): the canonical, append-only state
// of a run (objective, claims with evidence pointers, conflicts, failures, open questions) taken
// every so many terminal markers, validated by a binding gate. The run state below is what the agent
// records through commit_turn (`run`) and what a snapshot is built from.

/** A pointer into evidence: never the evidence itself (spec C). */
export interface EvidencePointer {
  /** Deterministic from corpus, chunk, span and optional quote (`evd_…`, see util/ids evidenceId). */
  evidence_id: string;
  chunk_id: string;
  /** Character offsets `[start, end)` inside the chunk. */
  span: [number, number];
  /** The corpus or index the chunk belongs to (`events` for the episodic log). */
  corpus_id: string;
}

export type ClaimStatus = 'verified' | 'candidate' | 'retracted';

export interface Claim {
  claim_id: string;
  status: ClaimStatus;
  statement: string;
  evidence_refs: EvidencePointer[];
}

export interface Conflict {
  conflict_id: string;
  description: string;
  side_a_refs: EvidencePointer[];
  side_b_refs: EvidencePointer[];
}

export interface RunFailure {
  failure_id: string;
  category: string;
  where: string;
  why: string;
}

export interface SourceCoverage {
  source_ids_seen: string[];
  chunk_ids_seen: string[];
  chunk_ids_cited: string[];
}

export interface ValidationCheck {
  name: string;
  status: 'PASS' | 'FAIL';
  message: string;
}

export interface SnapshotValidation {
  status: 'PASS' | 'FAIL';
  checks: ValidationCheck[];
  failure_action_taken: 'NONE' | 'RETRY' | 'SYSTEM_ERROR';
}

/** Snapshot v1, exactly the spec's shape (validated against schemas/compaction-snapshot-v1.schema.json). */
export interface CompactionSnapshot {
  snapshot_id: string;
  run_id: string;
  sequence: number;
  created_at: string;
  objective: string;
  done_definition: string | Record<string, unknown>;
  provenance_mode: string;
  policy_snapshot_ref: string | null;
  counts: { steps_since_last_compaction: number; counted_events_since_last_compaction: number };
  /** The context builds composed in the run since the previous snapshot. */
  latest_context_manifest_ids: string[];
  state: {
    claims: Claim[];
    conflicts: Conflict[];
    open_questions: string[];
    failures: RunFailure[];
    source_coverage: SourceCoverage;
  };
  /** A summary and pointers only: never retrieved text. */
  retrieval_diagnostics: Record<string, unknown>;
  validation: SnapshotValidation;
}

/** A stored snapshot with the scope of its run. Never changes once written. */
export interface SnapshotRecord {
  tenant_id: string;
  user_id: string;
  agent_id: string;
  session_id: string;
  run_id: string;
  snapshot: CompactionSnapshot;
}

/** The run a state belongs to. */
export interface RunKey {
  tenant_id: string;
  user_id: string;
  agent_id: string;
  run_id: string;
}

/** One entry of a run's evidence ledger: a pointer the run recorded, with where it came from. */
export interface LedgerEntry extends EvidencePointer {
  /** The source (document, URL, tool) the chunk belongs to, when known. */
  source_id: string | null;
  /** A SHA-256 of the quoted text, when the evidence is a quote. */
  quote_hash: string | null;
  recorded_at: string;
}

/** What the agent has recorded about a run, and the compaction counters. */
export interface RunState extends RunKey {
  objective: string | null;
  done_definition: string | Record<string, unknown> | null;
  status: 'active' | 'stopped';
  /** Why the run stopped (the failed validation), null while active. */
  stop_reason: string | null;
  claims: Claim[];
  conflicts: Conflict[];
  failures: RunFailure[];
  open_questions: string[];
  source_ids_seen: string[];
  chunk_ids_seen: string[];
  /** Terminal markers (PLAN_DONE, ACT_DONE, OBSERVE_DONE) since the last snapshot. */
  counted_since: number;
  /** Steps (STEP_DONE markers) since the last snapshot. */
  steps_since: number;
  /** The sequence of the latest snapshot, 0 before the first. */
  sequence: number;
  latest_snapshot_id: string | null;
  /** When the latest snapshot was taken (context builds after it belong to the next). */
  last_snapshot_at: string | null;
  /** The session of the run's latest turn. */
  session_id: string;
  /** Bumped by every change; a write names the version it read (0: the state is new). */
  version: number;
  updated_at: string;
}

/** Evidence as the agent gives it in commit_turn: a chunk of a corpus, or an event of the run. */
export type EvidenceInput =
  | { corpus_id: string; chunk_id: string; span: [number, number]; quote?: string; source_id?: string }
  | { event_id: string; span?: [number, number]; quote?: string };

/**
 * What a turn records about its run (`run` in commit_turn): the objective and done definition (a
 * later different one replaces it in the run's state, and the next snapshot's gate then fails
 * because it differs from the previous snapshot's), evidence for the ledger, and claims, conflicts
 * and failures (each replaces the one with the same id).
 */
export interface RunPayload {
  objective?: string;
  done_definition?: string | Record<string, unknown>;
  evidence?: EvidenceInput[];
  claims?: Array<{ claim_id: string; status: ClaimStatus; statement: string; evidence?: EvidenceInput[] }>;
  conflicts?: Array<{ conflict_id: string; description: string; side_a: EvidenceInput[]; side_b: EvidenceInput[] }>;
  failures?: RunFailure[];
  open_questions?: { add?: string[]; resolve?: string[] };
  /** Sources the run looked at (documents, URLs, indexes), for source coverage. */
  sources_seen?: Array<{ source_id: string; chunk_ids?: string[] }>;
}

/** Compaction cadence (spec defaults: 18 counted events, 8 steps). */
export interface CompactionConfig {
  eventThreshold: number;
  stepFallback: number;
  /** `audit_only` (default). */
  provenanceMode: string;
  /** A reference to the policy in force, recorded in every snapshot. */
  policySnapshotRef: string | null;
}

/** The run a request is about. */
export interface RunScope {
  tenant_id?: string;
  user_id: string;
  agent_id: string;
  run_id: string;
}

/** Resume a stopped run (after fixing what failed its snapshot's gate). */
export interface ResumeRunRequest {
  scope: RunScope;
  by?: string;
  note?: string;
}

/** Snapshots of a user's runs (one run with `run_id`), oldest first by default. */
export interface ListSnapshotsRequest {
  scope: { tenant_id?: string; user_id: string; agent_id?: string; run_id?: string };
  order?: 'asc' | 'desc';
  cursor?: string;
  limit?: number;
}
