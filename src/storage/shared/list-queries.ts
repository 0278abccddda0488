// The list queries of the record tables, shared by the SQL adapters: each builds its SQL (with `?`
// placeholders, tenant first) and parameters from a query of the storage contract; the adapter runs
// it and reads the rows with the shared row readers.

import type { RunKey } from '../../spec/compaction.js';
import type {
  BuildQuery,
  CandidateQuery,
  InsightQuery,
  JobQuery,
  ReflectionQuery,
  SnapshotQuery,
} from '../../spec/storage.js';
import { CANDIDATE_SELECT, INSIGHT_SELECT, REFLECTION_SELECT } from './reflection-rows.js';
import { BOUND_LIMIT, Filters } from './rows.js';
import { LEDGER_CHUNK, LEDGER_SELECT, SNAPSHOT_SELECT } from './run-rows.js';
import { BUILD_SELECT, JOB_COLUMNS } from './service-rows.js';

/** SQL and its parameters, in order. */
export interface SqlQuery {
  sql: string;
  params: unknown[];
}

function query(select: string, table: string, f: Filters, order: string, limit: number): SqlQuery {
  return {
    sql: `SELECT ${select} FROM ${table} WHERE ${f.where.join(' AND ')} ORDER BY ${order} ${BOUND_LIMIT}`,
    params: [...f.params, limit],
  };
}

/** Reflections, newest first. */
export function reflectionList(q: ReflectionQuery): SqlQuery {
  const f = new Filters(q.tenant_id)
    .equals('user_id', q.user_id)
    .equals('agent_id', q.agent_id)
    .equals('run_id', q.run_id)
    .after('trace_id', 'desc', q.cursor);
  return query(REFLECTION_SELECT, 'reflections', f, 'trace_id DESC', q.limit);
}

/** Review candidates in id order (asc by default). */
export function candidateList(q: CandidateQuery): SqlQuery {
  const order = q.order === 'desc' ? 'desc' : 'asc';
  const f = new Filters(q.tenant_id)
    .equals('user_id', q.user_id)
    .equals('agent_id', q.agent_id)
    .equals('session_id', q.session_id)
    .equals('run_id', q.run_id)
    .equals('trace_id', q.trace_id)
    .within('status', q.statuses)
    .within('kind', q.kinds)
    .after('id', order, q.cursor);
  if (q.pending_at !== undefined)
    f.clause('created_at <= ? AND (decided_at IS NULL OR decided_at > ?)', q.pending_at, q.pending_at);
  return query(CANDIDATE_SELECT, 'candidates', f, `id ${order.toUpperCase()}`, q.limit);
}

/** Insights in id order (asc by default). */
export function insightList(q: InsightQuery): SqlQuery {
  const order = q.order === 'desc' ? 'desc' : 'asc';
  const f = new Filters(q.tenant_id)
    .equals('user_id', q.user_id)
    .equals('agent_id', q.agent_id)
    .equals('run_id', q.run_id)
    .within('type', q.types)
    .within('validation_state', q.states)
    .after('id', order, q.cursor);
  if (q.live_at !== undefined) {
    const t = q.live_at;
    f.clause(
      `created_at <= ? AND (expired_at IS NULL OR expired_at > ?)
       AND NOT (expires_at IS NOT NULL AND expires_at <> 'run_end' AND expires_at <= ?)`,
      t,
      t,
      t,
    );
  }
  return query(INSIGHT_SELECT, 'insights', f, `id ${order.toUpperCase()}`, q.limit);
}

/** Snapshots by (sequence, insertion order), paged after the cursor snapshot's position. */
export function snapshotList(q: SnapshotQuery): SqlQuery {
  const order = q.order === 'desc' ? 'DESC' : 'ASC';
  const f = new Filters(q.tenant_id)
    .equals('user_id', q.user_id)
    .equals('agent_id', q.agent_id)
    .equals('run_id', q.run_id);
  if (q.created_at_or_before !== undefined) f.clause('created_at <= ?', q.created_at_or_before);
  if (q.cursor !== undefined) {
    // An unknown cursor (or one of another tenant) compares with NULL: an empty page.
    f.clause(
      `(sequence, seq) ${order === 'DESC' ? '<' : '>'} (SELECT c.sequence, c.seq FROM snapshots AS c WHERE c.tenant_id = ? AND c.id = ?)`,
      q.tenant_id,
      q.cursor,
    );
  }
  return query(SNAPSHOT_SELECT, 'snapshots', f, `sequence ${order}, seq ${order}`, q.limit);
}

/** The ledger reads for some evidence ids of a run, at most LEDGER_CHUNK ids each (in insertion order). */
export function ledgerReads(run: RunKey, evidenceIds: readonly string[]): SqlQuery[] {
  const ids = [...new Set(evidenceIds)];
  const reads: SqlQuery[] = [];
  for (let start = 0; start < ids.length; start += LEDGER_CHUNK) {
    const f = new Filters(run.tenant_id)
      .equals('user_id', run.user_id)
      .equals('agent_id', run.agent_id)
      .equals('run_id', run.run_id)
      .within('evidence_id', ids.slice(start, start + LEDGER_CHUNK));
    reads.push({
      sql: `SELECT ${LEDGER_SELECT} FROM evidence_ledger WHERE ${f.where.join(' AND ')} ORDER BY seq`,
      params: f.params,
    });
  }
  return reads;
}

/** Context builds, newest first. */
export function buildList(q: BuildQuery): SqlQuery {
  const f = new Filters(q.tenant_id)
    .equals('user_id', q.user_id)
    .equals('agent_id', q.agent_id)
    .equals('session_id', q.session_id)
    .equals('run_id', q.run_id)
    .after('id', 'desc', q.cursor);
  if (q.created_after !== undefined) f.clause('created_at > ?', q.created_after);
  return query(BUILD_SELECT, 'context_builds', f, 'id DESC', q.limit);
}

/** Background jobs, newest first. */
export function jobList(q: JobQuery): SqlQuery {
  const f = new Filters(q.tenant_id).within('kind', q.kinds).within('status', q.statuses);
  return query(JOB_COLUMNS.join(', '), 'jobs', f, 'seq DESC', q.limit);
}
