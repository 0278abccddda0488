// A real SQLite store in a fresh temporary folder for one benchmark, removed afterwards even when
// the benchmark throws.

import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createEngram, type Engram } from '../src/index.js';

export type Durability = 'full' | 'normal';

/** Opens an Engram on a new file under os.tmpdir(), runs `body`, then closes and deletes it. */
export async function withTempStore<T>(durability: Durability, body: (engram: Engram, path: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'engram-bench-'));
  const path = join(dir, 'engram.db');
  const engram = await createEngram({ store: `sqlite:${path}`, sqliteSynchronous: durability });
  try {
    return await body(engram, path);
  } finally {
    await engram.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Size of the database file plus its WAL, in MiB (0 for a file that is not there). */
export function storeSizeMiB(path: string): number {
  let bytes = 0;
  for (const file of [path, `${path}-wal`]) {
    try {
      bytes += statSync(file).size;
    } catch {
      // No WAL yet: nothing to add.
    }
  }
  return Math.round((bytes / 1024 / 1024) * 10) / 10;
}
