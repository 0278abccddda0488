// A write that would store a second row under a key a table holds once (a primary key or unique
// index of ids): a RECORD_CONFLICT naming the table and its key, which a caller must not retry as
// it would a storage failure. Each adapter reads the table and columns from its driver's error.

import { ConflictError, type EngramError } from '../../spec/errors.js';

/**
 * The conflict of a duplicate key: field `<table>.<key columns but tenant_id>`.
 *
 * @example
 * duplicateKey('events', ['tenant_id', 'id'], cause).field // 'events.id'
 */
export function duplicateKey(table: string, columns: readonly string[], cause: unknown): EngramError {
  const key = columns.filter((column) => column !== 'tenant_id');
  const field = `${table}.${(key.length > 0 ? key : columns).join(',')}`;
  return new ConflictError(
    `${field}: the store already holds a record with this key (${table}: ${columns.join(', ')}); nothing of the write was stored`,
    {
      code: 'RECORD_CONFLICT',
      field,
      origin: 'caller',
      cause,
      details: { table, columns: [...columns] },
    },
  );
}

/**
 * The conflict of a SQLite UNIQUE or PRIMARY KEY failure ("UNIQUE constraint failed: events.tenant_id,
 * events.id"), or null for any other error.
 *
 * @example
 * sqliteDuplicateKey(error)?.code // 'RECORD_CONFLICT'
 */
export function sqliteDuplicateKey(error: unknown): EngramError | null {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  if (code !== 'SQLITE_CONSTRAINT_UNIQUE' && code !== 'SQLITE_CONSTRAINT_PRIMARYKEY') return null;
  const match = /constraint failed: (.+)$/.exec((error as Error).message);
  const qualified = match === null ? [] : match[1]!.split(',').map((column) => column.trim());
  const table = qualified[0]?.split('.')[0] ?? 'unknown';
  return duplicateKey(
    table,
    qualified.map((column) => column.slice(column.indexOf('.') + 1)),
    error,
  );
}

/**
 * The conflict of a PostgreSQL unique violation (SQLSTATE 23505, "Key (tenant_id, id)=(…) already
 * exists."), or null for any other error.
 *
 * @example
 * postgresDuplicateKey(error)?.field // 'events.id'
 */
export function postgresDuplicateKey(error: unknown): EngramError | null {
  if (typeof error !== 'object' || error === null) return null;
  const { code, table, detail } = error as { code?: unknown; table?: unknown; detail?: unknown };
  if (code !== '23505') return null;
  const match = typeof detail === 'string' ? /^Key \(([^)]*)\)=/.exec(detail) : null;
  const columns = match === null ? [] : match[1]!.split(',').map((column) => column.trim());
  return duplicateKey(typeof table === 'string' ? table : 'unknown', columns, error);
}
