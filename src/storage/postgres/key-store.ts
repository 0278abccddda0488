// API keys on PostgreSQL: only their hash is stored; a key is found by its hash whatever its tenant.

import type { ApiKeyRecord } from '../../spec/auth.js';
import { NotFoundError } from '../../spec/errors.js';
import type { PutApiKeyOp, RevokeApiKeyOp } from '../../spec/storage.js';
import { keyFromRow } from '../shared/service-rows.js';
import { KEY_SQL, keyTaken, keyValues } from '../shared/service-sql.js';
import { isUniqueViolation, type Sql } from './client.js';

export class PgKeyStore {
  constructor(private readonly sql: Sql) {}

  async putKey(tx: Sql, op: PutApiKeyOp): Promise<void> {
    const key = op.api_key;
    try {
      await tx.run(KEY_SQL.insert, keyValues(key));
    } catch (error) {
      if (isUniqueViolation(error)) throw keyTaken(key.id, error);
      throw error;
    }
  }

  async revokeKey(tx: Sql, op: RevokeApiKeyOp): Promise<void> {
    const changed = await tx.run(KEY_SQL.revoke, [op.revoked_at, op.tenant_id, op.key_id]);
    if (changed === 0) throw new NotFoundError('key_id', op.key_id);
  }

  async findKey(hash: string): Promise<ApiKeyRecord | null> {
    const rows = await this.sql.rows(KEY_SQL.byHash, [hash]);
    return rows.length === 0 ? null : keyFromRow(rows[0]!);
  }

  async listKeys(tenantId: string | undefined): Promise<ApiKeyRecord[]> {
    const rows =
      tenantId === undefined ? await this.sql.rows(KEY_SQL.all) : await this.sql.rows(KEY_SQL.ofTenant, [tenantId]);
    return rows.map(keyFromRow);
  }
}
