// SQLite only: a store written by the version before the event-count migration opens with every
// user's and agent's events counted, so a search weighs words as it did before the upgrade.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, it } from 'vitest';

import type { StorageAdapter, WriteOp } from '../src/index.js';
import { openSqliteStorage } from '../src/index.js';
import { migrations } from '../src/storage/sqlite/migrations.js';
import { searchText } from '../src/util/segment.js';
import { eventRecord } from '../src/testing/event-record.js';

const NOW = '2026-06-01T12:00:00.000Z';

let folder: string;
let path: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'engram-migrate-'));
  path = join(folder, 'engram.db');
});
afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
});

function append(user_id: string, agent_id: string, content: string): WriteOp {
  return { op: 'append_event', event: eventRecord({ user_id, agent_id, content }), search_text: searchText(content) };
}

const search = (storage: StorageAdapter, user_id: string) =>
  storage.events
    .search({ tenant_id: 't1', user_id, terms: ['pear', 'quince'], now: NOW, limit: 10 })
    .then((hits) => hits.map((hit) => [hit.event.content, hit.score]));

it('counts the events of a store written before event counts were kept, on first open', async () => {
  const writes = [
    append('u1', 'a1', 'quince'),
    // Events of one word each: the word counts kept since (dropped below) would not change their ranking.
    ...Array.from({ length: 3 }, () => append('u1', 'a1', 'pear')),
    ...Array.from({ length: 40 }, () => append('u1', 'a2', 'filler')),
    append('u2', 'a1', 'quince'),
  ];
  let storage = await openSqliteStorage({ path });
  await storage.write(writes);
  const before = await search(storage, 'u1');
  await storage.close();

  // Back to the schema of the version before: no counts table, nor the columns added since (token
  // counts, word counts, chunk vector times; the event vector table is rebuilt again from itself).
  const version = migrations.findIndex((migration) => migration.sql.includes('CREATE TABLE event_scope_sizes'));
  expect(version).toBeGreaterThan(0);
  const db = new Database(path);
  db.exec(
    'DROP TABLE event_scope_sizes; ALTER TABLE events DROP COLUMN text_tokens; ALTER TABLE memory_items DROP COLUMN text_tokens; ALTER TABLE candidates DROP COLUMN sensitivity; ALTER TABLE context_builds DROP COLUMN redactions; ALTER TABLE events DROP COLUMN term_stats; ALTER TABLE memory_chunks DROP COLUMN term_stats; ALTER TABLE memory_chunks DROP COLUMN vector_at',
  );
  db.pragma(`user_version = ${version}`);
  db.close();

  storage = await openSqliteStorage({ path });
  try {
    expect(await search(storage, 'u1')).toEqual(before);
    const raw = new Database(path, { readonly: true });
    expect(
      raw.prepare('SELECT user_id, agent_id, events FROM event_scope_sizes ORDER BY user_id, agent_id').raw().all(),
    ).toEqual([
      ['u1', 'a1', 4],
      ['u1', 'a2', 40],
      ['u2', 'a1', 1],
    ]);
    raw.close();
  } finally {
    await storage.close();
  }
});
