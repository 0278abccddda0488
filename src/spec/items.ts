// Long-term memory items (MemoryTypes v0.1): the truth of what Engram remembers. Each version of an
// item is a row; `supersedes` links a version to the one it replaced. Chunks, full-text entries and
// vectors are derived from items and can be rebuilt from them.

import type { Sensitivity } from './event.js';

/** The nine types of MemoryTypes v0.1 plus procedures (`procedure:<task_type>:<name>`). */
export type MemoryType =
  | 'profile'
  | 'preferences'
  | 'goals'
  | 'tasks'
  | 'decisions'
  | 'entities'
  | 'events'
  | 'cases'
  | 'patterns'
  | 'procedure';

export const MEMORY_TYPES: readonly MemoryType[] = [
  'profile',
  'preferences',
  'goals',
  'tasks',
  'decisions',
  'entities',
  'events',
  'cases',
  'patterns',
  'procedure',
];

export type ItemStatus = 'active' | 'superseded' | 'retracted';

/** Every item status. */
export const ITEM_STATUSES: readonly ItemStatus[] = ['active', 'superseded', 'retracted'];

/** Who an item belongs to: one user, every user of one agent, or the whole tenant. */
export type ScopeLevel = 'user' | 'agent' | 'tenant';

/** How a new value for an existing key is merged (spec §6). */
export type ConflictPolicy = 'overwrite' | 'versioned';

export interface Salience {
  /** Expected consequence of getting this wrong, 0..1. */
  consequence: number;
  /** Emotional or preference intensity, 0..1. */
  emotional_charge: number;
  /** Expected reuse value, 0..1. */
  reusability: number;
}

/** A pointer to where an item's evidence is: an event (or a span of it), a document, a URL or a file. */
export interface EvidenceRef {
  kind: 'event' | 'document' | 'url' | 'file';
  ref: string;
  span?: [number, number];
  evidence_id?: string;
  note?: string;
}

/** How an item came to be: which extractor and rule, or an explicit write. */
export interface Provenance {
  extractor: 'rules' | 'llm' | 'explicit' | 'reflection' | 'import';
  /** The rule name (rules), prompt id (llm) or caller label (explicit). */
  rule: string;
  /** The model, for LLM extraction. */
  model?: string;
}

/** One version of a long-term memory item. */
export interface MemoryItem {
  id: string;
  tenant_id: string;
  /** The owning user (user-level items) or the user whose turn produced it (provenance). */
  user_id: string | null;
  /** The owning agent (agent-level items) or the agent that learned it. */
  agent_id: string | null;
  scope_level: ScopeLevel;
  type: MemoryType;
  key: string;
  value: Record<string, unknown>;
  confidence: number;
  status: ItemStatus;
  sensitivity: Sensitivity;
  valid_from: string | null;
  valid_to: string | null;
  salience: Salience;
  version: number;
  /** The id of the version this one replaced, if any. */
  supersedes: string | null;
  source_event_ids: string[];
  evidence_refs: EvidenceRef[];
  provenance: Provenance;
  tags: string[];
  entities: string[];
  /** When this version was written. */
  recorded_at: string;
  /** When its status last changed. */
  updated_at: string;
  /** When it stopped being current (superseded or retracted); null while current. */
  ended_at: string | null;
}

/**
 * What an extractor proposes: a value for a key (`upsert`) or the denial of a key (`retract`).
 * The retention gate and the type's conflict policy decide what is written.
 */
export interface ItemCandidate {
  action: 'upsert' | 'retract';
  type: MemoryType;
  key: string;
  /** For `retract`, may be empty; for `upsert`, the value (merged over the current one). */
  value: Record<string, unknown>;
  confidence: number;
  /** The extractor's rule name (for example `en.preference.prefer`), kept as provenance. */
  rule: string;
  /** The retention gate class the rule claims (spec §5): must write or may write. */
  gate: 'must' | 'may';
  source_event_ids: string[];
  evidence_refs?: EvidenceRef[];
  salience?: Partial<Salience>;
  scope_level?: ScopeLevel;
  valid_from?: string | null;
  valid_to?: string | null;
  tags?: string[];
  entities?: string[];
  /**
   * Who proposed it, when not the writer's own extractor: an LLM extractor's candidates say `llm`
   * and name the model, so the items they make say so in their provenance.
   */
  provenance?: Pick<Provenance, 'extractor' | 'model'>;
  /**
   * Why a person must choose: the statement has several readings ("the insurance is renewed" with
   * two open insurance tasks), each proposed as one candidate. Nothing is written; each reading
   * waits in the review queue (`engram.review`) until one is approved.
   */
  review?: string;
}

/** The text an extractor reads: one shareable event of a turn. */
export interface ExtractionEvent {
  event_id: string;
  kind: 'message' | 'tool_result';
  /** `user`, `assistant` or `tool`. */
  role: 'user' | 'assistant' | 'tool';
  text: string;
  /** The tool's name, for tool results. */
  tool_name?: string;
  /** The tool result's status, when the tool reported one. */
  tool_status?: 'ok' | 'error';
  /** Structured tool output, when the tool returned an object. */
  data?: Record<string, unknown>;
  ts: string;
}

/** What an extractor gets: the shareable events of one turn, in log order. */
export interface ExtractionInput {
  events: readonly ExtractionEvent[];
  /** Keys of the scope's current items, so a retraction can name what it denies. */
  known_keys?: readonly string[];
}

/** An extractor that never fails on odd input: it returns the candidates it is sure of. */
export interface Extractor {
  readonly specificationVersion: 'v1';
  readonly name: string;
  extract(input: ExtractionInput): ItemCandidate[] | Promise<ItemCandidate[]>;
}

/**
 * The visibility key of an item: `u:<user_id>` (user level), `a:<agent_id>` (agent level) or `t`
 * (the whole tenant).
 *
 * @example
 * ownerOf('user', 'mira', 'assistant') // 'u:mira'
 */
export function ownerOf(level: ScopeLevel, userId: string | null, agentId: string | null): string {
  if (level === 'user') return `u:${userId ?? ''}`;
  if (level === 'agent') return `a:${agentId ?? ''}`;
  return 't';
}

/**
 * The owners whose items a user talking to an agent can see: their own, the agent's, the tenant's.
 *
 * @example
 * visibleOwners('mira', 'assistant') // ['u:mira', 'a:assistant', 't']
 */
export function visibleOwners(userId: string, agentId: string | undefined): string[] {
  return agentId === undefined ? [`u:${userId}`, 't'] : [`u:${userId}`, `a:${agentId}`, 't'];
}
