// Store addresses: which store an address opens, the errors of addresses that name none, and
// addresses printed without their password.

import { describe, expect, it } from 'vitest';

import { EngramError } from '../spec/errors.js';
import { openStore, redactStoreAddress } from './store-url.js';

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
  } catch (error) {
    return EngramError.isInstance(error) ? `${error.code} ${error.field ?? ''}` : `untyped ${String(error)}`;
  }
  return undefined;
}

describe('store addresses', () => {
  it('opens SQLite for sqlite:PATH and refuses addresses that name no store', async () => {
    const storage = await openStore('sqlite::memory:');
    expect(storage.name).toBe('sqlite');
    await storage.close();
    expect(await codeOf(openStore('sqlite:'))).toBe('CONFIG_INVALID store');
    expect(await codeOf(openStore('mysql://db/engram'))).toBe('CONFIG_INVALID store');
    expect(await codeOf(openStore('postgres://'))).toMatch(/^(CONFIG_INVALID|STORAGE_FAILED) store$/);
  });

  it('prints a postgres address without its password', () => {
    expect(redactStoreAddress('postgres://engram:s3cret@db.internal:5432/engram?schema=memory')).toBe(
      'postgres://engram:***@db.internal:5432/engram?schema=memory',
    );
    expect(redactStoreAddress('postgresql://engram:p@ss@db/engram')).toBe('postgresql://engram:***@db/engram');
    expect(redactStoreAddress('postgres://engram@db/engram')).toBe('postgres://engram@db/engram');
    expect(redactStoreAddress('sqlite:./.engram/engram.db')).toBe('sqlite:./.engram/engram.db');
  });
});
