// The read areas of the SQLite store, one object per area of the storage contract, over the
// per-table stores. They are bare: sqlite-storage.ts hands them to guardedAreas, which checks the
// store is open and types driver failures, so no method here does either.

import type Database from 'better-sqlite3';

import type {
  EventStorage,
  ItemStorage,
  MaintenanceStorage,
  ReviewStorage,
  RunStorage,
  ServiceStorage,
  SessionStorage,
  StorageAreas,
} from '../../spec/storage.js';
import { exactNearest } from '../shared/exact-nearest.js';
import { scopeCountsFromRows, sessionCountsQuery, USER_ITEMS_SQL, USER_PENDING_SQL } from '../shared/scope-rows.js';
import type { BuildStore } from './build-store.js';
import type { EmbeddingQueue } from './embedding-queue.js';
import type { Eraser } from './erase.js';
import type { EventStore } from './event-store.js';
import type { EventVectors } from './event-vectors.js';
import type { ExportStore } from './export-store.js';
import { compactFile } from './file-compaction.js';
import type { ItemStore } from './item-store.js';
import type { JobQueue } from './job-queue.js';
import type { KeyStore } from './key-store.js';
import type { ReflectionStore } from './reflection-store.js';
import type { RunStore } from './run-store.js';
import type { SessionStore } from './session-store.js';

/** The per-table stores of one SQLite connection, and its statement cache. */
export interface SqliteStores {
  db: Database.Database;
  cached: (sql: string) => Database.Statement;
  events: EventStore;
  vectors: EventVectors;
  sessions: SessionStore;
  builds: BuildStore;
  items: ItemStore;
  queue: EmbeddingQueue;
  reflections: ReflectionStore;
  runs: RunStore;
  keys: KeyStore;
  jobs: JobQueue;
  exporter: ExportStore;
  eraser: Eraser;
}

/**
 * Every read area of a SQLite store (unguarded: wrap them with guardedAreas).
 *
 * @example
 * const areas = guardedAreas(sqliteAreas(stores), { guard: () => this.guard() });
 */
export function sqliteAreas(s: SqliteStores): StorageAreas {
  return {
    events: eventArea(s),
    sessions: sessionArea(s),
    items: itemArea(s),
    reviews: reviewArea(s),
    runs: runArea(s),
    service: serviceArea(s),
    maintenance: maintenanceArea(s),
  };
}

function eventArea({ events, vectors }: SqliteStores): EventStorage {
  return {
    get: async (tenantId, eventId, now) => events.get(tenantId, eventId, now),
    list: async (query) => events.list(query),
    neighbours: async (query) => events.neighbours(query),
    search: (query) => events.search(query),
    nearest: (query) => vectors.nearest(query),
    updateFlags: async (tenantId, eventId, flags) => events.updateFlags(tenantId, eventId, flags),
    forReindex: async (tenantId, after, limit) => events.forReindex(tenantId, after, limit),
  };
}

function sessionArea({ sessions, builds, cached }: SqliteStores): SessionStorage {
  return {
    getTurn: async (key, turnId) => sessions.getTurn(key, turnId),
    getWorkingState: async (key) => sessions.getWorkingState(key),
    getSummary: async (key) => sessions.getSummary(key),
    scopeCounts: async (tenantId, limit) => {
      const { sql, params } = sessionCountsQuery(tenantId, limit);
      return scopeCountsFromRows(
        cached(sql)
          .raw()
          .all(...params) as unknown[][],
        cached(USER_ITEMS_SQL).raw().all(tenantId) as unknown[][],
        cached(USER_PENDING_SQL).raw().all(tenantId) as unknown[][],
      );
    },
    getBuild: async (tenantId, buildId) => builds.find(tenantId, buildId),
    listBuilds: async (query) => builds.list(query),
  };
}

function itemArea({ db, items }: SqliteStores): ItemStorage {
  return {
    get: async (tenantId, itemId) => items.getItem(tenantId, itemId),
    list: async (query) => items.listItems(query),
    activeKeys: async (tenantId, owners, limit) => items.activeKeys(tenantId, owners, limit),
    search: (query) => items.searchItems(query),
    vectors: async (query) => items.itemVectors(query),
    nearest: async (query) => {
      // No vector index in SQLite: an exact scan of the visible vectors of the query's dimension.
      const { vector, limit, ...visible } = query;
      return exactNearest(vector, items.itemVectors(visible), limit);
    },
    forReindex: async (tenantId) => items.allItems(tenantId),
    clearIndex: async (tenantId) => db.transaction(() => items.clearIndex(tenantId)).immediate(),
  };
}

function reviewArea({ reflections }: SqliteStores): ReviewStorage {
  return {
    getReflection: async (tenantId, traceId) => reflections.findReflection(tenantId, traceId),
    listReflections: async (query) => reflections.listReflections(query),
    getCandidate: async (tenantId, candidateId) => reflections.findCandidate(tenantId, candidateId),
    listCandidates: async (query) => reflections.listCandidates(query),
    getInsight: async (tenantId, insightId) => reflections.findInsight(tenantId, insightId),
    listInsights: async (query) => reflections.listInsights(query),
  };
}

function runArea({ runs }: SqliteStores): RunStorage {
  return {
    getState: async (run) => runs.findRunState(run),
    ledgerEntries: async (run, evidenceIds) => runs.ledgerEntries(run, evidenceIds),
    getSnapshot: async (tenantId, snapshotId) => runs.findSnapshot(tenantId, snapshotId),
    listSnapshots: async (query) => runs.listSnapshots(query),
  };
}

function serviceArea({ db, jobs, keys, queue }: SqliteStores): ServiceStorage {
  return {
    claimJobs: async (kinds, limit, now, leaseUntil) =>
      db.transaction(() => jobs.claim(kinds, limit, now, leaseUntil)).immediate(),
    completeJob: async (tenantId, jobId, status, error, now, retryAt) => {
      db.transaction(() => jobs.complete(tenantId, jobId, status, error, now, retryAt)).immediate();
    },
    listJobs: async (query) => jobs.list(query),
    findApiKey: async (hash) => keys.find(hash),
    listApiKeys: async (tenantId) => keys.list(tenantId),
    claimEmbeddingWork: async (limit, now, leaseUntil) =>
      db.transaction(() => queue.claim(limit, now, leaseUntil)).immediate(),
    completeEmbeddingWork: async (results, model, now) => {
      db.transaction(() => queue.complete(results, model, now)).immediate();
    },
    embeddingBacklog: async () => queue.backlog(),
    vectorModels: async (tenantId) => queue.models(tenantId),
  };
}

function maintenanceArea({ db, cached, events, items, vectors, exporter, eraser }: SqliteStores): MaintenanceStorage {
  return {
    purgeExpired: async (now) => {
      const purged = events.purgeExpired(now);
      if (purged > 0) vectors.forget();
      return purged;
    },
    exportRecords: (scope) => exporter.records(scope),
    erase: async (scope) => {
      try {
        return db.transaction(() => eraser.erase(scope)).immediate();
      } finally {
        // Erasure deletes rows, full-text entries and vectors with its own statements.
        events.indexChanged();
        items.changed();
        vectors.forget();
      }
    },
    compact: () => compactFile(db),
    mergeIndexes: async (pages) => mergeFullText(db, cached, pages),
  };
}

/**
 * FTS5 'merge': up to `pages` pages of merged data per index, for levels of `usermerge` (2) segments
 * or more (migration 'full-text upkeep'). A merge that wrote nothing changed fewer than two rows of
 * the index's data table.
 */
function mergeFullText(db: Database.Database, cached: (sql: string) => Database.Statement, pages: number): boolean {
  const changes = cached('SELECT total_changes()').pluck();
  const step = db.transaction(() => {
    let worked = false;
    for (const table of ['events_fts', 'items_fts']) {
      const before = changes.get() as number;
      cached(`INSERT INTO ${table} (${table}, rank) VALUES ('merge', ?)`).run(pages);
      if ((changes.get() as number) - before >= 2) worked = true;
    }
    return worked;
  });
  return step.immediate();
}
