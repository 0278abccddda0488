// The storage contract every adapter (SQLite, PostgreSQL) implements. Writes go through one method
// that applies a list of operations in one transaction; reads are small, scoped by tenant first and
// grouped by area (events, sessions, items, reviews, runs, service, maintenance), one file each.

import type { EventStorage } from './storage/events.js';
import type { ItemStorage } from './storage/items.js';
import type { MaintenanceStorage } from './storage/maintenance.js';
import type { ReviewStorage } from './storage/reviews.js';
import type { RunStorage } from './storage/runs.js';
import type { ServiceStorage } from './storage/service.js';
import type { SessionStorage } from './storage/sessions.js';
import type { WriteOp } from './storage/write-ops.js';

export * from './storage/events.js';
export * from './storage/items.js';
export * from './storage/maintenance.js';
export * from './storage/reviews.js';
export * from './storage/runs.js';
export * from './storage/service.js';
export * from './storage/sessions.js';
export * from './storage/write-ops.js';

/** What an adapter can do; domain code branches on these, never on the adapter's name. */
export interface StorageCapabilities {
  /**
   * Where vectors are compared: `exact` reads the visible vectors and compares them in the process
   * (items.vectors); `index` asks the database's vector index (items.nearest).
   */
  vectorSearch: 'exact' | 'index';
}

/** What bringing a store's schema up to date did: its version before and after, and the migrations applied. */
export interface MigrationResult {
  from: number;
  to: number;
  applied: string[];
}

/** The read areas of a store, each a small interface of its own. */
export interface StorageAreas {
  readonly events: EventStorage;
  readonly sessions: SessionStorage;
  readonly items: ItemStorage;
  readonly reviews: ReviewStorage;
  readonly runs: RunStorage;
  readonly service: ServiceStorage;
  readonly maintenance: MaintenanceStorage;
}

/**
 * A storage backend. Implementations live in `src/storage/*` and pass `test/storage-conformance.ts`.
 * Every area method fails with a StorageError once the store is closed, and turns a driver's failure
 * into a StorageError naming the method (the driver's error is its `cause`).
 *
 * @example
 * const storage = await openSqliteStorage({ path: './.engram/engram.db' });
 * await storage.write([{ op: 'append_event', event, search_text: 'hello world' }]);
 * const page = await storage.events.list({ tenant_id: 'default', user_id: 'u1', now, limit: 50 });
 */
export interface StorageAdapter extends StorageAreas {
  readonly specificationVersion: 'v1';
  readonly name: string;
  readonly capabilities: StorageCapabilities;

  /**
   * Applies every operation in order, in one transaction: all of them or none. An operation that
   * would store a second record under a key the store holds once (an event's or item's id, …) fails
   * with RECORD_CONFLICT (field `<table>.<key>`), unless its own contract says otherwise.
   */
  write(ops: readonly WriteOp[]): Promise<void>;
  close(): Promise<void>;
}
