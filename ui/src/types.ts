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
  /** The line a packet shows for it. */
  text: string;
}

/** One change a write of items made (or, on a dry run, would make). */
export interface ItemDiff {
  action: 'created' | 'updated' | 'superseded' | 'retracted' | 'unchanged' | 'deleted';
  item_id: string;
  type: string;
  key: string;
  version: number;
  previous_id: string | null;
  rule: string;
}

/** The key the inspector is logged in with. */
export interface Whoami {
  key_id: string;
  tenant_id: string;
  role: 'read' | 'write' | 'admin';
  label: string;
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
  /** The items it is about (a contradiction's disputed items). */
  item_ids: string[];
  /** The line a packet would show for the item approving it writes; null when it writes none. */
  text: string | null;
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
  /** The packet's parts, read for the text of each record (packet-text.ts). */
  short_term?: { rolling_summary?: string; key_quotes?: unknown[]; conversation_window?: unknown[] };
  long_term?: { facts?: unknown[]; preferences?: unknown[]; procedures?: unknown[]; episodes?: unknown[] };
  insight?: { hypotheses?: unknown[]; strategy_sketches?: unknown[]; patterns?: unknown[] };
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
  /** The packet as prompt text, when asked for with ?render=. */
  text?: string;
}

/** Why a record is, or is not, in a build's packet (POST /v1/builds/:id/explain). */
export interface BuildExplanation {
  build_id: string;
  id: string;
  kind: 'event' | 'item';
  as_of: string;
  in_packet: boolean;
  section: string | null;
  rule: string | null;
  verdict: string;
  filter: string | null;
  signals: Record<string, { used: boolean; rank: number | null } & Record<string, unknown>>;
  fused_rank: number | null;
  read_depth: number;
  omissions: Array<{ item: string; reason: string; detail?: string }>;
  detail: string;
  notes: string[];
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
