// Questions that reflection opens in a session's open loops (a contradiction to settle) and closes
// when the question is decided. Each change is a state patch like any other: a `state_patch` event in
// the log and the new working state, written in the caller's transaction at the version it read.

import type { EventRecord } from '../spec/event.js';
import type { SessionKey } from '../spec/scope.js';
import type { StorageAdapter, WriteOp } from '../spec/storage.js';
import type { OpenLoop, StatePatch, WorkingState } from '../spec/working-state.js';
import { buildTurnEvents } from '../events/build-events.js';
import { applyStatePatch } from '../working-memory/working-state.js';

export interface LoopChange {
  key: SessionKey;
  run_id: string;
  open?: OpenLoop[];
  /** Questions of open loops to close. */
  close?: string[];
}

/**
 * The operations that apply a change to a session's open loops: its state_patch event and the new
 * state at the read version (STATE_VERSION_CONFLICT at write time if another writer got there first;
 * the caller plans again). No change, no operations.
 *
 * @example
 * const ops = await loopOps(storage, { key, run_id, open: [{ question: 'Which is right?', owner: 'user', status: 'open' }] }, now, 'reflection:trc_…');
 */
export async function loopOps(
  storage: StorageAdapter,
  change: LoopChange,
  now: string,
  label: string,
): Promise<WriteOp[]> {
  const current = await storage.sessions.getWorkingState(change.key);
  const loops = current?.open_loops ?? [];
  const closing = new Set(change.close ?? []);
  const closed = loops.map((loop) =>
    loop.status === 'open' && closing.has(loop.question) ? { ...loop, status: 'closed' as const } : loop,
  );
  const changedByClose = closed.some((loop, index) => loop !== loops[index]);
  const fresh = (change.open ?? []).filter(
    (loop) => !loops.some((known) => known.status === 'open' && known.question === loop.question),
  );
  if (!changedByClose && fresh.length === 0) return [];
  const version = current?.state_version ?? 0;
  const patch: StatePatch = {
    expected_version: version,
    ...(changedByClose ? { set: { open_loops: closed } } : {}),
    ...(fresh.length > 0 ? { append: { open_loops: fresh } } : {}),
  };
  const scope = { ...change.key, run_id: change.run_id };
  const [event] = buildTurnEvents({ scope, turn_id: label }, scope, now, now, {
    ...patch,
    from_version: version,
    to_version: version + 1,
  }) as [EventRecord];
  const state: WorkingState = applyStatePatch(current, patch, event.id);
  return [
    { op: 'append_event', event, search_text: null },
    { op: 'put_working_state', key: change.key, state, expected_version: version, updated_at: now },
  ];
}
