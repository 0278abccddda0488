// Rows of the reflection tables (reflections, candidates, insights), shared by the SQL adapters:
// column lists, values to bind and records read back.

import type { InsightRecord, ReflectionRecord, ReviewCandidate } from '../../spec/reflection.js';
import { json, jsonOrNull, type Row } from './rows.js';

export const REFLECTION_COLUMNS = [
  'tenant_id',
  'trace_id',
  'user_id',
  'agent_id',
  'session_id',
  'run_id',
  'source',
  'model',
  'status',
  'reflection',
  'failure',
  'event_count',
  'candidate_ids',
  'created_at',
] as const;

export const CANDIDATE_COLUMNS = [
  'tenant_id',
  'id',
  'user_id',
  'agent_id',
  'session_id',
  'run_id',
  'trace_id',
  'kind',
  'source',
  'status',
  'payload',
  'memory_type',
  'confidence',
  'salience',
  'source_event_ids',
  'item_ids',
  'target',
  'open_loop_id',
  'created_at',
  'decision',
  'decided_at',
  'sensitivity',
] as const;

// `trigger` is an SQL keyword: the column name is quoted (the row key is still `trigger`).
export const INSIGHT_COLUMNS = [
  'tenant_id',
  'id',
  'user_id',
  'agent_id',
  'session_id',
  'run_id',
  'type',
  'statement',
  '"trigger"',
  'confidence',
  'validation_state',
  'tests_suggested',
  'expires_at',
  'sources',
  'expired_at',
  'promoted_to',
  'candidate_id',
  'history',
  'version',
  'created_at',
  'updated_at',
] as const;

/** The columns `reflectionFromRow` reads. */
export const REFLECTION_SELECT = REFLECTION_COLUMNS.join(', ');
/** The columns `candidateFromRow` reads. */
export const CANDIDATE_SELECT = CANDIDATE_COLUMNS.join(', ');
/** The columns `insightFromRow` reads. */
export const INSIGHT_SELECT = INSIGHT_COLUMNS.join(', ');

export function reflectionValues(record: ReflectionRecord): unknown[] {
  return [
    record.tenant_id,
    record.trace_id,
    record.user_id,
    record.agent_id,
    record.session_id,
    record.run_id,
    record.source,
    record.model,
    record.status,
    record.reflection === null ? null : JSON.stringify(record.reflection),
    record.failure === null ? null : JSON.stringify(record.failure),
    record.event_count,
    JSON.stringify(record.candidate_ids),
    record.created_at,
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

export function candidateValues(c: ReviewCandidate): unknown[] {
  // Exports written before candidates carried a sensitivity hold none: approval reads their events again.
  const sensitivity = (c.sensitivity as ReviewCandidate['sensitivity'] | undefined) ?? 'normal';
  return [
    c.tenant_id,
    c.id,
    c.user_id,
    c.agent_id,
    c.session_id,
    c.run_id,
    c.trace_id,
    c.kind,
    c.source,
    c.status,
    JSON.stringify(c.payload),
    c.memory_type,
    c.confidence,
    JSON.stringify(c.salience),
    JSON.stringify(c.source_event_ids),
    JSON.stringify(c.item_ids),
    JSON.stringify(c.target),
    c.open_loop_id,
    c.created_at,
    c.decision === null ? null : JSON.stringify(c.decision),
    decidedAt(c),
    sensitivity,
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
    sensitivity: row['sensitivity'] as ReviewCandidate['sensitivity'],
    item_ids: json(row['item_ids']),
    target: json(row['target']),
    open_loop_id: (row['open_loop_id'] as string | null) ?? null,
    created_at: row['created_at'] as string,
    decision: jsonOrNull(row['decision']),
  };
}

export function insightValues(i: InsightRecord): unknown[] {
  return [
    i.tenant_id,
    i.id,
    i.user_id,
    i.agent_id,
    i.session_id,
    i.run_id,
    i.type,
    i.statement,
    i.trigger,
    i.confidence,
    i.validation_state,
    JSON.stringify(i.tests_suggested),
    i.expires_at,
    JSON.stringify(i.sources),
    i.expired_at,
    i.promoted_to,
    i.candidate_id,
    JSON.stringify(i.history),
    i.version,
    i.created_at,
    i.updated_at,
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
