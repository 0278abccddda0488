// What the in-memory store keeps per session: turns (once per turn_id), the working state and the
// rolling summary (each replaced only at the version its writer read), the context builds composed,
// and the reads of the sessions area, with a tenant's scopes counted.

import {
  ConflictError,
  EngramError,
  type BuildQuery,
  type CommitTurnResult,
  type ContextBuild,
  type InsertTurnOp,
  type PutContextBuildOp,
  type PutSummaryOp,
  type PutWorkingStateOp,
  type ScopeCounts,
  type SessionCounts,
  type SessionKey,
  type SessionStorage,
  type StmSummary,
  type WorkingState,
} from '../../src/index.js';
import { keyOf, type Table } from './journal.js';
import { copy, inScope, keys, pageById, recordConflict, type MemoryState, type SessionRecordRow } from './state.js';

/** A versioned write of a session's record: what it writes, at which version, and the field a miss names. */
interface VersionedWrite<T> {
  table: Table<SessionRecordRow<T>>;
  key: SessionKey;
  record: T;
  version: number;
  expected: number;
  updatedAt: string;
  field: string;
}

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Inserts at expected version 0 (when there is none yet), else replaces the record stored at the expected version. */
function putAtVersion<T>(state: MemoryState, write: VersionedWrite<T>): void {
  const key = keys.session(write.key);
  const stored = write.table.get(key);
  const fits = write.expected === 0 ? stored === undefined : stored?.version === write.expected;
  if (!fits) throw ConflictError.ofVersion(write.field, write.expected, stored?.version ?? 0, 'concurrent');
  write.table.put(key, {
    seq: stored?.seq ?? state.nextSeq(),
    key: copy(write.key),
    record: copy(write.record),
    version: write.version,
    updated_at: write.updatedAt,
  });
}

/** The writes of session records (inside a write's transaction). */
export class SessionWrites {
  constructor(private readonly state: MemoryState) {}

  insertTurn(op: InsertTurnOp): void {
    const row = { seq: this.state.nextSeq(), key: copy(op.key), turn_id: op.turn_id, result: copy(op.result) };
    this.state.turns.insert(
      keys.turn(op.key, op.turn_id),
      row,
      () =>
        new EngramError('DUPLICATE_TURN', `turn_id: ${op.turn_id} was already committed in this session`, {
          field: 'turn_id',
        }),
    );
  }

  putWorkingState(op: PutWorkingStateOp): void {
    putAtVersion(this.state, {
      table: this.state.workingStates,
      key: op.key,
      record: op.state,
      version: op.state.state_version,
      expected: op.expected_version,
      updatedAt: op.updated_at,
      field: 'state_patch.expected_version',
    });
  }

  putSummary(op: PutSummaryOp): void {
    putAtVersion(this.state, {
      table: this.state.summaries,
      key: op.key,
      record: op.summary,
      version: op.summary.version,
      expected: op.expected_version,
      updatedAt: op.summary.updated_at,
      field: 'summary.version',
    });
  }

  putBuild(op: PutContextBuildOp): void {
    const row = { seq: this.state.nextSeq(), record: copy(op.build) };
    this.state.builds.insert(keys.byId(op.build.tenant_id, op.build.id), row, () =>
      recordConflict('context_builds', 'id', op.build.id),
    );
  }
}

/** The sessions area of the storage contract: what a caller is given. */
export class SessionArea implements SessionStorage {
  constructor(private readonly state: MemoryState) {}

  async getTurn(key: SessionKey, turnId: string): Promise<CommitTurnResult | null> {
    const row = this.state.turns.get(keys.turn(key, turnId));
    return row === undefined ? null : copy(row.result);
  }

  async getWorkingState(key: SessionKey): Promise<WorkingState | null> {
    const row = this.state.workingStates.get(keys.session(key));
    return row === undefined ? null : copy(row.record);
  }

  async getSummary(key: SessionKey): Promise<StmSummary | null> {
    const row = this.state.summaries.get(keys.session(key));
    return row === undefined ? null : copy(row.record);
  }

  async scopeCounts(tenantId: string, limit: number): Promise<ScopeCounts> {
    const sessions = new Map<string, SessionCounts>();
    for (const { event } of this.state.events.values()) {
      if (event.tenant_id !== tenantId) continue;
      const key = keyOf(event.user_id, event.agent_id, event.session_id, event.run_id);
      const counts = sessions.get(key);
      if (counts === undefined) {
        const { user_id, agent_id, session_id, run_id, ts } = event;
        sessions.set(key, { user_id, agent_id, session_id, run_id, events: 1, first_ts: ts, last_ts: ts });
        continue;
      }
      counts.events += 1;
      if (event.ts < counts.first_ts) counts.first_ts = event.ts;
      if (event.ts > counts.last_ts) counts.last_ts = event.ts;
    }
    const users = new Map<string, { items: number; pending_candidates: number }>();
    const user = (id: string) => users.get(id) ?? users.set(id, { items: 0, pending_candidates: 0 }).get(id)!;
    for (const session of sessions.values()) user(session.user_id);
    for (const { item } of this.state.items.values())
      if (item.tenant_id === tenantId && item.user_id !== null && item.status === 'active')
        user(item.user_id).items += 1;
    for (const { record } of this.state.candidates.values())
      if (record.tenant_id === tenantId && record.status === 'pending') user(record.user_id).pending_candidates += 1;
    const latestFirst = (a: SessionCounts, b: SessionCounts) =>
      compare(b.last_ts, a.last_ts) ||
      compare(a.user_id, b.user_id) ||
      compare(a.agent_id, b.agent_id) ||
      compare(a.session_id, b.session_id) ||
      compare(a.run_id, b.run_id);
    return {
      sessions: [...sessions.values()].sort(latestFirst).slice(0, limit),
      users: [...users.entries()]
        .sort(([a], [b]) => compare(a, b))
        .map(([user_id, counts]) => ({ user_id, ...counts })),
    };
  }

  async getBuild(tenantId: string, buildId: string): Promise<ContextBuild | null> {
    const row = this.state.builds.get(keys.byId(tenantId, buildId));
    return row === undefined ? null : copy(row.record);
  }

  async listBuilds(query: BuildQuery): Promise<ContextBuild[]> {
    const after = query.created_after;
    const found = this.state.builds
      .values()
      .map((row) => row.record)
      .filter((build) => inScope(build, query) && (after === undefined || build.created_at > after));
    return pageById(found, (build) => build.id, { ...query, order: 'desc' }).map(copy);
  }
}
