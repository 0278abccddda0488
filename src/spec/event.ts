// The episodic event record (episodic-event-v1 plus Engram's scope, turn, kind and times).

/** Roles as stored in the log. Packets show them as user / assistant / tool. */
export type EventRole = 'human' | 'agent' | 'tool' | 'system';
export type EventKind = 'message' | 'tool_result' | 'state_patch' | 'marker';
export type ContentType = 'text' | 'snapshot' | 'tool_output' | 'command' | 'observation';
export type Sensitivity = 'normal' | 'private' | 'secret';
export type EmbeddingStatus = 'pending' | 'processing' | 'done' | 'skipped';
export type Marker = 'PLAN_DONE' | 'ACT_DONE' | 'OBSERVE_DONE' | 'STEP_DONE' | 'RUN_END';

/** The terminal markers that count towards compaction. */
export const TERMINAL_MARKERS: readonly Marker[] = ['PLAN_DONE', 'ACT_DONE', 'OBSERVE_DONE'];

export interface ResonanceLink {
  target_id: string;
  strength: number;
  kind?: 'pattern' | 'identity' | 'artifact';
}

/** One record of the append-only episodic log. */
export interface EventRecord {
  id: string;
  namespace: string;
  thread_id: string | null;
  speaker: string | null;
  role: EventRole;
  content_type: ContentType;
  content: string | Record<string, unknown>;
  sensitivity: Sensitivity;
  embeddable: boolean;
  embedding_status: EmbeddingStatus;
  resonance_links: ResonanceLink[];
  tags: string[];
  snapshot_ref: string | null;
  /** Event time, the same as `ts` (the field name of episodic-event-v1). */
  created_at: string;
  expires_at: string | null;
  origin_metadata: Record<string, unknown>;
  tenant_id: string;
  user_id: string;
  agent_id: string;
  session_id: string;
  run_id: string;
  turn_id: string | null;
  kind: EventKind;
  marker: Marker | null;
  /** Event time, given by the caller or set at commit. */
  ts: string;
  /** When Engram recorded the event. */
  recorded_at: string;
}

/** The fields of an event that may change after it is written. Everything else is immutable. */
export interface EventFlags {
  embedding_status?: EmbeddingStatus;
}
