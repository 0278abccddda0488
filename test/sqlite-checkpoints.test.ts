// A SQLite store that writes a lot copies its write-ahead log back into the database file from a
// thread of its own, so no request waits for that copy; the committing connection's own checkpoint
// (at 4,000 pages) stays as the backstop. These tests write ~1,500 pages: enough to start the
// thread, too few for the backstop, so rows found in the database file were put there by the thread.

import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { openSqliteStorage } from '../src/index.js';
import { appendEvent, eventRecord } from '../src/testing/event-record.js';
import { writeManyPages } from './helpers/large-writes.js';
import { item } from '../src/testing/item-conformance.js';

/**
 * The events in the database file alone, read from a copy of it without its log (a copy taken in
 * the middle of a checkpoint may not open: that reads as none yet).
 */
function eventsInDatabaseFile(path: string, folder: string): number {
  const copy = join(folder, `copy-${Date.now()}.db`);
  copyFileSync(path, copy);
  const db = new Database(copy, { readonly: true });
  try {
    const table = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'events'").get();
    return table === undefined ? 0 : (db.prepare('SELECT count(*) AS n FROM events').get() as { n: number }).n;
  } catch {
    return 0;
  } finally {
    db.close();
    rmSync(copy, { force: true });
  }
}

describe('background WAL checkpoints of a SQLite store', () => {
  let folder: string;
  let path: string;
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'engram-checkpoints-'));
    path = join(folder, 'engram.db');
  });
  afterEach(() => {
    rmSync(folder, { recursive: true, force: true });
  });

  it('copies the log of a store that writes a lot into the database file, and the log is gone after close', async () => {
    const storage = await openSqliteStorage({ path });
    const written = await writeManyPages(storage);
    await vi.waitFor(() => expect(eventsInDatabaseFile(path, folder)).toBe(written), { timeout: 10_000, interval: 50 });
    // Every event is still read through the store as before.
    const page = await storage.events.list({
      tenant_id: 't1',
      user_id: 'u1',
      agent_id: 'a1',
      session_id: 's1',
      now: '2026-06-02T00:00:00.000Z',
      limit: written + 1,
    });
    expect(page).toHaveLength(written);
    await storage.close();
    // The thread's connection closed before the store's own, which then removed the log.
    expect(existsSync(`${path}-wal`)).toBe(false);
    const reopened = await openSqliteStorage({ path });
    expect(
      await reopened.events.list({
        tenant_id: 't1',
        user_id: 'u1',
        agent_id: 'a1',
        session_id: 's1',
        now: '2026-06-02T00:00:00.000Z',
        limit: written + 1,
      }),
    ).toHaveLength(written);
    await reopened.close();
  });

  it("keeps the item versions it read across the thread's checkpoints", async () => {
    // A checkpoint copies pages without changing what they hold: the store's other connection must
    // not read it as a commit (PRAGMA data_version), which would drop every kept version.
    const storage = await openSqliteStorage({ path });
    const tea = item({ key: 'tea' });
    await storage.write([{ op: 'put_item', item: tea }]);
    const first = await storage.items.get('t1', tea.id);
    const written = await writeManyPages(storage);
    await vi.waitFor(() => expect(eventsInDatabaseFile(path, folder)).toBe(written), { timeout: 10_000, interval: 50 });
    expect(await storage.items.get('t1', tea.id)).toBe(first);
    await storage.close();
  });

  it('keeps writing and closes when the thread cannot open the file', async () => {
    const storage = await openSqliteStorage({ path });
    // The store's connection keeps the file it opened; the thread, opening it by name, finds none.
    unlinkSync(path);
    const written = await writeManyPages(storage);
    await storage.write([appendEvent(eventRecord({ content: 'one more' }))]);
    const page = await storage.events.list({
      tenant_id: 't1',
      user_id: 'u1',
      agent_id: 'a1',
      session_id: 's1',
      now: '2026-06-02T00:00:00.000Z',
      limit: written + 2,
    });
    expect(page).toHaveLength(written + 1);
    await storage.close();
  });

  it('lets a process that closed its store end on its own', () => {
    // The thread never holds the process open, yet close waits for it: a process whose last work was
    // that close must still run to its end.
    const output = execFileSync(
      process.execPath,
      ['--import', 'tsx', join(import.meta.dirname, 'fixtures', 'write-and-close.ts'), path],
      {
        cwd: join(import.meta.dirname, '..'),
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    expect(output).toBe('closed after 640 events\n');
    expect(existsSync(`${path}-wal`)).toBe(false);
  });
});
