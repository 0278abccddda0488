// Ordered schema migrations of the SQLite store; a migration's index in the list is its version
// (kept in PRAGMA user_version). Never edit a released migration: append a new one (to
// migrations-additions.ts, or a new file of its own concept listed last below).

import type { Migration } from '../shared/migration.js';
import { additionMigrations } from './migrations-additions.js';
import { memoryMigrations } from './migrations-memory.js';
import { reflectionAndRunMigrations } from './migrations-reflection-runs.js';
import { serviceMigrations } from './migrations-service.js';

export const migrations: readonly Migration[] = [
  ...memoryMigrations, // 1–3
  ...reflectionAndRunMigrations, // 4–5
  ...serviceMigrations, // 6–7
  ...additionMigrations, // 8–15
];
