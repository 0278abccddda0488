// The migration that gives review candidates a sensitivity, on both stores: candidates stored before
// it are marked from their events as they stand (private when any event they cite is private), so
// the review queue of an upgraded store shows what they are drawn from.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';

import type { StorageAdapter, WriteOp } from '../src/index.js';
import { openSqliteStorage } from '../src/index.js';
import { openPostgresStorage } from '../src/storage/postgres/index.js';
import { migrations as postgresMigrations } from '../src/storage/postgres/migrations.js';
import { migrations as sqliteMigrations } from '../src/storage/sqlite/migrations.js';
import { eventRecord } from '../src/testing/event-record.js';
import { POSTGRES_URL } from './helpers/postgres.js';
import { candidate } from '../src/testing/reflection-conformance.js';

const migrationOf = (list: ReadonlyArray<{ sql: string }>) =>
  list.find((migration) => migration.sql.includes('ADD COLUMN sensitivity'))!.sql;

/** Events (one private) and three candidates: citing the private event, only normal ones, none. */
function rows() {
  const secretive = eventRecord({ sensitivity: 'private' });
  const plain = eventRecord();
  const cited = {
    fromPrivate: candidate({ source_event_ids: [plain.id, secretive.id] }),
    fromNormal: candidate({ source_event_ids: [plain.id] }),
    fromNone: candidate({ source_event_ids: [] }),
  };
  const writes: WriteOp[] = [
    ...[secretive, plain].map((event): WriteOp => ({ op: 'append_event', event, search_text: null })),
    ...Object.values(cited).map((entry): WriteOp => ({ op: 'put_candidate', candidate: entry })),
  ];
  return { writes, cited };
}

async function sensitivities(storage: StorageAdapter, cited: ReturnType<typeof rows>['cited']) {
  const read = async (id: string) => (await storage.reviews.getCandidate('t1', id))!.sensitivity;
  return {
    fromPrivate: await read(cited.fromPrivate.id),
    fromNormal: await read(cited.fromNormal.id),
    fromNone: await read(cited.fromNone.id),
  };
}

const expected = { fromPrivate: 'private', fromNormal: 'normal', fromNone: 'normal' };

describe('candidates stored before they carried a sensitivity', () => {
  it('are marked from their events on SQLite', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'engram-cand-migrate-'));
    const path = join(folder, 'engram.db');
    try {
      const { writes, cited } = rows();
      let storage = await openSqliteStorage({ path });
      await storage.write(writes);
      await storage.close();
      // The table as it was before the migration, then the migration itself.
      const db = new Database(path);
      db.exec('ALTER TABLE candidates DROP COLUMN sensitivity');
      db.exec(migrationOf(sqliteMigrations));
      db.close();
      storage = await openSqliteStorage({ path });
      expect(await sensitivities(storage, cited)).toEqual(expected);
      await storage.close();
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  describe('on PostgreSQL', () => {
    const schema = `engram_cand_migrate_${process.pid}`;
    const admin = new pg.Client({ connectionString: POSTGRES_URL });
    afterAll(async () => {
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end();
    });

    it('are marked from their events', async () => {
      await admin.connect();
      const { writes, cited } = rows();
      const storage = await openPostgresStorage({ connectionString: POSTGRES_URL, schema });
      try {
        await storage.write(writes);
        await admin.query(`SET search_path TO ${schema}; ALTER TABLE candidates DROP COLUMN sensitivity`);
        await admin.query(migrationOf(postgresMigrations));
        expect(await sensitivities(storage, cited)).toEqual(expected);
      } finally {
        await storage.close();
      }
    });
  });
});
