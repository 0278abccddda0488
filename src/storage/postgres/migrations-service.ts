// Schema versions 6 and 7 of the PostgreSQL store: what the service keeps beside memory, its API
// keys and background jobs. Released: never edit.

import type { Migration } from '../shared/migration.js';
import { byteOrder } from './migration-sql.js';

export const serviceMigrations: readonly Migration[] = [
  {
    name: 'API keys of the service: hashed, bound to a tenant and a role',
    sql: byteOrder(`
      CREATE TABLE api_keys (
        tenant_id text NOT NULL,
        id text NOT NULL,
        seq bigint GENERATED ALWAYS AS IDENTITY,
        role text NOT NULL,
        label text,
        hash text NOT NULL,
        last4 text NOT NULL,
        created_at text NOT NULL,
        revoked_at text,
        PRIMARY KEY (tenant_id, id)
      );
      -- A key is found by its hash before its tenant is known: the one index not led by tenant_id
      -- (on Citus, make api_keys a reference table).
      CREATE UNIQUE INDEX api_keys_by_hash ON api_keys (hash);
    `),
  },
  {
    name: 'background jobs: claimed with a lease (FOR UPDATE SKIP LOCKED), retried, done once',
    sql: byteOrder(`
      CREATE TABLE jobs (
        tenant_id text NOT NULL,
        id text NOT NULL,
        seq bigint GENERATED ALWAYS AS IDENTITY,
        kind text NOT NULL,
        payload text NOT NULL,
        status text NOT NULL,
        attempts integer NOT NULL,
        lease_until text,
        last_error text,
        created_at text NOT NULL,
        updated_at text NOT NULL,
        PRIMARY KEY (tenant_id, id)
      );
      CREATE INDEX jobs_claimable ON jobs (tenant_id, kind, status, seq) WHERE status IN ('pending', 'running');
    `),
  },
];
