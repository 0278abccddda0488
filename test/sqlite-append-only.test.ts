// SQLite only: stored snapshots are append-only even against SQL run outside Engram. No write op
// updates a snapshot, so the adapter-neutral conformance suite has no way to try; this test opens a
// raw better-sqlite3 connection on the same file, which only makes sense for this adapter.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { StorageAdapter } from '../src/index.js';
import { openSqliteStorage } from '../src/index.js';
import { snapshotRecord } from '../src/testing/run-records.js';

describe('sqlite: snapshots are append-only', () => {
  let folder: string;
  let storage: StorageAdapter;
  let raw: Database.Database;

  beforeEach(async () => {
    folder = mkdtempSync(join(tmpdir(), 'engram-append-only-'));
    storage = await openSqliteStorage({ path: join(folder, 'engram.db') });
    raw = new Database(join(folder, 'engram.db'));
  });
  afterEach(async () => {
    raw.close();
    await storage.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('refuses any UPDATE of a stored snapshot, and leaves it as it was', async () => {
    const record = snapshotRecord(1);
    const id = record.snapshot.snapshot_id;
    await storage.write([{ op: 'put_snapshot', record }]);
    const updates = [
      [
        'UPDATE snapshots SET snapshot = ? WHERE id = ?',
        JSON.stringify({ ...record.snapshot, objective: 'rewritten' }),
        id,
      ],
      ['UPDATE snapshots SET sequence = 7 WHERE id = ?', id],
      // Even an update that changes nothing is refused.
      ['UPDATE snapshots SET created_at = created_at WHERE id = ?', id],
    ] as const;
    for (const [sql, ...params] of updates) {
      expect(() => raw.prepare(sql).run(...params)).toThrow(
        expect.objectContaining({ code: 'SQLITE_CONSTRAINT_TRIGGER', message: expect.stringMatching(/append-only/) }),
      );
    }
    expect(await storage.runs.getSnapshot('t1', id)).toEqual(record);
  });

  it('still allows deleting a snapshot (kept possible for erasure)', async () => {
    const record = snapshotRecord(1);
    await storage.write([{ op: 'put_snapshot', record }]);
    expect(raw.prepare('DELETE FROM snapshots WHERE id = ?').run(record.snapshot.snapshot_id).changes).toBe(1);
    expect(await storage.runs.getSnapshot('t1', record.snapshot.snapshot_id)).toBeNull();
  });
});
