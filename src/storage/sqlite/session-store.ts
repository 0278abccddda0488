// The per-session records on SQLite: committed turns (once per turn_id), the working state and the
// rolling summary, each replaced only at the version the writer read. Used by SqliteStorage inside
// its transactions.

import type Database from 'better-sqlite3';

import { ConflictError, EngramError } from '../../spec/errors.js';
import type { CommitTurnResult } from '../../spec/requests.js';
import type { SessionKey } from '../../spec/scope.js';
import type { InsertTurnOp, PutSummaryOp, PutWorkingStateOp } from '../../spec/storage.js';
import type { StmSummary } from '../../spec/summary.js';
import type { WorkingState } from '../../spec/working-state.js';
import type { Row } from '../shared/rows.js';

const SESSION_WHERE = 'tenant_id = ? AND user_id = ? AND agent_id = ? AND session_id = ?';

function keyValues(key: SessionKey): [string, string, string, string] {
  return [key.tenant_id, key.user_id, key.agent_id, key.session_id];
}

function isConstraintError(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;
}

/** A session's versioned record (working state, summary): read it, insert the first, update the next. */
interface VersionedRecord {
  get: Database.Statement;
  insert: Database.Statement;
  update: Database.Statement;
  /** The column holding the record's JSON. */
  column: string;
  versionColumn: string;
  /** The field a version conflict names. */
  field: string;
}

function versionedRecord(db: Database.Database, table: string, column: string, versionColumn: string, field: string): VersionedRecord {
  return {
    get: db.prepare(`SELECT ${column}, ${versionColumn} FROM ${table} WHERE ${SESSION_WHERE}`),
    insert: db.prepare(`INSERT INTO ${table} (tenant_id, user_id, agent_id, session_id, ${column}, ${versionColumn}, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)`),
    update: db.prepare(`UPDATE ${table} SET ${column} = ?, ${versionColumn} = ?, updated_at = ? WHERE ${SESSION_WHERE}`),
    column,
    versionColumn,
    field,
  };
}

/** A session's record as stored (its JSON parsed), or null. */
function readRecord<T>(record: VersionedRecord, key: SessionKey): T | null {
  const row = record.get.get(...keyValues(key)) as Row | undefined;
  return row === undefined ? null : (JSON.parse(row[record.column] as string) as T);
}

/** Writes a session's record only if it is still at the version the writer read (0: none yet). */
function replaceAtVersion(record: VersionedRecord, key: SessionKey, expected: number, json: string, version: number, updatedAt: string): void {
  const values = keyValues(key);
  const row = record.get.get(...values) as Row | undefined;
  const actual = row === undefined ? 0 : (row[record.versionColumn] as number);
  if (actual !== expected) throw ConflictError.ofVersion(record.field, expected, actual, 'concurrent');
  if (row === undefined) record.insert.run(...values, json, version, updatedAt);
  else record.update.run(json, version, updatedAt, ...values);
}

export class SessionStore {
  private readonly insertTurnRow: Database.Statement;
  private readonly turn: Database.Statement;
  private readonly state: VersionedRecord;
  private readonly summary: VersionedRecord;

  constructor(db: Database.Database) {
    this.insertTurnRow = db.prepare('INSERT INTO turns (tenant_id, user_id, agent_id, session_id, turn_id, result, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?)');
    this.turn = db.prepare(`SELECT result FROM turns WHERE ${SESSION_WHERE} AND turn_id = ?`);
    this.state = versionedRecord(db, 'working_state', 'state', 'state_version', 'state_patch.expected_version');
    this.summary = versionedRecord(db, 'stm_summary', 'summary', 'version', 'summary.version');
  }

  /** Records a committed turn; a turn_id the session already holds fails with DUPLICATE_TURN. */
  insertTurn(op: InsertTurnOp): void {
    try {
      this.insertTurnRow.run(...keyValues(op.key), op.turn_id, JSON.stringify(op.result), op.result.recorded_at);
    } catch (error) {
      if (isConstraintError(error, 'SQLITE_CONSTRAINT_PRIMARYKEY')) {
        throw new EngramError('DUPLICATE_TURN', `turn_id: ${op.turn_id} was already committed in this session`, {
          field: 'turn_id',
          cause: error,
        });
      }
      throw error;
    }
  }

  getTurn(key: SessionKey, turnId: string): CommitTurnResult | null {
    const row = this.turn.get(...keyValues(key), turnId) as Row | undefined;
    return row === undefined ? null : (JSON.parse(row['result'] as string) as CommitTurnResult);
  }

  putWorkingState(op: PutWorkingStateOp): void {
    replaceAtVersion(this.state, op.key, op.expected_version, JSON.stringify(op.state), op.state.state_version, op.updated_at);
  }

  getWorkingState(key: SessionKey): WorkingState | null {
    return readRecord<WorkingState>(this.state, key);
  }

  putSummary(op: PutSummaryOp): void {
    replaceAtVersion(this.summary, op.key, op.expected_version, JSON.stringify(op.summary), op.summary.version, op.summary.updated_at);
  }

  getSummary(key: SessionKey): StmSummary | null {
    return readRecord<StmSummary>(this.summary, key);
  }
}
