// API keys on SQLite: stored by hash, looked up by hash across tenants (a key names its tenant),
// listed and revoked per tenant.

import type Database from 'better-sqlite3';

import type { ApiKeyRecord } from '../../spec/auth.js';
import { ConflictError, NotFoundError } from '../../spec/errors.js';
import type { PutApiKeyOp, RevokeApiKeyOp } from '../../spec/storage.js';
import type { Row } from '../shared/rows.js';
import { KEY_COLUMNS, KEY_SELECT, keyFromRow } from '../shared/service-rows.js';
import { isUniqueViolation } from './sql-helpers.js';

export class KeyStore {
  private readonly s;

  constructor(db: Database.Database) {
    this.s = {
      insert: db.prepare(`INSERT INTO api_keys (${KEY_SELECT}) VALUES (${KEY_COLUMNS.map(() => '?').join(', ')})`),
      revoke: db.prepare('UPDATE api_keys SET revoked_at = coalesce(revoked_at, ?) WHERE tenant_id = ? AND id = ?'),
      byHash: db.prepare(`SELECT ${KEY_SELECT} FROM api_keys WHERE hash = ?`),
      ofTenant: db.prepare(`SELECT ${KEY_SELECT} FROM api_keys WHERE tenant_id = ? ORDER BY seq`),
      all: db.prepare(`SELECT ${KEY_SELECT} FROM api_keys ORDER BY seq`),
    };
  }

  put(op: PutApiKeyOp): void {
    const key = op.api_key;
    try {
      this.s.insert.run(key.tenant_id, key.id, key.role, key.label, key.hash, key.last4, key.created_at, key.revoked_at);
    } catch (error) {
      if (isUniqueViolation(error)) throw new ConflictError(`key.id: a key ${key.id} (or with the same secret) exists`, { field: 'key.id', origin: 'concurrent', cause: error });
      throw error;
    }
  }

  revoke(op: RevokeApiKeyOp): void {
    if (this.s.revoke.run(op.revoked_at, op.tenant_id, op.key_id).changes === 0) throw new NotFoundError('key_id', op.key_id);
  }

  find(hash: string): ApiKeyRecord | null {
    const row = this.s.byHash.get(hash) as Row | undefined;
    return row === undefined ? null : keyFromRow(row);
  }

  list(tenantId: string | undefined): ApiKeyRecord[] {
    const rows = (tenantId === undefined ? this.s.all.all() : this.s.ofTenant.all(tenantId)) as Row[];
    return rows.map(keyFromRow);
  }
}
