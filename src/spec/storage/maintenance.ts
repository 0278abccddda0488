// The maintenance area of the storage contract: what works on a store as a whole: purging expired
// events, exporting and erasing a tenant's or user's records, and giving space back.

import type { EventRecord } from '../event.js';
import type { SessionKey } from '../scope.js';
import type { StmSummary } from '../summary.js';
import type { WorkingState } from '../working-state.js';
import type { CommitTurnResult } from '../requests.js';
import type { MemoryItem } from '../items.js';
import type { LedgerEntry, RunKey, RunState, SnapshotRecord } from '../compaction.js';
import type { InsightRecord, ReflectionRecord, ReviewCandidate } from '../reflection.js';
import type { ContextBuild } from './sessions.js';

/**
 * What compacting a store did: the size of its files before and after (SQLite: the file and its
 * write-ahead log; PostgreSQL: the store's tables with their indexes and TOAST; null in memory), and
 * whether every step did its whole job. When `complete` is false, `not_done` says what other
 * processes kept it from doing: erased data may then still be in the files until compact runs again.
 */
export interface CompactResult {
  before_bytes: number | null;
  after_bytes: number | null;
  complete: boolean;
  not_done: string[];
}

// Moving a tenant (or one user of it) between stores (see spec/export.ts for EXPORT_KINDS).

/** What an export covers: a whole tenant, or one user of it. */
export interface ExportScope {
  tenant_id: string;
  user_id?: string;
}

/** One record of an export; `kind` says which. */
export type ExportRecord =
  | { kind: 'event'; event: EventRecord }
  | { kind: 'turn'; key: SessionKey; turn_id: string; result: CommitTurnResult }
  | { kind: 'working_state'; key: SessionKey; state: WorkingState; updated_at: string }
  | { kind: 'summary'; key: SessionKey; summary: StmSummary }
  | { kind: 'item'; item: MemoryItem }
  | { kind: 'context_build'; build: ContextBuild }
  | { kind: 'reflection'; record: ReflectionRecord }
  | { kind: 'candidate'; candidate: ReviewCandidate }
  | { kind: 'insight'; insight: InsightRecord }
  | { kind: 'run_state'; state: RunState }
  | { kind: 'ledger'; run: RunKey; entry: LedgerEntry }
  | { kind: 'snapshot'; record: SnapshotRecord };

export type ExportKind = ExportRecord['kind'];

/** What erasing a user or a session removed, by table. */
export type EraseCounts = Record<string, number>;

/** A user (all their data) or one of their sessions to erase. */
export interface EraseScope {
  tenant_id: string;
  user_id: string;
  /**
   * Only this session: its events, turns, working state, summary, builds and candidates; the items
   * all of whose sources were in it (the user's other items lose the session's events from their
   * sources); and every record of the runs it took part in (reflections, candidates, insights, run
   * states, ledgers, snapshots, builds and jobs of those runs, in any session), since each of them
   * summarises the whole run.
   */
  session_id?: string;
  /** When the erase runs, as redacted builds record it (default: now). */
  at?: string;
}

/**
 * Work on a store as a whole.
 *
 * @example
 * const counts = await storage.maintenance.erase({ tenant_id: 'default', user_id: 'u1' });
 */
export interface MaintenanceStorage {
  /** Deletes events whose `expires_at` is at or before `now`, with their index entries; returns how many. */
  purgeExpired(now: string): Promise<number>;
  /**
   * Every record of a tenant (or one user of it), read page by page (memory stays flat however large
   * the store): the events in the order they were written, each turn right after the last event its
   * result lists (so an import can write a turn with its events), turns none of whose events are
   * there after them; then the other kinds in EXPORT_KINDS order, each in the order it was written.
   * Derived data (chunks, full-text entries, vectors) and API keys are not exported.
   */
  exportRecords(scope: ExportScope): AsyncIterable<ExportRecord>;
  /**
   * Deletes a user (or one session of theirs) in one transaction: events with their full-text
   * entries and vectors, turns, working states, summaries, context builds, items with their chunks,
   * reflections, candidates, insights, run states, ledgers, snapshots and queued jobs (a session: see
   * EraseScope). Copies elsewhere go too: every remaining context build (of another user or session)
   * that quoted or cited an erased event, item or insight is redacted (see ContextBuild.redactions,
   * counted as `context_builds_redacted`).
   */
  erase(scope: EraseScope): Promise<EraseCounts>;
  /**
   * Gives the space of deleted rows back and rewrites what still holds their bytes (SQLite: merges the
   * full-text indexes, checkpoints the write-ahead log and VACUUMs the file; PostgreSQL: VACUUM FULL
   * and ANALYZE of each of the store's tables, which holds each table exclusively while it is
   * rewritten), so erased data is gone from the files too. Reads are unchanged. What another process
   * kept it from doing is reported, never claimed done (CompactResult.complete).
   */
  compact(): Promise<CompactResult>;
  /**
   * One bounded step of full-text index upkeep, for a background worker: SQLite merges segments of
   * its FTS5 indexes (about `pages` pages written; levels holding two or more segments), PostgreSQL
   * moves the pending entries of its GIN indexes into the index. A read costs about a seek per
   * segment, so a store whose index was written in many small transactions (a bulk import, or a
   * long run of single turns) reads faster once merged. True when the step did some work (call
   * again until false). Reads return the same rows either way.
   */
  mergeIndexes(pages: number): Promise<boolean>;
}
