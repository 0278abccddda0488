// The PostgreSQL connection the stores talk through: a pool of `pg` connections to a server, or one
// PGlite instance in the process. Both take SQL written with `?` placeholders (numbered here), return
// rows as objects or as arrays, and run a callback in one transaction on one connection.

import { StorageError } from '../../spec/errors.js';
import type { Row } from '../shared/rows.js';

/** Queries on one connection (or the pool, for single statements). */
export interface Sql {
  /** Rows as objects keyed by column name. */
  rows(sql: string, params?: readonly unknown[]): Promise<Row[]>;
  /** Rows as arrays of values in the order of the selected columns. */
  arrays(sql: string, params?: readonly unknown[]): Promise<unknown[][]>;
  /** Runs a statement; returns how many rows it changed. */
  run(sql: string, params?: readonly unknown[]): Promise<number>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export interface SqlPool extends Sql {
  /** Runs `fn` in one transaction (READ COMMITTED) on one connection: committed if it returns, rolled back if it throws. */
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
  /** Runs `fn` on one connection outside a transaction (session-level locks). */
  session<T>(fn: (connection: Sql) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** What the store calls on a PGlite instance or one of its transactions. */
export interface PGliteQueryable {
  query<T>(
    sql: string,
    params?: unknown[],
    options?: { rowMode?: 'array' | 'object' },
  ): Promise<{ rows: T[]; affectedRows?: number }>;
  exec(sql: string): Promise<unknown>;
}

/** The part of a PGlite instance the store uses (so the package does not depend on PGlite). */
export interface PGliteLike extends PGliteQueryable {
  transaction<T>(fn: (tx: PGliteQueryable) => Promise<T>): Promise<T>;
}

const numbered = new Map<string, string>();

/** `?` placeholders as `$1, $2, …` (the SQL of the stores has no `?` in literals). */
export function numberPlaceholders(sql: string): string {
  let out = numbered.get(sql);
  if (out === undefined) {
    let index = 0;
    out = sql.replace(/\?/g, () => `$${(index += 1)}`);
    if (numbered.size > 2000) numbered.clear();
    numbered.set(sql, out);
  }
  return out;
}

/** A PostgreSQL error's SQLSTATE (for example 23505, unique_violation), or undefined. */
export function sqlState(error: unknown): string | undefined {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

/** True when the error is a UNIQUE (or primary key) violation. */
export function isUniqueViolation(error: unknown): boolean {
  return sqlState(error) === '23505';
}

/** Lower-case, digits and underscores only: a schema name that needs no quoting. */
export function checkSchemaName(schema: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
    throw new StorageError(
      `schema: ${JSON.stringify(schema)} must be lower-case letters, digits and underscores, starting with a letter`,
      { field: 'schema' },
    );
  }
  return schema;
}

// ---- pg ------------------------------------------------------------------------------------------

interface PgQueryResult {
  rows: unknown[];
  rowCount: number | null;
}
interface PgClient {
  query(config: { text: string; values?: unknown[]; rowMode?: 'array' }): Promise<PgQueryResult>;
  release(error?: Error | boolean): void;
}
interface PgPool {
  query(config: { text: string; values?: unknown[]; rowMode?: 'array' }): Promise<PgQueryResult>;
  connect(): Promise<PgClient>;
  end(): Promise<void>;
  on(event: 'error', listener: (error: Error) => void): void;
}
interface PgModule {
  Pool: new (config: Record<string, unknown>) => PgPool;
  types: { getTypeParser(oid: number, format?: string): (value: string) => unknown };
}

const INT8_OID = 20;

function wrap(query: PgClient['query'] | PgPool['query']): Sql {
  return {
    rows: async (sql, params = []) =>
      (await query({ text: numberPlaceholders(sql), values: [...params] })).rows as Row[],
    arrays: async (sql, params = []) =>
      (await query({ text: numberPlaceholders(sql), values: [...params], rowMode: 'array' })).rows as unknown[][],
    run: async (sql, params = []) =>
      (await query({ text: numberPlaceholders(sql), values: [...params] })).rowCount ?? 0,
    // Without values pg sends the simple protocol, which takes several statements.
    exec: async (sql) => {
      await query({ text: sql });
    },
  };
}

/** Loads the `pg` driver, or fails saying what to install. */
async function loadPg(): Promise<PgModule> {
  try {
    const module = (await import('pg')) as unknown as { default?: PgModule } & PgModule;
    return module.default ?? module;
  } catch (error) {
    throw new StorageError('the PostgreSQL store needs the `pg` driver: run `npm install pg`', {
      field: 'store',
      cause: error,
    });
  }
}

export interface PgPoolOptions {
  connectionString: string;
  schema: string;
  max: number;
  /** Sent as application_name (seen in pg_stat_activity). */
  applicationName: string;
}

/** A pool of connections to a PostgreSQL server, every connection on `schema`. */
export async function pgPool(options: PgPoolOptions): Promise<SqlPool> {
  const pg = await loadPg();
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.max,
    application_name: options.applicationName,
    // Extensions (pgvector) live in public; Engram's tables in the schema, found first.
    options: `-c search_path=${options.schema},public`,
    // Counts and identity columns are bigint; they stay far below 2^53, so numbers are safe.
    types: {
      getTypeParser: (oid: number, format?: string) =>
        oid === INT8_OID ? Number : pg.types.getTypeParser(oid, format),
    },
  });
  // An idle connection that the server drops must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  const base = wrap(pool.query.bind(pool));
  async function withClient<T>(fn: (client: PgClient) => Promise<T>): Promise<T> {
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      return await fn(client);
    } catch (error) {
      // A connection that failed below SQL (reset, timeout) is thrown away, not reused.
      if (sqlState(error) === undefined) broken = error as Error;
      throw error;
    } finally {
      client.release(broken);
    }
  }
  return {
    ...base,
    transaction: (fn) =>
      withClient(async (client) => {
        await client.query({ text: 'BEGIN' });
        try {
          const result = await fn(wrap(client.query.bind(client)));
          await client.query({ text: 'COMMIT' });
          return result;
        } catch (error) {
          await client.query({ text: 'ROLLBACK' }).catch(() => undefined);
          throw error;
        }
      }),
    session: (fn) => withClient((client) => fn(wrap(client.query.bind(client)))),
    close: () => pool.end(),
  };
}

// ---- PGlite ----------------------------------------------------------------------------------------

function wrapLite(db: PGliteQueryable): Sql {
  return {
    rows: async (sql, params = []) => (await db.query<Row>(numberPlaceholders(sql), [...params])).rows,
    arrays: async (sql, params = []) =>
      (await db.query<unknown[]>(numberPlaceholders(sql), [...params], { rowMode: 'array' })).rows,
    run: async (sql, params = []) => (await db.query(numberPlaceholders(sql), [...params])).affectedRows ?? 0,
    exec: async (sql) => {
      await db.exec(sql);
    },
  };
}

/** A PGlite instance as a pool of one connection (PGlite runs one query at a time). */
export function pglitePool(db: PGliteLike): SqlPool {
  return {
    ...wrapLite(db),
    transaction: (fn) => db.transaction((tx) => fn(wrapLite(tx))),
    session: (fn) => fn(wrapLite(db)),
    close: async () => undefined,
  };
}
