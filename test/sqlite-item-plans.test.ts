// Item lists by key on a SQLite store read the key index, whatever else the query names: a store
// has no table statistics, and without them SQLite took the owner's index and read every active
// item of a user with 100,000 of them for each compose.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { openSqliteStorage, type StorageAdapter } from '../src/index.js';
import { filteredListStatement } from '../src/storage/sqlite/item-store.js';
import { item } from '../src/testing/item-conformance.js';

describe('item lists by key on SQLite', () => {
  let folder: string;
  let path: string;
  let storage: StorageAdapter;
  beforeEach(async () => {
    folder = mkdtempSync(join(tmpdir(), 'engram-item-plans-'));
    path = join(folder, 'engram.db');
    storage = await openSqliteStorage({ path });
  });
  afterEach(async () => {
    await storage.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('reads the key index for a key, with owners, statuses, types and order named too', async () => {
    await storage.write(
      Array.from({ length: 50 }, (_, index) => ({
        op: 'put_item' as const,
        item: item({ key: index === 7 ? 'profile:user' : `note:${index}` }),
      })),
    );
    const query = {
      tenant_id: 't1',
      owners: ['u:u1', 'a:a1', 't'],
      statuses: ['active' as const],
      types: ['profile' as const, 'preferences' as const],
      keys: ['profile:user'],
      order: 'desc' as const,
      limit: 12,
    };
    const { sql, params } = filteredListStatement(query, true);
    const db = new Database(path, { readonly: true });
    try {
      const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>).map(
        (row) => row.detail,
      );
      expect(plan.some((detail) => detail.includes('USING INDEX items_by_key'))).toBe(true);
      expect(plan.some((detail) => detail.includes('items_by_owner'))).toBe(false);
    } finally {
      db.close();
    }
    // And the list answers as before.
    const listed = await storage.items.list({ ...query, types: undefined });
    expect(listed.map((entry) => entry.key)).toEqual(['profile:user']);
  });
});
