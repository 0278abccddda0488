// The embedded store: one SQLite file through better-sqlite3, in WAL mode, with FTS5 over event
// text. better-sqlite3 is synchronous, so each write() runs its operations in one transaction
// without yielding, and a committed write is on disk (in the WAL) before the promise resolves.

import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';

import { EngramError, NotFoundError, StorageError, ConflictError, ValidationError } from '../../spec/errors.js';
import type { EventFlags, EventRecord } from '../../spec/event.js';
import type { SessionKey } from '../../spec/scope.js';
import type {
  EventQuery,
  EventSearchHit,
  EventSearchQuery,
  StorageAdapter,
  StorageCapabilities,
  WriteOp,
} from '../../spec/storage.js';
import type { StmSummary } from '../../spec/summary.js';
import type { WorkingState } from '../../spec/working-state.js';
import type { CommitTurnResult } from '../../spec/requests.js';
import { scopePrefix, scopedText } from '../../util/scope-token.js';
import { rankByMatchedTerms } from '../../util/term-rank.js';
import { migrations } from './migrations.js';

type Row = Record<string, unknown>;

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
}

const EVENT_FLAG_FIELDS = new Set(['embedding_status']);
const EMBEDDING_STATUSES = new Set(['pending', 'processing', 'done', 'skipped']);

function eventFromRow(row: Row): EventRecord {
  return {
    id: row['id'] as string,
    namespace: row['namespace'] as string,
    thread_id: (row['thread_id'] as string | null) ?? null,
    speaker: (row['speaker'] as string | null) ?? null,
    role: row['role'] as EventRecord['role'],
    content_type: row['content_type'] as EventRecord['content_type'],
    content: JSON.parse(row['content'] as string) as EventRecord['content'],
    sensitivity: row['sensitivity'] as EventRecord['sensitivity'],
    embeddable: row['embeddable'] === 1,
    embedding_status: row['embedding_status'] as EventRecord['embedding_status'],
    resonance_links: JSON.parse(row['resonance_links'] as string) as EventRecord['resonance_links'],
    tags: JSON.parse(row['tags'] as string) as string[],
    snapshot_ref: (row['snapshot_ref'] as string | null) ?? null,
    created_at: row['ts'] as string,
    expires_at: (row['expires_at'] as string | null) ?? null,
    origin_metadata: JSON.parse(row['origin_metadata'] as string) as Record<string, unknown>,
    tenant_id: row['tenant_id'] as string,
    user_id: row['user_id'] as string,
    agent_id: row['agent_id'] as string,
    session_id: row['session_id'] as string,
    run_id: row['run_id'] as string,
    turn_id: (row['turn_id'] as string | null) ?? null,
    kind: row['kind'] as EventRecord['kind'],
    marker: (row['marker'] as EventRecord['marker']) ?? null,
    ts: row['ts'] as string,
    recorded_at: row['recorded_at'] as string,
  };
}

const EVENT_COLUMNS = [
  'tenant_id', 'id', 'user_id', 'agent_id', 'session_id', 'run_id', 'turn_id', 'kind', 'marker', 'role', 'speaker',
  'content_type', 'content', 'sensitivity', 'embeddable', 'embedding_status', 'resonance_links', 'tags',
  'snapshot_ref', 'namespace', 'thread_id', 'ts', 'recorded_at', 'expires_at', 'origin_metadata',
] as const;

/** The values of an event in the order of EVENT_COLUMNS (positional parameters bind fastest). */
function eventValues(event: EventRecord): unknown[] {
  return [
    event.tenant_id,
    event.id,
    event.user_id,
    event.agent_id,
    event.session_id,
    event.run_id,
    event.turn_id,
    event.kind,
    event.marker,
    event.role,
    event.speaker,
    event.content_type,
    JSON.stringify(event.content),
    event.sensitivity,
    event.embeddable ? 1 : 0,
    event.embedding_status,
    JSON.stringify(event.resonance_links),
    JSON.stringify(event.tags),
    event.snapshot_ref,
    event.namespace,
    event.thread_id,
    event.ts,
    event.recorded_at,
    event.expires_at,
    JSON.stringify(event.origin_metadata),
  ];
}

// Full-text search: the newest matches of each term within the scope are the candidates; a term
// matched by more rows than that is counted up to a cap, which is enough to rank its rarity.
const MAX_SEARCH_TERMS = 16;
const CANDIDATES_PER_TERM = 200;
const FREQUENCY_CAP = 5000;
const FILTER_PAGE = 100;

/** A quoted FTS5 string: the query language never sees the user's characters as syntax. */
function ftsString(term: string): string {
  return `"${term.replace(/"/g, '""')}"`;
}

function isConstraintError(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;
}

/**
 * Opens (creating if needed) a SQLite store and brings its schema to the latest version.
 *
 * @example
 * const storage = await openSqliteStorage({ path: './.engram/engram.db' });
 */
export async function openSqliteStorage(options: SqliteStorageOptions): Promise<StorageAdapter> {
  if (options.path !== ':memory:') mkdirSync(dirname(options.path), { recursive: true });
  let db: Database.Database;
  try {
    db = new Database(options.path);
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${options.synchronous === 'normal' ? 'NORMAL' : 'FULL'}`);
    db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
    db.pragma('foreign_keys = ON');
    db.pragma('wal_autocheckpoint = 4000');
    migrate(db);
  } catch (error) {
    throw new StorageError(`could not open the SQLite store at ${options.path}: ${(error as Error).message}`, {
      field: 'store',
      cause: error,
    });
  }
  return new SqliteStorage(db);
}

function migrate(db: Database.Database): void {
  const apply = db.transaction(() => {
    const current = db.pragma('user_version', { simple: true }) as number;
    if (current > migrations.length) {
      throw new StorageError(`the store is at schema version ${current}, newer than this Engram (${migrations.length}); upgrade Engram`);
    }
    for (let version = current; version < migrations.length; version += 1) {
      db.exec(migrations[version]!.sql);
      db.pragma(`user_version = ${version + 1}`);
    }
  });
  apply.immediate();
}

class SqliteStorage implements StorageAdapter {
  readonly specificationVersion = 'v1' as const;
  readonly name = 'sqlite';
  readonly capabilities: StorageCapabilities = { fullTextSearch: true, multiProcess: true };

  private readonly statements: ReturnType<SqliteStorage['prepare']>;
  private readonly writeAll: (ops: readonly WriteOp[]) => void;
  private closed = false;
  private readonly cache = new Map<string, Database.Statement>();

  constructor(private readonly db: Database.Database) {
    this.statements = this.prepare();
    const transaction = db.transaction((ops: readonly WriteOp[]) => {
      for (const op of ops) this.apply(op);
    });
    this.writeAll = (ops) => transaction.immediate(ops);
  }

  private prepare() {
    const db = this.db;
    const sessionWhere = 'tenant_id = ? AND user_id = ? AND agent_id = ? AND session_id = ?';
    return {
      insertEvent: db.prepare(
        `INSERT INTO events (${EVENT_COLUMNS.join(', ')}) VALUES (${EVENT_COLUMNS.map(() => '?').join(', ')})`,
      ),
      indexEvent: db.prepare('INSERT INTO events_fts (rowid, text) VALUES (?, ?)'),
      agentsOfUser: db.prepare('SELECT DISTINCT agent_id FROM events WHERE tenant_id = ? AND user_id = ?'),
      insertTurn: db.prepare(
        'INSERT INTO turns (tenant_id, user_id, agent_id, session_id, turn_id, result, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ),
      getTurn: db.prepare(`SELECT result FROM turns WHERE ${sessionWhere} AND turn_id = ?`),
      getState: db.prepare(`SELECT state, state_version FROM working_state WHERE ${sessionWhere}`),
      insertState: db.prepare(
        'INSERT INTO working_state (tenant_id, user_id, agent_id, session_id, state, state_version, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ),
      updateState: db.prepare(`UPDATE working_state SET state = ?, state_version = ?, updated_at = ? WHERE ${sessionWhere}`),
      getSummary: db.prepare(`SELECT summary, version FROM stm_summary WHERE ${sessionWhere}`),
      insertSummary: db.prepare(
        'INSERT INTO stm_summary (tenant_id, user_id, agent_id, session_id, summary, version, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ),
      updateSummary: db.prepare(`UPDATE stm_summary SET summary = ?, version = ?, updated_at = ? WHERE ${sessionWhere}`),
      getEvent: db.prepare(
        'SELECT * FROM events WHERE tenant_id = ? AND id = ? AND (expires_at IS NULL OR expires_at > ?)',
      ),
      updateEmbeddingStatus: db.prepare('UPDATE events SET embedding_status = ? WHERE tenant_id = ? AND id = ?'),
      expiredSeqs: db.prepare('SELECT seq FROM events WHERE expires_at IS NOT NULL AND expires_at <= ?'),
      deleteIndexed: db.prepare('DELETE FROM events_fts WHERE rowid = ?'),
      deleteEvent: db.prepare('DELETE FROM events WHERE seq = ?'),
      termRows: db.prepare('SELECT rowid FROM events_fts WHERE events_fts MATCH ? ORDER BY rowid DESC LIMIT ?'),
      termCount: db.prepare('SELECT count(*) AS n FROM (SELECT rowid FROM events_fts WHERE events_fts MATCH ? LIMIT ?)'),
    };
  }

  private apply(op: WriteOp): void {
    const s = this.statements;
    const key = 'key' in op ? [op.key.tenant_id, op.key.user_id, op.key.agent_id, op.key.session_id] : [];
    switch (op.op) {
      case 'insert_turn':
        try {
          s.insertTurn.run(...key, op.turn_id, JSON.stringify(op.result), op.result.recorded_at);
        } catch (error) {
          if (isConstraintError(error, 'SQLITE_CONSTRAINT_PRIMARYKEY')) {
            throw new EngramError('DUPLICATE_TURN', `turn_id: ${op.turn_id} was already committed in this session`, {
              field: 'turn_id',
              cause: error,
            });
          }
          throw error;
        }
        return;
      case 'append_event': {
        const info = s.insertEvent.run(...eventValues(op.event));
        if (op.search_text !== null) s.indexEvent.run(info.lastInsertRowid, scopedText(scopePrefix(op.event), op.search_text));
        return;
      }
      case 'put_working_state': {
        const row = s.getState.get(...key) as Row | undefined;
        const actual = row === undefined ? 0 : (row['state_version'] as number);
        if (actual !== op.expected_version) throw new ConflictError('state_patch.expected_version', op.expected_version, actual);
        const state = JSON.stringify(op.state);
        if (row === undefined) s.insertState.run(...key, state, op.state.state_version, op.updated_at);
        else s.updateState.run(state, op.state.state_version, op.updated_at, ...key);
        return;
      }
      case 'put_summary': {
        const row = s.getSummary.get(...key) as Row | undefined;
        const actual = row === undefined ? 0 : (row['version'] as number);
        if (actual !== op.expected_version) throw new ConflictError('summary.version', op.expected_version, actual);
        const summary = JSON.stringify(op.summary);
        if (row === undefined) s.insertSummary.run(...key, summary, op.summary.version, op.summary.updated_at);
        else s.updateSummary.run(summary, op.summary.version, op.summary.updated_at, ...key);
        return;
      }
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
    try {
      this.writeAll(ops);
    } catch (error) {
      if (EngramError.isInstance(error)) throw error;
      throw new StorageError(`write failed: ${(error as Error).message}`, { cause: error });
    }
  }

  async getTurn(key: SessionKey, turnId: string): Promise<CommitTurnResult | null> {
    this.guard();
    const row = this.statements.getTurn.get(key.tenant_id, key.user_id, key.agent_id, key.session_id, turnId) as Row | undefined;
    return row === undefined ? null : (JSON.parse(row['result'] as string) as CommitTurnResult);
  }

  async getEvent(tenantId: string, eventId: string, now: string): Promise<EventRecord | null> {
    this.guard();
    const row = this.statements.getEvent.get(tenantId, eventId, now) as Row | undefined;
    return row === undefined ? null : eventFromRow(row);
  }

  async listEvents(query: EventQuery): Promise<EventRecord[]> {
    this.guard();
    const { where, params } = eventFilters(query, '');
    const order = query.order === 'desc' ? 'DESC' : 'ASC';
    if (query.cursor !== undefined) {
      where.push(query.order === 'desc' ? 'id < ?' : 'id > ?');
      params.push(query.cursor);
    }
    const sql = `SELECT * FROM events WHERE ${where.join(' AND ')} ORDER BY id ${order} LIMIT ?`;
    return (this.cached(sql).all(...params, query.limit) as Row[]).map(eventFromRow);
  }

  async searchEvents(query: EventSearchQuery): Promise<EventSearchHit[]> {
    this.guard();
    const terms = query.terms.slice(0, MAX_SEARCH_TERMS);
    if (terms.length === 0) return [];
    // The index is scoped per agent; a user-wide query asks each of the user's agents.
    const agents =
      query.agent_id === undefined
        ? (this.statements.agentsOfUser.all(query.tenant_id, query.user_id) as Row[]).map((row) => row['agent_id'] as string)
        : [query.agent_id];
    const prefixes = agents.map((agent_id) => scopePrefix({ tenant_id: query.tenant_id, user_id: query.user_id, agent_id }));
    const matches = terms.map((term) => {
      const rows: number[] = [];
      let documentFrequency = 0;
      for (const prefix of prefixes) {
        const found = this.termRows(`${prefix}_${term}`);
        rows.push(...found.rows);
        documentFrequency += found.documentFrequency;
      }
      return { rows, documentFrequency };
    });
    const ranked = rankByMatchedTerms(matches);
    const { where, params } = eventFilters({ ...query, kinds: undefined }, '');
    const hits: EventSearchHit[] = [];
    // Candidates are checked against the filters (expiry, time, sensitivity) in rank order, a page at a time.
    for (let start = 0; start < ranked.length && hits.length < query.limit; start += FILTER_PAGE) {
      const page = ranked.slice(start, start + FILTER_PAGE);
      const sql = `SELECT * FROM events WHERE seq IN (${page.map(() => '?').join(', ')}) AND ${where.join(' AND ')}`;
      const rows = new Map((this.cached(sql).all(...page.map((entry) => entry.row), ...params) as Row[]).map((row) => [row['seq'] as number, row]));
      for (const entry of page) {
        const row = rows.get(entry.row);
        if (row !== undefined && hits.length < query.limit) hits.push({ event: eventFromRow(row), score: entry.score });
      }
    }
    return hits;
  }

  /**
   * The newest rows holding one scoped word, and how many rows hold it (counted up to a cap). A
   * word the index tokenizer would split (it cannot match as one token) has no rows.
   */
  private termRows(token: string): { rows: number[]; documentFrequency: number } {
    const match = ftsString(token);
    try {
      const rows = (this.statements.termRows.all(match, CANDIDATES_PER_TERM) as Row[]).map((row) => row['rowid'] as number);
      const documentFrequency =
        rows.length < CANDIDATES_PER_TERM ? rows.length : ((this.statements.termCount.get(match, FREQUENCY_CAP) as Row)['n'] as number);
      return { rows, documentFrequency };
    } catch (error) {
      if (error instanceof Error && /fts5: /.test(error.message)) return { rows: [], documentFrequency: 0 };
      throw error;
    }
  }

  async getWorkingState(key: SessionKey): Promise<WorkingState | null> {
    this.guard();
    const row = this.statements.getState.get(key.tenant_id, key.user_id, key.agent_id, key.session_id) as Row | undefined;
    return row === undefined ? null : (JSON.parse(row['state'] as string) as WorkingState);
  }

  async getSummary(key: SessionKey): Promise<StmSummary | null> {
    this.guard();
    const row = this.statements.getSummary.get(key.tenant_id, key.user_id, key.agent_id, key.session_id) as Row | undefined;
    return row === undefined ? null : (JSON.parse(row['summary'] as string) as StmSummary);
  }

  async updateEventFlags(tenantId: string, eventId: string, flags: EventFlags): Promise<void> {
    this.guard();
    for (const field of Object.keys(flags)) {
      if (!EVENT_FLAG_FIELDS.has(field)) {
        throw new EngramError('APPEND_ONLY_VIOLATION', `${field}: events are append-only; only status flags may change`, {
          field,
        });
      }
    }
    if (flags.embedding_status === undefined) return;
    if (!EMBEDDING_STATUSES.has(flags.embedding_status)) {
      throw ValidationError.of('embedding_status', 'enum', `must be one of ${[...EMBEDDING_STATUSES].join(', ')}`);
    }
    const info = this.statements.updateEmbeddingStatus.run(flags.embedding_status, tenantId, eventId);
    if (info.changes === 0) throw new NotFoundError('event_id', eventId);
  }

  async purgeExpired(now: string): Promise<number> {
    this.guard();
    const s = this.statements;
    const purge = this.db.transaction(() => {
      const seqs = (s.expiredSeqs.all(now) as Row[]).map((row) => row['seq'] as number);
      for (const seq of seqs) {
        s.deleteIndexed.run(seq);
        s.deleteEvent.run(seq);
      }
      return seqs.length;
    });
    return purge.immediate();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.db.close();
  }
}

function eventFilters(query: Omit<EventQuery, 'limit' | 'order' | 'cursor'>, prefix: string) {
  const where = [`${prefix}tenant_id = ?`, `(${prefix}expires_at IS NULL OR ${prefix}expires_at > ?)`];
  const params: unknown[] = [query.tenant_id, query.now];
  for (const column of ['user_id', 'agent_id', 'session_id', 'run_id'] as const) {
    const value = query[column];
    if (value !== undefined) {
      where.push(`${prefix}${column} = ?`);
      params.push(value);
    }
  }
  if (query.as_of !== undefined) {
    where.push(`${prefix}recorded_at <= ?`);
    params.push(query.as_of);
  }
  if (query.ts_from !== undefined) {
    where.push(`${prefix}ts >= ?`);
    params.push(query.ts_from);
  }
  if (query.ts_to !== undefined) {
    where.push(`${prefix}ts <= ?`);
    params.push(query.ts_to);
  }
  if (query.kinds !== undefined && query.kinds.length > 0) {
    where.push(`${prefix}kind IN (${query.kinds.map(() => '?').join(', ')})`);
    params.push(...query.kinds);
  }
  if (query.exclude_sensitivity !== undefined && query.exclude_sensitivity.length > 0) {
    where.push(`${prefix}sensitivity NOT IN (${query.exclude_sensitivity.map(() => '?').join(', ')})`);
    params.push(...query.exclude_sensitivity);
  }
  return { where, params };
}
