// Reflections, review candidates and insights in the in-memory store: each stored once per id, a
// candidate decided once, an insight replaced only at the version its writer read, and the reads of
// the reviews area.

import {
  ConflictError,
  NotFoundError,
  type CandidateQuery,
  type DecideCandidateOp,
  type ExpireRunInsightsOp,
  type InsightQuery,
  type InsightRecord,
  type PutCandidateOp,
  type PutInsightOp,
  type PutReflectionOp,
  type ReflectionQuery,
  type ReflectionRecord,
  type ReviewCandidate,
  type ReviewStorage,
} from '../../src/index.js';
import type { Table } from './journal.js';
import { copy, inScope, keys, pageById, type MemoryState, type RecordRow, type ScopeFilter } from './state.js';

/** The conflict of a record whose id another writer stored first. */
function storedFirst(field: string, id: string): ConflictError {
  return new ConflictError(`${field}: ${id} already exists; another writer stored it first`, {
    field,
    origin: 'concurrent',
    details: { id },
  });
}

/** When a candidate stopped being pending: its decision's time (decided without one, its creation). */
function decidedAt(candidate: ReviewCandidate): string | null {
  if (candidate.decision !== null) return candidate.decision.at;
  return candidate.status === 'pending' ? null : candidate.created_at;
}

/** True when an insight is live at a time: created, not expired, and not past an expiry that is a time. */
function liveAt(insight: InsightRecord, at: string): boolean {
  if (insight.created_at > at || (insight.expired_at !== null && insight.expired_at <= at)) return false;
  return insight.expires_at === null || insight.expires_at === 'run_end' || insight.expires_at > at;
}

/** The records of a table in the scope a query names. */
function ofScope<T extends { tenant_id: string; user_id: string; agent_id: string; run_id: string }>(
  table: Table<RecordRow<T>>,
  query: ScopeFilter,
): T[] {
  return table
    .values()
    .map((row) => row.record)
    .filter((record) => inScope(record, query));
}

/** The writes of reflections, candidates and insights (inside a write's transaction). */
export class ReviewWrites {
  constructor(private readonly state: MemoryState) {}

  putReflection(op: PutReflectionOp): void {
    const row = { seq: this.state.nextSeq(), record: copy(op.record) };
    this.state.reflections.insert(keys.byId(op.record.tenant_id, op.record.trace_id), row, () =>
      storedFirst('record.trace_id', op.record.trace_id),
    );
  }

  putCandidate(op: PutCandidateOp): void {
    // Exports written before candidates carried a sensitivity hold none.
    const sensitivity = (op.candidate.sensitivity as ReviewCandidate['sensitivity'] | undefined) ?? 'normal';
    const row = { seq: this.state.nextSeq(), record: { ...copy(op.candidate), sensitivity } };
    this.state.candidates.insert(keys.byId(op.candidate.tenant_id, op.candidate.id), row, () =>
      storedFirst('candidate.id', op.candidate.id),
    );
  }

  /** Decides a pending candidate; one another reviewer decided first is a conflict. */
  decideCandidate(op: DecideCandidateOp): void {
    const key = keys.byId(op.tenant_id, op.candidate_id);
    const row = this.state.candidates.get(key);
    if (row === undefined) throw new NotFoundError('candidate_id', op.candidate_id);
    const { status } = row.record;
    if (status !== 'pending')
      throw new ConflictError(`candidate_id: ${op.candidate_id} is already ${status}; another reviewer decided it`, {
        field: 'candidate_id',
        origin: 'concurrent',
        details: { expected_status: 'pending', status },
      });
    this.state.candidates.put(key, {
      ...row,
      record: { ...row.record, status: op.status, decision: copy(op.decision) },
    });
  }

  putInsight(op: PutInsightOp): void {
    const { insight } = op;
    const key = keys.byId(insight.tenant_id, insight.id);
    if (op.expected_version === null) {
      const inserted = { seq: this.state.nextSeq(), record: copy(insight) };
      return this.state.insights.insert(key, inserted, () => storedFirst('insight.id', insight.id));
    }
    const row = this.state.insights.get(key);
    if (row === undefined) throw new NotFoundError('insight.id', insight.id);
    if (row.record.version !== op.expected_version)
      throw ConflictError.ofVersion('insight.version', op.expected_version, row.record.version, 'concurrent');
    this.state.insights.put(key, { ...row, record: copy(insight) });
  }

  /** The run ended: its live insights that expire at `run_end` expire now. */
  expireRunInsights(op: ExpireRunInsightsOp): void {
    for (const row of this.state.insights.values()) {
      const insight = row.record;
      if (
        insight.tenant_id !== op.tenant_id ||
        insight.user_id !== op.user_id ||
        insight.agent_id !== op.agent_id ||
        insight.run_id !== op.run_id ||
        insight.expired_at !== null ||
        insight.expires_at !== 'run_end'
      )
        continue;
      const expired = { ...insight, expired_at: op.at, updated_at: op.at, version: insight.version + 1 };
      this.state.insights.put(keys.byId(insight.tenant_id, insight.id), { ...row, record: expired });
    }
  }
}

/** The reviews area of the storage contract: what a caller is given. */
export class ReviewArea implements ReviewStorage {
  constructor(private readonly state: MemoryState) {}

  async getReflection(tenantId: string, traceId: string): Promise<ReflectionRecord | null> {
    const row = this.state.reflections.get(keys.byId(tenantId, traceId));
    return row === undefined ? null : copy(row.record);
  }

  async listReflections(query: ReflectionQuery): Promise<ReflectionRecord[]> {
    const found = ofScope(this.state.reflections, query);
    return pageById(found, (record) => record.trace_id, { ...query, order: 'desc' }).map(copy);
  }

  async getCandidate(tenantId: string, candidateId: string): Promise<ReviewCandidate | null> {
    const row = this.state.candidates.get(keys.byId(tenantId, candidateId));
    return row === undefined ? null : copy(row.record);
  }

  async listCandidates(query: CandidateQuery): Promise<ReviewCandidate[]> {
    const at = query.pending_at;
    const found = ofScope(this.state.candidates, query).filter((candidate) => {
      if (query.trace_id !== undefined && candidate.trace_id !== query.trace_id) return false;
      if (query.statuses !== undefined && !query.statuses.includes(candidate.status)) return false;
      if (query.kinds !== undefined && !query.kinds.includes(candidate.kind)) return false;
      if (at === undefined) return true;
      const decided = decidedAt(candidate);
      return candidate.created_at <= at && (decided === null || decided > at);
    });
    return pageById(found, (record) => record.id, query).map(copy);
  }

  async getInsight(tenantId: string, insightId: string): Promise<InsightRecord | null> {
    const row = this.state.insights.get(keys.byId(tenantId, insightId));
    return row === undefined ? null : copy(row.record);
  }

  async listInsights(query: InsightQuery): Promise<InsightRecord[]> {
    const at = query.live_at;
    const found = ofScope(this.state.insights, query).filter(
      (insight) =>
        (query.types === undefined || query.types.includes(insight.type)) &&
        (query.states === undefined || query.states.includes(insight.validation_state)) &&
        (at === undefined || liveAt(insight, at)),
    );
    return pageById(found, (record) => record.id, query).map(copy);
  }
}
