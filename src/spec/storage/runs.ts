// The runs area of the storage contract: a run's compaction state, its evidence ledger and the
// snapshots compaction appended (none of which ever change once written).

import type { LedgerEntry, RunKey, RunState, SnapshotRecord } from '../compaction.js';

export interface SnapshotQuery {
  tenant_id: string;
  user_id?: string;
  agent_id?: string;
  run_id?: string;
  /** Only snapshots created at or before this time. */
  created_at_or_before?: string;
  /**
   * `asc` (default): by sequence, oldest first; snapshots of different runs with the same sequence
   * in the order they were stored. `desc`: the reverse.
   */
  order?: 'asc' | 'desc';
  /** Page after this snapshot id in the chosen order (an id the tenant does not have: an empty page). */
  cursor?: string;
  limit: number;
}

/**
 * Reads of run state, ledgers and snapshots (writes go through `StorageAdapter.write`).
 *
 * @example
 * const state = await storage.runs.getState({ tenant_id: 'default', user_id: 'u1', agent_id: 'a1', run_id: 'r1' });
 */
export interface RunStorage {
  /** A run's state, null before its first put_run_state. */
  getState(run: RunKey): Promise<RunState | null>;
  /** The entries of a run's ledger with these evidence ids (the ones it has, each once, in any order). */
  ledgerEntries(run: RunKey, evidenceIds: readonly string[]): Promise<LedgerEntry[]>;
  /** A stored snapshot by its snapshot_id. */
  getSnapshot(tenantId: string, snapshotId: string): Promise<SnapshotRecord | null>;
  /** Snapshots by sequence, oldest first (or newest first with `order: 'desc'`). */
  listSnapshots(query: SnapshotQuery): Promise<SnapshotRecord[]>;
}
