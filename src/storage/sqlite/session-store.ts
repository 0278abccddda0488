// The per-session records on SQLite: committed turns (once per turn_id), the working state and the
// rolling summary, each replaced only at the version the writer read. Used by SqliteStorage inside
// its transactions.

import type Database from 'better-sqlite3';

import type { CommitTurnResult } from '../../spec/requests.js';
import type { SessionKey } from '../../spec/scope.js';
import type { InsertTurnOp, PutSummaryOp, PutWorkingStateOp } from '../../spec/storage.js';
import type { StmSummary } from '../../spec/summary.js';
import type { WorkingState } from '../../spec/working-state.js';
import type { Row } from '../shared/rows.js';
import {
  duplicateTurn,
  sessionKeyValues,
  SUMMARY,
  TURN_SQL,
  summaryWrite,
  versionedStatement,
  versionMissed,
  WORKING_STATE,
  workingStateWrite,
  type VersionedRecord,
  type VersionedWrite,
} from '../shared/session-sql.js';

function isConstraintError(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;
}

export class SessionStore {
  constructor(private readonly cached: (sql: string) => Database.Statement) {}

  /** Records a committed turn; a turn_id the session already holds fails with DUPLICATE_TURN. */
  insertTurn(op: InsertTurnOp): void {
    try {
      this.cached(TURN_SQL.insert).run(
        ...sessionKeyValues(op.key),
        op.turn_id,
        JSON.stringify(op.result),
        op.result.recorded_at,
      );
    } catch (error) {
      if (isConstraintError(error, 'SQLITE_CONSTRAINT_PRIMARYKEY')) throw duplicateTurn(op.turn_id, error);
      throw error;
    }
  }

  getTurn(key: SessionKey, turnId: string): CommitTurnResult | null {
    const row = this.cached(TURN_SQL.get).get(...sessionKeyValues(key), turnId) as Row | undefined;
    return row === undefined ? null : (JSON.parse(row['result'] as string) as CommitTurnResult);
  }

  putWorkingState(op: PutWorkingStateOp): void {
    this.putAtVersion(workingStateWrite(op));
  }

  getWorkingState(key: SessionKey): WorkingState | null {
    return this.read<WorkingState>(WORKING_STATE, key);
  }

  putSummary(op: PutSummaryOp): void {
    this.putAtVersion(summaryWrite(op));
  }

  getSummary(key: SessionKey): StmSummary | null {
    return this.read<StmSummary>(SUMMARY, key);
  }

  /** A session's record as stored (its JSON parsed), or null. */
  private read<T>(record: VersionedRecord, key: SessionKey): T | null {
    const row = this.cached(record.read).get(...sessionKeyValues(key)) as Row | undefined;
    return row === undefined ? null : (JSON.parse(row[record.column] as string) as T);
  }

  /**
   * Writes a session's record only if it is still at the version the writer read (0: none yet), by
   * the same conditional statements as on PostgreSQL; the stored version is read only on a miss.
   */
  private putAtVersion(write: VersionedWrite): void {
    const [sql, values] = versionedStatement(write);
    if (this.cached(sql).run(...values).changes === 1) return;
    const row = this.cached(write.record.version).get(...sessionKeyValues(write.key)) as Row | undefined;
    throw versionMissed(write, row === undefined ? 0 : (row['v'] as number));
  }
}
