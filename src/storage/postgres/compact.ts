// Compacting a PostgreSQL store so deleted rows leave no bytes in its tables' files. Plain VACUUM
// only marks the space of dead rows free (their bytes stay in the pages until reused); VACUUM FULL
// writes each table and its indexes and TOAST anew and drops the old files, taking an ACCESS
// EXCLUSIVE lock on the table meanwhile. A rewrite keeps row versions that a transaction begun
// before it may still see, so compact first waits (a while) for such snapshots to end, and says so
// when they do not; and it says so when it may not rewrite the statistics catalog.

import type { CompactResult } from '../../spec/storage.js';
import type { SqlPool } from './client.js';

/** How long compact waits for snapshots older than itself before rewriting anyway. */
const SNAPSHOT_WAIT_MS = 10_000;
const SNAPSHOT_POLL_MS = 100;

/** The store's tables, their indexes and TOAST, in bytes. */
const STORE_BYTES = `SELECT coalesce(sum(pg_total_relation_size(format('%I.%I', schemaname, tablename)::regclass)), 0)::bigint
  FROM pg_tables WHERE schemaname = current_schema()`;

// What can hold rows the rewrite must keep: other sessions of this database whose transaction began
// before compact did and holds a snapshot, prepared transactions, and replication slots with an xmin.
// Sessions of other roles show their snapshot only to a role with pg_read_all_stats.
const OLDER_SNAPSHOTS = `SELECT
  (SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()
     AND backend_xmin IS NOT NULL AND xact_start < ?::timestamptz)::int AS sessions,
  (SELECT count(*) FROM pg_prepared_xacts WHERE database = current_database())::int AS prepared,
  (SELECT count(*) FROM pg_replication_slots WHERE xmin IS NOT NULL)::int AS slots`;

/** Polls until nothing older than `startedAt` holds a snapshot, or the wait ends; returns what still does. */
async function waitForOlderSnapshots(pool: SqlPool, startedAt: string): Promise<string[]> {
  const deadline = Date.now() + SNAPSHOT_WAIT_MS;
  for (;;) {
    const [row] = await pool.rows(OLDER_SNAPSHOTS, [startedAt]);
    const held = [
      [Number(row?.['sessions'] ?? 0), 'sessions of this database in a transaction begun before compact'],
      [Number(row?.['prepared'] ?? 0), 'prepared transactions'],
      [Number(row?.['slots'] ?? 0), 'replication slots holding an xmin'],
    ] as const;
    const holding = held.filter(([count]) => count > 0).map(([count, what]) => `${count} ${what}`);
    if (holding.length === 0 || Date.now() >= deadline) return holding;
    await new Promise((resolve) => setTimeout(resolve, SNAPSHOT_POLL_MS));
  }
}

/**
 * VACUUM FULL and ANALYZE of every table of the store's schema, one table at a time.
 *
 * @example
 * const { complete, not_done } = await compactTables(pool);
 */
export async function compactTables(pool: SqlPool): Promise<CompactResult> {
  const before = Number((await pool.arrays(STORE_BYTES, []))[0]?.[0] ?? 0);
  const startedAt = String((await pool.arrays('SELECT clock_timestamp()::text', []))[0]?.[0]);
  const holding = await waitForOlderSnapshots(pool, startedAt);
  const tables = await pool.arrays(
    'SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename',
    [],
  );
  // ANALYZE replaces the column statistics (pg_statistic), which sample the values of rows.
  for (const [table] of tables) await pool.rows(`VACUUM (FULL, ANALYZE) "${String(table).replaceAll('"', '""')}"`, []);
  const notDone =
    holding.length === 0
      ? []
      : [
          `rewrite: ${holding.join(', ')} still held snapshots after ${SNAPSHOT_WAIT_MS / 1000} s, so rows erased before they began may have been kept; run compact again once they end`,
        ];
  // The statistics ANALYZE replaced stay in pg_statistic's file as dead row versions until that
  // catalog is rewritten too, which only a superuser may do.
  const superuser =
    (await pool.arrays('SELECT rolsuper FROM pg_roles WHERE rolname = current_user', []))[0]?.[0] === true;
  if (superuser) {
    // The statistics ANALYZE just replaced are still visible to transactions begun before it: the
    // rewrite would keep them, so it waits for those to end too.
    const analysedAt = String((await pool.arrays('SELECT clock_timestamp()::text', []))[0]?.[0]);
    const reading = await waitForOlderSnapshots(pool, analysedAt);
    await pool.rows('VACUUM FULL pg_catalog.pg_statistic', []);
    if (reading.length > 0)
      notDone.push(
        `pg_statistic: ${reading.join(', ')} still held snapshots after ${SNAPSHOT_WAIT_MS / 1000} s, so statistics sampled from erased rows may have been kept; run compact again once they end`,
      );
  } else
    notDone.push(
      'pg_statistic: the column statistics catalog was not rewritten (only a superuser may), so values sampled from erased rows by an earlier ANALYZE can remain in its file; a superuser can run VACUUM FULL pg_catalog.pg_statistic',
    );
  return {
    before_bytes: before,
    after_bytes: Number((await pool.arrays(STORE_BYTES, []))[0]?.[0] ?? 0),
    complete: notDone.length === 0,
    not_done: notDone,
  };
}
