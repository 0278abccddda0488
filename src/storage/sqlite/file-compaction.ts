// Compacting a SQLite store's files so deleted rows leave no bytes behind: full-text indexes
// rewritten, VACUUM, and the write-ahead log checkpointed and truncated. Other processes holding the
// file (a live server) can keep a step from finishing: a reader's snapshot keeps the log from being
// copied back and emptied, a writer keeps VACUUM out. Such a step is retried for a while, then
// reported as not done, never claimed.

import { existsSync, statSync } from 'node:fs';

import type Database from 'better-sqlite3';

import type { CompactResult } from '../../spec/storage.js';

/** How long the log's checkpoint is retried while other connections keep it busy. */
const LOG_RETRY_MS = 5_000;
/** The pause between two tries. */
const LOG_RETRY_PAUSE_MS = 50;

/** One row of `PRAGMA wal_checkpoint`: busy 1 when it could not finish, frames in the log, frames copied. */
interface CheckpointRow {
  busy: number;
  log: number;
  checkpointed: number;
}

/** SQLITE_BUSY and SQLITE_LOCKED (with their extended codes): another connection held the lock. */
function isBusy(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && /^SQLITE_(BUSY|LOCKED)/.test(code);
}

/**
 * The database file and its write-ahead log, in bytes (null in memory).
 *
 * @example
 * storeFileBytes('./.engram/engram.db') // 696320
 */
export function storeFileBytes(path: string): number | null {
  if (path === ':memory:' || path === '' || !existsSync(path)) return null;
  return statSync(path).size + (existsSync(`${path}-wal`) ? statSync(`${path}-wal`).size : 0);
}

/** Checkpoints the whole log into the file and truncates it, retrying while other connections keep it busy. */
async function truncateLog(db: Database.Database): Promise<{ done: boolean; tries: number; last: CheckpointRow }> {
  const started = Date.now();
  for (let tries = 1; ; tries += 1) {
    const last = (db.pragma('wal_checkpoint(TRUNCATE)') as CheckpointRow[])[0]!;
    if (last.busy === 0) return { done: true, tries, last };
    if (Date.now() - started >= LOG_RETRY_MS) return { done: false, tries, last };
    await new Promise((resolve) => setTimeout(resolve, LOG_RETRY_PAUSE_MS));
  }
}

/**
 * Compacts the store's file; what another process kept from being done is listed in `not_done`.
 *
 * @example
 * const { complete, not_done } = await compactFile(db);
 */
export async function compactFile(db: Database.Database): Promise<CompactResult> {
  const before = storeFileBytes(db.name);
  const notDone: string[] = [];
  const step = (what: string, run: () => void) => {
    try {
      run();
    } catch (error) {
      if (!isBusy(error)) throw error;
      notDone.push(`${what}: another process held the store (${(error as Error).message}), so this step did not run`);
    }
  };
  // 'optimize' rewrites each full-text index as one segment without the entries of deleted rows.
  step('full-text merge', () =>
    db.exec(
      "INSERT INTO events_fts(events_fts) VALUES('optimize'); INSERT INTO items_fts(items_fts) VALUES('optimize');",
    ),
  );
  // What the log holds now goes into the file first, as far as readers allow, so VACUUM reads less of the log.
  db.pragma('wal_checkpoint(PASSIVE)');
  step('VACUUM (rewriting the file without the free pages of deleted rows)', () => db.exec('VACUUM'));
  const log = await truncateLog(db);
  if (!log.done) {
    notDone.push(
      `write-ahead log: another connection kept it busy for ${LOG_RETRY_MS / 1000} s (${log.tries} tries; ${log.last.checkpointed} of ${log.last.log} frames copied back), so ` +
        `${db.name}-wal was not emptied and the file may still hold the pages VACUUM replaced: erased data can remain in both until compact runs while no other process reads the store`,
    );
  }
  return {
    before_bytes: before,
    after_bytes: storeFileBytes(db.name),
    complete: notDone.length === 0,
    not_done: notDone,
  };
}
