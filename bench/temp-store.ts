// A real store for one benchmark, removed afterwards even when the benchmark throws: a SQLite file
// in a fresh temporary folder, or a fresh schema on the PostgreSQL server (ENGRAM_BENCH_POSTGRES,
// default the local server).

import { closeSync, mkdtempSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import pg from 'pg';

import {
  createEngram,
  openSqliteStorage,
  openStore,
  textTokenCounter,
  type Engram,
  type EngramConfig,
  type StorageAdapter,
} from '../src/index.js';
import { storeOptionsOf } from '../src/runtime/config.js';

export type Durability = 'full' | 'normal';

/** Where a benchmark runs: SQLite with a durability setting, or the PostgreSQL server. */
export type BenchStore = Durability | 'postgres';

/** The PostgreSQL server of the benchmarks. */
export const BENCH_POSTGRES_URL = process.env['ENGRAM_BENCH_POSTGRES'] ?? 'postgres://postgres@127.0.0.1:5432/test';

/** The store under each Engram opened here: the bulk writes and raw reads of a benchmark use it directly. */
const stores = new WeakMap<Engram, StorageAdapter>();

/** An Engram over a store opened by this module, which `storeOf` finds again; it closes the store. */
async function engramOver(storage: StorageAdapter, config: Omit<EngramConfig, 'store'> = {}): Promise<Engram> {
  const engram = await createEngram({ ...config, store: storage }).catch(async (error: unknown) => {
    await storage.close();
    throw error;
  });
  stores.set(engram, storage);
  return engram;
}

/**
 * The store under an Engram opened by this module (`reopened`, `withTempStore`, `openTempEngram`),
 * for the writes and reads a benchmark makes beside the public API.
 */
export function storeOf(engram: Engram): StorageAdapter {
  const storage = stores.get(engram);
  if (storage === undefined) throw new Error('storeOf: this Engram was not opened by bench/temp-store.ts');
  return storage;
}

/**
 * An Engram on a SQLite file at `path` (a new one is created), its store opened as createEngram
 * would open it (durability, token counts); `storeOf` gives the store. Close it after use.
 */
export async function openTempEngram(path: string, config: Omit<EngramConfig, 'store'> = {}): Promise<Engram> {
  return engramOver(await openStore(`sqlite:${path}`, storeOptionsOf(config)), config);
}

/**
 * Another Engram on a SQLite file, with a connection of its own (nothing kept between reads by
 * another carries over) and no embedding model; with `keepNothing`, its store keeps no searched
 * words and no item versions between reads (`keptSearchTerms: 0`, `keptItems: 0`). Close it after use.
 */
export async function reopened(path: string, keepNothing = false): Promise<Engram> {
  const storage = await openSqliteStorage({
    path,
    textTokens: textTokenCounter(),
    ...(keepNothing ? { keptSearchTerms: 0, keptItems: 0 } : {}),
  });
  return engramOver(storage, { embeddings: { provider: 'none' } });
}

/**
 * An Engram on a SQLite file whose store keeps nothing between reads: every search reads the
 * full-text index and every listing builds its rows, as the raw reads a benchmark puts beside
 * compose must.
 */
export function keepingNothing(path: string): Promise<Engram> {
  return reopened(path, true);
}

/**
 * Opens an Engram on `store` (a new SQLite file, or a new PostgreSQL schema), runs `body` with a
 * function that reports the store's size in MiB and a second Engram whose searches read the
 * full-text index every time (SQLite: `keepingNothing`; PostgreSQL keeps nothing), then closes
 * and deletes it.
 */
export async function withBenchStore<T>(
  store: BenchStore,
  body: (engram: Engram, sizeMiB: () => Promise<number>, unkept: Engram) => Promise<T>,
): Promise<T> {
  if (store !== 'postgres') {
    return withTempStore(store, async (engram, path) => {
      const unkept = await keepingNothing(path);
      try {
        return await body(engram, async () => storeSizeMiB(path), unkept);
      } finally {
        await unkept.close();
      }
    });
  }
  const schema = `engram_bench_${process.pid}`;
  const admin = new pg.Pool({ connectionString: BENCH_POSTGRES_URL, max: 1 });
  await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  const engram = await createEngram({ store: `${BENCH_POSTGRES_URL}?schema=${schema}` });
  const sizeMiB = async () => {
    const { rows } = await admin.query<{ bytes: string }>(
      'SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) AS bytes FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind = $2',
      [schema, 'r'],
    );
    return Math.round((Number(rows[0]!.bytes) / 1024 / 1024) * 10) / 10;
  };
  try {
    return await body(engram, sizeMiB, engram);
  } finally {
    await engram.close();
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
  }
}

/**
 * Opens an Engram on a new file under os.tmpdir() (with any further configuration, such as a
 * clock), runs `body`, then closes and deletes it.
 */
export async function withTempStore<T>(
  durability: Durability,
  body: (engram: Engram, path: string) => Promise<T>,
  config: Omit<EngramConfig, 'store'> = {},
): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'engram-bench-'));
  const path = join(dir, 'engram.db');
  const engram = await openTempEngram(path, { ...config, sqliteSynchronous: durability });
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

/**
 * Reads the database file and its WAL once, front to back, so their pages are in the OS page cache
 * (as on a machine that keeps a store it serves in memory); returns the seconds it took. Some virtual
 * machines page out file pages left idle for seconds, and reads of a store then go to the disk.
 */
export function readIntoPageCache(path: string): number {
  const started = performance.now();
  const buffer = Buffer.allocUnsafe(8 * 1024 * 1024);
  for (const file of [path, `${path}-wal`]) {
    let fd: number;
    try {
      fd = openSync(file, 'r');
    } catch {
      continue; // No WAL: nothing to read.
    }
    try {
      let read = 1;
      while (read > 0) read = readSync(fd, buffer, 0, buffer.length, null);
    } finally {
      closeSync(fd);
    }
  }
  return Math.round((performance.now() - started) / 100) / 10;
}
