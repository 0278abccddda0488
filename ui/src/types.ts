// The shapes the inspector reads from the API (the fields it shows; the server sends more).

export interface SessionCounts {
  user_id: string;
  agent_id: string;
  session_id: string;
  run_id: string;
  events: number;
  first_ts: string;
  last_ts: string;
}

export interface Scopes {
  sessions: SessionCounts[];
  users: Array<{ user_id: string; items: number; pending_candidates: number }>;
}

export interface EventRecord {
  id: string;
  user_id: string;
  agent_id: string;
  session_id: string;
  run_id: string;
  turn_id: string | null;
  kind: 'message' | 'tool_result' | 'state_patch' | 'marker';
  marker: string | null;
  role: string;
  speaker: string | null;
  content_type: string;
  content: unknown;
  sensitivity: 'normal' | 'private' | 'secret';
  tags: string[];
  ts: string;
  recorded_at: string;
  origin_metadata?: Record<string, unknown>;
}

export interface MemoryItem {
  id: string;
  user_id: string | null;
  agent_id: string | null;
  scope_level: 'user' | 'agent' | 'tenant';
  type: string;
  key: string;
  value: Record<string, unknown>;
  confidence: number;
  status: 'active' | 'superseded' | 'retracted';
  sensitivity: string;
  valid_from: string | null;
  valid_to: string | null;
  salience: Record<string, number>;
  version: number;
  supersedes: string | null;
  source_event_ids: string[];
  provenance: Record<string, unknown>;
  tags: string[];
  entities: string[];
  recorded_at: string;
  ended_at: string | null;
}

export interface SearchHit {
  item: MemoryItem;
  score: number;
  signals: Record<string, Record<string, unknown> | null>;
}

export interface Candidate {
  id: string;
  user_id: string;
  agent_id: string;
  run_id: string;
  session_id: string;
  kind: string;
  source: string;
  status: 'pending' | 'approved' | 'edited' | 'rejected';
  payload: Record<string, unknown>;
  memory_type: string;
  confidence: number;
  salience: Record<string, number>;
  source_event_ids: string[];
  /** The strongest sensitivity of its evidence: anything but normal writes at its user's level only. */
  sensitivity: 'normal' | 'private' | 'secret';
  target: { write: string; type?: string; key?: string; value?: unknown } & Record<string, unknown>;
  created_at: string;
  decision: { by: string; at: string; reason: string | null; edit: unknown; written: { item_ids: string[]; insight_ids: string[]; retracted_item_ids: string[] } } | null;
}

export interface Packet {
  meta: { purpose: string; budget: { max_tokens: number; per_section: Record<string, number> }; scope: Record<string, string>; policy_id?: string };
  budget_report: {
    max_tokens: number;
    used_tokens_est: number;
    section_usage: Record<string, number>;
    degradations: Array<{ section: string; action: string; reason: string; item?: string }>;
    omissions?: Array<{ item: string; reason: string }>;
  };
  explain: {
    selected: string[];
    omitted: Array<{ item: string; reason: string; section?: string; detail?: string }>;
    conflicts: Array<{ type: string; detail: string; fact_ids?: string[] }>;
    filters: Record<string, unknown>;
    determinism?: Record<string, unknown>;
  };
  citations: Array<{ id: string; type: string; ts?: string; summary?: string }>;
}

export interface ContextBuild {
  id: string;
  user_id: string;
  agent_id: string;
  session_id: string;
  run_id: string;
  purpose: string;
  packet_hash: string;
  request: Record<string, unknown>;
  packet: Packet;
  selected: string[];
  as_of: string;
  created_at: string;
}

export interface ReplayResult {
  build_id: string;
  identical: boolean;
  original_hash: string;
  replay_hash: string;
}

export interface SnapshotRecord {
  user_id: string;
  agent_id: string;
  session_id: string;
  run_id: string;
  snapshot: { snapshot_id: string; created_at?: string; validation?: { status?: string; errors?: unknown[] } & Record<string, unknown> } & Record<string, unknown>;
}

export interface DecisionResult {
  candidate: Candidate;
  items: unknown[];
  insight_ids: string[];
}
