// engram/postgres: the PostgreSQL store (a server through `pg`, or PGlite in the process).

export { migratePostgres, openPostgresStorage, type PostgresStorageOptions } from './postgres-storage.js';
export type { MigrationResult } from '../../spec/storage.js';
export type { PGliteLike } from './client.js';
