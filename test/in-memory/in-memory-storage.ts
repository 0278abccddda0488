// A StorageAdapter that keeps everything in the process's memory: every record of the storage
// contract, searched and ranked as the SQL stores search and rank them. It is written against the
// published package alone (engram's root export), as an adapter written outside Engram would be,
// and passes the storage conformance suite (test/in-memory-conformance.test.ts). Nothing survives
// the process: for tests and examples, not for an agent's memory.

import {
  EngramError,
  guardedAreas,
  StorageError,
  type MaintenanceStorage,
  type StorageAdapter,
  type StorageAreas,
  type TextTokenCounter,
} from '../../src/index.js';
import { erase } from './erase.js';
import { EventArea, EventWrites } from './events.js';
import { exportRecords } from './export.js';
import { ItemArea, ItemWrites } from './items.js';
import { ReviewArea, ReviewWrites } from './reviews.js';
import { RunArea, RunWrites } from './runs.js';
import { ServiceArea, ServiceWrites } from './service.js';
import { SessionArea, SessionWrites } from './sessions.js';
import { MemoryState } from './state.js';
import { applyOp, type AreaWrites } from './write-ops.js';

export interface InMemoryStorageOptions {
  /** Counts the text of each event and item version written, kept beside it (none kept without one). */
  textTokens?: TextTokenCounter;
}

/**
 * Opens an empty store in memory.
 *
 * @example
 * const storage = openInMemoryStorage();
 * await storage.write([{ op: 'append_event', event, search_text: 'hello world' }]);
 */
export function openInMemoryStorage(options: InMemoryStorageOptions = {}): StorageAdapter {
  const state = new MemoryState(options.textTokens);
  const writes: AreaWrites = {
    events: new EventWrites(state),
    sessions: new SessionWrites(state),
    items: new ItemWrites(state),
    reviews: new ReviewWrites(state),
    runs: new RunWrites(state),
    service: new ServiceWrites(state),
  };
  let closed = false;
  const guard = () => {
    if (closed) throw new StorageError('the store is closed', { field: 'store' });
  };
  const { events, items } = writes;
  const maintenance: MaintenanceStorage = {
    purgeExpired: async (now) => state.journal.run(() => events.purgeExpired(now)),
    exportRecords: (scope) => exportRecords(state, scope, guard),
    erase: async (scope) => state.journal.run(() => erase(state, events, items, scope)),
    // Nothing to give back: deleted records are gone from memory once nothing holds them.
    compact: async () => ({ before_bytes: null, after_bytes: null, complete: true, not_done: [] }),
    // Every write leaves the word indexes whole: there are no parts to merge.
    mergeIndexes: async () => false,
  };
  const reads: StorageAreas = {
    events: new EventArea(state),
    sessions: new SessionArea(state),
    items: new ItemArea(state),
    reviews: new ReviewArea(state),
    runs: new RunArea(state),
    service: new ServiceArea(state),
    maintenance,
  };
  return {
    specificationVersion: 'v1',
    name: 'memory',
    // Vectors are compared in the process, every visible one.
    capabilities: { vectorSearch: 'exact' },
    // Every read fails once the store is closed, and any failure is typed.
    ...guardedAreas(reads, { guard }),
    async write(ops) {
      guard();
      try {
        state.journal.run(() => {
          for (const op of ops) applyOp(writes, op);
        });
      } catch (error) {
        if (EngramError.isInstance(error)) throw error;
        throw new StorageError(`write failed: ${(error as Error).message}`, { cause: error });
      }
    },
    async close() {
      closed = true;
    },
  };
}
