// A digest of every row of every table of a store, read with a separate connection, so a test can
// prove that a rejected call changed nothing (no partial write) and that an erase left no trace.

import { createHash } from 'node:crypto';

import Database from 'better-sqlite3';
import pg from 'pg';

/**
 * The rows of every table of the SQLite file at `path`, by table (full-text shadow tables included).
 *
 * @example
 * const before = sqliteRows(t.path);
 */
export function sqliteRows(path: string): Record<string, unknown[]> {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
      .pluck()
      .all() as string[];
    const rows: Record<string, unknown[]> = {};
    for (const table of tables) {
      try {
        rows[table] = db.prepare(`SELECT * FROM "${table}"`).raw().all();
      } catch {
        // A virtual table whose module this connection lacks: its shadow tables hold its rows.
      }
    }
    return rows;
  } finally {
    db.close();
  }
}

/** The rows of every base table of a PostgreSQL schema, by table, in a stable order. */
export async function postgresRows(url: string, schema: string): Promise<Record<string, unknown[]>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables = await client.query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_type = 'BASE TABLE' ORDER BY table_name",
      [schema],
    );
    const rows: Record<string, unknown[]> = {};
    for (const { table_name: table } of tables.rows) {
      const result = await client.query({ text: `SELECT * FROM "${schema}"."${table}" ORDER BY 1`, rowMode: 'array' });
      rows[table] = result.rows;
    }
    return rows;
  } finally {
    await client.end();
  }
}

/** A SHA-256 of rows by table (Buffers and BigInts hashed by value). */
export function digestOf(rows: Record<string, unknown[]>): string {
  const text = JSON.stringify(rows, (_key, value: unknown) => {
    if (typeof value === 'bigint') return `${value}n`;
    if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
    return value;
  });
  return createHash('sha256').update(text).digest('hex');
}

/** The digest of a SQLite file's rows. */
export function sqliteDigest(path: string): string {
  return digestOf(sqliteRows(path));
}
