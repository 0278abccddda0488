// Runs on SQLite: the state the agent recorded about each run (replaced under an optimistic
// version), the run's evidence ledger (first entry per evidence id stays), and its compaction
// snapshots (append-only; a trigger refuses updates). Used by SqliteStorage inside its
// transactions; every read is scoped by tenant first.

import type Database from 'better-sqlite3';

import type { LedgerEntry, RunKey, RunState, SnapshotRecord } from '../../spec/compaction.js';
import { ConflictError, EngramError } from '../../spec/errors.js';
import type { PutEvidenceOp, PutRunStateOp, PutSnapshotOp, SnapshotQuery } from '../../spec/storage.js';
import type { Row } from './event-rows.js';
import { Filters, isUniqueViolation, json, jsonOrNull, placeholders } from './sql-helpers.js';

const RUN_COLUMNS = [
  'tenant_id', 'user_id', 'agent_id', 'run_id', 'session_id', 'objective', 'done_definition', 'status', 'stop_reason',
  'claims', 'conflicts', 'failures', 'open_questions', 'source_ids_seen', 'chunk_ids_seen', 'counted_since',
  'steps_since', 'sequence', 'latest_snapshot_id', 'last_snapshot_at', 'version', 'updated_at',
] as const;

const LEDGER_COLUMNS = [
  'tenant_id', 'user_id', 'agent_id', 'run_id', 'evidence_id', 'corpus_id', 'chunk_id', 'span_start', 'span_end',
  'source_id', 'quote_hash', 'recorded_at',
] as const;

const SNAPSHOT_COLUMNS = [
  'tenant_id', 'id', 'user_id', 'agent_id', 'session_id', 'run_id', 'sequence', 'created_at', 'snapshot',
] as const;

/** The columns `runFromRow` reads. */
export const RUN_SELECT = RUN_COLUMNS.join(', ');
/** The columns `ledgerFromRow` reads (with the run key's). */
export const LEDGER_SELECT = LEDGER_COLUMNS.join(', ');
/** The columns `snapshotFromRow` reads. */
export const SNAPSHOT_SELECT = SNAPSHOT_COLUMNS.join(', ');
const RUN_WHERE = 'tenant_id = ? AND user_id = ? AND agent_id = ? AND run_id = ?';

/** Most evidence ids one ledger read puts in an IN list (SQLite caps the number of parameters). */
const LEDGER_CHUNK = 500;

function runKeyValues(run: RunKey): string[] {
  return [run.tenant_id, run.user_id, run.agent_id, run.run_id];
}

function runValues(s: RunState): unknown[] {
  return [
    ...runKeyValues(s), s.session_id, s.objective, s.done_definition === null ? null : JSON.stringify(s.done_definition),
    s.status, s.stop_reason, JSON.stringify(s.claims), JSON.stringify(s.conflicts), JSON.stringify(s.failures),
    JSON.stringify(s.open_questions), JSON.stringify(s.source_ids_seen), JSON.stringify(s.chunk_ids_seen),
    s.counted_since, s.steps_since, s.sequence, s.latest_snapshot_id, s.last_snapshot_at, s.version, s.updated_at,
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

function ledgerValues(run: RunKey, e: LedgerEntry): unknown[] {
  return [
    ...runKeyValues(run), e.evidence_id, e.corpus_id, e.chunk_id, e.span[0], e.span[1], e.source_id, e.quote_hash, e.recorded_at,
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

function snapshotValues(r: SnapshotRecord): unknown[] {
  return [
    r.tenant_id, r.snapshot.snapshot_id, r.user_id, r.agent_id, r.session_id, r.run_id, r.snapshot.sequence,
    r.snapshot.created_at, JSON.stringify(r.snapshot),
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

/** The SQL of run states, evidence ledgers and snapshots (migration 5). */
export class RunStore {
  private readonly s;

  constructor(
    db: Database.Database,
    private readonly cached: (sql: string) => Database.Statement,
  ) {
    this.s = {
      runVersion: db.prepare(`SELECT version FROM run_states WHERE ${RUN_WHERE}`),
      getRun: db.prepare(`SELECT ${RUN_SELECT} FROM run_states WHERE ${RUN_WHERE}`),
      insertRun: db.prepare(`INSERT INTO run_states (${RUN_SELECT}) VALUES (${placeholders(RUN_COLUMNS)})`),
      replaceRun: db.prepare(`UPDATE run_states SET (${RUN_SELECT}) = (${placeholders(RUN_COLUMNS)}) WHERE ${RUN_WHERE}`),
      // Only a duplicate evidence id of the run is skipped; any other constraint still fails.
      insertEvidence: db.prepare(
        `INSERT INTO evidence_ledger (${LEDGER_SELECT}) VALUES (${placeholders(LEDGER_COLUMNS)})
         ON CONFLICT (tenant_id, user_id, agent_id, run_id, evidence_id) DO NOTHING`,
      ),
      insertSnapshot: db.prepare(`INSERT INTO snapshots (${SNAPSHOT_SELECT}) VALUES (${placeholders(SNAPSHOT_COLUMNS)})`),
      getSnapshot: db.prepare(`SELECT ${SNAPSHOT_SELECT} FROM snapshots WHERE tenant_id = ? AND id = ?`),
    };
  }

  /** Inserts (`expected_version: 0`) or replaces a run state at the version the caller read. */
  putRunState(op: PutRunStateOp): void {
    const key = runKeyValues(op.state);
    const row = this.s.runVersion.get(...key) as Row | undefined;
    const actual = row === undefined ? 0 : (row['version'] as number);
    // An existing row conflicts with an insert even if its stored version happens to be 0.
    if (actual !== op.expected_version || (row !== undefined && op.expected_version === 0)) {
      throw new ConflictError('run.version', op.expected_version, actual);
    }
    if (row === undefined) this.s.insertRun.run(...runValues(op.state));
    else this.s.replaceRun.run(...runValues(op.state), ...key);
  }

  /** Adds ledger entries; an evidence id the run already has keeps its first entry. */
  putEvidence(op: PutEvidenceOp): void {
    for (const entry of op.entries) this.s.insertEvidence.run(...ledgerValues(op.run, entry));
  }

  /** Appends a snapshot; a taken (run, sequence) or snapshot id is a STATE_VERSION_CONFLICT. */
  putSnapshot(op: PutSnapshotOp): void {
    const { run_id, snapshot } = op.record;
    try {
      this.s.insertSnapshot.run(...snapshotValues(op.record));
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      throw new EngramError(
        'STATE_VERSION_CONFLICT',
        `snapshot.sequence: run ${run_id} already has snapshot ${snapshot.sequence} (or id ${snapshot.snapshot_id} is taken); another writer stored it first`,
        { field: 'snapshot.sequence', cause: error, details: { snapshot_id: snapshot.snapshot_id, run_id, sequence: snapshot.sequence } },
      );
    }
  }

  findRunState(run: RunKey): RunState | null {
    const row = this.s.getRun.get(...runKeyValues(run)) as Row | undefined;
    return row === undefined ? null : runFromRow(row);
  }

  /** The run's entries among `evidenceIds` (each once), read in chunks of at most LEDGER_CHUNK ids. */
  ledgerEntries(run: RunKey, evidenceIds: readonly string[]): LedgerEntry[] {
    const ids = [...new Set(evidenceIds)];
    const entries: LedgerEntry[] = [];
    for (let start = 0; start < ids.length; start += LEDGER_CHUNK) {
      const f = new Filters(run.tenant_id)
        .equals('user_id', run.user_id)
        .equals('agent_id', run.agent_id)
        .equals('run_id', run.run_id)
        .within('evidence_id', ids.slice(start, start + LEDGER_CHUNK));
      const sql = `SELECT ${LEDGER_SELECT} FROM evidence_ledger WHERE ${f.where.join(' AND ')} ORDER BY seq`;
      entries.push(...(this.cached(sql).all(...f.params) as Row[]).map(ledgerFromRow));
    }
    return entries;
  }

  findSnapshot(tenantId: string, snapshotId: string): SnapshotRecord | null {
    const row = this.s.getSnapshot.get(tenantId, snapshotId) as Row | undefined;
    return row === undefined ? null : snapshotFromRow(row);
  }

  /** Snapshots by (sequence, insertion order), paged after the cursor snapshot's position. */
  listSnapshots(query: SnapshotQuery): SnapshotRecord[] {
    const order = query.order === 'desc' ? 'DESC' : 'ASC';
    const f = new Filters(query.tenant_id)
      .equals('user_id', query.user_id)
      .equals('agent_id', query.agent_id)
      .equals('run_id', query.run_id);
    if (query.created_at_or_before !== undefined) f.clause('created_at <= ?', query.created_at_or_before);
    if (query.cursor !== undefined) {
      // An unknown cursor (or one of another tenant) compares with NULL: an empty page.
      f.clause(
        `(sequence, seq) ${order === 'DESC' ? '<' : '>'} (SELECT c.sequence, c.seq FROM snapshots AS c WHERE c.tenant_id = ? AND c.id = ?)`,
        query.tenant_id,
        query.cursor,
      );
    }
    const sql = `SELECT ${SNAPSHOT_SELECT} FROM snapshots WHERE ${f.where.join(' AND ')} ORDER BY sequence ${order}, seq ${order} LIMIT ?`;
    return (this.cached(sql).all(...f.params, query.limit) as Row[]).map(snapshotFromRow);
  }
}
