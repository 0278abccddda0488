// The sessions area of the storage contract: what a session keeps besides its events (turns seen,
// working state, summary), the context builds composed in it, and a tenant's scopes with counts.

import type { SessionKey } from '../scope.js';
import type { StmSummary } from '../summary.js';
import type { WorkingState } from '../working-state.js';
import type { CommitTurnResult } from '../requests.js';
import type { MemoryPacket } from '../packet.js';

/** A composed packet, kept so it can be listed, replayed and compared. */
export interface ContextBuild {
  id: string;
  tenant_id: string;
  user_id: string;
  agent_id: string;
  session_id: string;
  run_id: string;
  purpose: string;
  /** The validated compose request. */
  request: Record<string, unknown>;
  /** The time the packet describes (its generated_at). */
  as_of: string;
  /** The ids of every item the packet selected (explain.selected). */
  selected: string[];
  packet_hash: string;
  packet: MemoryPacket;
  created_at: string;
  /**
   * Present once an erase removed from this build what it quoted or cited of erased data (another
   * user's items, another session's events…): one entry per such erase, oldest first. The packet is
   * then no longer the one composed, and a replay says so.
   */
  redactions?: BuildRedaction[];
}

/** What one erase removed from a stored context build (it never names what was erased). */
export interface BuildRedaction {
  /** When the erase ran. */
  at: string;
  /** What was erased: a user (another one than the build's) or a session. */
  erased: 'user' | 'session';
  /** Entries of the packet removed (quotes, facts, citations, explain lines…) and text fields blanked. */
  removed_entries: number;
  /** Ids removed from `selected`. */
  removed_ids: number;
}

export interface BuildQuery {
  tenant_id: string;
  user_id?: string;
  agent_id?: string;
  session_id?: string;
  run_id?: string;
  /** Only builds created strictly after this time (for example the run's last snapshot). */
  created_after?: string;
  /** Page before this build id (newest first). */
  cursor?: string;
  limit: number;
}

/** One session (and run) of a tenant's log: its owner and how many events it holds, when. */
export interface SessionCounts {
  user_id: string;
  agent_id: string;
  session_id: string;
  run_id: string;
  events: number;
  first_ts: string;
  last_ts: string;
}

/** One user of a tenant: current items they own and review candidates waiting for them. */
export interface UserCounts {
  user_id: string;
  items: number;
  pending_candidates: number;
}

/** A tenant's scopes with counts: sessions most recent first (at most the limit asked), every user. */
export interface ScopeCounts {
  sessions: SessionCounts[];
  users: UserCounts[];
}

/**
 * Reads of what sessions keep (writes go through `StorageAdapter.write`).
 *
 * @example
 * const state = await storage.sessions.getWorkingState({ tenant_id: 'default', user_id: 'u1', agent_id: 'a1', session_id: 's1' });
 */
export interface SessionStorage {
  /** The result recorded for a turn id of a session (insert_turn), null when it was never seen. */
  getTurn(key: SessionKey, turnId: string): Promise<CommitTurnResult | null>;
  getWorkingState(key: SessionKey): Promise<WorkingState | null>;
  getSummary(key: SessionKey): Promise<StmSummary | null>;
  /** A tenant's sessions (latest event first, at most `limit`) and users, with counts. */
  scopeCounts(tenantId: string, limit: number): Promise<ScopeCounts>;
  getBuild(tenantId: string, buildId: string): Promise<ContextBuild | null>;
  /** Builds, newest first. */
  listBuilds(query: BuildQuery): Promise<ContextBuild[]>;
}
