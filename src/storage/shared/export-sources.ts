// The tables an export reads, shared by the SQL adapters: one source per kind of record, with the
// columns it needs, how a user's rows are found, and the record made from a row. Derived tables
// (chunks, full-text entries, vectors) and API keys are never read.

import type { ExportKind, ExportRecord } from '../../spec/export.js';
import { ownerOf } from '../../spec/items.js';
import type { CommitTurnResult } from '../../spec/requests.js';
import type { SessionKey } from '../../spec/scope.js';
import type { StmSummary } from '../../spec/summary.js';
import type { WorkingState } from '../../spec/working-state.js';
import { EVENT_SELECT, eventFromValues } from './event-rows.js';
import { ITEM_SELECT, itemFromValues } from './item-rows.js';
import {
  CANDIDATE_SELECT,
  INSIGHT_SELECT,
  REFLECTION_SELECT,
  candidateFromRow,
  insightFromRow,
  reflectionFromRow,
} from './reflection-rows.js';
import type { Filters } from './rows.js';
import { json, type Row } from './rows.js';
import { LEDGER_SELECT, RUN_SELECT, SNAPSHOT_SELECT, ledgerFromRow, runFromRow, snapshotFromRow } from './run-rows.js';
import { buildFromRow } from './service-rows.js';

/** Rows per page of an export: memory stays flat whatever the size of a table. */
export const EXPORT_PAGE_SIZE = 500;

export interface TableCommon {
  table: string;
  /** The columns a record is read from; the page query puts the row's insertion key (`export_key`) before them. */
  select: string;
  /** Rows of one user, added to the tenant filter (by default `user_id = ?`). */
  userFilter?: (filters: Filters, userId: string) => void;
}

/** A table read as arrays of values (the event and item readers take raw rows, key first). */
export interface RawTable extends TableCommon {
  raw: true;
  record(values: readonly unknown[]): ExportRecord;
}

/** A table read as objects keyed by column name. */
export interface ObjectTable extends TableCommon {
  raw: false;
  record(row: Row): ExportRecord;
}

export type TableSource = RawTable | ObjectTable;

const SESSION_COLUMNS = 'tenant_id, user_id, agent_id, session_id';

function sessionKeyOf(row: Row): SessionKey {
  return {
    tenant_id: row['tenant_id'] as string,
    user_id: row['user_id'] as string,
    agent_id: row['agent_id'] as string,
    session_id: row['session_id'] as string,
  };
}

// One source per kind, so the type checker proves every kind of EXPORT_KINDS has a table.
export const EXPORT_SOURCES: Record<ExportKind, TableSource> = {
  event: {
    table: 'events',
    select: EVENT_SELECT,
    raw: true,
    record: (values) => ({ kind: 'event', event: eventFromValues(values, 1) }),
  },
  turn: {
    table: 'turns',
    select: `${SESSION_COLUMNS}, turn_id, result`,
    raw: false,
    record: (row) => ({
      kind: 'turn',
      key: sessionKeyOf(row),
      turn_id: row['turn_id'] as string,
      result: json<CommitTurnResult>(row['result']),
    }),
  },
  working_state: {
    table: 'working_state',
    select: `${SESSION_COLUMNS}, state, updated_at`,
    raw: false,
    record: (row) => ({
      kind: 'working_state',
      key: sessionKeyOf(row),
      state: json<WorkingState>(row['state']),
      updated_at: row['updated_at'] as string,
    }),
  },
  summary: {
    table: 'stm_summary',
    select: `${SESSION_COLUMNS}, summary`,
    raw: false,
    record: (row) => ({ kind: 'summary', key: sessionKeyOf(row), summary: json<StmSummary>(row['summary']) }),
  },
  item: {
    table: 'memory_items',
    select: ITEM_SELECT,
    raw: true,
    // A user's items: their user-level items, and any other item recorded with their user_id.
    userFilter: (filters, userId) =>
      filters.clause('(user_id = ? OR owner = ?)', userId, ownerOf('user', userId, null)),
    record: (values) => ({ kind: 'item', item: itemFromValues(values, 1) }),
  },
  context_build: {
    table: 'context_builds',
    select: '*',
    raw: false,
    record: (row) => ({ kind: 'context_build', build: buildFromRow(row) }),
  },
  reflection: {
    table: 'reflections',
    select: REFLECTION_SELECT,
    raw: false,
    record: (row) => ({ kind: 'reflection', record: reflectionFromRow(row) }),
  },
  candidate: {
    table: 'candidates',
    select: CANDIDATE_SELECT,
    raw: false,
    record: (row) => ({ kind: 'candidate', candidate: candidateFromRow(row) }),
  },
  insight: {
    table: 'insights',
    select: INSIGHT_SELECT,
    raw: false,
    record: (row) => ({ kind: 'insight', insight: insightFromRow(row) }),
  },
  run_state: {
    table: 'run_states',
    select: RUN_SELECT,
    raw: false,
    record: (row) => ({ kind: 'run_state', state: runFromRow(row) }),
  },
  ledger: {
    table: 'evidence_ledger',
    select: LEDGER_SELECT,
    raw: false,
    record: (row) => ({
      kind: 'ledger',
      run: {
        tenant_id: row['tenant_id'] as string,
        user_id: row['user_id'] as string,
        agent_id: row['agent_id'] as string,
        run_id: row['run_id'] as string,
      },
      entry: ledgerFromRow(row),
    }),
  },
  snapshot: {
    table: 'snapshots',
    select: SNAPSHOT_SELECT,
    raw: false,
    record: (row) => ({ kind: 'snapshot', record: snapshotFromRow(row) }),
  },
};

/** The record of a page row (raw or object, as the source reads it). */
export function exportRecord(source: TableSource, row: unknown[] | Row): ExportRecord {
  return source.raw ? source.record(row as unknown[]) : source.record(row as Row);
}
