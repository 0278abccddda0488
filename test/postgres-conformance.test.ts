// The storage conformance suite on the PostgreSQL adapter: against the real server (127.0.0.1:5432,
// or ENGRAM_TEST_POSTGRES), where pgvector is not installed so vectors take the exact path, and
// against PGlite with pgvector (the HNSW path). Each test gets a fresh schema.

import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';

import type { StorageAdapter } from '../src/index.js';
import { openPostgresStorage } from '../src/storage/postgres/index.js';
import { describeStorageConformance } from '../src/testing/storage-conformance.js';
import { POSTGRES_URL } from './helpers/postgres.js';

const schemas = new Map<StorageAdapter, string>();
let counter = 0;

function nextSchema(): string {
  counter += 1;
  return `engram_ct_${process.pid}_${counter}`;
}

const admin = new pg.Pool({ connectionString: POSTGRES_URL, max: 2 });
afterAll(async () => {
  await admin.end();
});

describeStorageConformance('postgres', {
  async create(options = {}) {
    const schema = nextSchema();
    const storage = await openPostgresStorage({
      connectionString: POSTGRES_URL,
      schema,
      maxConnections: 4,
      ...options,
    });
    schemas.set(storage, schema);
    return storage;
  },
  async destroy(storage) {
    await storage.close();
    await admin.query(`DROP SCHEMA IF EXISTS ${schemas.get(storage)!} CASCADE`);
    schemas.delete(storage);
  },
});

// PGlite starts in seconds: one instance serves the suite, each test in its own schema.
let lite: PGlite;
beforeAll(async () => {
  lite = new PGlite({ extensions: { vector } });
  await lite.waitReady;
}, 60_000);
afterAll(async () => {
  await lite.close();
});

describeStorageConformance('pglite with pgvector', {
  async create(options = {}) {
    const schema = nextSchema();
    const storage = await openPostgresStorage({ pglite: lite, schema, vectors: 'pgvector', ...options });
    schemas.set(storage, schema);
    return storage;
  },
  async destroy(storage) {
    await storage.close();
    await lite.exec(`DROP SCHEMA IF EXISTS ${schemas.get(storage)!} CASCADE; SET search_path TO public`);
    schemas.delete(storage);
  },
});
