// The per-session records on PostgreSQL: committed turns (once per turn_id), the working state and
// the rolling summary. Writes run inside the caller's transaction, and a versioned record is
// written by one conditional statement, so two writers of the same version can never both win.

import { ConflictError, EngramError } from '../../spec/errors.js';
import type { CommitTurnResult } from '../../spec/requests.js';
import type { SessionKey } from '../../spec/scope.js';
import type { InsertTurnOp, PutSummaryOp, PutWorkingStateOp } from '../../spec/storage.js';
import type { StmSummary } from '../../spec/summary.js';
import type { WorkingState } from '../../spec/working-state.js';
import { isUniqueViolation, type Sql, type SqlPool } from './client.js';

const SESSION_WHERE = 'tenant_id = ? AND user_id = ? AND agent_id = ? AND session_id = ?';

function keyValues(key: SessionKey): [string, string, string, string] {
  return [key.tenant_id, key.user_id, key.agent_id, key.session_id];
}

/** A session's versioned record: its table, the column of its JSON and of its version, and the field a conflict names. */
interface VersionedRecord {
  table: string;
  column: string;
  versionColumn: string;
  field: string;
}

const WORKING_STATE: VersionedRecord = { table: 'working_state', column: 'state', versionColumn: 'state_version', field: 'state_patch.expected_version' };
const SUMMARY: VersionedRecord = { table: 'stm_summary', column: 'summary', versionColumn: 'version', field: 'summary.version' };

export class PgSessionStore {
  constructor(private readonly pool: SqlPool) {}

  /** Records a committed turn; a turn_id the session already holds fails with DUPLICATE_TURN. */
  async insertTurn(tx: Sql, op: InsertTurnOp): Promise<void> {
    try {
      await tx.run('INSERT INTO turns (tenant_id, user_id, agent_id, session_id, turn_id, result, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?)', [
        ...keyValues(op.key),
        op.turn_id,
        JSON.stringify(op.result),
        op.result.recorded_at,
      ]);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      throw new EngramError('DUPLICATE_TURN', `turn_id: ${op.turn_id} was already committed in this session`, { field: 'turn_id', cause: error });
    }
  }

  async getTurn(key: SessionKey, turnId: string): Promise<CommitTurnResult | null> {
    const rows = await this.pool.rows(`SELECT result FROM turns WHERE ${SESSION_WHERE} AND turn_id = ?`, [...keyValues(key), turnId]);
    return rows.length === 0 ? null : (JSON.parse(rows[0]!['result'] as string) as CommitTurnResult);
  }

  putWorkingState(tx: Sql, op: PutWorkingStateOp): Promise<void> {
    return putAtVersion(tx, WORKING_STATE, op.key, op.expected_version, JSON.stringify(op.state), op.state.state_version, op.updated_at);
  }

  putSummary(tx: Sql, op: PutSummaryOp): Promise<void> {
    return putAtVersion(tx, SUMMARY, op.key, op.expected_version, JSON.stringify(op.summary), op.summary.version, op.summary.updated_at);
  }

  getWorkingState(key: SessionKey): Promise<WorkingState | null> {
    return this.read<WorkingState>(WORKING_STATE, key);
  }

  getSummary(key: SessionKey): Promise<StmSummary | null> {
    return this.read<StmSummary>(SUMMARY, key);
  }

  private async read<T>(record: VersionedRecord, key: SessionKey): Promise<T | null> {
    const rows = await this.pool.rows(`SELECT ${record.column} FROM ${record.table} WHERE ${SESSION_WHERE}`, keyValues(key));
    return rows.length === 0 ? null : (JSON.parse(rows[0]![record.column] as string) as T);
  }
}

/**
 * Inserts (expected version 0) or replaces a record at the version the caller read, in one statement
 * each; on a miss, the conflict names the version the record is at.
 */
async function putAtVersion(tx: Sql, record: VersionedRecord, key: SessionKey, expected: number, json: string, version: number, updatedAt: string): Promise<void> {
  const { table, column, versionColumn } = record;
  const values = keyValues(key);
  const changed =
    expected === 0
      ? await tx.run(`INSERT INTO ${table} (tenant_id, user_id, agent_id, session_id, ${column}, ${versionColumn}, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`, [
          ...values, json, version, updatedAt,
        ])
      : await tx.run(`UPDATE ${table} SET ${column} = ?, ${versionColumn} = ?, updated_at = ? WHERE ${SESSION_WHERE} AND ${versionColumn} = ?`, [
          json, version, updatedAt, ...values, expected,
        ]);
  if (changed === 1) return;
  const rows = await tx.rows(`SELECT ${versionColumn} AS v FROM ${table} WHERE ${SESSION_WHERE}`, values);
  throw ConflictError.ofVersion(record.field, expected, rows.length === 0 ? 0 : Number(rows[0]!['v']), 'concurrent');
}
