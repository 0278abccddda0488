// Store addresses: `sqlite:PATH` (or `sqlite::memory:`) and `postgres://…` (or `postgresql://…`;
// `?schema=NAME` picks the schema, default public). An adapter is loaded only when its address is
// used, so a missing driver fails with a message that says what to install.

import { EngramError } from '../spec/errors.js';
import type { MigrationResult, StorageAdapter } from '../spec/storage.js';
import type { TextTokenCounter } from '../spec/text-tokens.js';
import type * as SqliteStorageModule from '../storage/sqlite/sqlite-storage.js';
import type { SqliteStorageOptions } from '../storage/sqlite/sqlite-storage.js';
import type * as PostgresStorageModule from '../storage/postgres/postgres-storage.js';

type SqliteModule = typeof SqliteStorageModule;
type PostgresModule = typeof PostgresStorageModule;

/** The embedded default: one file under ./.engram/. */
export const DEFAULT_STORE = 'sqlite:./.engram/engram.db';

export interface StoreOptions {
  sqliteSynchronous?: 'full' | 'normal' | undefined;
  /** PostgreSQL: the most connections this process opens (default 10). */
  maxConnections?: number | undefined;
  /** Counts kept with each event and item row for compose (see SqliteStorageOptions.textTokens). */
  textTokens?: TextTokenCounter | undefined;
}

const POSTGRES = /^postgres(ql)?:\/\//;

function unknownStore(address: string): EngramError {
  return new EngramError(
    'CONFIG_INVALID',
    `store: unknown store address ${JSON.stringify(address)}; expected sqlite:PATH or postgres://…`,
    { field: 'store' },
  );
}

async function sqliteModule(): Promise<SqliteModule> {
  try {
    return await import('../storage/sqlite/sqlite-storage.js');
  } catch (error) {
    throw new EngramError(
      'CONFIG_INVALID',
      'store: the SQLite driver could not be loaded; run `npm install better-sqlite3` (it builds a native module)',
      {
        field: 'store',
        cause: error,
      },
    );
  }
}

/** A postgres:// address as the adapter's options: `schema` comes out of the query string. */
function postgresTarget(address: string): { connectionString: string; schema: string } {
  let url: URL;
  try {
    url = new URL(address);
  } catch (error) {
    throw new EngramError('CONFIG_INVALID', 'store: not a valid postgres:// address', { field: 'store', cause: error });
  }
  const schema = url.searchParams.get('schema') ?? 'public';
  url.searchParams.delete('schema');
  return { connectionString: url.toString(), schema };
}

/**
 * A store address fit to print: a password in it is replaced by `***`.
 *
 * @example
 * redactStoreAddress('postgres://engram:s3cret@db/engram') // 'postgres://engram:***@db/engram'
 */
export function redactStoreAddress(address: string): string {
  return address.replace(/^(postgres(?:ql)?:\/\/[^:/@]+):[^/]*@/, '$1:***@');
}

/**
 * Opens the embedded store (one SQLite file). Its native driver, better-sqlite3, is loaded on the
 * first call, not when `engram` is imported, so an application on PostgreSQL never loads it and a
 * machine where it failed to build gets an error that says what to install.
 *
 * @example
 * const storage = await openSqliteStorage({ path: './data/engram.db' });
 */
export async function openSqliteStorage(options: SqliteStorageOptions): Promise<StorageAdapter> {
  return (await sqliteModule()).openSqliteStorage(options);
}

/**
 * Opens the store an address names.
 *
 * @example
 * const storage = await openStore('sqlite:./data/engram.db');
 * const shared = await openStore('postgres://engram@db.internal:5432/engram?schema=memory');
 */
export async function openStore(address: string, options: StoreOptions = {}): Promise<StorageAdapter> {
  if (address.startsWith('sqlite:')) {
    const path = address.slice('sqlite:'.length);
    if (path === '')
      throw new EngramError(
        'CONFIG_INVALID',
        'store: sqlite: needs a file path, for example sqlite:./.engram/engram.db',
        { field: 'store' },
      );
    return (await sqliteModule()).openSqliteStorage({
      path,
      synchronous: options.sqliteSynchronous,
      ...(options.textTokens === undefined ? {} : { textTokens: options.textTokens }),
    });
  }
  if (POSTGRES.test(address)) {
    const module: PostgresModule = await import('../storage/postgres/postgres-storage.js');
    return module.openPostgresStorage({
      ...postgresTarget(address),
      ...(options.maxConnections === undefined ? {} : { maxConnections: options.maxConnections }),
      ...(options.textTokens === undefined ? {} : { textTokens: options.textTokens }),
    });
  }
  throw unknownStore(address);
}

/**
 * Brings a store's schema to the latest version without starting anything else (`engram migrate`).
 * Several processes may run it at once: PostgreSQL migrations wait on an advisory lock, SQLite's on
 * the file's write lock.
 *
 * @example
 * const { from, to } = await migrateStore('postgres://localhost/engram');
 */
export async function migrateStore(address: string): Promise<MigrationResult> {
  if (POSTGRES.test(address)) {
    const module: PostgresModule = await import('../storage/postgres/postgres-storage.js');
    return module.migratePostgres(postgresTarget(address));
  }
  if (address.startsWith('sqlite:')) {
    const path = address.slice('sqlite:'.length);
    if (path === '')
      throw new EngramError(
        'CONFIG_INVALID',
        'store: sqlite: needs a file path, for example sqlite:./.engram/engram.db',
        { field: 'store' },
      );
    return (await sqliteModule()).migrateSqliteStorage({ path });
  }
  throw unknownStore(address);
}
