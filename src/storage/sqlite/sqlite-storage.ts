// The embedded store: one SQLite file through better-sqlite3, in WAL mode, with FTS5 over event
// text. better-sqlite3 is synchronous, so each write() runs its operations in one transaction
// without yielding, and a committed write is on disk (in the WAL) before the promise resolves.

import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';

import { EngramError, NotFoundError, StorageError, ValidationError } from '../../spec/errors.js';
import type {
  EventStorage,
  ItemStorage,
  MaintenanceStorage,
  MigrationResult,
  ReviewStorage,
  RunStorage,
  ServiceStorage,
  SessionStorage,
  StorageAdapter,
  StorageCapabilities,
  WriteOp,
} from '../../spec/storage.js';
import type { TextTokenCounter } from '../../spec/text-tokens.js';
import { sqliteDuplicateKey } from '../shared/duplicate-key.js';
import { guardedAreas } from '../shared/guarded-areas.js';
import { countTexts, textTokensUpdate, type TextCounts } from '../shared/text-token-ops.js';
import { BuildStore } from './build-store.js';
import { EmbeddingQueue } from './embedding-queue.js';
import { EventVectors } from './event-vectors.js';
import { EventStore } from './event-store.js';
import { SessionStore } from './session-store.js';
import { ItemStore } from './item-store.js';
import { KeyStore } from './key-store.js';
import { JobQueue } from './job-queue.js';
import { Checkpointer } from './checkpointer.js';
import { Eraser } from './erase.js';
import { registerCitedIds } from './erase-copies.js';
import { ExportStore } from './export-store.js';
import { migrations } from './migrations.js';
import { ReflectionStore } from './reflection-store.js';
import { RunStore } from './run-store.js';
import { sqliteAreas, type SqliteStores } from './sqlite-areas.js';

export interface SqliteStorageOptions {
  /** Path of the database file, or `:memory:`. Parent folders are created. */
  path: string;
  /**
   * `full` (default) syncs the WAL on every commit, so an acknowledged write survives power loss;
   * `normal` survives a process crash but may lose the last commits on power loss.
   */
  synchronous?: 'full' | 'normal';
  /** How long a writer waits for another process's lock before failing. */
  busyTimeoutMs?: number;
  /**
   * Counts what compose charges for the text of each event and item version written, kept with its
   * row. Engram's runtime passes its own (`textTokenCounter`) for the built-in tokenizer; a store
   * opened without one keeps no counts, and compose counts those texts when it reads them.
   */
  textTokens?: TextTokenCounter;
  /**
   * How many searched words a full-text index keeps the newest matches and count of, for the next
   * search that asks for them (default 4,096 per index; 0 keeps none). They are dropped whenever the
   * index changes or another connection commits to the file.
   */
  keptSearchTerms?: number;
  /**
   * How many item versions the store keeps, as read, for the next read that lists them (default
   * 10,000; 0 keeps none). A version is dropped when its row changes (status, token count, deletion,
   * erasure), and all are dropped when another connection commits to the file. Kept versions are
   * frozen: every read is given the same object.
   */
  keptItems?: number;
}

/** Searched words each full-text index keeps by default (up to 200 row numbers each). */
const DEFAULT_KEPT_SEARCH_TERMS = 4096;

/** Item versions kept by default (a few KiB each). */
const DEFAULT_KEPT_ITEMS = 10_000;

/** A count of things kept from an option: a whole number of at least 0. */
function keptCount(field: 'keptSearchTerms' | 'keptItems', value: number | undefined, fallback: number): number {
  const kept = value ?? fallback;
  if (!Number.isSafeInteger(kept) || kept < 0)
    throw ValidationError.of(field, 'integer', 'must be a whole number of at least 0');
  return kept;
}

/**
 * Opens (creating if needed) a SQLite store and brings its schema to the latest version.
 *
 * @example
 * const storage = await openSqliteStorage({ path: './.engram/engram.db' });
 */
export async function openSqliteStorage(options: SqliteStorageOptions): Promise<StorageAdapter> {
  const kept = {
    searchTerms: keptCount('keptSearchTerms', options.keptSearchTerms, DEFAULT_KEPT_SEARCH_TERMS),
    items: keptCount('keptItems', options.keptItems, DEFAULT_KEPT_ITEMS),
  };
  if (options.path !== ':memory:') mkdirSync(dirname(options.path), { recursive: true });
  let db: Database.Database;
  try {
    db = new Database(options.path);
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${options.synchronous === 'normal' ? 'NORMAL' : 'FULL'}`);
    db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
    db.pragma('foreign_keys = ON');
    db.pragma('wal_autocheckpoint = 4000');
    // Up to 64 MiB of pages kept in memory (allocated as they are read): compose reads rows spread
    // over the file, and SQLite's default of 2 MiB sends most of them back to the OS each time.
    db.pragma('cache_size = -65536');
    migrate(db);
  } catch (error) {
    throw new StorageError(`could not open the SQLite store at ${options.path}: ${(error as Error).message}`, {
      field: 'store',
      cause: error,
    });
  }
  return new SqliteStorage(db, options.synchronous ?? 'full', options.textTokens, kept);
}

function migrate(db: Database.Database): MigrationResult {
  const apply = db.transaction((): MigrationResult => {
    const current = db.pragma('user_version', { simple: true }) as number;
    if (current > migrations.length) {
      throw new StorageError(
        `the store is at schema version ${current}, newer than this Engram (${migrations.length}); upgrade Engram`,
      );
    }
    const applied: string[] = [];
    for (let version = current; version < migrations.length; version += 1) {
      db.exec(migrations[version]!.sql);
      db.pragma(`user_version = ${version + 1}`);
      applied.push(migrations[version]!.name);
    }
    return { from: current, to: migrations.length, applied };
  });
  return apply.immediate();
}

/**
 * Brings a SQLite store's schema to the latest version (what opening it does) and closes it.
 *
 * @example
 * const { from, to } = await migrateSqliteStorage({ path: './.engram/engram.db' });
 */
export async function migrateSqliteStorage(options: Pick<SqliteStorageOptions, 'path'>): Promise<MigrationResult> {
  if (options.path !== ':memory:') mkdirSync(dirname(options.path), { recursive: true });
  let db: Database.Database | undefined;
  try {
    db = new Database(options.path);
    db.pragma('journal_mode = WAL');
    db.pragma('busy_timeout = 5000');
    return migrate(db);
  } catch (error) {
    if (EngramError.isInstance(error)) throw error;
    throw new StorageError(`could not migrate the SQLite store at ${options.path}: ${(error as Error).message}`, {
      field: 'store',
      cause: error,
    });
  } finally {
    db?.close();
  }
}

class SqliteStorage implements StorageAdapter {
  readonly specificationVersion = 'v1' as const;
  readonly name = 'sqlite';
  readonly capabilities: StorageCapabilities = { vectorSearch: 'exact' };
  readonly events: EventStorage;
  readonly sessions: SessionStorage;
  readonly items: ItemStorage;
  readonly reviews: ReviewStorage;
  readonly runs: RunStorage;
  readonly service: ServiceStorage;
  readonly maintenance: MaintenanceStorage;

  private readonly writeAll: (ops: readonly WriteOp[], counts: TextCounts) => void;
  private closed = false;
  private readonly cache = new Map<string, Database.Statement>();
  private readonly stores: SqliteStores;
  /** Background WAL checkpoints of a store on a file (none in memory). */
  private readonly checkpoints: Checkpointer | undefined;

  constructor(
    private readonly db: Database.Database,
    private readonly synchronous: 'full' | 'normal',
    private readonly textTokens: TextTokenCounter | undefined,
    kept: { searchTerms: number; items: number },
  ) {
    const cached = (sql: string): Database.Statement => this.cached(sql);
    registerCitedIds(db);
    this.stores = {
      db,
      cached,
      events: new EventStore(db, cached, kept.searchTerms),
      vectors: new EventVectors(cached),
      sessions: new SessionStore(cached),
      builds: new BuildStore(db, cached),
      items: new ItemStore(db, cached, kept.searchTerms, kept.items),
      queue: new EmbeddingQueue(db),
      reflections: new ReflectionStore(db, cached),
      runs: new RunStore(db, cached),
      keys: new KeyStore(db),
      jobs: new JobQueue(db),
      exporter: new ExportStore(cached, () => this.guard()),
      eraser: new Eraser(cached),
    };
    ({
      events: this.events,
      sessions: this.sessions,
      items: this.items,
      reviews: this.reviews,
      runs: this.runs,
      service: this.service,
      maintenance: this.maintenance,
    } = guardedAreas(sqliteAreas(this.stores), { guard: () => this.guard() }));
    const transaction = db.transaction((ops: readonly WriteOp[], counts: TextCounts) => {
      for (const op of ops) this.apply(op, counts);
    });
    this.writeAll = (ops, counts) => transaction.immediate(ops, counts);
    this.checkpoints = db.memory
      ? undefined
      : new Checkpointer(
          resolve(db.name),
          db.pragma('page_size', { simple: true }) as number,
          synchronous === 'full' ? 'FULL' : 'NORMAL',
        );
  }

  private apply(op: WriteOp, counts: TextCounts): void {
    switch (op.op) {
      case 'insert_turn':
        return this.stores.sessions.insertTurn(op);
      case 'append_event':
        return this.stores.events.append(op, counts.get(op) ?? null);
      case 'index_event':
        return this.stores.events.reindex(op);
      case 'put_text_tokens': {
        const update = textTokensUpdate(op);
        if (this.cached(update.sql).run(...update.params).changes === 0) throw new NotFoundError(update.field, op.id);
        if (op.target === 'item') this.stores.items.forget(op.tenant_id, op.id);
        return;
      }
      case 'put_working_state':
        return this.stores.sessions.putWorkingState(op);
      case 'put_context_build':
        return this.stores.builds.put(op);
      case 'enqueue_job':
        this.stores.jobs.enqueue(op);
        break;
      case 'complete_job':
        return this.stores.jobs.completeInWrite(op);
      case 'put_api_key':
        this.stores.keys.put(op);
        break;
      case 'revoke_api_key':
        this.stores.keys.revoke(op);
        break;
      case 'put_run_state':
        return this.stores.runs.putRunState(op);
      case 'put_evidence':
        return this.stores.runs.putEvidence(op);
      case 'put_snapshot':
        return this.stores.runs.putSnapshot(op);
      case 'put_reflection':
        return this.stores.reflections.putReflection(op);
      case 'put_candidate':
        return this.stores.reflections.putCandidate(op);
      case 'decide_candidate':
        return this.stores.reflections.decideCandidate(op);
      case 'put_insight':
        return this.stores.reflections.putInsight(op);
      case 'expire_run_insights':
        return this.stores.reflections.expireRunInsights(op);
      case 'put_item':
        return this.stores.items.putItem(op, counts.get(op) ?? null);
      case 'set_item_status':
        return this.stores.items.setStatus(op);
      case 'delete_item':
        return this.stores.items.deleteItem(op);
      case 'put_chunk':
        return this.stores.items.putChunk(op);
      case 'put_summary':
        return this.stores.sessions.putSummary(op);
    }
  }

  /** Statements whose SQL depends on which filters a query uses, prepared once per shape. */
  private cached(sql: string): Database.Statement {
    let statement = this.cache.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare(sql);
      this.cache.set(sql, statement);
    }
    return statement;
  }

  private guard(): void {
    if (this.closed) throw new StorageError('the store is closed', { field: 'store' });
  }

  async write(ops: readonly WriteOp[]): Promise<void> {
    this.guard();
    // A write of context builds alone (the end of every compose) does not wait for the disk: it is
    // a record of a packet already returned, not an acknowledged event. It survives a process crash
    // (WAL); a power loss may lose it until the next synced commit, which also syncs it.
    const relaxed = this.synchronous === 'full' && ops.length > 0 && ops.every((op) => op.op === 'put_context_build');
    // Prepared once (db.pragma prepares its statement on every call).
    if (relaxed) this.cached('PRAGMA synchronous = NORMAL').run();
    try {
      this.writeAll(ops, countTexts(ops, this.textTokens));
    } catch (error) {
      if (EngramError.isInstance(error)) throw error;
      throw (
        sqliteDuplicateKey(error) ?? new StorageError(`write failed: ${(error as Error).message}`, { cause: error })
      );
    } finally {
      if (relaxed) this.cached('PRAGMA synchronous = FULL').run();
    }
    this.checkpoints?.wrote();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // The thread's connection closes first: the last connection to close removes the log.
    await this.checkpoints?.stop();
    this.db.close();
  }
}
