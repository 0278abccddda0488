// PostgreSQL migrations as operators meet them: several processes starting at once on an empty
// schema (the advisory lock lets one migrate while the others wait and find the work done), a store
// opened without migrating refusing a schema that is behind, a service role that did not create the
// schema, and `engram migrate` on the command line.

import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';

import { createEngram, EngramError, migrateStore } from '../src/index.js';
import { migratePostgres, openPostgresStorage } from '../src/storage/postgres/index.js';
import { POSTGRES_URL } from './helpers/postgres.js';
import { engramCommand } from './helpers/engram-process.js';

const admin = new pg.Pool({ connectionString: POSTGRES_URL, max: 2 });
const schemas: string[] = [];
const roles: string[] = [];
const root = join(import.meta.dirname, '..');

function schema(name: string): string {
  const full = `engram_mig_${name}_${process.pid}`;
  schemas.push(full);
  return full;
}

afterAll(async () => {
  for (const name of schemas) await admin.query(`DROP SCHEMA IF EXISTS ${name} CASCADE`);
  for (const role of roles) await admin.query(`DROP OWNED BY ${role}; DROP ROLE IF EXISTS ${role}`);
  await admin.end();
});

describe('PostgreSQL migrations', () => {
  it('migrates once when many processes start at once: one applies every migration, the others none', async () => {
    const name = schema('race');
    const results = await Promise.all(
      Array.from({ length: 6 }, () => migratePostgres({ connectionString: POSTGRES_URL, schema: name })),
    );
    const appliers = results.filter((result) => result.applied.length > 0);
    expect(appliers).toHaveLength(1);
    expect(appliers[0]!.from).toBe(0);
    expect(results.every((result) => result.to === appliers[0]!.applied.length)).toBe(true);
    const { rows } = await admin.query(`SELECT version FROM ${name}.engram_migrations ORDER BY version`);
    expect(rows.map((row: { version: number }) => row.version)).toEqual(
      appliers[0]!.applied.map((_, index) => index + 1),
    );
  });

  it('opens without migrating only a schema that is up to date, and says to run engram migrate otherwise', async () => {
    const name = schema('check');
    const error = await openPostgresStorage({ connectionString: POSTGRES_URL, schema: name, migrate: false }).then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(EngramError.isInstance(error)).toBe(true);
    expect((error as EngramError).message).toMatch(/schema version 0, this Engram needs \d+: run `engram migrate/);
    await migrateStore(`${POSTGRES_URL}?schema=${name}`);
    const storage = await openPostgresStorage({ connectionString: POSTGRES_URL, schema: name, migrate: false });
    expect(storage.name).toBe('postgres');
    await storage.close();
  });

  it('refuses a schema newer than this Engram', async () => {
    const name = schema('newer');
    await migrateStore(`${POSTGRES_URL}?schema=${name}`);
    await admin.query(`INSERT INTO ${name}.engram_migrations (version, name) VALUES (999, 'from the future')`);
    await expect(migratePostgres({ connectionString: POSTGRES_URL, schema: name })).rejects.toThrow(
      /schema version 999, newer than this Engram/,
    );
  });

  it('names a schema it cannot use and a server it cannot reach, with typed errors', async () => {
    await expect(openPostgresStorage({ connectionString: POSTGRES_URL, schema: 'Bad-Name' })).rejects.toMatchObject({
      code: 'STORAGE_FAILED',
      field: 'schema',
    });
    await expect(
      openPostgresStorage({ connectionString: 'postgres://postgres@127.0.0.1:1/test' }),
    ).rejects.toMatchObject({ code: 'STORAGE_FAILED', field: 'store' });
  });

  it('serves as a role that did not create the schema, leaving GIN upkeep to autovacuum instead of failing', async () => {
    const name = schema('role');
    await migrateStore(`${POSTGRES_URL}?schema=${name}`);
    const role = `engram_app_${process.pid}`;
    roles.push(role);
    await admin.query(`CREATE ROLE ${role} LOGIN`);
    await admin.query(
      `GRANT USAGE ON SCHEMA ${name} TO ${role}; GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${name} TO ${role}; GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA ${name} TO ${role}`,
    );
    const url = new URL(POSTGRES_URL);
    url.username = role;
    url.password = '';
    // The schema's owner migrates it (engram migrate); the service's role opens it as it is.
    const storage = await openPostgresStorage({ connectionString: url.toString(), schema: name, migrate: false });
    const engram = await createEngram({ store: storage, embeddings: { provider: 'none' } });
    try {
      const scope = { user_id: 'u', agent_id: 'a', session_id: 's', run_id: 'r' };
      await engram.commitTurn({
        scope,
        turn_id: 't1',
        messages: [{ role: 'user', content: 'The quince order ships on Friday.' }],
      });
      // gin_clean_pending_list is the index owner's: this role's step does nothing, and says so.
      expect(await engram.maintenance.mergeIndexes()).toBe(false);
      expect(await engram.events.search({ scope: { user_id: 'u' }, query: 'quince', limit: 5 })).toHaveLength(1);
    } finally {
      await engram.close();
    }
    // The owner's step moves the pending entries into the index.
    const owner = await createEngram({ store: `${POSTGRES_URL}?schema=${name}`, embeddings: { provider: 'none' } });
    try {
      expect(await owner.maintenance.mergeIndexes()).toBe(true);
      expect(await owner.maintenance.mergeIndexes()).toBe(false);
    } finally {
      await owner.close();
    }
  });

  it('engram migrate applies the migrations, then reports the schema up to date', () => {
    const store = `${POSTGRES_URL}?schema=${schema('cli')}`;
    const run = () =>
      spawnSync(process.execPath, [...engramCommand(), '--store', store, 'migrate', '--json'], {
        cwd: root,
        encoding: 'utf8',
      });
    const first = run();
    expect(first.status, first.stderr).toBe(0);
    const applied = JSON.parse(first.stdout) as { from: number; to: number; applied: string[] };
    expect(applied.from).toBe(0);
    expect(applied.applied).toHaveLength(applied.to);
    const second = run();
    expect(second.status, second.stderr).toBe(0);
    expect(JSON.parse(second.stdout)).toEqual({ from: applied.to, to: applied.to, applied: [] });
  }, 60_000);
});
