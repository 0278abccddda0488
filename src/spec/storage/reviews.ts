// The reviews area of the storage contract: what reflection leaves behind, its trace records, the
// candidates waiting for (or past) a reviewer's decision, and the insights they became.

import type {
  CandidateKind,
  CandidateStatus,
  InsightRecord,
  InsightType,
  ReflectionRecord,
  ReviewCandidate,
} from '../reflection.js';

export interface ReflectionQuery {
  tenant_id: string;
  user_id?: string;
  agent_id?: string;
  run_id?: string;
  /** Page before this trace id (newest first). */
  cursor?: string;
  limit: number;
}

export interface CandidateQuery {
  tenant_id: string;
  user_id?: string;
  agent_id?: string;
  session_id?: string;
  run_id?: string;
  trace_id?: string;
  statuses?: readonly CandidateStatus[];
  kinds?: readonly CandidateKind[];
  /** Only candidates that were pending at this time (created by then, decided after it, or not yet). */
  pending_at?: string;
  /** `asc` (default, oldest first) or `desc`. */
  order?: 'asc' | 'desc';
  /** Page after this candidate id in the chosen order. */
  cursor?: string;
  limit: number;
}

export interface InsightQuery {
  tenant_id: string;
  user_id?: string;
  agent_id?: string;
  run_id?: string;
  types?: readonly InsightType[];
  /** Current validation states to include (for a past time, filter on `history` instead). */
  states?: readonly InsightRecord['validation_state'][];
  /**
   * Only insights live at this time: created by then, not expired by then (`expired_at`), and not
   * past an `expires_at` that is a time.
   */
  live_at?: string;
  /** `asc` (default, oldest first) or `desc`. */
  order?: 'asc' | 'desc';
  /** Page after this insight id in the chosen order. */
  cursor?: string;
  limit: number;
}

/**
 * Reads of reflections, review candidates and insights (writes go through `StorageAdapter.write`).
 *
 * @example
 * const pending = await storage.reviews.listCandidates({ tenant_id: 'default', statuses: ['pending'], limit: 20 });
 */
export interface ReviewStorage {
  getReflection(tenantId: string, traceId: string): Promise<ReflectionRecord | null>;
  /** Reflections, newest first. */
  listReflections(query: ReflectionQuery): Promise<ReflectionRecord[]>;
  getCandidate(tenantId: string, candidateId: string): Promise<ReviewCandidate | null>;
  listCandidates(query: CandidateQuery): Promise<ReviewCandidate[]>;
  getInsight(tenantId: string, insightId: string): Promise<InsightRecord | null>;
  listInsights(query: InsightQuery): Promise<InsightRecord[]>;
}
