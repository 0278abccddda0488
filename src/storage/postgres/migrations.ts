// Ordered schema migrations of the PostgreSQL store, applied by migrate.ts under an advisory lock.
// A migration's position in the list is its version (recorded in engram_migrations). Never edit a
// released migration: append a new one (to migrations-additions.ts, or a new file of its own
// concept listed last below).
//
// Every table leads its primary key and indexes with tenant_id, so the tables can be distributed by
// tenant (Citus: `SELECT create_distributed_table('events', 'tenant_id')`) without changing a query.
// Columns mirror the SQLite store (src/storage/sqlite/migrations.ts) so both read and write the same
// rows (src/storage/shared/): times are ISO-8601 text, JSON is text (kept byte for byte, so a
// replayed packet is identical), flags are integers.

import type { Migration } from '../shared/migration.js';
import { additionMigrations } from './migrations-additions.js';
import { memoryMigrations } from './migrations-memory.js';
import { reflectionAndRunMigrations } from './migrations-reflection-runs.js';
import { serviceMigrations } from './migrations-service.js';

export const migrations: readonly Migration[] = [
  ...memoryMigrations, // 1–3
  ...reflectionAndRunMigrations, // 4–5
  ...serviceMigrations, // 6–7
  ...additionMigrations, // 8–14
];
