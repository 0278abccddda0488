// Helpers shared by the SQL adapters (SQLite and PostgreSQL): rows, placeholders, JSON columns and
// WHERE clauses built tenant first. SQL is written with `?` placeholders; the PostgreSQL client
// numbers them.

/** A row read as an object keyed by column name. */
export type Row = Record<string, unknown>;

/** `?, ?, …`, one placeholder per value. */
export function placeholders(values: readonly unknown[]): string {
  return values.map(() => '?').join(', ');
}

/**
 * A row limit bound as a parameter. SQLite (3.53, as better-sqlite3 bundles it) lets its planner read
 * the value bound to a bare `LIMIT ?`, so binding it again expires the statement and every run
 * compiles it anew: about 6 µs on an index read that itself takes 5. Behind a CAST the compiled
 * statement is kept. PostgreSQL plans both alike.
 */
export const BOUND_LIMIT = 'LIMIT CAST(? AS INTEGER)';

/** A stored token count read back (a column absent from an older row reads as null). */
export function textTokensOf(value: unknown): number | null {
  return value === null || value === undefined ? null : Number(value);
}

/**
 * A JSON column read back. The empty list and object, which most list and metadata columns of a
 * row hold, are made without the parser (a new one each time: callers may change what they get).
 */
export function json<T>(value: unknown): T {
  if (value === '[]') return [] as T;
  if (value === '{}') return {} as T;
  return JSON.parse(value as string) as T;
}

/** A nullable JSON column read back. */
export function jsonOrNull<T>(value: unknown): T | null {
  return value === null || value === undefined ? null : json<T>(value);
}

/** A WHERE clause under construction: tenant first, then each filter the query gives. */
export class Filters {
  readonly where: string[];
  readonly params: unknown[];

  constructor(tenantId: string) {
    this.where = ['tenant_id = ?'];
    this.params = [tenantId];
  }

  equals(column: string, value: string | undefined): this {
    if (value === undefined) return this;
    this.where.push(`${column} = ?`);
    this.params.push(value);
    return this;
  }

  within(column: string, values: readonly string[] | undefined): this {
    if (values === undefined) return this;
    this.where.push(values.length === 0 ? 'FALSE' : `${column} IN (${placeholders(values)})`);
    this.params.push(...values);
    return this;
  }

  clause(sql: string, ...params: unknown[]): this {
    this.where.push(sql);
    this.params.push(...params);
    return this;
  }

  /** Pages after `cursor` in the chosen order of `column`. */
  after(column: string, order: 'asc' | 'desc', cursor: string | undefined): this {
    return cursor === undefined ? this : this.clause(`${column} ${order === 'desc' ? '<' : '>'} ?`, cursor);
  }
}
