// The embedded store: one SQLite file through better-sqlite3, in WAL mode, with FTS5 over event
// text. better-sqlite3 is synchronous, so each write() runs its operations in one transaction
// without yielding, and a committed write is on disk (in the WAL) before the promise resolves.

import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';

import { EngramError, NotFoundError, StorageError, ValidationError } from '../../spec/errors.js';
import type { EventFlags, EventRecord } from '../../spec/event.js';
import type { SessionKey } from '../../spec/scope.js';
import type {
  BuildQuery,
  CandidateQuery,
  CompactResult,
  ContextBuild,
  EmbeddingResult,
  EmbeddingWork,
  EventNeighbours,
  EventPosition,
  EventQuery,
  NeighbourQuery,
  ScopeCounts,
  EventSearchHit,
  EventSearchQuery,
  ItemQuery,
  ItemSearchHit,
  ItemSearchQuery,
  InsightQuery,
  MigrationResult,
  NearestEventsQuery,
  NearestItem,
  NearestItemsQuery,
  Job,
  JobQuery,
  ReflectionQuery,
  SnapshotQuery,
  StorageAdapter,
  StorageCapabilities,
  VectorCandidate,
  WriteOp,
} from '../../spec/storage.js';
import type { LedgerEntry, RunKey, RunState, SnapshotRecord } from '../../spec/compaction.js';
import type { MemoryItem } from '../../spec/items.js';
import type { TextTokenCounter } from '../../spec/text-tokens.js';
import { sqliteDuplicateKey } from '../shared/duplicate-key.js';
import { countTexts, textTokensUpdate, type TextCounts } from '../shared/text-token-ops.js';
import type { InsightRecord, ReflectionRecord, ReviewCandidate } from '../../spec/reflection.js';
import type { StmSummary } from '../../spec/summary.js';
import type { WorkingState } from '../../spec/working-state.js';
import type { CommitTurnResult } from '../../spec/requests.js';
import { topK } from '../../util/vectors.js';
import { BuildStore } from './build-store.js';
import { EmbeddingQueue } from './embedding-queue.js';
import { EventVectors } from './event-vectors.js';
import { scopeCountsFromRows, sessionCountsQuery, USER_ITEMS_SQL, USER_PENDING_SQL } from '../shared/scope-rows.js';
import { EventStore } from './event-store.js';
import { SessionStore } from './session-store.js';
import { ItemStore } from './item-store.js';
import { KeyStore } from './key-store.js';
import { JobQueue } from './job-queue.js';
import type { ApiKeyRecord } from '../../spec/auth.js';
import type { EraseCounts, EraseScope, ExportRecord, ExportScope } from '../../spec/export.js';
import { Checkpointer } from './checkpointer.js';
import { Eraser } from './erase.js';
import { compactFile } from './file-compaction.js';
import { ExportStore } from './export-store.js';
import { migrations } from './migrations.js';
import { ReflectionStore } from './reflection-store.js';
import { RunStore } from './run-store.js';

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
  if (!Number.isSafeInteger(kept) || kept < 0) throw ValidationError.of(field, 'integer', 'must be a whole number of at least 0');
  return kept;
}

/**
 * Opens (creating if needed) a SQLite store and brings its schema to the latest version.
 *
 * @example
 * const storage = await openSqliteStorage({ path: './.engram/engram.db' });
 */
export async function openSqliteStorage(options: SqliteStorageOptions): Promise<StorageAdapter> {
  const kept = { searchTerms: keptCount('keptSearchTerms', options.keptSearchTerms, DEFAULT_KEPT_SEARCH_TERMS), items: keptCount('keptItems', options.keptItems, DEFAULT_KEPT_ITEMS) };
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
      throw new StorageError(`the store is at schema version ${current}, newer than this Engram (${migrations.length}); upgrade Engram`);
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
    throw new StorageError(`could not migrate the SQLite store at ${options.path}: ${(error as Error).message}`, { field: 'store', cause: error });
  } finally {
    db?.close();
  }
}

class SqliteStorage implements StorageAdapter {
  readonly specificationVersion = 'v1' as const;
  readonly name = 'sqlite';
  readonly capabilities: StorageCapabilities = { fullTextSearch: true, multiProcess: true, vectorSearch: 'exact' };

  private readonly writeAll: (ops: readonly WriteOp[], counts: TextCounts) => void;
  private closed = false;
  private readonly cache = new Map<string, Database.Statement>();
  private readonly events: EventStore;
  private readonly sessions: SessionStore;
  private readonly items: ItemStore;
  private readonly queue: EmbeddingQueue;
  private readonly vectors: EventVectors;
  private readonly builds: BuildStore;
  private readonly reflections: ReflectionStore;
  private readonly runs: RunStore;
  private readonly keys: KeyStore;
  private readonly jobs: JobQueue;
  private readonly exporter: ExportStore;
  private readonly eraser: Eraser;
  /** Background WAL checkpoints of a store on a file (none in memory). */
  private readonly checkpoints: Checkpointer | undefined;

  constructor(
    private readonly db: Database.Database,
    private readonly synchronous: 'full' | 'normal',
    private readonly textTokens: TextTokenCounter | undefined,
    kept: { searchTerms: number; items: number },
  ) {
    this.events = new EventStore(db, (sql) => this.cached(sql), kept.searchTerms);
    this.sessions = new SessionStore(db);
    this.items = new ItemStore(db, (sql) => this.cached(sql), kept.searchTerms, kept.items);
    this.queue = new EmbeddingQueue(db);
    this.vectors = new EventVectors((sql) => this.cached(sql));
    this.builds = new BuildStore(db, (sql) => this.cached(sql));
    this.reflections = new ReflectionStore(db, (sql) => this.cached(sql));
    this.runs = new RunStore(db, (sql) => this.cached(sql));
    this.keys = new KeyStore(db);
    this.jobs = new JobQueue(db);
    this.exporter = new ExportStore((sql) => this.cached(sql), () => this.guard());
    this.eraser = new Eraser((sql) => this.cached(sql));
    const transaction = db.transaction((ops: readonly WriteOp[], counts: TextCounts) => {
      for (const op of ops) this.apply(op, counts);
    });
    this.writeAll = (ops, counts) => transaction.immediate(ops, counts);
    this.checkpoints = db.memory ? undefined : new Checkpointer(resolve(db.name), db.pragma('page_size', { simple: true }) as number, synchronous === 'full' ? 'FULL' : 'NORMAL');
  }

  private apply(op: WriteOp, counts: TextCounts): void {
    switch (op.op) {
      case 'insert_turn':
        return this.sessions.insertTurn(op);
      case 'append_event':
        return this.events.append(op, counts.get(op) ?? null);
      case 'index_event':
        return this.events.reindex(op);
      case 'put_text_tokens': {
        const update = textTokensUpdate(op);
        if (this.cached(update.sql).run(...update.params).changes === 0) throw new NotFoundError(update.field, op.id);
        if (op.target === 'item') this.items.forget(op.tenant_id, op.id);
        return;
      }
      case 'put_working_state':
        return this.sessions.putWorkingState(op);
      case 'put_context_build':
        return this.builds.put(op);
      case 'enqueue_job':
        this.jobs.enqueue(op);
        break;
      case 'complete_job':
        return this.jobs.completeInWrite(op);
      case 'put_api_key':
        this.keys.put(op);
        break;
      case 'revoke_api_key':
        this.keys.revoke(op);
        break;
      case 'put_run_state':
        return this.runs.putRunState(op);
      case 'put_evidence':
        return this.runs.putEvidence(op);
      case 'put_snapshot':
        return this.runs.putSnapshot(op);
      case 'put_reflection':
        return this.reflections.putReflection(op);
      case 'put_candidate':
        return this.reflections.putCandidate(op);
      case 'decide_candidate':
        return this.reflections.decideCandidate(op);
      case 'put_insight':
        return this.reflections.putInsight(op);
      case 'expire_run_insights':
        return this.reflections.expireRunInsights(op);
      case 'put_item':
        return this.items.putItem(op, counts.get(op) ?? null);
      case 'set_item_status':
        return this.items.setStatus(op);
      case 'delete_item':
        return this.items.deleteItem(op);
      case 'put_chunk':
        return this.items.putChunk(op);
      case 'put_summary':
        return this.sessions.putSummary(op);
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
      throw sqliteDuplicateKey(error) ?? new StorageError(`write failed: ${(error as Error).message}`, { cause: error });
    } finally {
      if (relaxed) this.cached('PRAGMA synchronous = FULL').run();
    }
    this.checkpoints?.wrote();
  }

  async getTurn(key: SessionKey, turnId: string): Promise<CommitTurnResult | null> {
    this.guard();
    return this.sessions.getTurn(key, turnId);
  }

  async getEvent(tenantId: string, eventId: string, now: string): Promise<EventRecord | null> {
    this.guard();
    return this.events.get(tenantId, eventId, now);
  }

  async neighbourEvents(query: NeighbourQuery): Promise<EventNeighbours[]> {
    this.guard();
    return this.events.neighbours(query);
  }

  async scopeCounts(tenantId: string, limit: number): Promise<ScopeCounts> {
    this.guard();
    const { sql, params } = sessionCountsQuery(tenantId, limit);
    return scopeCountsFromRows(
      this.cached(sql).raw().all(...params) as unknown[][],
      this.cached(USER_ITEMS_SQL).raw().all(tenantId) as unknown[][],
      this.cached(USER_PENDING_SQL).raw().all(tenantId) as unknown[][],
    );
  }

  async listEvents(query: EventQuery): Promise<EventRecord[]> {
    this.guard();
    return this.events.list(query);
  }

  async searchEvents(query: EventSearchQuery): Promise<EventSearchHit[]> {
    this.guard();
    return this.events.search(query);
  }

  async getWorkingState(key: SessionKey): Promise<WorkingState | null> {
    this.guard();
    return this.sessions.getWorkingState(key);
  }

  async getSummary(key: SessionKey): Promise<StmSummary | null> {
    this.guard();
    return this.sessions.getSummary(key);
  }

  async getItem(tenantId: string, itemId: string): Promise<MemoryItem | null> {
    this.guard();
    return this.items.getItem(tenantId, itemId);
  }

  async listItems(query: ItemQuery): Promise<MemoryItem[]> {
    this.guard();
    return this.items.listItems(query);
  }

  async activeKeys(tenantId: string, owners: readonly string[], limit: number): Promise<string[]> {
    this.guard();
    return this.items.activeKeys(tenantId, owners, limit);
  }

  async searchItems(query: ItemSearchQuery): Promise<ItemSearchHit[]> {
    this.guard();
    return this.items.searchItems(query);
  }

  async itemVectors(query: Omit<ItemQuery, 'cursor' | 'limit' | 'keys' | 'ids' | 'as_of'>): Promise<VectorCandidate[]> {
    this.guard();
    return this.items.itemVectors(query);
  }

  async nearestItems(query: NearestItemsQuery): Promise<NearestItem[]> {
    this.guard();
    const { vector, limit, ...visible } = query;
    const candidates = this.items.itemVectors(visible).filter((candidate) => candidate.vector.length === vector.length);
    return topK(vector, candidates.map((candidate) => ({ id: candidate.item_id, vector: candidate.vector })), limit).map((hit) => ({
      item_id: hit.id,
      similarity: hit.score,
    }));
  }

  async eventsForReindex(tenantId: string | undefined, after: EventPosition | undefined, limit: number): Promise<EventRecord[]> {
    this.guard();
    return this.events.forReindex(tenantId, after, limit);
  }

  async itemsForReindex(tenantId: string | undefined): Promise<MemoryItem[]> {
    this.guard();
    return this.items.allItems(tenantId);
  }

  async clearItemIndex(tenantId: string | undefined): Promise<void> {
    this.guard();
    this.db.transaction(() => this.items.clearIndex(tenantId)).immediate();
  }

  async claimEmbeddingWork(limit: number, now: string, leaseUntil: string): Promise<EmbeddingWork[]> {
    this.guard();
    return this.db.transaction(() => this.queue.claim(limit, now, leaseUntil)).immediate();
  }

  async completeEmbeddingWork(results: readonly EmbeddingResult[], model: string, now: string): Promise<void> {
    this.guard();
    this.db.transaction(() => this.queue.complete(results, model, now)).immediate();
  }

  async nearestEvents(query: NearestEventsQuery): Promise<EventSearchHit[]> {
    this.guard();
    return this.vectors.nearest(query);
  }

  async embeddingBacklog(): Promise<number> {
    this.guard();
    return this.queue.backlog();
  }

  async getContextBuild(tenantId: string, buildId: string): Promise<ContextBuild | null> {
    this.guard();
    return this.builds.find(tenantId, buildId);
  }

  async listContextBuilds(query: BuildQuery): Promise<ContextBuild[]> {
    this.guard();
    return this.builds.list(query);
  }

  async *exportRecords(scope: ExportScope): AsyncGenerator<ExportRecord> {
    this.guard();
    yield* this.exporter.records(scope);
  }

  async erase(scope: EraseScope): Promise<EraseCounts> {
    this.guard();
    try {
      return this.db.transaction(() => this.eraser.erase(scope)).immediate();
    } catch (error) {
      throw new StorageError(`erase failed: ${(error as Error).message}`, { cause: error });
    } finally {
      // Erasure deletes rows, full-text entries and vectors with its own statements.
      this.events.indexChanged();
      this.items.changed();
      this.vectors.forget();
    }
  }

  async claimJobs(kinds: readonly Job['kind'][], limit: number, now: string, leaseUntil: string): Promise<Job[]> {
    this.guard();
    return this.db.transaction(() => this.jobs.claim(kinds, limit, now, leaseUntil)).immediate();
  }

  async completeJob(tenantId: string, jobId: string, status: 'done' | 'failed' | 'pending', error: string | null, now: string, retryAt?: string): Promise<void> {
    this.guard();
    this.db.transaction(() => this.jobs.complete(tenantId, jobId, status, error, now, retryAt)).immediate();
  }

  async listJobs(query: JobQuery): Promise<Job[]> {
    this.guard();
    return this.jobs.list(query);
  }

  async findApiKey(hash: string): Promise<ApiKeyRecord | null> {
    this.guard();
    return this.keys.find(hash);
  }

  async listApiKeys(tenantId: string | undefined): Promise<ApiKeyRecord[]> {
    this.guard();
    return this.keys.list(tenantId);
  }

  async getRunState(run: RunKey): Promise<RunState | null> {
    this.guard();
    return this.runs.findRunState(run);
  }

  async ledgerEntries(run: RunKey, evidenceIds: readonly string[]): Promise<LedgerEntry[]> {
    this.guard();
    return this.runs.ledgerEntries(run, evidenceIds);
  }

  async getSnapshot(tenantId: string, snapshotId: string): Promise<SnapshotRecord | null> {
    this.guard();
    return this.runs.findSnapshot(tenantId, snapshotId);
  }

  async listSnapshots(query: SnapshotQuery): Promise<SnapshotRecord[]> {
    this.guard();
    return this.runs.listSnapshots(query);
  }

  async getReflection(tenantId: string, traceId: string): Promise<ReflectionRecord | null> {
    this.guard();
    return this.reflections.findReflection(tenantId, traceId);
  }

  async listReflections(query: ReflectionQuery): Promise<ReflectionRecord[]> {
    this.guard();
    return this.reflections.listReflections(query);
  }

  async getCandidate(tenantId: string, candidateId: string): Promise<ReviewCandidate | null> {
    this.guard();
    return this.reflections.findCandidate(tenantId, candidateId);
  }

  async listCandidates(query: CandidateQuery): Promise<ReviewCandidate[]> {
    this.guard();
    return this.reflections.listCandidates(query);
  }

  async getInsight(tenantId: string, insightId: string): Promise<InsightRecord | null> {
    this.guard();
    return this.reflections.findInsight(tenantId, insightId);
  }

  async listInsights(query: InsightQuery): Promise<InsightRecord[]> {
    this.guard();
    return this.reflections.listInsights(query);
  }

  async updateEventFlags(tenantId: string, eventId: string, flags: EventFlags): Promise<void> {
    this.guard();
    this.events.updateFlags(tenantId, eventId, flags);
  }

  async purgeExpired(now: string): Promise<number> {
    this.guard();
    const purged = this.events.purgeExpired(now);
    if (purged > 0) this.vectors.forget();
    return purged;
  }

  async compact(): Promise<CompactResult> {
    this.guard();
    return compactFile(this.db);
  }

  async mergeIndexes(pages: number): Promise<boolean> {
    this.guard();
    // FTS5 'merge': up to `pages` pages of merged data per index, for levels of `usermerge` (2)
    // segments or more (migration 'full-text upkeep'). A merge that wrote nothing changed fewer than
    // two rows of the index's data table.
    const changes = this.cached('SELECT total_changes()').pluck();
    const step = this.db.transaction(() => {
      let worked = false;
      for (const table of ['events_fts', 'items_fts']) {
        const before = changes.get() as number;
        this.cached(`INSERT INTO ${table} (${table}, rank) VALUES ('merge', ?)`).run(pages);
        if ((changes.get() as number) - before >= 2) worked = true;
      }
      return worked;
    });
    return step.immediate();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // The thread's connection closes first: the last connection to close removes the log.
    await this.checkpoints?.stop();
    this.db.close();
  }
}
