// The server store: PostgreSQL through a pool of `pg` connections (loaded only when used), or a
// PGlite instance in the process. Each write() is one transaction on one connection; version checks
// are conditional statements, so any number of processes on any number of machines can share one
// database. Full text uses a tsvector of scoped words under GIN; vectors use pgvector's HNSW index
// when the extension can be installed, and an exact scan in the process when it cannot.

import { EngramError, NotFoundError, StorageError } from '../../spec/errors.js';
import type { EventFlags, EventRecord } from '../../spec/event.js';
import type { SessionKey } from '../../spec/scope.js';
import type {
  AppendEventOp,
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
  InsightQuery,
  ItemQuery,
  MigrationResult,
  ItemSearchHit,
  ItemSearchQuery,
  Job,
  JobQuery,
  NearestEventsQuery,
  NearestItem,
  NearestItemsQuery,
  ReflectionQuery,
  SnapshotQuery,
  StorageAdapter,
  StorageCapabilities,
  VectorCandidate,
  WriteOp,
} from '../../spec/storage.js';
import type { ApiKeyRecord } from '../../spec/auth.js';
import type { LedgerEntry, RunKey, RunState, SnapshotRecord } from '../../spec/compaction.js';
import type { EraseCounts, EraseScope, ExportRecord, ExportScope } from '../../spec/export.js';
import type { MemoryItem } from '../../spec/items.js';
import type { TextTokenCounter } from '../../spec/text-tokens.js';
import { postgresDuplicateKey } from '../shared/duplicate-key.js';
import { countTexts, textTokensUpdate, type TextCounts } from '../shared/text-token-ops.js';
import type { InsightRecord, ReflectionRecord, ReviewCandidate } from '../../spec/reflection.js';
import type { CommitTurnResult } from '../../spec/requests.js';
import type { StmSummary } from '../../spec/summary.js';
import type { WorkingState } from '../../spec/working-state.js';
import { scopeCountsFromRows, sessionCountsQuery, USER_ITEMS_SQL, USER_PENDING_SQL } from '../shared/scope-rows.js';
import { checkSchemaName, pglitePool, pgPool, sqlState, type PGliteLike, type Sql, type SqlPool } from './client.js';
import { PgEventStore } from './event-store.js';
import { PgItemStore } from './item-store.js';
import { PgEventVectors } from './event-vectors.js';
import { checkVersion, migrate } from './migrations.js';
import { PgReflectionStore } from './reflection-store.js';
import { PgRunStore } from './run-store.js';
import { PgSessionStore } from './session-store.js';
import { compactTables } from './compact.js';
import { eraseScope } from './erase.js';
import { exportRecords } from './transfer.js';

export interface PostgresStorageOptions {
  /** A server: `postgres://user@host:5432/database`. Needs the `pg` package. */
  connectionString?: string;
  /** Or a PGlite instance in the process (one store per instance at a time). */
  pglite?: PGliteLike;
  /** The schema holding Engram's tables (created if missing); default `public`. */
  schema?: string;
  /** Most connections the pool opens (server only); default 10. */
  maxConnections?: number;
  /** Bring the schema up to date when opening (default), or only check it (`false`: run `engram migrate` first). */
  migrate?: boolean;
  /**
   * `auto` (default): use pgvector when the extension is installed or can be created; `exact`: never
   * (vectors compared in the process); `pgvector`: require it.
   */
  vectors?: 'auto' | 'exact' | 'pgvector';
  /** Counts what compose charges for the text of each event and item version written (see SqliteStorageOptions.textTokens). */
  textTokens?: TextTokenCounter;
}

/** Serialization failures and deadlocks: the whole write is tried again. */
const RETRYABLE = new Set(['40001', '40P01']);
const WRITE_ATTEMPTS = 3;
/** SQLSTATE of an operation the role may not run (a maintenance function of an index it does not own). */
const INSUFFICIENT_PRIVILEGE = '42501';
/** Events per multi-row INSERT (PostgreSQL takes at most 65,535 parameters in one statement). */
const EVENTS_PER_INSERT = 500;

function connectionPool(options: PostgresStorageOptions, schema: string): Promise<SqlPool> {
  if (options.pglite !== undefined) return Promise.resolve(pglitePool(options.pglite));
  if (options.connectionString === undefined) {
    throw new StorageError('the PostgreSQL store needs connectionString (postgres://…) or a pglite instance', { field: 'store' });
  }
  return pgPool({ connectionString: options.connectionString, schema, max: options.maxConnections ?? 10, applicationName: 'engram' });
}

/** Redacts the password of a connection string for messages. */
function describe(options: PostgresStorageOptions): string {
  return options.connectionString === undefined ? 'PGlite' : options.connectionString.replace(/:\/\/([^:/@]+):[^/]*@/, '://$1:***@');
}

/**
 * Brings a PostgreSQL store's schema to the latest version (several processes may run it at once).
 *
 * @example
 * await migratePostgres({ connectionString: 'postgres://localhost/engram' });
 */
export async function migratePostgres(options: PostgresStorageOptions): Promise<MigrationResult> {
  const schema = checkSchemaName(options.schema ?? 'public');
  const pool = await connectionPool(options, schema);
  try {
    if (options.pglite !== undefined) await pool.exec(`CREATE SCHEMA IF NOT EXISTS ${schema}; SET search_path TO ${schema}, public`);
    return await migrate(pool, schema);
  } catch (error) {
    if (EngramError.isInstance(error)) throw error;
    throw new StorageError(`could not migrate the PostgreSQL store at ${describe(options)}: ${(error as Error).message}`, { field: 'store', cause: error });
  } finally {
    if (options.pglite === undefined) await pool.close();
  }
}

/**
 * Opens a PostgreSQL store (a server, or PGlite) and brings its schema to the latest version.
 *
 * @example
 * const storage = await openPostgresStorage({ connectionString: 'postgres://localhost/engram' });
 */
export async function openPostgresStorage(options: PostgresStorageOptions): Promise<StorageAdapter> {
  const schema = checkSchemaName(options.schema ?? 'public');
  const pool = await connectionPool(options, schema);
  try {
    if (options.pglite !== undefined) await pool.exec(`CREATE SCHEMA IF NOT EXISTS ${schema}; SET search_path TO ${schema}, public`);
    if (options.migrate === false) await checkVersion(pool);
    else await migrate(pool, schema);
    const pgvector = await vectorCapability(pool, options.vectors ?? 'auto');
    return new PostgresStorage(pool, pgvector, options.pglite === undefined, options.textTokens);
  } catch (error) {
    await pool.close().catch(() => undefined);
    if (EngramError.isInstance(error)) throw error;
    throw new StorageError(`could not open the PostgreSQL store at ${describe(options)}: ${(error as Error).message}`, { field: 'store', cause: error });
  }
}

/**
 * Whether vectors go to pgvector: the extension is created if it is available and the role may,
 * and the chunk table gets its `embedding` column. Without it, vectors are compared exactly.
 */
async function vectorCapability(pool: SqlPool, mode: 'auto' | 'exact' | 'pgvector'): Promise<boolean> {
  if (mode === 'exact') return false;
  const available = (await pool.rows("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'")).length > 0;
  if (!available) {
    if (mode === 'pgvector') throw new StorageError('vectors: pgvector is not installed on this server (CREATE EXTENSION vector)', { field: 'vectors' });
    return false;
  }
  try {
    await pool.exec('CREATE EXTENSION IF NOT EXISTS vector WITH SCHEMA public');
    await pool.exec('ALTER TABLE memory_chunks ADD COLUMN IF NOT EXISTS embedding vector');
    return true;
  } catch (error) {
    if (mode === 'pgvector') throw new StorageError(`vectors: pgvector could not be enabled: ${(error as Error).message}`, { field: 'vectors', cause: error });
    return false;
  }
}

class PostgresStorage implements StorageAdapter {
  readonly specificationVersion = 'v1' as const;
  readonly name = 'postgres';
  readonly capabilities: StorageCapabilities;

  private closed = false;
  private readonly events: PgEventStore;
  private readonly sessions: PgSessionStore;
  private readonly items: PgItemStore;
  private readonly vectors: PgEventVectors;
  private readonly reflections: PgReflectionStore;
  private readonly runs: PgRunStore;

  constructor(
    private readonly pool: SqlPool,
    pgvector: boolean,
    private readonly ownsPool: boolean,
    private readonly textTokens: TextTokenCounter | undefined,
  ) {
    this.capabilities = { fullTextSearch: true, multiProcess: true, vectorSearch: pgvector ? 'index' : 'exact' };
    this.events = new PgEventStore(pool);
    this.sessions = new PgSessionStore(pool);
    this.items = new PgItemStore(pool, pgvector);
    this.vectors = new PgEventVectors(pool);
    this.reflections = new PgReflectionStore(pool);
    this.runs = new PgRunStore(pool);
  }

  private guard(): void {
    if (this.closed) throw new StorageError('the store is closed', { field: 'store' });
  }

  /** Runs a read, turning driver failures into typed storage errors. */
  private async read<T>(what: string, fn: () => Promise<T>): Promise<T> {
    this.guard();
    try {
      return await fn();
    } catch (error) {
      if (EngramError.isInstance(error)) throw error;
      throw new StorageError(`${what} failed: ${(error as Error).message}`, { cause: error });
    }
  }

  async write(ops: readonly WriteOp[]): Promise<void> {
    this.guard();
    const counts = countTexts(ops, this.textTokens);
    for (let attempt = 1; ; attempt += 1) {
      try {
        await this.pool.transaction(async (tx) => {
          // A write of context builds alone (the end of every compose) does not wait for the disk:
          // it records a packet already returned, not an acknowledged event. A server crash may lose
          // the last such records; the database stays consistent (synchronous_commit = off).
          if (ops.length > 0 && ops.every((op) => op.op === 'put_context_build')) await tx.exec('SET LOCAL synchronous_commit = off');
          // Consecutive events go in multi-row INSERTs: one round trip for a turn's (or a batch's) events.
          let events: AppendEventOp[] = [];
          for (const op of ops) {
            if (op.op === 'append_event') {
              events.push(op);
              if (events.length === EVENTS_PER_INSERT) events = await this.appendEvents(tx, events, counts);
              continue;
            }
            if (events.length > 0) events = await this.appendEvents(tx, events, counts);
            await this.apply(tx, op, counts);
          }
          if (events.length > 0) await this.events.append(tx, events, counts);
        });
        return;
      } catch (error) {
        if (EngramError.isInstance(error)) throw error;
        if (attempt < WRITE_ATTEMPTS && RETRYABLE.has(sqlState(error) ?? '')) continue;
        throw postgresDuplicateKey(error) ?? new StorageError(`write failed: ${(error as Error).message}`, { cause: error });
      }
    }
  }

  private async apply(tx: Sql, op: WriteOp, counts: TextCounts): Promise<void> {
    switch (op.op) {
      case 'insert_turn':
        return this.sessions.insertTurn(tx, op);
      case 'append_event':
        return this.events.append(tx, [op], counts);
      case 'put_working_state':
        return this.sessions.putWorkingState(tx, op);
      case 'put_summary':
        return this.sessions.putSummary(tx, op);
      case 'put_context_build':
        return this.runs.putBuild(tx, op);
      case 'enqueue_job':
        return this.runs.enqueueJob(tx, op);
      case 'complete_job':
        return this.runs.completeJob(tx, op.tenant_id, op.job_id, op.status, op.error, op.now);
      case 'put_api_key':
        return this.runs.putKey(tx, op);
      case 'revoke_api_key':
        return this.runs.revokeKey(tx, op);
      case 'put_run_state':
        return this.runs.putRunState(tx, op);
      case 'put_evidence':
        return this.runs.putEvidence(tx, op);
      case 'put_snapshot':
        return this.runs.putSnapshot(tx, op);
      case 'put_reflection':
        return this.reflections.putReflection(tx, op);
      case 'put_candidate':
        return this.reflections.putCandidate(tx, op);
      case 'decide_candidate':
        return this.reflections.decideCandidate(tx, op);
      case 'put_insight':
        return this.reflections.putInsight(tx, op);
      case 'expire_run_insights':
        return this.reflections.expireRunInsights(tx, op);
      case 'put_item':
        return this.items.putItem(tx, op, counts.get(op) ?? null);
      case 'set_item_status':
        return this.items.setStatus(tx, op);
      case 'delete_item':
        return this.items.deleteItem(tx, op);
      case 'put_chunk':
        return this.items.putChunk(tx, op);
      case 'index_event':
        return this.events.reindex(tx, op);
      case 'put_text_tokens': {
        const update = textTokensUpdate(op);
        if ((await tx.run(update.sql, update.params)) === 0) throw new NotFoundError(update.field, op.id);
        return;
      }
    }
  }

  /** Inserts the events gathered so far; returns an empty list for the next ones. */
  private async appendEvents(tx: Sql, ops: readonly AppendEventOp[], counts: TextCounts): Promise<AppendEventOp[]> {
    await this.events.append(tx, ops, counts);
    return [];
  }

  getTurn(key: SessionKey, turnId: string): Promise<CommitTurnResult | null> {
    return this.read('getTurn', () => this.sessions.getTurn(key, turnId));
  }

  getEvent(tenantId: string, eventId: string, now: string): Promise<EventRecord | null> {
    return this.read('getEvent', () => this.events.get(tenantId, eventId, now));
  }

  neighbourEvents(query: NeighbourQuery): Promise<EventNeighbours[]> {
    return this.read('neighbourEvents', () => this.events.neighbours(query));
  }

  scopeCounts(tenantId: string, limit: number): Promise<ScopeCounts> {
    return this.read('scopeCounts', async () => {
      const { sql, params } = sessionCountsQuery(tenantId, limit);
      const [sessions, items, pending] = await Promise.all([this.pool.arrays(sql, params), this.pool.arrays(USER_ITEMS_SQL, [tenantId]), this.pool.arrays(USER_PENDING_SQL, [tenantId])]);
      return scopeCountsFromRows(sessions, items, pending);
    });
  }

  listEvents(query: EventQuery): Promise<EventRecord[]> {
    return this.read('listEvents', () => this.events.list(query));
  }

  searchEvents(query: EventSearchQuery): Promise<EventSearchHit[]> {
    return this.read('searchEvents', () => this.events.search(query));
  }

  getWorkingState(key: SessionKey): Promise<WorkingState | null> {
    return this.read('getWorkingState', () => this.sessions.getWorkingState(key));
  }

  getSummary(key: SessionKey): Promise<StmSummary | null> {
    return this.read('getSummary', () => this.sessions.getSummary(key));
  }

  getItem(tenantId: string, itemId: string): Promise<MemoryItem | null> {
    return this.read('getItem', () => this.items.getItem(tenantId, itemId));
  }

  listItems(query: ItemQuery): Promise<MemoryItem[]> {
    return this.read('listItems', () => this.items.listItems(query));
  }

  activeKeys(tenantId: string, owners: readonly string[], limit: number): Promise<string[]> {
    return this.read('activeKeys', () => this.items.activeKeys(tenantId, owners, limit));
  }

  searchItems(query: ItemSearchQuery): Promise<ItemSearchHit[]> {
    return this.read('searchItems', () => this.items.searchItems(query));
  }

  itemVectors(query: Omit<ItemQuery, 'cursor' | 'limit' | 'keys' | 'ids' | 'as_of'>): Promise<VectorCandidate[]> {
    return this.read('itemVectors', () => this.items.itemVectors(query));
  }

  nearestItems(query: NearestItemsQuery): Promise<NearestItem[]> {
    return this.read('nearestItems', () => this.items.nearestItems(query));
  }

  eventsForReindex(tenantId: string | undefined, after: EventPosition | undefined, limit: number): Promise<EventRecord[]> {
    return this.read('eventsForReindex', () => this.events.forReindex(tenantId, after, limit));
  }

  itemsForReindex(tenantId: string | undefined): Promise<MemoryItem[]> {
    return this.read('itemsForReindex', () => this.items.allItems(tenantId));
  }

  clearItemIndex(tenantId: string | undefined): Promise<void> {
    return this.read('clearItemIndex', () => this.items.clearIndex(tenantId));
  }

  claimEmbeddingWork(limit: number, now: string, leaseUntil: string): Promise<EmbeddingWork[]> {
    return this.read('claimEmbeddingWork', () => this.items.claim(limit, now, leaseUntil));
  }

  completeEmbeddingWork(results: readonly EmbeddingResult[], model: string, now: string): Promise<void> {
    return this.read('completeEmbeddingWork', () => this.items.complete(results, model, now));
  }

  nearestEvents(query: NearestEventsQuery): Promise<EventSearchHit[]> {
    return this.read('nearestEvents', () => this.vectors.nearest(query));
  }

  embeddingBacklog(): Promise<number> {
    return this.read('embeddingBacklog', () => this.items.backlog());
  }

  getContextBuild(tenantId: string, buildId: string): Promise<ContextBuild | null> {
    return this.read('getContextBuild', () => this.runs.findBuild(tenantId, buildId));
  }

  listContextBuilds(query: BuildQuery): Promise<ContextBuild[]> {
    return this.read('listContextBuilds', () => this.runs.listBuilds(query));
  }

  async *exportRecords(scope: ExportScope): AsyncGenerator<ExportRecord> {
    this.guard();
    yield* exportRecords(this.pool, scope, () => this.guard());
  }

  erase(scope: EraseScope): Promise<EraseCounts> {
    return this.read('erase', () => this.pool.transaction((tx) => eraseScope(tx, scope))).finally(() => this.vectors.forget());
  }

  claimJobs(kinds: readonly Job['kind'][], limit: number, now: string, leaseUntil: string): Promise<Job[]> {
    return this.read('claimJobs', () => this.pool.transaction((tx) => this.runs.claimJobs(tx, kinds, limit, now, leaseUntil)));
  }

  completeJob(tenantId: string, jobId: string, status: 'done' | 'failed' | 'pending', error: string | null, now: string, retryAt?: string): Promise<void> {
    return this.read('completeJob', () => this.runs.completeJob(this.pool, tenantId, jobId, status, error, now, retryAt));
  }

  listJobs(query: JobQuery): Promise<Job[]> {
    return this.read('listJobs', () => this.runs.listJobs(query));
  }

  findApiKey(hash: string): Promise<ApiKeyRecord | null> {
    return this.read('findApiKey', () => this.runs.findKey(hash));
  }

  listApiKeys(tenantId: string | undefined): Promise<ApiKeyRecord[]> {
    return this.read('listApiKeys', () => this.runs.listKeys(tenantId));
  }

  getRunState(run: RunKey): Promise<RunState | null> {
    return this.read('getRunState', () => this.runs.findRunState(run));
  }

  ledgerEntries(run: RunKey, evidenceIds: readonly string[]): Promise<LedgerEntry[]> {
    return this.read('ledgerEntries', () => this.runs.ledgerEntries(run, evidenceIds));
  }

  getSnapshot(tenantId: string, snapshotId: string): Promise<SnapshotRecord | null> {
    return this.read('getSnapshot', () => this.runs.findSnapshot(tenantId, snapshotId));
  }

  listSnapshots(query: SnapshotQuery): Promise<SnapshotRecord[]> {
    return this.read('listSnapshots', () => this.runs.listSnapshots(query));
  }

  getReflection(tenantId: string, traceId: string): Promise<ReflectionRecord | null> {
    return this.read('getReflection', () => this.reflections.findReflection(tenantId, traceId));
  }

  listReflections(query: ReflectionQuery): Promise<ReflectionRecord[]> {
    return this.read('listReflections', () => this.reflections.listReflections(query));
  }

  getCandidate(tenantId: string, candidateId: string): Promise<ReviewCandidate | null> {
    return this.read('getCandidate', () => this.reflections.findCandidate(tenantId, candidateId));
  }

  listCandidates(query: CandidateQuery): Promise<ReviewCandidate[]> {
    return this.read('listCandidates', () => this.reflections.listCandidates(query));
  }

  getInsight(tenantId: string, insightId: string): Promise<InsightRecord | null> {
    return this.read('getInsight', () => this.reflections.findInsight(tenantId, insightId));
  }

  listInsights(query: InsightQuery): Promise<InsightRecord[]> {
    return this.read('listInsights', () => this.reflections.listInsights(query));
  }

  updateEventFlags(tenantId: string, eventId: string, flags: EventFlags): Promise<void> {
    return this.read('updateEventFlags', () => this.events.updateFlags(tenantId, eventId, flags));
  }

  async purgeExpired(now: string): Promise<number> {
    const purged = await this.read('purgeExpired', () => this.events.purgeExpired(now));
    if (purged > 0) this.vectors.forget();
    return purged;
  }

  compact(): Promise<CompactResult> {
    // VACUUM runs outside a transaction, one table at a time: the store's own tables only.
    return this.read('compact', () => compactTables(this.pool));
  }

  mergeIndexes(_pages: number): Promise<boolean> {
    return this.read('mergeIndexes', async () => {
      // New entries of a GIN index wait in its pending list (fastupdate), which every search scans;
      // this moves them into the index proper, as VACUUM would. The pending list is bounded already
      // (gin_pending_list_limit), so one step cleans it whole. Only the index's owner may do it: a
      // role that runs the service but did not create the schema leaves it to autovacuum.
      let pages = 0;
      for (const index of ['events_search', 'chunks_search']) {
        try {
          const [row] = await this.pool.arrays('SELECT gin_clean_pending_list(to_regclass(quote_ident(current_schema()) || \'.\' || ?))', [index]);
          pages += Number(row?.[0] ?? 0);
        } catch (error) {
          if (sqlState(error) !== INSUFFICIENT_PRIVILEGE) throw error;
        }
      }
      return pages > 0;
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.ownsPool) await this.pool.close();
  }
}
