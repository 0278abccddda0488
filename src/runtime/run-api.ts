// The run API: a run's recorded state and compaction counters, resuming a run that a failed
// snapshot stopped, and the run's snapshots with their deterministic narrative.

import type { ListSnapshotsRequest, ResumeRunRequest, RunScope, RunState, SnapshotRecord } from '../spec/compaction.js';
import { NotFoundError } from '../spec/errors.js';
import { DEFAULT_TENANT } from '../spec/scope.js';
import type { StorageAdapter } from '../spec/storage.js';
import { validateRunRequest } from '../spec/validators.js';
import { renderNarrative } from '../compaction/narrative.js';
import { requireId, tenantOrDefault } from './arguments.js';

export interface RunApiContext {
  storage: StorageAdapter;
  now: () => string;
}

/** A run's state, its snapshots and their narrative (`engram.runs`). */
export interface Runs {
  /** What the run has recorded (objective, claims, counters, status); null for a run with none. */
  get(scope: RunScope): Promise<RunState | null>;
  /** Resumes a stopped run; its next commit_turn is accepted again. */
  resume(request: ResumeRunRequest): Promise<RunState>;
  /** Snapshots of a user's runs, oldest first (one run with `scope.run_id`). */
  snapshots(request: ListSnapshotsRequest): Promise<SnapshotRecord[]>;
  /** One snapshot by id. */
  snapshot(snapshotId: string, tenantId?: string): Promise<SnapshotRecord>;
  /** The snapshot's narrative Markdown: rendered from the snapshot alone, the same bytes every time. */
  narrative(snapshotId: string, tenantId?: string): Promise<string>;
}

const keyOf = (scope: RunScope) => ({
  tenant_id: scope.tenant_id ?? DEFAULT_TENANT,
  user_id: scope.user_id,
  agent_id: scope.agent_id,
  run_id: scope.run_id,
});

async function snapshotById(
  context: RunApiContext,
  snapshotId: string,
  tenantId: string | undefined,
): Promise<SnapshotRecord> {
  requireId('snp', snapshotId, 'snapshot_id');
  const record = await context.storage.runs.getSnapshot(tenantOrDefault(tenantId), snapshotId);
  if (record === null) throw new NotFoundError('snapshot_id', snapshotId);
  return record;
}

/**
 * The run operations over a context (made fresh per call, so a closed Engram fails typed).
 *
 * @example
 * const runs = runsOf(() => context);
 * await runs.resume({ scope: { user_id: 'mira', agent_id: 'assistant', run_id: 'r1' }, by: 'ops', note: 'objective restored' });
 */
export function runsOf(context: () => RunApiContext): Runs {
  return {
    get: async (scope) => {
      const request = validateRunRequest<{ scope: RunScope }>('get_run', { scope });
      return context().storage.runs.getState(keyOf(request.scope));
    },
    resume: async (input) => {
      const request = validateRunRequest<ResumeRunRequest>('resume_run', input);
      const ctx = context();
      const state = await ctx.storage.runs.getState(keyOf(request.scope));
      if (state === null) throw new NotFoundError('scope.run_id', request.scope.run_id);
      if (state.status === 'active') return state;
      const now = ctx.now();
      const resumed: RunState = {
        ...state,
        status: 'active',
        stop_reason: null,
        version: state.version + 1,
        updated_at: now,
      };
      await ctx.storage.write([{ op: 'put_run_state', state: resumed, expected_version: state.version }]);
      return resumed;
    },
    snapshots: async (input) => {
      const request = validateRunRequest<ListSnapshotsRequest>('list_snapshots', input);
      const { scope } = request;
      return context().storage.runs.listSnapshots({
        tenant_id: scope.tenant_id ?? DEFAULT_TENANT,
        user_id: scope.user_id,
        ...(scope.agent_id === undefined ? {} : { agent_id: scope.agent_id }),
        ...(scope.run_id === undefined ? {} : { run_id: scope.run_id }),
        ...(request.order === undefined ? {} : { order: request.order }),
        ...(request.cursor === undefined ? {} : { cursor: request.cursor }),
        limit: request.limit ?? 100,
      });
    },
    snapshot: async (snapshotId, tenantId) => snapshotById(context(), snapshotId, tenantId),
    narrative: async (snapshotId, tenantId) =>
      renderNarrative((await snapshotById(context(), snapshotId, tenantId)).snapshot),
  };
}
