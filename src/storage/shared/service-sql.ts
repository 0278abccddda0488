// The SQL of the service tables (context builds, API keys, jobs), written once for SQLite and
// PostgreSQL (its text is the same in both); each dialect runs it with its own executor. Claiming
// jobs stays per dialect: PostgreSQL locks with FOR UPDATE SKIP LOCKED, SQLite's writer is alone.

import type { ApiKeyRecord } from '../../spec/auth.js';
import { ConflictError } from '../../spec/errors.js';
import type { Job } from '../../spec/storage.js';
import { placeholders } from './rows.js';
import { BUILD_COLUMNS, BUILD_SELECT, JOB_COLUMNS, KEY_COLUMNS, KEY_SELECT } from './service-rows.js';

/**
 * The statements of context builds.
 *
 * @example
 * await tx.run(BUILD_SQL.insert, buildValues(build, packetJson));
 */
export const BUILD_SQL = {
  insert: `INSERT INTO context_builds (${BUILD_SELECT}) VALUES (${placeholders(BUILD_COLUMNS)})`,
  get: `SELECT ${BUILD_SELECT} FROM context_builds WHERE tenant_id = ? AND id = ?`,
} as const;

/**
 * The statements of API keys: found by hash whatever the tenant (a key names its tenant), revoked
 * once (a second revocation keeps the first time).
 *
 * @example
 * const rows = await sql.rows(KEY_SQL.byHash, [hash]);
 */
export const KEY_SQL = {
  insert: `INSERT INTO api_keys (${KEY_SELECT}) VALUES (${placeholders(KEY_COLUMNS)})`,
  /** revoked_at, tenant_id, id. */
  revoke: 'UPDATE api_keys SET revoked_at = coalesce(revoked_at, ?) WHERE tenant_id = ? AND id = ?',
  byHash: `SELECT ${KEY_SELECT} FROM api_keys WHERE hash = ?`,
  ofTenant: `SELECT ${KEY_SELECT} FROM api_keys WHERE tenant_id = ? ORDER BY seq`,
  all: `SELECT ${KEY_SELECT} FROM api_keys ORDER BY seq`,
} as const;

/**
 * Queues a job once per (tenant, id): a job queued again is left as it is.
 *
 * @example
 * await tx.run(JOB_INSERT, jobValues(job));
 */
export const JOB_INSERT = `INSERT INTO jobs (${JOB_COLUMNS.join(', ')}) VALUES (${placeholders(JOB_COLUMNS)})
  ON CONFLICT (tenant_id, id) DO NOTHING`;

/**
 * A job's values in the order of JOB_COLUMNS.
 *
 * @example
 * await tx.run(JOB_INSERT, jobValues(job));
 */
export function jobValues(j: Job): unknown[] {
  return [
    j.tenant_id,
    j.id,
    j.kind,
    JSON.stringify(j.payload),
    j.status,
    j.attempts,
    j.lease_until,
    j.last_error,
    j.created_at,
    j.updated_at,
  ];
}

/**
 * An API key's values in the order of KEY_COLUMNS.
 *
 * @example
 * await tx.run(KEY_SQL.insert, keyValues(apiKey));
 */
export function keyValues(key: ApiKeyRecord): unknown[] {
  return [key.tenant_id, key.id, key.role, key.label, key.hash, key.last4, key.created_at, key.revoked_at];
}

/**
 * The conflict of a key whose id (or secret, by its hash) is stored already.
 *
 * @example
 * throw keyTaken('key_1', error);
 */
export function keyTaken(keyId: string, cause: unknown): ConflictError {
  return new ConflictError(`key.id: a key ${keyId} (or with the same secret) exists`, {
    field: 'key.id',
    origin: 'concurrent',
    cause,
  });
}
