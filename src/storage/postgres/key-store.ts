// API keys on PostgreSQL: only their hash is stored; a key is found by its hash whatever its tenant.

import type { ApiKeyRecord } from '../../spec/auth.js';
import { ConflictError, NotFoundError } from '../../spec/errors.js';
import type { PutApiKeyOp, RevokeApiKeyOp } from '../../spec/storage.js';
import { placeholders } from '../shared/rows.js';
import { KEY_COLUMNS, KEY_SELECT, keyFromRow } from '../shared/service-rows.js';
import { isUniqueViolation, type Sql } from './client.js';

export class PgKeyStore {
  constructor(private readonly sql: Sql) {}

  async putKey(tx: Sql, op: PutApiKeyOp): Promise<void> {
    const key = op.api_key;
    try {
      await tx.run(`INSERT INTO api_keys (${KEY_SELECT}) VALUES (${placeholders(KEY_COLUMNS)})`, [
        key.tenant_id, key.id, key.role, key.label, key.hash, key.last4, key.created_at, key.revoked_at,
      ]);
    } catch (error) {
      if (isUniqueViolation(error)) throw new ConflictError(`key.id: a key ${key.id} (or with the same secret) exists`, { field: 'key.id', origin: 'concurrent', cause: error });
      throw error;
    }
  }

  async revokeKey(tx: Sql, op: RevokeApiKeyOp): Promise<void> {
    const changed = await tx.run('UPDATE api_keys SET revoked_at = coalesce(revoked_at, ?) WHERE tenant_id = ? AND id = ?', [op.revoked_at, op.tenant_id, op.key_id]);
    if (changed === 0) throw new NotFoundError('key_id', op.key_id);
  }

  async findKey(hash: string): Promise<ApiKeyRecord | null> {
    const rows = await this.sql.rows(`SELECT ${KEY_SELECT} FROM api_keys WHERE hash = ?`, [hash]);
    return rows.length === 0 ? null : keyFromRow(rows[0]!);
  }

  async listKeys(tenantId: string | undefined): Promise<ApiKeyRecord[]> {
    const rows =
      tenantId === undefined
        ? await this.sql.rows(`SELECT ${KEY_SELECT} FROM api_keys ORDER BY seq`)
        : await this.sql.rows(`SELECT ${KEY_SELECT} FROM api_keys WHERE tenant_id = ? ORDER BY seq`, [tenantId]);
    return rows.map(keyFromRow);
  }
}
