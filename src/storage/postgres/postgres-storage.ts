// The server store: PostgreSQL through a pool of `pg` connections (loaded only when used), or a
// PGlite instance in the process. Each write() is one transaction on one connection; version checks
// are conditional statements, so any number of processes on any number of machines can share one
// database. Full text uses a tsvector of scoped words under GIN; vectors use pgvector's HNSW index
// when the extension can be installed, and an exact scan in the process when it cannot.

import { EngramError, NotFoundError, StorageError } from '../../spec/errors.js';
import type {
  AppendEventOp,
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
import { postgresDuplicateKey } from '../shared/duplicate-key.js';
import { guardedAreas } from '../shared/guarded-areas.js';
import { countTexts, textTokensUpdate, type TextCounts } from '../shared/text-token-ops.js';
import { PgBuildStore } from './build-store.js';
import { checkSchemaName, pglitePool, pgPool, sqlState, type PGliteLike, type Sql, type SqlPool } from './client.js';
import { PgEmbeddingQueue } from './embedding-queue.js';
import { PgEventStore } from './event-store.js';
import { PgItemStore } from './item-store.js';
import { PgEventVectors } from './event-vectors.js';
import { PgJobQueue } from './job-queue.js';
import { PgKeyStore } from './key-store.js';
import { checkVersion, migrate } from './migrate.js';
import { postgresAreas, type PgStores } from './postgres-areas.js';
import { PgReflectionStore } from './reflection-store.js';
import { PgRunStore } from './run-store.js';
import { PgSessionStore } from './session-store.js';

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
/** Events per multi-row INSERT (PostgreSQL takes at most 65,535 parameters in one statement). */
const EVENTS_PER_INSERT = 500;

function connectionPool(options: PostgresStorageOptions, schema: string): Promise<SqlPool> {
  if (options.pglite !== undefined) return Promise.resolve(pglitePool(options.pglite));
  if (options.connectionString === undefined) {
    throw new StorageError('the PostgreSQL store needs connectionString (postgres://…) or a pglite instance', {
      field: 'store',
    });
  }
  return pgPool({
    connectionString: options.connectionString,
    schema,
    max: options.maxConnections ?? 10,
    applicationName: 'engram',
  });
}

/** Redacts the password of a connection string for messages. */
function describe(options: PostgresStorageOptions): string {
  return options.connectionString === undefined
    ? 'PGlite'
    : options.connectionString.replace(/:\/\/([^:/@]+):[^/]*@/, '://$1:***@');
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
    if (options.pglite !== undefined)
      await pool.exec(`CREATE SCHEMA IF NOT EXISTS ${schema}; SET search_path TO ${schema}, public`);
    return await migrate(pool, schema);
  } catch (error) {
    if (EngramError.isInstance(error)) throw error;
    throw new StorageError(
      `could not migrate the PostgreSQL store at ${describe(options)}: ${(error as Error).message}`,
      { field: 'store', cause: error },
    );
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
    if (options.pglite !== undefined)
      await pool.exec(`CREATE SCHEMA IF NOT EXISTS ${schema}; SET search_path TO ${schema}, public`);
    if (options.migrate === false) await checkVersion(pool);
    else await migrate(pool, schema);
    const pgvector = await vectorCapability(pool, options.vectors ?? 'auto');
    return new PostgresStorage(pool, pgvector, options.pglite === undefined, options.textTokens);
  } catch (error) {
    await pool.close().catch(() => undefined);
    if (EngramError.isInstance(error)) throw error;
    throw new StorageError(`could not open the PostgreSQL store at ${describe(options)}: ${(error as Error).message}`, {
      field: 'store',
      cause: error,
    });
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
    if (mode === 'pgvector')
      throw new StorageError('vectors: pgvector is not installed on this server (CREATE EXTENSION vector)', {
        field: 'vectors',
      });
    return false;
  }
  try {
    await pool.exec('CREATE EXTENSION IF NOT EXISTS vector WITH SCHEMA public');
    await pool.exec('ALTER TABLE memory_chunks ADD COLUMN IF NOT EXISTS embedding vector');
    return true;
  } catch (error) {
    if (mode === 'pgvector')
      throw new StorageError(`vectors: pgvector could not be enabled: ${(error as Error).message}`, {
        field: 'vectors',
        cause: error,
      });
    return false;
  }
}

class PostgresStorage implements StorageAdapter {
  readonly specificationVersion = 'v1' as const;
  readonly name = 'postgres';
  readonly capabilities: StorageCapabilities;
  readonly events: EventStorage;
  readonly sessions: SessionStorage;
  readonly items: ItemStorage;
  readonly reviews: ReviewStorage;
  readonly runs: RunStorage;
  readonly service: ServiceStorage;
  readonly maintenance: MaintenanceStorage;

  private closed = false;
  private readonly stores: PgStores;

  constructor(
    private readonly pool: SqlPool,
    pgvector: boolean,
    private readonly ownsPool: boolean,
    private readonly textTokens: TextTokenCounter | undefined,
  ) {
    this.capabilities = { vectorSearch: pgvector ? 'index' : 'exact' };
    const guard = (): void => this.guard();
    const items = new PgItemStore(pool, pgvector);
    this.stores = {
      pool,
      guard,
      events: new PgEventStore(pool),
      vectors: new PgEventVectors(pool),
      sessions: new PgSessionStore(pool),
      builds: new PgBuildStore(pool),
      items,
      queue: new PgEmbeddingQueue(pool, pgvector, items),
      reflections: new PgReflectionStore(pool),
      runs: new PgRunStore(pool),
      keys: new PgKeyStore(pool),
      jobs: new PgJobQueue(pool),
    };
    ({
      events: this.events,
      sessions: this.sessions,
      items: this.items,
      reviews: this.reviews,
      runs: this.runs,
      service: this.service,
      maintenance: this.maintenance,
    } = guardedAreas(postgresAreas(this.stores), { guard }));
  }

  private guard(): void {
    if (this.closed) throw new StorageError('the store is closed', { field: 'store' });
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
          if (ops.length > 0 && ops.every((op) => op.op === 'put_context_build'))
            await tx.exec('SET LOCAL synchronous_commit = off');
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
          if (events.length > 0) await this.stores.events.append(tx, events, counts);
        });
        return;
      } catch (error) {
        if (EngramError.isInstance(error)) throw error;
        if (attempt < WRITE_ATTEMPTS && RETRYABLE.has(sqlState(error) ?? '')) continue;
        throw (
          postgresDuplicateKey(error) ?? new StorageError(`write failed: ${(error as Error).message}`, { cause: error })
        );
      }
    }
  }

  private async apply(tx: Sql, op: WriteOp, counts: TextCounts): Promise<void> {
    switch (op.op) {
      case 'insert_turn':
        return this.stores.sessions.insertTurn(tx, op);
      case 'append_event':
        return this.stores.events.append(tx, [op], counts);
      case 'put_working_state':
        return this.stores.sessions.putWorkingState(tx, op);
      case 'put_summary':
        return this.stores.sessions.putSummary(tx, op);
      case 'put_context_build':
        return this.stores.builds.putBuild(tx, op);
      case 'enqueue_job':
        return this.stores.jobs.enqueueJob(tx, op);
      case 'complete_job':
        return this.stores.jobs.completeJob(tx, op.tenant_id, op.job_id, op.status, op.error, op.now);
      case 'put_api_key':
        return this.stores.keys.putKey(tx, op);
      case 'revoke_api_key':
        return this.stores.keys.revokeKey(tx, op);
      case 'put_run_state':
        return this.stores.runs.putRunState(tx, op);
      case 'put_evidence':
        return this.stores.runs.putEvidence(tx, op);
      case 'put_snapshot':
        return this.stores.runs.putSnapshot(tx, op);
      case 'put_reflection':
        return this.stores.reflections.putReflection(tx, op);
      case 'put_candidate':
        return this.stores.reflections.putCandidate(tx, op);
      case 'decide_candidate':
        return this.stores.reflections.decideCandidate(tx, op);
      case 'put_insight':
        return this.stores.reflections.putInsight(tx, op);
      case 'expire_run_insights':
        return this.stores.reflections.expireRunInsights(tx, op);
      case 'put_item':
        return this.stores.items.putItem(tx, op, counts.get(op) ?? null);
      case 'set_item_status':
        return this.stores.items.setStatus(tx, op);
      case 'delete_item':
        return this.stores.items.deleteItem(tx, op);
      case 'put_chunk':
        return this.stores.items.putChunk(tx, op);
      case 'index_event':
        return this.stores.events.reindex(tx, op);
      case 'put_text_tokens': {
        const update = textTokensUpdate(op);
        if ((await tx.run(update.sql, update.params)) === 0) throw new NotFoundError(update.field, op.id);
        return;
      }
    }
  }

  /** Inserts the events gathered so far; returns an empty list for the next ones. */
  private async appendEvents(tx: Sql, ops: readonly AppendEventOp[], counts: TextCounts): Promise<AppendEventOp[]> {
    await this.stores.events.append(tx, ops, counts);
    return [];
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.ownsPool) await this.pool.close();
  }
}
