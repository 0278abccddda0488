// The server store: PostgreSQL through a pool of `pg` connections (loaded only when used), or a
// PGlite instance in the process. Each write() is one transaction on one connection; version checks
// are conditional statements, so any number of processes on any number of machines can share one
// database. Full text uses a tsvector of scoped words under GIN; vectors use pgvector's HNSW index
// when the extension can be installed, and an exact scan in the process when it cannot.

import { ConflictError, EngramError, NotFoundError, StorageError, ValidationError } from '../../spec/errors.js';
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
import type { InsightRecord, ReflectionRecord, ReviewCandidate } from '../../spec/reflection.js';
import type { CommitTurnResult } from '../../spec/requests.js';
import type { StmSummary } from '../../spec/summary.js';
import type { WorkingState } from '../../spec/working-state.js';
import { scopePrefix } from '../../util/scope-token.js';
import { EVENT_COLUMNS, EVENT_SELECT, eventFilters, eventFromValues, eventsForReindexQuery, eventValues, neighbourStatement, neighboursFromRows } from '../shared/event-rows.js';
import { scopeCountsFromRows, scopeSizeQuery, sessionCountsQuery, USER_ITEMS_SQL, USER_PENDING_SQL } from '../shared/scope-rows.js';
import { firstPassing } from '../shared/first-passing.js';
import { placeholders } from '../shared/rows.js';
import { checkSchemaName, isUniqueViolation, pglitePool, pgPool, sqlState, type PGliteLike, type Sql, type SqlPool } from './client.js';
import { PgItemStore } from './item-store.js';
import { checkVersion, migrate } from './migrations.js';
import { PgReflectionStore } from './reflection-store.js';
import { PgRunStore } from './run-store.js';
import { eraseScope, exportRecords } from './transfer.js';
import { scopedLexemes, WordIndex } from './word-index.js';

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
}

const EVENT_FLAG_FIELDS = new Set(['embedding_status']);
const EMBEDDING_STATUSES = new Set(['pending', 'processing', 'done', 'skipped']);
/** Serialization failures and deadlocks: the whole write is tried again. */
const RETRYABLE = new Set(['40001', '40P01']);
const WRITE_ATTEMPTS = 3;
/** SQLSTATE of an operation the role may not run (a maintenance function of an index it does not own). */
const INSUFFICIENT_PRIVILEGE = '42501';
/** Events per multi-row INSERT (PostgreSQL takes at most 65,535 parameters in one statement). */
const EVENTS_PER_INSERT = 500;

// The agents a user has events with, one index probe per agent (a loose index scan) rather than a
// walk over all of the user's events.
const AGENTS_OF_USER = `WITH RECURSIVE agents(agent_id) AS (
    SELECT min(agent_id) FROM events WHERE tenant_id = ? AND user_id = ?
    UNION ALL
    SELECT (SELECT min(e.agent_id) FROM events e WHERE e.tenant_id = ? AND e.user_id = ? AND e.agent_id > agents.agent_id)
    FROM agents WHERE agents.agent_id IS NOT NULL)
  SELECT agent_id FROM agents WHERE agent_id IS NOT NULL`;

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
    return new PostgresStorage(pool, pgvector, options.pglite === undefined);
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
  private readonly eventIndex = new WordIndex('events');
  private readonly items: PgItemStore;
  private readonly reflections: PgReflectionStore;
  private readonly runs: PgRunStore;

  constructor(
    private readonly pool: SqlPool,
    pgvector: boolean,
    private readonly ownsPool: boolean,
  ) {
    this.capabilities = { fullTextSearch: true, multiProcess: true, vectorSearch: pgvector ? 'index' : 'exact' };
    this.items = new PgItemStore(pool, pgvector);
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
              if (events.length === EVENTS_PER_INSERT) events = await this.appendEvents(tx, events);
              continue;
            }
            if (events.length > 0) events = await this.appendEvents(tx, events);
            await this.apply(tx, op);
          }
          if (events.length > 0) await this.appendEvents(tx, events);
        });
        return;
      } catch (error) {
        if (EngramError.isInstance(error)) throw error;
        if (attempt < WRITE_ATTEMPTS && RETRYABLE.has(sqlState(error) ?? '')) continue;
        throw new StorageError(`write failed: ${(error as Error).message}`, { cause: error });
      }
    }
  }

  private async apply(tx: Sql, op: WriteOp): Promise<void> {
    const key = 'key' in op ? [op.key.tenant_id, op.key.user_id, op.key.agent_id, op.key.session_id] : [];
    const sessionWhere = 'tenant_id = ? AND user_id = ? AND agent_id = ? AND session_id = ?';
    switch (op.op) {
      case 'insert_turn':
        try {
          await tx.run('INSERT INTO turns (tenant_id, user_id, agent_id, session_id, turn_id, result, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?)', [
            ...key,
            op.turn_id,
            JSON.stringify(op.result),
            op.result.recorded_at,
          ]);
        } catch (error) {
          if (!isUniqueViolation(error)) throw error;
          throw new EngramError('DUPLICATE_TURN', `turn_id: ${op.turn_id} was already committed in this session`, { field: 'turn_id', cause: error });
        }
        return;
      case 'append_event':
        await this.appendEvents(tx, [op]);
        return;
      case 'put_working_state':
        return this.putVersioned(tx, {
          insert: 'INSERT INTO working_state (tenant_id, user_id, agent_id, session_id, state, state_version, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
          insertParams: [...key, JSON.stringify(op.state), op.state.state_version, op.updated_at],
          update: `UPDATE working_state SET state = ?, state_version = ?, updated_at = ? WHERE ${sessionWhere} AND state_version = ?`,
          updateParams: [JSON.stringify(op.state), op.state.state_version, op.updated_at, ...key, op.expected_version],
          current: `SELECT state_version AS v FROM working_state WHERE ${sessionWhere}`,
          key,
          expected: op.expected_version,
          field: 'state_patch.expected_version',
        });
      case 'put_summary':
        return this.putVersioned(tx, {
          insert: 'INSERT INTO stm_summary (tenant_id, user_id, agent_id, session_id, summary, version, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
          insertParams: [...key, JSON.stringify(op.summary), op.summary.version, op.summary.updated_at],
          update: `UPDATE stm_summary SET summary = ?, version = ?, updated_at = ? WHERE ${sessionWhere} AND version = ?`,
          updateParams: [JSON.stringify(op.summary), op.summary.version, op.summary.updated_at, ...key, op.expected_version],
          current: `SELECT version AS v FROM stm_summary WHERE ${sessionWhere}`,
          key,
          expected: op.expected_version,
          field: 'summary.version',
        });
      case 'put_context_build':
        return this.runs.putBuild(tx, op);
      case 'enqueue_job':
        return this.runs.enqueueJob(tx, op);
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
        return this.items.putItem(tx, op);
      case 'set_item_status':
        return this.items.setStatus(tx, op);
      case 'delete_item':
        return this.items.deleteItem(tx, op);
      case 'put_chunk':
        return this.items.putChunk(tx, op);
      case 'index_event': {
        const rows = await tx.arrays('SELECT user_id, agent_id FROM events WHERE tenant_id = ? AND id = ?', [op.tenant_id, op.event_id]);
        if (rows.length === 0) throw new NotFoundError('event_id', op.event_id);
        const [user_id, agent_id] = rows[0] as [string, string];
        const lexemes = op.search_text === null ? null : scopedLexemes(scopePrefix({ tenant_id: op.tenant_id, user_id, agent_id }), op.search_text);
        await tx.run('UPDATE events SET search = CASE WHEN ?::text[] IS NULL THEN NULL ELSE array_to_tsvector(?::text[]) END WHERE tenant_id = ? AND id = ?', [lexemes, lexemes, op.tenant_id, op.event_id]);
        return;
      }
    }
  }

  /** Inserts events with their scoped words in one statement; returns an empty list for the next ones. */
  private async appendEvents(tx: Sql, ops: readonly AppendEventOp[]): Promise<AppendEventOp[]> {
    const row = `(${placeholders(EVENT_COLUMNS)}, CASE WHEN ?::text[] IS NULL THEN NULL ELSE array_to_tsvector(?::text[]) END)`;
    const params: unknown[] = [];
    for (const op of ops) {
      const lexemes = op.search_text === null ? null : scopedLexemes(scopePrefix(op.event), op.search_text);
      params.push(...eventValues(op.event), lexemes, lexemes);
    }
    await tx.run(`INSERT INTO events (${EVENT_COLUMNS.join(', ')}, search) VALUES ${ops.map(() => row).join(', ')}`, params);
    return [];
  }

  /**
   * Inserts (expected version 0) or replaces a row at the version the caller read, in one statement
   * each: two writers of the same version can never both win.
   */
  private async putVersioned(
    tx: Sql,
    spec: { insert: string; insertParams: unknown[]; update: string; updateParams: unknown[]; current: string; key: unknown[]; expected: number; field: string },
  ): Promise<void> {
    const changed = spec.expected === 0 ? await tx.run(spec.insert, spec.insertParams) : await tx.run(spec.update, spec.updateParams);
    if (changed === 1) return;
    const rows = await tx.rows(spec.current, spec.key);
    throw new ConflictError(spec.field, spec.expected, rows.length === 0 ? 0 : Number(rows[0]!['v']));
  }

  getTurn(key: SessionKey, turnId: string): Promise<CommitTurnResult | null> {
    return this.read('getTurn', async () => {
      const rows = await this.pool.rows('SELECT result FROM turns WHERE tenant_id = ? AND user_id = ? AND agent_id = ? AND session_id = ? AND turn_id = ?', [
        key.tenant_id, key.user_id, key.agent_id, key.session_id, turnId,
      ]);
      return rows.length === 0 ? null : (JSON.parse(rows[0]!['result'] as string) as CommitTurnResult);
    });
  }

  getEvent(tenantId: string, eventId: string, now: string): Promise<EventRecord | null> {
    return this.read('getEvent', async () => {
      const rows = await this.pool.arrays(`SELECT ${EVENT_SELECT} FROM events WHERE tenant_id = ? AND id = ? AND (expires_at IS NULL OR expires_at > ?)`, [
        tenantId, eventId, now,
      ]);
      return rows.length === 0 ? null : eventFromValues(rows[0]!);
    });
  }

  neighbourEvents(query: NeighbourQuery): Promise<EventNeighbours[]> {
    return this.read('neighbourEvents', async () => {
      if (query.anchors.length === 0) return [];
      const { sql, params } = neighbourStatement(query);
      return neighboursFromRows(query, await this.pool.arrays(sql, params));
    });
  }

  scopeCounts(tenantId: string, limit: number): Promise<ScopeCounts> {
    return this.read('scopeCounts', async () => {
      const { sql, params } = sessionCountsQuery(tenantId, limit);
      const [sessions, items, pending] = await Promise.all([this.pool.arrays(sql, params), this.pool.arrays(USER_ITEMS_SQL, [tenantId]), this.pool.arrays(USER_PENDING_SQL, [tenantId])]);
      return scopeCountsFromRows(sessions, items, pending);
    });
  }

  listEvents(query: EventQuery): Promise<EventRecord[]> {
    return this.read('listEvents', async () => {
      const { where, params } = eventFilters(query, '');
      if (query.cursor !== undefined) {
        where.push(query.order === 'desc' ? 'id < ?' : 'id > ?');
        params.push(query.cursor);
      }
      const sql = `SELECT ${EVENT_SELECT} FROM events WHERE ${where.join(' AND ')} ORDER BY id ${query.order === 'desc' ? 'DESC' : 'ASC'} LIMIT ?`;
      return (await this.pool.arrays(sql, [...params, query.limit])).map((row) => eventFromValues(row));
    });
  }

  searchEvents(query: EventSearchQuery): Promise<EventSearchHit[]> {
    return this.read('searchEvents', async () => {
      if (query.terms.length === 0) return [];
      // The index is scoped per agent; a user-wide query asks each of the user's agents.
      const agents =
        query.agent_id === undefined
          ? (await this.pool.arrays(AGENTS_OF_USER, [query.tenant_id, query.user_id, query.tenant_id, query.user_id])).map((row) => row[0] as string)
          : [query.agent_id];
      if (agents.length === 0) return [];
      const prefixes = agents.map((agent_id) => scopePrefix({ tenant_id: query.tenant_id, user_id: query.user_id, agent_id }));
      const size = scopeSizeQuery(query.tenant_id, query.user_id, agents);
      const scopeSize = this.pool.arrays(size.sql, size.params).then((rows) => Number(rows[0]![0]));
      const ranked = await this.eventIndex.rank(this.pool, prefixes, query.terms, scopeSize);
      const { where, params } = eventFilters({ ...query, kinds: undefined }, '');
      return firstPassing(
        ranked,
        query.limit,
        async (seqs) => {
          const sql = `SELECT seq, ${EVENT_SELECT} FROM events WHERE seq IN (${placeholders(seqs)}) AND ${where.join(' AND ')}`;
          return new Map((await this.pool.arrays(sql, [...seqs, ...params])).map((row) => [Number(row[0]), row]));
        },
        (row, score) => ({ event: eventFromValues(row, 1), score }),
      );
    });
  }

  getWorkingState(key: SessionKey): Promise<WorkingState | null> {
    return this.read('getWorkingState', async () => {
      const rows = await this.pool.rows('SELECT state FROM working_state WHERE tenant_id = ? AND user_id = ? AND agent_id = ? AND session_id = ?', [
        key.tenant_id, key.user_id, key.agent_id, key.session_id,
      ]);
      return rows.length === 0 ? null : (JSON.parse(rows[0]!['state'] as string) as WorkingState);
    });
  }

  getSummary(key: SessionKey): Promise<StmSummary | null> {
    return this.read('getSummary', async () => {
      const rows = await this.pool.rows('SELECT summary FROM stm_summary WHERE tenant_id = ? AND user_id = ? AND agent_id = ? AND session_id = ?', [
        key.tenant_id, key.user_id, key.agent_id, key.session_id,
      ]);
      return rows.length === 0 ? null : (JSON.parse(rows[0]!['summary'] as string) as StmSummary);
    });
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
    return this.read('eventsForReindex', async () => {
      const { sql, params } = eventsForReindexQuery(tenantId, after, limit);
      return (await this.pool.arrays(sql, params)).map((row) => eventFromValues(row));
    });
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

  completeEmbeddingWork(results: readonly EmbeddingResult[], model: string): Promise<void> {
    return this.read('completeEmbeddingWork', () => this.items.complete(results, model));
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
    return this.read('erase', () => this.pool.transaction((tx) => eraseScope(tx, scope)));
  }

  claimJobs(kinds: readonly Job['kind'][], limit: number, now: string, leaseUntil: string): Promise<Job[]> {
    return this.read('claimJobs', () => this.pool.transaction((tx) => this.runs.claimJobs(tx, kinds, limit, now, leaseUntil)));
  }

  completeJob(tenantId: string, jobId: string, status: 'done' | 'failed' | 'pending', error: string | null, now: string): Promise<void> {
    return this.read('completeJob', () => this.runs.completeJob(this.pool, tenantId, jobId, status, error, now));
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

  async updateEventFlags(tenantId: string, eventId: string, flags: EventFlags): Promise<void> {
    this.guard();
    for (const field of Object.keys(flags)) {
      if (!EVENT_FLAG_FIELDS.has(field)) {
        throw new EngramError('APPEND_ONLY_VIOLATION', `${field}: events are append-only; only status flags may change`, { field });
      }
    }
    if (flags.embedding_status === undefined) return;
    if (!EMBEDDING_STATUSES.has(flags.embedding_status)) {
      throw ValidationError.of('embedding_status', 'enum', `must be one of ${[...EMBEDDING_STATUSES].join(', ')}`);
    }
    const status = flags.embedding_status;
    const changed = await this.read('updateEventFlags', () => this.pool.run('UPDATE events SET embedding_status = ? WHERE tenant_id = ? AND id = ?', [status, tenantId, eventId]));
    if (changed === 0) throw new NotFoundError('event_id', eventId);
  }

  purgeExpired(now: string): Promise<number> {
    return this.read('purgeExpired', () =>
      this.pool.transaction(async (tx) => {
        await tx.run(
          'DELETE FROM event_vectors v USING events e WHERE v.tenant_id = e.tenant_id AND v.event_id = e.id AND e.expires_at IS NOT NULL AND e.expires_at <= ?',
          [now],
        );
        return tx.run('DELETE FROM events WHERE expires_at IS NOT NULL AND expires_at <= ?', [now]);
      }),
    );
  }

  compact(): Promise<CompactResult> {
    return this.read('compact', async () => {
      // VACUUM runs outside a transaction, one table at a time: the store's own tables only.
      const tables = await this.pool.arrays('SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename', []);
      for (const [table] of tables) await this.pool.rows(`VACUUM "${String(table).replaceAll('"', '""')}"`, []);
      return { before_bytes: null, after_bytes: null };
    });
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
