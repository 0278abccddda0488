// What only the SQLite stores need beyond the shared row helpers: telling a UNIQUE violation from
// other failures, and preparing a set of shared statements once.

import type Database from 'better-sqlite3';

/** True when a better-sqlite3 error is a UNIQUE constraint violation. */
export function isUniqueViolation(error: unknown): boolean {
  return (
    typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'SQLITE_CONSTRAINT_UNIQUE'
  );
}

/**
 * Every statement of a set (such as REFLECTION_SQL) prepared once, under its name in the set.
 *
 * @example
 * const s = prepareAll(db, REFLECTION_SQL);
 * s.getInsight.get(tenantId, insightId);
 */
export function prepareAll<T extends Record<string, string>>(
  db: Database.Database,
  statements: T,
): { [K in keyof T]: Database.Statement } {
  const prepared = {} as { [K in keyof T]: Database.Statement };
  for (const name of Object.keys(statements) as Array<keyof T>) prepared[name] = db.prepare(statements[name]!);
  return prepared;
}
