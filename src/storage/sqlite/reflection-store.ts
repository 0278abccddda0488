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
import { placeholders, type Row } from '../shared/rows.js';
import {
  CANDIDATE_COLUMNS,
  CANDIDATE_SELECT,
  INSIGHT_COLUMNS,
  INSIGHT_SELECT,
  REFLECTION_COLUMNS,
  REFLECTION_SELECT,
  candidateFromRow,
  candidateValues,
  insightFromRow,
  insightValues,
  reflectionFromRow,
  reflectionValues,
} from '../shared/reflection-rows.js';
import { isUniqueViolation } from './sql-helpers.js';

/** Runs an insert; a duplicate key becomes a typed STATE_VERSION_CONFLICT naming `field`. */
function insertOnce(statement: Database.Statement, values: unknown[], field: string, id: string): void {
  try {
    statement.run(...values);
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    throw new ConflictError(`${field}: ${id} already exists; another writer stored it first`, {
      field,
      origin: 'concurrent',
      cause: error,
      details: { id },
    });
  }
}

/** The SQL of reflections, review candidates and insights (migration 4). */
export class ReflectionStore {
  private readonly s;

  constructor(
    db: Database.Database,
    private readonly cached: (sql: string) => Database.Statement,
  ) {
    this.s = {
      insertReflection: db.prepare(`INSERT INTO reflections (${REFLECTION_SELECT}) VALUES (${placeholders(REFLECTION_COLUMNS)})`),
      getReflection: db.prepare(`SELECT ${REFLECTION_SELECT} FROM reflections WHERE tenant_id = ? AND trace_id = ?`),
      insertCandidate: db.prepare(`INSERT INTO candidates (${CANDIDATE_SELECT}) VALUES (${placeholders(CANDIDATE_COLUMNS)})`),
      getCandidate: db.prepare(`SELECT ${CANDIDATE_SELECT} FROM candidates WHERE tenant_id = ? AND id = ?`),
      candidateStatus: db.prepare('SELECT status FROM candidates WHERE tenant_id = ? AND id = ?'),
      decideCandidate: db.prepare('UPDATE candidates SET status = ?, decision = ?, decided_at = ? WHERE tenant_id = ? AND id = ?'),
      insertInsight: db.prepare(`INSERT INTO insights (${INSIGHT_SELECT}) VALUES (${placeholders(INSIGHT_COLUMNS)})`),
      getInsight: db.prepare(`SELECT ${INSIGHT_SELECT} FROM insights WHERE tenant_id = ? AND id = ?`),
      insightVersion: db.prepare('SELECT version FROM insights WHERE tenant_id = ? AND id = ?'),
      replaceInsight: db.prepare(
        `UPDATE insights SET (${INSIGHT_SELECT}) = (${placeholders(INSIGHT_COLUMNS)}) WHERE tenant_id = ? AND id = ?`,
      ),
      expireRun: db.prepare(
        `UPDATE insights SET expired_at = ?, updated_at = ?, version = version + 1
         WHERE tenant_id = ? AND user_id = ? AND agent_id = ? AND run_id = ? AND expired_at IS NULL AND expires_at = 'run_end'`,
      ),
    };
  }

  putReflection(op: PutReflectionOp): void {
    insertOnce(this.s.insertReflection, reflectionValues(op.record), 'record.trace_id', op.record.trace_id);
  }

  putCandidate(op: PutCandidateOp): void {
    insertOnce(this.s.insertCandidate, candidateValues(op.candidate), 'candidate.id', op.candidate.id);
  }

  decideCandidate(op: DecideCandidateOp): void {
    const row = this.s.candidateStatus.get(op.tenant_id, op.candidate_id) as Row | undefined;
    if (row === undefined) throw new NotFoundError('candidate_id', op.candidate_id);
    if (row['status'] !== 'pending') {
      throw new ConflictError(`candidate_id: ${op.candidate_id} is already ${String(row['status'])}; another reviewer decided it`, {
        field: 'candidate_id',
        origin: 'concurrent',
        details: { expected_status: 'pending', status: row['status'] },
      });
    }
    this.s.decideCandidate.run(op.status, JSON.stringify(op.decision), op.decision.at, op.tenant_id, op.candidate_id);
  }

  putInsight(op: PutInsightOp): void {
    const insight = op.insight;
    if (op.expected_version === null) {
      insertOnce(this.s.insertInsight, insightValues(insight), 'insight.id', insight.id);
      return;
    }
    const row = this.s.insightVersion.get(insight.tenant_id, insight.id) as Row | undefined;
    if (row === undefined) throw new NotFoundError('insight.id', insight.id);
    const actual = row['version'] as number;
    if (actual !== op.expected_version) throw ConflictError.ofVersion('insight.version', op.expected_version, actual, 'concurrent');
    this.s.replaceInsight.run(...insightValues(insight), insight.tenant_id, insight.id);
  }

  expireRunInsights(op: ExpireRunInsightsOp): void {
    this.s.expireRun.run(op.at, op.at, op.tenant_id, op.user_id, op.agent_id, op.run_id);
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
