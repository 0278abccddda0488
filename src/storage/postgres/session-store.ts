// The per-session records on PostgreSQL: committed turns (once per turn_id), the working state and
// the rolling summary. Writes run inside the caller's transaction, and a versioned record is
// written by one conditional statement, so two writers of the same version can never both win.

import type { CommitTurnResult } from '../../spec/requests.js';
import type { SessionKey } from '../../spec/scope.js';
import type { InsertTurnOp, PutSummaryOp, PutWorkingStateOp } from '../../spec/storage.js';
import type { StmSummary } from '../../spec/summary.js';
import type { WorkingState } from '../../spec/working-state.js';
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
import { isUniqueViolation, type Sql, type SqlPool } from './client.js';

export class PgSessionStore {
  constructor(private readonly pool: SqlPool) {}

  /** Records a committed turn; a turn_id the session already holds fails with DUPLICATE_TURN. */
  async insertTurn(tx: Sql, op: InsertTurnOp): Promise<void> {
    try {
      await tx.run(TURN_SQL.insert, [
        ...sessionKeyValues(op.key),
        op.turn_id,
        JSON.stringify(op.result),
        op.result.recorded_at,
      ]);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      throw duplicateTurn(op.turn_id, error);
    }
  }

  async getTurn(key: SessionKey, turnId: string): Promise<CommitTurnResult | null> {
    const rows = await this.pool.rows(TURN_SQL.get, [...sessionKeyValues(key), turnId]);
    return rows.length === 0 ? null : (JSON.parse(rows[0]!['result'] as string) as CommitTurnResult);
  }

  putWorkingState(tx: Sql, op: PutWorkingStateOp): Promise<void> {
    return putAtVersion(tx, workingStateWrite(op));
  }

  putSummary(tx: Sql, op: PutSummaryOp): Promise<void> {
    return putAtVersion(tx, summaryWrite(op));
  }

  getWorkingState(key: SessionKey): Promise<WorkingState | null> {
    return this.read<WorkingState>(WORKING_STATE, key);
  }

  getSummary(key: SessionKey): Promise<StmSummary | null> {
    return this.read<StmSummary>(SUMMARY, key);
  }

  private async read<T>(record: VersionedRecord, key: SessionKey): Promise<T | null> {
    const rows = await this.pool.rows(record.read, sessionKeyValues(key));
    return rows.length === 0 ? null : (JSON.parse(rows[0]![record.column] as string) as T);
  }
}

/**
 * Inserts (expected version 0) or replaces a record at the version the caller read, in one statement
 * each; on a miss, the conflict names the version the record is at.
 */
async function putAtVersion(tx: Sql, write: VersionedWrite): Promise<void> {
  const [sql, values] = versionedStatement(write);
  if ((await tx.run(sql, values)) === 1) return;
  const rows = await tx.rows(write.record.version, sessionKeyValues(write.key));
  throw versionMissed(write, rows.length === 0 ? 0 : Number(rows[0]!['v']));
}
