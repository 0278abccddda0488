// Schema versions 6 and 7 of the SQLite store: what the service keeps beside memory, its API keys
// and background jobs. Released: never edit.

import type { Migration } from '../shared/migration.js';

export const serviceMigrations: readonly Migration[] = [
  {
    name: 'API keys of the service: hashed, bound to a tenant and a role',
    sql: `
      CREATE TABLE api_keys (
        seq INTEGER PRIMARY KEY,
        tenant_id TEXT NOT NULL,
        id TEXT NOT NULL,
        role TEXT NOT NULL,
        label TEXT,
        hash TEXT NOT NULL UNIQUE,
        last4 TEXT NOT NULL,
        created_at TEXT NOT NULL,
        revoked_at TEXT,
        UNIQUE (tenant_id, id)
      );
    `,
  },
  {
    name: 'background jobs: claimed with a lease, retried, done once',
    sql: `
      CREATE TABLE jobs (
        seq INTEGER PRIMARY KEY,
        tenant_id TEXT NOT NULL,
        id TEXT NOT NULL,
        kind TEXT NOT NULL,
        payload TEXT NOT NULL,
        status TEXT NOT NULL,
        attempts INTEGER NOT NULL,
        lease_until TEXT,
        last_error TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        UNIQUE (tenant_id, id)
      );
      CREATE INDEX jobs_claimable ON jobs (kind, status, seq) WHERE status IN ('pending', 'running');
    `,
  },
];
