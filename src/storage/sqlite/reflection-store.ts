// Reflections, review candidates and insights on SQLite: the record of each reflection run, the
// review queue of what it proposed, and the insights approved or written by the runtime. Used by
// SqliteStorage inside its transactions; every read is scoped by tenant first.

import type Database from 'better-sqlite3';

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
import { candidateList, insightList, reflectionList } from '../shared/list-queries.js';
import type { Row } from '../shared/rows.js';
import {
  candidateFromRow,
  candidateValues,
  insightFromRow,
  insightValues,
  reflectionFromRow,
  reflectionValues,
} from '../shared/reflection-rows.js';
import { candidateDecided, REFLECTION_SQL, storedFirst } from '../shared/reflection-sql.js';
import { isUniqueViolation, prepareAll } from './sql-helpers.js';

/** Runs an insert; a duplicate key becomes a typed STATE_VERSION_CONFLICT naming `field`. */
function insertOnce(statement: Database.Statement, values: unknown[], field: string, id: string): void {
  try {
    statement.run(...values);
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    throw storedFirst(field, id, error);
  }
}

/** The SQL of reflections, review candidates and insights (migration 4). */
export class ReflectionStore {
  private readonly s;

  constructor(
    db: Database.Database,
    private readonly cached: (sql: string) => Database.Statement,
  ) {
    this.s = prepareAll(db, REFLECTION_SQL);
  }

  putReflection(op: PutReflectionOp): void {
    insertOnce(this.s.insertReflection, reflectionValues(op.record), 'record.trace_id', op.record.trace_id);
  }

  putCandidate(op: PutCandidateOp): void {
    insertOnce(this.s.insertCandidate, candidateValues(op.candidate), 'candidate.id', op.candidate.id);
  }

  /** As on PostgreSQL: the update holds only while the candidate is pending; the status is read on a miss. */
  decideCandidate(op: DecideCandidateOp): void {
    const decided = this.s.decideCandidate.run(
      op.status,
      JSON.stringify(op.decision),
      op.decision.at,
      op.tenant_id,
      op.candidate_id,
    );
    if (decided.changes === 1) return;
    const row = this.s.candidateStatus.get(op.tenant_id, op.candidate_id) as Row | undefined;
    if (row === undefined) throw new NotFoundError('candidate_id', op.candidate_id);
    throw candidateDecided(op.candidate_id, row['status']);
  }

  putInsight(op: PutInsightOp): void {
    const insight = op.insight;
    if (op.expected_version === null) {
      insertOnce(this.s.insertInsight, insightValues(insight), 'insight.id', insight.id);
      return;
    }
    const replaced = this.s.replaceInsight.run(
      ...insightValues(insight),
      insight.tenant_id,
      insight.id,
      op.expected_version,
    );
    if (replaced.changes === 1) return;
    const row = this.s.insightVersion.get(insight.tenant_id, insight.id) as Row | undefined;
    if (row === undefined) throw new NotFoundError('insight.id', insight.id);
    throw ConflictError.ofVersion('insight.version', op.expected_version, row['version'] as number, 'concurrent');
  }

  expireRunInsights(op: ExpireRunInsightsOp): void {
    this.s.expireRunInsights.run(op.at, op.at, op.tenant_id, op.user_id, op.agent_id, op.run_id);
  }

  findReflection(tenantId: string, traceId: string): ReflectionRecord | null {
    const row = this.s.getReflection.get(tenantId, traceId) as Row | undefined;
    return row === undefined ? null : reflectionFromRow(row);
  }

  listReflections(query: ReflectionQuery): ReflectionRecord[] {
    const { sql, params } = reflectionList(query);
    return (this.cached(sql).all(...params) as Row[]).map(reflectionFromRow);
  }

  findCandidate(tenantId: string, candidateId: string): ReviewCandidate | null {
    const row = this.s.getCandidate.get(tenantId, candidateId) as Row | undefined;
    return row === undefined ? null : candidateFromRow(row);
  }

  listCandidates(query: CandidateQuery): ReviewCandidate[] {
    const { sql, params } = candidateList(query);
    return (this.cached(sql).all(...params) as Row[]).map(candidateFromRow);
  }

  findInsight(tenantId: string, insightId: string): InsightRecord | null {
    const row = this.s.getInsight.get(tenantId, insightId) as Row | undefined;
    return row === undefined ? null : insightFromRow(row);
  }

  listInsights(query: InsightQuery): InsightRecord[] {
    const { sql, params } = insightList(query);
    return (this.cached(sql).all(...params) as Row[]).map(insightFromRow);
  }
}
