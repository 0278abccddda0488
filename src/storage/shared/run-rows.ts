// Rows of the run tables (run_states, evidence_ledger, snapshots), shared by the SQL adapters:
// column lists, values to bind and records read back.

import type { LedgerEntry, RunKey, RunState, SnapshotRecord } from '../../spec/compaction.js';
import { json, jsonOrNull, type Row } from './rows.js';

export const RUN_COLUMNS = [
  'tenant_id',
  'user_id',
  'agent_id',
  'run_id',
  'session_id',
  'objective',
  'done_definition',
  'status',
  'stop_reason',
  'claims',
  'conflicts',
  'failures',
  'open_questions',
  'source_ids_seen',
  'chunk_ids_seen',
  'counted_since',
  'steps_since',
  'sequence',
  'latest_snapshot_id',
  'last_snapshot_at',
  'version',
  'updated_at',
] as const;

export const LEDGER_COLUMNS = [
  'tenant_id',
  'user_id',
  'agent_id',
  'run_id',
  'evidence_id',
  'corpus_id',
  'chunk_id',
  'span_start',
  'span_end',
  'source_id',
  'quote_hash',
  'recorded_at',
] as const;

export const SNAPSHOT_COLUMNS = [
  'tenant_id',
  'id',
  'user_id',
  'agent_id',
  'session_id',
  'run_id',
  'sequence',
  'created_at',
  'snapshot',
] as const;

/** The columns `runFromRow` reads. */
export const RUN_SELECT = RUN_COLUMNS.join(', ');
/** The columns `ledgerFromRow` reads (with the run key's). */
export const LEDGER_SELECT = LEDGER_COLUMNS.join(', ');
/** The columns `snapshotFromRow` reads. */
export const SNAPSHOT_SELECT = SNAPSHOT_COLUMNS.join(', ');
export const RUN_WHERE = 'tenant_id = ? AND user_id = ? AND agent_id = ? AND run_id = ?';

/** Most evidence ids one ledger read puts in an IN list (SQLite caps the number of parameters). */
export const LEDGER_CHUNK = 500;

export function runKeyValues(run: RunKey): string[] {
  return [run.tenant_id, run.user_id, run.agent_id, run.run_id];
}

export function runValues(s: RunState): unknown[] {
  return [
    ...runKeyValues(s),
    s.session_id,
    s.objective,
    s.done_definition === null ? null : JSON.stringify(s.done_definition),
    s.status,
    s.stop_reason,
    JSON.stringify(s.claims),
    JSON.stringify(s.conflicts),
    JSON.stringify(s.failures),
    JSON.stringify(s.open_questions),
    JSON.stringify(s.source_ids_seen),
    JSON.stringify(s.chunk_ids_seen),
    s.counted_since,
    s.steps_since,
    s.sequence,
    s.latest_snapshot_id,
    s.last_snapshot_at,
    s.version,
    s.updated_at,
  ];
}

/** A run state from a row of RUN_SELECT. */
export function runFromRow(row: Row): RunState {
  return {
    tenant_id: row['tenant_id'] as string,
    user_id: row['user_id'] as string,
    agent_id: row['agent_id'] as string,
    run_id: row['run_id'] as string,
    session_id: row['session_id'] as string,
    objective: (row['objective'] as string | null) ?? null,
    done_definition: jsonOrNull<NonNullable<RunState['done_definition']>>(row['done_definition']),
    status: row['status'] as RunState['status'],
    stop_reason: (row['stop_reason'] as string | null) ?? null,
    claims: json(row['claims']),
    conflicts: json(row['conflicts']),
    failures: json(row['failures']),
    open_questions: json(row['open_questions']),
    source_ids_seen: json(row['source_ids_seen']),
    chunk_ids_seen: json(row['chunk_ids_seen']),
    counted_since: row['counted_since'] as number,
    steps_since: row['steps_since'] as number,
    sequence: row['sequence'] as number,
    latest_snapshot_id: (row['latest_snapshot_id'] as string | null) ?? null,
    last_snapshot_at: (row['last_snapshot_at'] as string | null) ?? null,
    version: row['version'] as number,
    updated_at: row['updated_at'] as string,
  };
}

export function ledgerValues(run: RunKey, e: LedgerEntry): unknown[] {
  return [
    ...runKeyValues(run),
    e.evidence_id,
    e.corpus_id,
    e.chunk_id,
    e.span[0],
    e.span[1],
    e.source_id,
    e.quote_hash,
    e.recorded_at,
  ];
}

/** A ledger entry from a row of LEDGER_SELECT (the run key's columns are not part of it). */
export function ledgerFromRow(row: Row): LedgerEntry {
  return {
    evidence_id: row['evidence_id'] as string,
    corpus_id: row['corpus_id'] as string,
    chunk_id: row['chunk_id'] as string,
    span: [row['span_start'] as number, row['span_end'] as number],
    source_id: (row['source_id'] as string | null) ?? null,
    quote_hash: (row['quote_hash'] as string | null) ?? null,
    recorded_at: row['recorded_at'] as string,
  };
}

export function snapshotValues(r: SnapshotRecord): unknown[] {
  return [
    r.tenant_id,
    r.snapshot.snapshot_id,
    r.user_id,
    r.agent_id,
    r.session_id,
    r.run_id,
    r.snapshot.sequence,
    r.snapshot.created_at,
    JSON.stringify(r.snapshot),
  ];
}

/** A snapshot record from a row of SNAPSHOT_SELECT. */
export function snapshotFromRow(row: Row): SnapshotRecord {
  return {
    tenant_id: row['tenant_id'] as string,
    user_id: row['user_id'] as string,
    agent_id: row['agent_id'] as string,
    session_id: row['session_id'] as string,
    run_id: row['run_id'] as string,
    snapshot: json(row['snapshot']),
  };
}
