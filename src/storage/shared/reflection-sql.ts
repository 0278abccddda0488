// The SQL of reflections, review candidates and insights, written once for SQLite and PostgreSQL
// (its text is the same in both); each dialect runs it with its own executor. Also the conflicts
// that a conditional statement's miss becomes, so both dialects report a lost race alike.

import { ConflictError } from '../../spec/errors.js';
import {
  CANDIDATE_COLUMNS,
  CANDIDATE_SELECT,
  INSIGHT_COLUMNS,
  INSIGHT_SELECT,
  REFLECTION_COLUMNS,
  REFLECTION_SELECT,
} from './reflection-rows.js';
import { placeholders } from './rows.js';

/**
 * The statements of the review tables. Decisions and insight replacements are conditional (on the
 * candidate still pending, on the insight's version), so of two writers only one changes the row;
 * the status or version is read only when nothing changed, to say why.
 *
 * @example
 * const changed = await tx.run(REFLECTION_SQL.decideCandidate, [status, decision, at, tenantId, candidateId]);
 */
export const REFLECTION_SQL = {
  insertReflection: `INSERT INTO reflections (${REFLECTION_SELECT}) VALUES (${placeholders(REFLECTION_COLUMNS)})`,
  getReflection: `SELECT ${REFLECTION_SELECT} FROM reflections WHERE tenant_id = ? AND trace_id = ?`,
  insertCandidate: `INSERT INTO candidates (${CANDIDATE_SELECT}) VALUES (${placeholders(CANDIDATE_COLUMNS)})`,
  getCandidate: `SELECT ${CANDIDATE_SELECT} FROM candidates WHERE tenant_id = ? AND id = ?`,
  candidateStatus: 'SELECT status FROM candidates WHERE tenant_id = ? AND id = ?',
  /** status, decision, decided_at, tenant_id, id. */
  decideCandidate:
    "UPDATE candidates SET status = ?, decision = ?, decided_at = ? WHERE tenant_id = ? AND id = ? AND status = 'pending'",
  insertInsight: `INSERT INTO insights (${INSIGHT_SELECT}) VALUES (${placeholders(INSIGHT_COLUMNS)})`,
  getInsight: `SELECT ${INSIGHT_SELECT} FROM insights WHERE tenant_id = ? AND id = ?`,
  insightVersion: 'SELECT version FROM insights WHERE tenant_id = ? AND id = ?',
  /** The insight's values, then tenant_id, id and the version the writer read. */
  replaceInsight: `UPDATE insights SET (${INSIGHT_SELECT}) = (${placeholders(INSIGHT_COLUMNS)}) WHERE tenant_id = ? AND id = ? AND version = ?`,
  /** at, at, tenant_id, user_id, agent_id, run_id. */
  expireRunInsights: `UPDATE insights SET expired_at = ?, updated_at = ?, version = version + 1
    WHERE tenant_id = ? AND user_id = ? AND agent_id = ? AND run_id = ? AND expired_at IS NULL AND expires_at = 'run_end'`,
} as const;

/**
 * The conflict of a decision on a candidate another reviewer decided first.
 *
 * @example
 * throw candidateDecided('cand_1', 'approved');
 */
export function candidateDecided(candidateId: string, status: unknown): ConflictError {
  return new ConflictError(`candidate_id: ${candidateId} is already ${String(status)}; another reviewer decided it`, {
    field: 'candidate_id',
    origin: 'concurrent',
    details: { expected_status: 'pending', status },
  });
}

/**
 * The conflict of an insert whose id another writer stored first (a duplicate key), naming `field`.
 *
 * @example
 * throw storedFirst('insight.id', 'ins_1', error);
 */
export function storedFirst(field: string, id: string, cause: unknown): ConflictError {
  return new ConflictError(`${field}: ${id} already exists; another writer stored it first`, {
    field,
    origin: 'concurrent',
    cause,
    details: { id },
  });
}
