// Reflections, review candidates and insights on PostgreSQL. Writes run inside the caller's
// transaction; a decision or an insight replacement is one conditional UPDATE, so two writers can
// never both win.

import { ConflictError, NotFoundError } from '../../spec/errors.js';
import type { InsightRecord, ReflectionRecord, ReviewCandidate } from '../../spec/reflection.js';
import type {
  CandidateQuery,
  DecideCandidateOp,
  ExpireRunInsightsOp,
  InsightQuery,
  PutCandidateOp,
  PutInsightOp,
  PutReflectionOp,
  ReflectionQuery,
} from '../../spec/storage.js';
import {
  candidateFromRow,
  candidateValues,
  insightFromRow,
  insightValues,
  reflectionFromRow,
  reflectionValues,
} from '../shared/reflection-rows.js';
import { candidateDecided, REFLECTION_SQL as SQL, storedFirst } from '../shared/reflection-sql.js';
import { candidateList, insightList, reflectionList } from '../shared/list-queries.js';
import { isUniqueViolation, type Sql } from './client.js';

/** Runs an insert; a duplicate key becomes a typed STATE_VERSION_CONFLICT naming `field`. */
export async function insertOnce(
  tx: Sql,
  sql: string,
  values: readonly unknown[],
  field: string,
  id: string,
): Promise<void> {
  try {
    await tx.run(sql, values);
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    throw storedFirst(field, id, error);
  }
}

export class PgReflectionStore {
  constructor(private readonly sql: Sql) {}

  async putReflection(tx: Sql, op: PutReflectionOp): Promise<void> {
    await insertOnce(tx, SQL.insertReflection, reflectionValues(op.record), 'record.trace_id', op.record.trace_id);
  }

  async putCandidate(tx: Sql, op: PutCandidateOp): Promise<void> {
    await insertOnce(tx, SQL.insertCandidate, candidateValues(op.candidate), 'candidate.id', op.candidate.id);
  }

  async decideCandidate(tx: Sql, op: DecideCandidateOp): Promise<void> {
    const changed = await tx.run(SQL.decideCandidate, [
      op.status,
      JSON.stringify(op.decision),
      op.decision.at,
      op.tenant_id,
      op.candidate_id,
    ]);
    if (changed === 1) return;
    const rows = await tx.rows(SQL.candidateStatus, [op.tenant_id, op.candidate_id]);
    if (rows.length === 0) throw new NotFoundError('candidate_id', op.candidate_id);
    throw candidateDecided(op.candidate_id, rows[0]!['status']);
  }

  async putInsight(tx: Sql, op: PutInsightOp): Promise<void> {
    const insight = op.insight;
    if (op.expected_version === null) {
      await insertOnce(tx, SQL.insertInsight, insightValues(insight), 'insight.id', insight.id);
      return;
    }
    const changed = await tx.run(SQL.replaceInsight, [
      ...insightValues(insight),
      insight.tenant_id,
      insight.id,
      op.expected_version,
    ]);
    if (changed === 1) return;
    const rows = await tx.rows(SQL.insightVersion, [insight.tenant_id, insight.id]);
    if (rows.length === 0) throw new NotFoundError('insight.id', insight.id);
    throw ConflictError.ofVersion('insight.version', op.expected_version, Number(rows[0]!['version']), 'concurrent');
  }

  async expireRunInsights(tx: Sql, op: ExpireRunInsightsOp): Promise<void> {
    await tx.run(SQL.expireRunInsights, [op.at, op.at, op.tenant_id, op.user_id, op.agent_id, op.run_id]);
  }

  async findReflection(tenantId: string, traceId: string): Promise<ReflectionRecord | null> {
    const rows = await this.sql.rows(SQL.getReflection, [tenantId, traceId]);
    return rows.length === 0 ? null : reflectionFromRow(rows[0]!);
  }

  async listReflections(query: ReflectionQuery): Promise<ReflectionRecord[]> {
    const { sql, params } = reflectionList(query);
    return (await this.sql.rows(sql, params)).map(reflectionFromRow);
  }

  async findCandidate(tenantId: string, candidateId: string): Promise<ReviewCandidate | null> {
    const rows = await this.sql.rows(SQL.getCandidate, [tenantId, candidateId]);
    return rows.length === 0 ? null : candidateFromRow(rows[0]!);
  }

  async listCandidates(query: CandidateQuery): Promise<ReviewCandidate[]> {
    const { sql, params } = candidateList(query);
    return (await this.sql.rows(sql, params)).map(candidateFromRow);
  }

  async findInsight(tenantId: string, insightId: string): Promise<InsightRecord | null> {
    const rows = await this.sql.rows(SQL.getInsight, [tenantId, insightId]);
    return rows.length === 0 ? null : insightFromRow(rows[0]!);
  }

  async listInsights(query: InsightQuery): Promise<InsightRecord[]> {
    const { sql, params } = insightList(query);
    return (await this.sql.rows(sql, params)).map(insightFromRow);
  }
}
