// The storage conformance suite on the SQLite adapter, each test on a fresh database file.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { openSqliteStorage } from '../src/index.js';
import { describeStorageConformance } from '../src/testing/storage-conformance.js';

const folders = new Map<object, string>();

describeStorageConformance('sqlite', {
  async create(options = {}) {
    const folder = mkdtempSync(join(tmpdir(), 'engram-conformance-'));
    const storage = await openSqliteStorage({ path: join(folder, 'engram.db'), ...options });
    folders.set(storage, folder);
    return storage;
  },
  async destroy(storage) {
    await storage.close();
    rmSync(folders.get(storage)!, { recursive: true, force: true });
    folders.delete(storage);
  },
});
