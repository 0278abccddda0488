// Reflections, review candidates and insights on SQLite: the record of each reflection run, the
// review queue of what it proposed, and the insights approved or written by the runtime. Used by
// SqliteStorage inside its transactions; every read is scoped by tenant first.

import type Database from 'better-sqlite3';

import { ConflictError, EngramError, NotFoundError } from '../../spec/errors.js';
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
import type { Row } from './event-rows.js';
import { Filters, isUniqueViolation, json, jsonOrNull, placeholders } from './sql-helpers.js';

const REFLECTION_COLUMNS = [
  'tenant_id', 'trace_id', 'user_id', 'agent_id', 'session_id', 'run_id', 'source', 'model', 'status', 'reflection',
  'failure', 'event_count', 'candidate_ids', 'created_at',
] as const;

const CANDIDATE_COLUMNS = [
  'tenant_id', 'id', 'user_id', 'agent_id', 'session_id', 'run_id', 'trace_id', 'kind', 'source', 'status', 'payload',
  'memory_type', 'confidence', 'salience', 'source_event_ids', 'item_ids', 'target', 'open_loop_id', 'created_at',
  'decision', 'decided_at',
] as const;

// `trigger` is an SQL keyword: the column name is quoted (the row key is still `trigger`).
const INSIGHT_COLUMNS = [
  'tenant_id', 'id', 'user_id', 'agent_id', 'session_id', 'run_id', 'type', 'statement', '"trigger"', 'confidence',
  'validation_state', 'tests_suggested', 'expires_at', 'sources', 'expired_at', 'promoted_to', 'candidate_id',
  'history', 'version', 'created_at', 'updated_at',
] as const;

/** The columns `reflectionFromRow` reads. */
export const REFLECTION_SELECT = REFLECTION_COLUMNS.join(', ');
/** The columns `candidateFromRow` reads. */
export const CANDIDATE_SELECT = CANDIDATE_COLUMNS.join(', ');
/** The columns `insightFromRow` reads. */
export const INSIGHT_SELECT = INSIGHT_COLUMNS.join(', ');

function reflectionValues(record: ReflectionRecord): unknown[] {
  return [
    record.tenant_id, record.trace_id, record.user_id, record.agent_id, record.session_id, record.run_id, record.source,
    record.model, record.status, record.reflection === null ? null : JSON.stringify(record.reflection),
    record.failure === null ? null : JSON.stringify(record.failure), record.event_count,
    JSON.stringify(record.candidate_ids), record.created_at,
  ];
}

/** A reflection record from a row of REFLECTION_SELECT. */
export function reflectionFromRow(row: Row): ReflectionRecord {
  return {
    trace_id: row['trace_id'] as string,
    tenant_id: row['tenant_id'] as string,
    user_id: row['user_id'] as string,
    agent_id: row['agent_id'] as string,
    session_id: row['session_id'] as string,
    run_id: row['run_id'] as string,
    source: row['source'] as ReflectionRecord['source'],
    model: (row['model'] as string | null) ?? null,
    status: row['status'] as ReflectionRecord['status'],
    reflection: jsonOrNull<NonNullable<ReflectionRecord['reflection']>>(row['reflection']),
    failure: jsonOrNull<NonNullable<ReflectionRecord['failure']>>(row['failure']),
    event_count: row['event_count'] as number,
    candidate_ids: json<string[]>(row['candidate_ids']),
    created_at: row['created_at'] as string,
  };
}

/** When a candidate stopped being pending: its decision's time (or, decided without one, its creation). */
function decidedAt(candidate: ReviewCandidate): string | null {
  if (candidate.decision !== null) return candidate.decision.at;
  return candidate.status === 'pending' ? null : candidate.created_at;
}

function candidateValues(c: ReviewCandidate): unknown[] {
  return [
    c.tenant_id, c.id, c.user_id, c.agent_id, c.session_id, c.run_id, c.trace_id, c.kind, c.source, c.status,
    JSON.stringify(c.payload), c.memory_type, c.confidence, JSON.stringify(c.salience), JSON.stringify(c.source_event_ids),
    JSON.stringify(c.item_ids), JSON.stringify(c.target), c.open_loop_id, c.created_at,
    c.decision === null ? null : JSON.stringify(c.decision), decidedAt(c),
  ];
}

/** A review candidate from a row of CANDIDATE_SELECT. */
export function candidateFromRow(row: Row): ReviewCandidate {
  return {
    id: row['id'] as string,
    tenant_id: row['tenant_id'] as string,
    user_id: row['user_id'] as string,
    agent_id: row['agent_id'] as string,
    session_id: row['session_id'] as string,
    run_id: row['run_id'] as string,
    trace_id: row['trace_id'] as string,
    kind: row['kind'] as ReviewCandidate['kind'],
    source: row['source'] as ReviewCandidate['source'],
    status: row['status'] as ReviewCandidate['status'],
    payload: json(row['payload']),
    memory_type: (row['memory_type'] as ReviewCandidate['memory_type']) ?? null,
    confidence: row['confidence'] as number,
    salience: json(row['salience']),
    source_event_ids: json(row['source_event_ids']),
    item_ids: json(row['item_ids']),
    target: json(row['target']),
    open_loop_id: (row['open_loop_id'] as string | null) ?? null,
    created_at: row['created_at'] as string,
    decision: jsonOrNull(row['decision']),
  };
}

function insightValues(i: InsightRecord): unknown[] {
  return [
    i.tenant_id, i.id, i.user_id, i.agent_id, i.session_id, i.run_id, i.type, i.statement, i.trigger, i.confidence,
    i.validation_state, JSON.stringify(i.tests_suggested), i.expires_at, JSON.stringify(i.sources), i.expired_at,
    i.promoted_to, i.candidate_id, JSON.stringify(i.history), i.version, i.created_at, i.updated_at,
  ];
}

/** An insight from a row of INSIGHT_SELECT. */
export function insightFromRow(row: Row): InsightRecord {
  return {
    id: row['id'] as string,
    tenant_id: row['tenant_id'] as string,
    user_id: row['user_id'] as string,
    agent_id: row['agent_id'] as string,
    session_id: row['session_id'] as string,
    run_id: row['run_id'] as string,
    type: row['type'] as InsightRecord['type'],
    statement: row['statement'] as string,
    trigger: row['trigger'] as InsightRecord['trigger'],
    confidence: row['confidence'] as number,
    validation_state: row['validation_state'] as InsightRecord['validation_state'],
    tests_suggested: json(row['tests_suggested']),
    expires_at: (row['expires_at'] as string | null) ?? null,
    sources: json(row['sources']),
    expired_at: (row['expired_at'] as string | null) ?? null,
    promoted_to: (row['promoted_to'] as string | null) ?? null,
    candidate_id: (row['candidate_id'] as string | null) ?? null,
    history: json(row['history']),
    version: row['version'] as number,
    created_at: row['created_at'] as string,
    updated_at: row['updated_at'] as string,
  };
}

/** Runs an insert; a duplicate key becomes a typed STATE_VERSION_CONFLICT naming `field`. */
function insertOnce(statement: Database.Statement, values: unknown[], field: string, id: string): void {
  try {
    statement.run(...values);
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    throw new EngramError('STATE_VERSION_CONFLICT', `${field}: ${id} already exists; another writer stored it first`, {
      field,
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
      throw new EngramError('STATE_VERSION_CONFLICT', `candidate_id: ${op.candidate_id} is already ${String(row['status'])}; another reviewer decided it`, {
        field: 'candidate_id',
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
    if (actual !== op.expected_version) throw new ConflictError('insight.version', op.expected_version, actual);
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
    const f = new Filters(query.tenant_id)
      .equals('user_id', query.user_id)
      .equals('agent_id', query.agent_id)
      .equals('run_id', query.run_id)
      .after('trace_id', 'desc', query.cursor);
    const sql = `SELECT ${REFLECTION_SELECT} FROM reflections WHERE ${f.where.join(' AND ')} ORDER BY trace_id DESC LIMIT ?`;
    return (this.cached(sql).all(...f.params, query.limit) as Row[]).map(reflectionFromRow);
  }

  findCandidate(tenantId: string, candidateId: string): ReviewCandidate | null {
    const row = this.s.getCandidate.get(tenantId, candidateId) as Row | undefined;
    return row === undefined ? null : candidateFromRow(row);
  }

  listCandidates(query: CandidateQuery): ReviewCandidate[] {
    const order = query.order === 'desc' ? 'desc' : 'asc';
    const f = new Filters(query.tenant_id)
      .equals('user_id', query.user_id)
      .equals('agent_id', query.agent_id)
      .equals('session_id', query.session_id)
      .equals('run_id', query.run_id)
      .equals('trace_id', query.trace_id)
      .within('status', query.statuses)
      .within('kind', query.kinds)
      .after('id', order, query.cursor);
    if (query.pending_at !== undefined) {
      f.clause('created_at <= ? AND (decided_at IS NULL OR decided_at > ?)', query.pending_at, query.pending_at);
    }
    const sql = `SELECT ${CANDIDATE_SELECT} FROM candidates WHERE ${f.where.join(' AND ')} ORDER BY id ${order.toUpperCase()} LIMIT ?`;
    return (this.cached(sql).all(...f.params, query.limit) as Row[]).map(candidateFromRow);
  }

  findInsight(tenantId: string, insightId: string): InsightRecord | null {
    const row = this.s.getInsight.get(tenantId, insightId) as Row | undefined;
    return row === undefined ? null : insightFromRow(row);
  }

  listInsights(query: InsightQuery): InsightRecord[] {
    const order = query.order === 'desc' ? 'desc' : 'asc';
    const f = new Filters(query.tenant_id)
      .equals('user_id', query.user_id)
      .equals('agent_id', query.agent_id)
      .equals('run_id', query.run_id)
      .within('type', query.types)
      .within('validation_state', query.states)
      .after('id', order, query.cursor);
    if (query.live_at !== undefined) {
      const t = query.live_at;
      f.clause(
        `created_at <= ? AND (expired_at IS NULL OR expired_at > ?)
         AND NOT (expires_at IS NOT NULL AND expires_at <> 'run_end' AND expires_at <= ?)`,
        t, t, t,
      );
    }
    const sql = `SELECT ${INSIGHT_SELECT} FROM insights WHERE ${f.where.join(' AND ')} ORDER BY id ${order.toUpperCase()} LIMIT ?`;
    return (this.cached(sql).all(...f.params, query.limit) as Row[]).map(insightFromRow);
  }
}
