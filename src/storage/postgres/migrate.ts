// Applies the PostgreSQL migrations under an advisory lock, so that any number of processes can
// start at once: the first applies them, the others wait and find them done. Each applied version
// is recorded in engram_migrations; a store checks it is at the version this Engram needs.

import { StorageError } from '../../spec/errors.js';
import type { MigrationResult } from '../../spec/storage.js';
import { sqlState, type Sql, type SqlPool } from './client.js';
import { migrations } from './migrations.js';

// One lock per schema, so stores in different schemas of one database migrate independently.
const LOCK_SQL = "SELECT pg_advisory_lock(hashtext('engram.migrate.' || current_schema()))";
const UNLOCK_SQL = "SELECT pg_advisory_unlock(hashtext('engram.migrate.' || current_schema()))";

async function currentVersion(sql: Sql): Promise<number> {
  await sql.exec(`CREATE TABLE IF NOT EXISTS engram_migrations (
    version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
  const rows = await sql.rows('SELECT coalesce(max(version), 0) AS version FROM engram_migrations');
  return Number(rows[0]!['version']);
}

/**
 * Brings the schema to the latest version; each migration in its own transaction, all under the
 * schema's advisory lock. Fails on a schema newer than this Engram.
 */
export async function migrate(pool: SqlPool, schema: string): Promise<MigrationResult> {
  return pool.session(async (connection) => {
    await connection.exec(`CREATE SCHEMA IF NOT EXISTS ${schema}`).catch((error: unknown) => {
      // Another process creating it at the same moment is fine (duplicate key or duplicate schema).
      if (sqlState(error) !== '23505' && sqlState(error) !== '42P06') throw error;
    });
    await connection.rows(LOCK_SQL);
    try {
      const from = await currentVersion(connection);
      if (from > migrations.length) {
        throw new StorageError(
          `the store is at schema version ${from}, newer than this Engram (${migrations.length}); upgrade Engram`,
          { field: 'store' },
        );
      }
      const applied: string[] = [];
      for (let version = from; version < migrations.length; version += 1) {
        const migration = migrations[version]!;
        await connection.exec('BEGIN');
        try {
          await connection.exec(migration.sql);
          await connection.run('INSERT INTO engram_migrations (version, name) VALUES (?, ?)', [
            version + 1,
            migration.name,
          ]);
          await connection.exec('COMMIT');
        } catch (error) {
          await connection.exec('ROLLBACK');
          throw error;
        }
        applied.push(migration.name);
      }
      return { from, to: migrations.length, applied };
    } finally {
      await connection.rows(UNLOCK_SQL);
    }
  });
}

/** The schema's version; fails when it is not the one this Engram needs (run `engram migrate`). */
export async function checkVersion(pool: SqlPool): Promise<void> {
  const rows = await pool.rows(
    "SELECT to_regclass(quote_ident(current_schema()) || '.engram_migrations') IS NOT NULL AS present",
  );
  const version =
    rows[0]!['present'] === true
      ? Number((await pool.rows('SELECT coalesce(max(version), 0) AS v FROM engram_migrations'))[0]!['v'])
      : 0;
  if (version !== migrations.length) {
    throw new StorageError(
      `the store is at schema version ${version}, this Engram needs ${migrations.length}: run \`engram migrate --store …\``,
      { field: 'store' },
    );
  }
}
