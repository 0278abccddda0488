// Store addresses: `sqlite:PATH` (or `sqlite::memory:`). The adapter is loaded only when its
// address is used, so a missing native driver fails with a message that says what to install.

import { EngramError } from '../spec/errors.js';
import type { StorageAdapter } from '../spec/storage.js';
import type * as SqliteStorageModule from '../storage/sqlite/sqlite-storage.js';

type SqliteModule = typeof SqliteStorageModule;

/** The embedded default: one file under ./.engram/. */
export const DEFAULT_STORE = 'sqlite:./.engram/engram.db';

export interface StoreOptions {
  sqliteSynchronous?: 'full' | 'normal' | undefined;
}

/**
 * Opens the store an address names.
 *
 * @example
 * const storage = await openStore('sqlite:./data/engram.db');
 */
export async function openStore(address: string, options: StoreOptions = {}): Promise<StorageAdapter> {
  if (address.startsWith('sqlite:')) {
    const path = address.slice('sqlite:'.length);
    if (path === '') throw new EngramError('CONFIG_INVALID', 'store: sqlite: needs a file path, for example sqlite:./.engram/engram.db', { field: 'store' });
    let module: SqliteModule;
    try {
      module = await import('../storage/sqlite/sqlite-storage.js');
    } catch (error) {
      throw new EngramError('CONFIG_INVALID', 'store: the SQLite driver could not be loaded; run `npm install better-sqlite3` (it builds a native module)', {
        field: 'store',
        cause: error,
      });
    }
    return module.openSqliteStorage({ path, synchronous: options.sqliteSynchronous });
  }
  if (/^postgres(ql)?:\/\//.test(address)) {
    throw new EngramError('CONFIG_INVALID', 'store: the PostgreSQL store is not available in this version; use sqlite:PATH', { field: 'store' });
  }
  throw new EngramError('CONFIG_INVALID', `store: unknown store address ${JSON.stringify(address)}; expected sqlite:PATH`, { field: 'store' });
}
