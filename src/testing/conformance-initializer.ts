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
  /**
   * Whether writes leave the store's full-text index in parts that `maintenance.mergeIndexes` folds
   * together (true, the default: SQLite's FTS5 segments, PostgreSQL's GIN pending entries). A store
   * whose every write leaves its index whole, as one kept in memory does, says false: it has no
   * merging to do, and the suite checks that mergeIndexes says so instead of that it merges.
   */
  mergesIndexes?: boolean;
}
