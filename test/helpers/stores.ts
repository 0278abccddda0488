// A fresh store of each kind for tests that run the same checks on both: a SQLite file in its own
// folder, or a PostgreSQL schema of its own on the test server; each removed by cleanup().

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import pg from 'pg';

import { POSTGRES_URL } from './postgres.js';

export interface StoreUnderTest {
  name: 'sqlite' | 'postgres';
  /** The store address (`sqlite:…` or `postgres://…?schema=…`). */
  address: () => string;
  /** The SQLite file (sqlite only). */
  path?: string;
  /** The PostgreSQL schema (postgres only). */
  schema?: string;
  cleanup: () => Promise<void>;
}

/** A SQLite file in a new temporary folder. */
export function sqliteStore(prefix: string): StoreUnderTest {
  const folder = mkdtempSync(join(tmpdir(), `engram-${prefix}-`));
  const path = join(folder, 'engram.db');
  return {
    name: 'sqlite',
    path,
    address: () => `sqlite:${path}`,
    cleanup: async () => rmSync(folder, { recursive: true, force: true }),
  };
}

/** A new schema on the test PostgreSQL server, dropped by cleanup(). */
export function postgresStore(prefix: string): StoreUnderTest {
  const schema = `${prefix}_${process.pid}_${Date.now()}`;
  return {
    name: 'postgres',
    schema,
    address: () => `${POSTGRES_URL}?schema=${schema}`,
    cleanup: async () => {
      const client = new pg.Client({ connectionString: POSTGRES_URL });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    },
  };
}
