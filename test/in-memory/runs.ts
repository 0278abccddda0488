// Runs in the in-memory store: each run's state (replaced only at the version its writer read), its
// evidence ledger (the first entry of an evidence id stays), its append-only snapshots, and the
// reads of the runs area.

import {
  ConflictError,
  type LedgerEntry,
  type PutEvidenceOp,
  type PutRunStateOp,
  type PutSnapshotOp,
  type RunKey,
  type RunState,
  type RunStorage,
  type SnapshotQuery,
  type SnapshotRecord,
} from '../../src/index.js';
import { keyOf } from './journal.js';
import { copy, inScope, keys, type MemoryState, type RecordRow } from './state.js';

/** A snapshot's key in its run: one snapshot per sequence. */
const sequenceKey = (record: SnapshotRecord): string =>
  keyOf(record.tenant_id, record.user_id, record.agent_id, record.run_id, record.snapshot.sequence);

/** The writes of run states, ledgers and snapshots (inside a write's transaction). */
export class RunWrites {
  constructor(private readonly state: MemoryState) {}

  /** Inserts (expected version 0, over no stored state) or replaces the state stored at the expected version. */
  putRunState(op: PutRunStateOp): void {
    const key = keys.run(op.state);
    const stored = this.state.runStates.get(key);
    const fits = op.expected_version === 0 ? stored === undefined : stored?.record.version === op.expected_version;
    if (!fits)
      throw ConflictError.ofVersion('run.version', op.expected_version, stored?.record.version ?? 0, 'concurrent');
    this.state.runStates.put(key, { seq: stored?.seq ?? this.state.nextSeq(), record: copy(op.state) });
  }

  putEvidence(op: PutEvidenceOp): void {
    for (const entry of op.entries) {
      const key = keyOf(keys.run(op.run), entry.evidence_id);
      if (!this.state.ledger.has(key))
        this.state.ledger.put(key, { seq: this.state.nextSeq(), run: copy(op.run), entry: copy(entry) });
    }
  }

  /** Appends a snapshot; a run's sequence or a snapshot id taken already is a conflict. */
  putSnapshot(op: PutSnapshotOp): void {
    const { record } = op;
    const { snapshot_id: id, sequence } = record.snapshot;
    const taken =
      this.state.snapshots.has(keys.byId(record.tenant_id, id)) ||
      this.state.snapshots.values().some((row) => sequenceKey(row.record) === sequenceKey(record));
    if (taken)
      throw new ConflictError(
        `snapshot.sequence: run ${record.run_id} already has snapshot ${sequence} (or id ${id} is taken); another writer stored it first`,
        {
          field: 'snapshot.sequence',
          origin: 'concurrent',
          details: { snapshot_id: id, run_id: record.run_id, sequence },
        },
      );
    this.state.snapshots.put(keys.byId(record.tenant_id, id), { seq: this.state.nextSeq(), record: copy(record) });
  }
}

/** The runs area of the storage contract: what a caller is given. */
export class RunArea implements RunStorage {
  constructor(private readonly state: MemoryState) {}

  async getState(run: RunKey): Promise<RunState | null> {
    const row = this.state.runStates.get(keys.run(run));
    return row === undefined ? null : copy(row.record);
  }

  async ledgerEntries(run: RunKey, evidenceIds: readonly string[]): Promise<LedgerEntry[]> {
    const found: LedgerEntry[] = [];
    for (const id of new Set(evidenceIds)) {
      const row = this.state.ledger.get(keyOf(keys.run(run), id));
      if (row !== undefined) found.push(copy(row.entry));
    }
    return found;
  }

  async getSnapshot(tenantId: string, snapshotId: string): Promise<SnapshotRecord | null> {
    const row = this.state.snapshots.get(keys.byId(tenantId, snapshotId));
    return row === undefined ? null : copy(row.record);
  }

  /** By sequence, then in the order stored; a page starts after the cursor snapshot's place. */
  async listSnapshots(query: SnapshotQuery): Promise<SnapshotRecord[]> {
    const sign = query.order === 'desc' ? -1 : 1;
    const place = (row: RecordRow<SnapshotRecord>) => [row.record.snapshot.sequence, row.seq] as const;
    const before = (a: readonly [number, number], b: readonly [number, number]) =>
      (a[0] - b[0] || a[1] - b[1]) * sign < 0;
    let after: readonly [number, number] | undefined;
    if (query.cursor !== undefined) {
      const cursor = this.state.snapshots.get(keys.byId(query.tenant_id, query.cursor));
      // A snapshot the tenant does not have starts nothing.
      if (cursor === undefined) return [];
      after = place(cursor);
    }
    return this.state.snapshots
      .values()
      .filter(
        ({ record }) =>
          inScope(record, query) &&
          (query.created_at_or_before === undefined || record.snapshot.created_at <= query.created_at_or_before),
      )
      .filter((row) => after === undefined || before(after, place(row)))
      .sort((a, b) => (before(place(a), place(b)) ? -1 : 1))
      .slice(0, query.limit)
      .map((row) => copy(row.record));
  }
}
