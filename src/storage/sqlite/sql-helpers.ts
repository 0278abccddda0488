// What only the SQLite stores need beyond the shared row helpers.

/** True when a better-sqlite3 error is a UNIQUE constraint violation. */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'SQLITE_CONSTRAINT_UNIQUE';
}
