// The read areas of the PostgreSQL store, one object per area of the storage contract, over the
// per-table stores. They are bare: postgres-storage.ts hands them to guardedAreas, which checks the
// store is open and types driver failures, so no method here does either.

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
import { scopeCountsFromRows, sessionCountsQuery, USER_ITEMS_SQL, USER_PENDING_SQL } from '../shared/scope-rows.js';
import type { PgBuildStore } from './build-store.js';
import { sqlState, type SqlPool } from './client.js';
import { compactTables } from './compact.js';
import type { PgEmbeddingQueue } from './embedding-queue.js';
import { eraseScope } from './erase.js';
import type { PgEventStore } from './event-store.js';
import type { PgEventVectors } from './event-vectors.js';
import type { PgItemStore } from './item-store.js';
import type { PgJobQueue } from './job-queue.js';
import type { PgKeyStore } from './key-store.js';
import type { PgReflectionStore } from './reflection-store.js';
import type { PgRunStore } from './run-store.js';
import type { PgSessionStore } from './session-store.js';
import { exportRecords } from './transfer.js';

/** SQLSTATE of an operation the role may not run (a maintenance function of an index it does not own). */
const INSUFFICIENT_PRIVILEGE = '42501';

/** The per-table stores of one PostgreSQL pool. */
export interface PgStores {
  pool: SqlPool;
  /** Checked between the pages of an export. */
  guard: () => void;
  events: PgEventStore;
  vectors: PgEventVectors;
  sessions: PgSessionStore;
  builds: PgBuildStore;
  items: PgItemStore;
  queue: PgEmbeddingQueue;
  reflections: PgReflectionStore;
  runs: PgRunStore;
  keys: PgKeyStore;
  jobs: PgJobQueue;
}

/**
 * Every read area of a PostgreSQL store (unguarded: wrap them with guardedAreas).
 *
 * @example
 * const areas = guardedAreas(postgresAreas(stores), { guard: () => this.guard() });
 */
export function postgresAreas(s: PgStores): StorageAreas {
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

function eventArea({ events, vectors }: PgStores): EventStorage {
  return {
    get: (tenantId, eventId, now) => events.get(tenantId, eventId, now),
    list: (query) => events.list(query),
    neighbours: (query) => events.neighbours(query),
    search: (query) => events.search(query),
    nearest: (query) => vectors.nearest(query),
    updateFlags: (tenantId, eventId, flags) => events.updateFlags(tenantId, eventId, flags),
    forReindex: (tenantId, after, limit) => events.forReindex(tenantId, after, limit),
  };
}

function sessionArea({ pool, sessions, builds }: PgStores): SessionStorage {
  return {
    getTurn: (key, turnId) => sessions.getTurn(key, turnId),
    getWorkingState: (key) => sessions.getWorkingState(key),
    getSummary: (key) => sessions.getSummary(key),
    scopeCounts: async (tenantId, limit) => {
      const { sql, params } = sessionCountsQuery(tenantId, limit);
      const [counts, items, pending] = await Promise.all([
        pool.arrays(sql, params),
        pool.arrays(USER_ITEMS_SQL, [tenantId]),
        pool.arrays(USER_PENDING_SQL, [tenantId]),
      ]);
      return scopeCountsFromRows(counts, items, pending);
    },
    getBuild: (tenantId, buildId) => builds.findBuild(tenantId, buildId),
    listBuilds: (query) => builds.listBuilds(query),
  };
}

function itemArea({ items }: PgStores): ItemStorage {
  return {
    get: (tenantId, itemId) => items.getItem(tenantId, itemId),
    list: (query) => items.listItems(query),
    activeKeys: (tenantId, owners, limit) => items.activeKeys(tenantId, owners, limit),
    search: (query) => items.searchItems(query),
    vectors: (query) => items.itemVectors(query),
    nearest: (query) => items.nearestItems(query),
    forReindex: (tenantId) => items.allItems(tenantId),
    clearIndex: (tenantId) => items.clearIndex(tenantId),
  };
}

function reviewArea({ reflections }: PgStores): ReviewStorage {
  return {
    getReflection: (tenantId, traceId) => reflections.findReflection(tenantId, traceId),
    listReflections: (query) => reflections.listReflections(query),
    getCandidate: (tenantId, candidateId) => reflections.findCandidate(tenantId, candidateId),
    listCandidates: (query) => reflections.listCandidates(query),
    getInsight: (tenantId, insightId) => reflections.findInsight(tenantId, insightId),
    listInsights: (query) => reflections.listInsights(query),
  };
}

function runArea({ runs }: PgStores): RunStorage {
  return {
    getState: (run) => runs.findRunState(run),
    ledgerEntries: (run, evidenceIds) => runs.ledgerEntries(run, evidenceIds),
    getSnapshot: (tenantId, snapshotId) => runs.findSnapshot(tenantId, snapshotId),
    listSnapshots: (query) => runs.listSnapshots(query),
  };
}

function serviceArea({ pool, jobs, keys, queue }: PgStores): ServiceStorage {
  return {
    claimJobs: (kinds, limit, now, leaseUntil) =>
      pool.transaction((tx) => jobs.claimJobs(tx, kinds, limit, now, leaseUntil)),
    completeJob: (tenantId, jobId, status, error, now, retryAt) =>
      jobs.completeJob(pool, tenantId, jobId, status, error, now, retryAt),
    listJobs: (query) => jobs.listJobs(query),
    findApiKey: (hash) => keys.findKey(hash),
    listApiKeys: (tenantId) => keys.listKeys(tenantId),
    claimEmbeddingWork: (limit, now, leaseUntil) => queue.claim(limit, now, leaseUntil),
    completeEmbeddingWork: (results, model, now) => queue.complete(results, model, now),
    embeddingBacklog: () => queue.backlog(),
    vectorModels: (tenantId) => queue.models(tenantId),
  };
}

function maintenanceArea({ pool, guard, events, vectors }: PgStores): MaintenanceStorage {
  return {
    purgeExpired: async (now) => {
      const purged = await events.purgeExpired(now);
      if (purged > 0) vectors.forget();
      return purged;
    },
    exportRecords: (scope) => exportRecords(pool, scope, guard),
    erase: (scope) => pool.transaction((tx) => eraseScope(tx, scope)).finally(() => vectors.forget()),
    // VACUUM runs outside a transaction, one table at a time: the store's own tables only.
    compact: () => compactTables(pool),
    // `pages` budgets SQLite's FTS5 merging; gin_clean_pending_list takes no budget, and the pending
    // list it empties is bounded by gin_pending_list_limit, so a step here always does the whole.
    mergeIndexes: () => cleanPendingLists(pool),
  };
}

/**
 * New entries of a GIN index wait in its pending list (fastupdate), which every search scans; this
 * moves them into the index proper, as VACUUM would. The pending list is bounded already
 * (gin_pending_list_limit), so one step cleans it whole. Only the index's owner may do it: a role
 * that runs the service but did not create the schema leaves it to autovacuum.
 */
async function cleanPendingLists(pool: SqlPool): Promise<boolean> {
  let pages = 0;
  for (const index of ['events_search', 'chunks_search']) {
    try {
      const [row] = await pool.arrays(
        "SELECT gin_clean_pending_list(to_regclass(quote_ident(current_schema()) || '.' || ?))",
        [index],
      );
      pages += Number(row?.[0] ?? 0);
    } catch (error) {
      if (sqlState(error) !== INSUFFICIENT_PRIVILEGE) throw error;
    }
  }
  return pages > 0;
}
