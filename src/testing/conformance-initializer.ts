// How the conformance suites reach an adapter: a fresh store per test, and its disposal.

import type { StorageAdapter, TextTokenCounter } from '../index.js';

/**
 * The two functions an adapter hands the conformance suites.
 *
 * @example
 * const init: ConformanceInitializer = { create: () => openSqliteStorage({ path }), destroy: (storage) => storage.close() };
 */
export interface ConformanceInitializer {
  /** A fresh store; `textTokens` is the counter the store keeps counts with (none by default). */
  create(options?: { textTokens?: TextTokenCounter }): Promise<StorageAdapter>;
  destroy(storage: StorageAdapter): Promise<void>;
}
