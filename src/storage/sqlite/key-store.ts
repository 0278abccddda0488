// API keys on SQLite: stored by hash, looked up by hash across tenants (a key names its tenant),
// listed and revoked per tenant.

import type Database from 'better-sqlite3';

import type { ApiKeyRecord } from '../../spec/auth.js';
import { NotFoundError } from '../../spec/errors.js';
import type { PutApiKeyOp, RevokeApiKeyOp } from '../../spec/storage.js';
import type { Row } from '../shared/rows.js';
import { keyFromRow } from '../shared/service-rows.js';
import { KEY_SQL, keyTaken, keyValues } from '../shared/service-sql.js';
import { isUniqueViolation, prepareAll } from './sql-helpers.js';

export class KeyStore {
  private readonly s;

  constructor(db: Database.Database) {
    this.s = prepareAll(db, KEY_SQL);
  }

  put(op: PutApiKeyOp): void {
    const key = op.api_key;
    try {
      this.s.insert.run(...keyValues(key));
    } catch (error) {
      if (isUniqueViolation(error)) throw keyTaken(key.id, error);
      throw error;
    }
  }

  revoke(op: RevokeApiKeyOp): void {
    if (this.s.revoke.run(op.revoked_at, op.tenant_id, op.key_id).changes === 0)
      throw new NotFoundError('key_id', op.key_id);
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
