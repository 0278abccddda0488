// The run part of the write path: what a turn records about its run (objective, evidence, claims,
// conflicts, failures), the terminal-marker counters, and the compaction a turn triggers, planned into
// the turn's transaction. A snapshot that fails its gate twice stops the run: every later commit_turn
// on it fails with RUN_STOPPED until the run is resumed explicitly.

import type {
  CompactionConfig,
  CompactionSnapshot,
  EvidencePointer,
  LedgerEntry,
  RunKey,
  RunState,
  SnapshotRecord,
} from '../spec/compaction.js';
import { EngramError } from '../spec/errors.js';
import type { EventRecord, Marker } from '../spec/event.js';
import type { CommitTurnRequest, CompactionOutcome } from '../spec/requests.js';
import type { Scope } from '../spec/scope.js';
import type { StorageAdapter, WriteOp } from '../spec/storage.js';
import { underPath } from '../spec/validators.js';
import { contentText } from '../events/content-text.js';
import { NEVER_SHARED } from '../events/sensitivity.js';
import { applyRunPayload, countMarkers, emptyRunState, shouldCompact } from '../compaction/run-state.js';
import { compact } from '../compaction/snapshot.js';
import { eventIdsCited } from '../compaction/evidence.js';
import { newId } from '../util/ids.js';

/** Most context builds a snapshot lists as its manifests. */
const MAX_MANIFESTS = 1000;
/** Snapshots looked back through for the last passing one (a run stops at each failure). */
const PASSING_LOOKBACK = 50;

interface Tracked {
  key: RunKey;
  storedVersion: number;
  state: RunState;
  changed: boolean;
  ledger: LedgerEntry[];
  snapshots: SnapshotRecord[];
}

function runKeyOf(scope: Scope): RunKey {
  return { tenant_id: scope.tenant_id, user_id: scope.user_id, agent_id: scope.agent_id, run_id: scope.run_id };
}

function keyString(key: RunKey): string {
  return JSON.stringify([key.tenant_id, key.user_id, key.agent_id, key.run_id]);
}

/** The error of a commit on a stopped run, naming `field` (the turn's `scope.run_id`). */
export function runStopped(state: RunState, field = 'scope.run_id'): EngramError {
  return new EngramError(
    'RUN_STOPPED',
    `${field}: run ${JSON.stringify(state.run_id)} is stopped (${state.stop_reason ?? 'no reason recorded'}); resume it with engram.runs.resume (CLI: engram runs resume) before committing to it`,
    {
      field,
      details: { run_id: state.run_id, stop_reason: state.stop_reason, latest_snapshot_id: state.latest_snapshot_id },
    },
  );
}

export class RunTracker {
  private readonly runs = new Map<string, Tracked>();

  constructor(
    private readonly storage: StorageAdapter,
    private readonly config: CompactionConfig,
  ) {}

  private async load(scope: Scope, now: string): Promise<Tracked> {
    const key = runKeyOf(scope);
    const id = keyString(key);
    let tracked = this.runs.get(id);
    if (tracked === undefined) {
      const stored = await this.storage.runs.getState(key);
      tracked = {
        key,
        storedVersion: stored?.version ?? 0,
        state: stored ?? emptyRunState(key, scope.session_id, now),
        changed: false,
        ledger: [],
        snapshots: [],
      };
      this.runs.set(id, tracked);
    }
    return tracked;
  }

  /** The run's events a payload may cite (this turn's and earlier ones of the same run), never secret ones. */
  private async evidenceEvents(
    tracked: Tracked,
    ids: readonly string[],
    turnEvents: readonly EventRecord[],
    now: string,
  ): Promise<Map<string, EventRecord>> {
    const byId = new Map(turnEvents.map((event) => [event.id, event]));
    const missing = ids.filter((id) => !byId.has(id));
    if (missing.length > 0) {
      const { tenant_id, user_id, agent_id, run_id } = tracked.key;
      for (const event of await this.storage.events.list({
        tenant_id,
        user_id,
        agent_id,
        run_id,
        ids: missing,
        now,
        include_expired: true,
        limit: missing.length,
      }))
        byId.set(event.id, event);
    }
    for (const [id, event] of byId) if (NEVER_SHARED.includes(event.sensitivity)) byId.delete(id);
    return byId;
  }

  /**
   * Applies one turn to its run: refuses a stopped run, records the payload, counts the markers and,
   * when the interval is complete, plans the snapshot. Returns the compaction it triggered. Errors
   * name the turn's fields under `turnPath` (a batch's `turns[2]`).
   */
  async planTurn(
    scope: Scope,
    request: CommitTurnRequest,
    events: readonly EventRecord[],
    now: string,
    turnPath = '',
  ): Promise<CompactionOutcome | undefined> {
    const tracked = await this.load(scope, now);
    if (tracked.state.status === 'stopped') throw runStopped(tracked.state, underPath(turnPath, 'scope.run_id'));
    const markers = events.flatMap((event) => (event.marker === null ? [] : [event.marker as Marker]));
    if (request.run === undefined && markers.length === 0) return undefined;
    let state = tracked.state;
    if (request.run !== undefined) {
      const evidence = await this.evidenceEvents(tracked, eventIdsCited(request.run), events, now);
      const applied = applyRunPayload(state, request.run, { events: evidence, now, path: underPath(turnPath, 'run') });
      state = applied.state;
      tracked.ledger.push(...applied.ledger);
    }
    state = { ...countMarkers(state, markers), session_id: scope.session_id, updated_at: now };
    tracked.state = state;
    tracked.changed = true;
    // A run compacts once it has said what it is for: a snapshot without an objective would only stop it.
    if (!shouldCompact(state, this.config) || state.objective === null || state.done_definition === null)
      return undefined;
    return this.snapshot(tracked, scope, now);
  }

  /** The run's latest snapshot that passed its gate: what the next one must stay true to. */
  private async lastPassing(tracked: Tracked): Promise<CompactionSnapshot | null> {
    const planned = tracked.snapshots.filter((record) => record.snapshot.validation.status === 'PASS').at(-1);
    if (planned !== undefined) return planned.snapshot;
    if (tracked.state.latest_snapshot_id === null) return null;
    const stored = await this.storage.runs.listSnapshots({ ...tracked.key, order: 'desc', limit: PASSING_LOOKBACK });
    return stored.find((record) => record.snapshot.validation.status === 'PASS')?.snapshot ?? null;
  }

  private async snapshot(tracked: Tracked, scope: Scope, now: string): Promise<CompactionOutcome> {
    const { state, key } = tracked;
    const previous = await this.lastPassing(tracked);
    const builds = await this.storage.sessions.listBuilds({
      ...key,
      ...(state.last_snapshot_at === null ? {} : { created_after: state.last_snapshot_at }),
      limit: MAX_MANIFESTS,
    });
    const pointers: EvidencePointer[] = [
      ...state.claims.flatMap((claim) => claim.evidence_refs),
      ...state.conflicts.flatMap((conflict) => [...conflict.side_a_refs, ...conflict.side_b_refs]),
    ];
    const ids = [...new Set(pointers.map((pointer) => pointer.evidence_id))];
    const ledger = new Set([
      ...(await this.storage.runs.ledgerEntries(key, ids)).map((entry) => entry.evidence_id),
      ...tracked.ledger.map((entry) => entry.evidence_id),
    ]);
    const eventIds = [
      ...new Set(pointers.filter((pointer) => pointer.corpus_id === 'events').map((pointer) => pointer.chunk_id)),
    ];
    const backed = await this.evidenceEvents(tracked, eventIds, [], now);
    const backedEvents = new Map([...backed.values()].map((event) => [event.id, contentText(event.content).length]));
    const result = compact({
      state,
      previous,
      snapshot_id: newId('snp'),
      sequence: state.sequence + 1,
      created_at: now,
      manifests: builds.map((build) => build.id).sort(),
      ledger,
      backedEvents,
      config: this.config,
      retrieval: { builds: builds.length },
    });
    const snapshot = result.snapshot;
    tracked.snapshots.push({ ...key, session_id: scope.session_id, snapshot });
    tracked.state = {
      ...state,
      counted_since: 0,
      steps_since: 0,
      sequence: snapshot.sequence,
      latest_snapshot_id: snapshot.snapshot_id,
      last_snapshot_at: now,
      ...(result.stopped ? { status: 'stopped' as const, stop_reason: result.diagnostic } : {}),
    };
    return {
      snapshot_id: snapshot.snapshot_id,
      sequence: snapshot.sequence,
      status: snapshot.validation.status,
      attempts: result.attempts,
      stopped: result.stopped,
      diagnostic: result.diagnostic,
    };
  }

  /** The writes of every run the batch changed: ledger entries, snapshots, then each run's state. */
  ops(): WriteOp[] {
    const ops: WriteOp[] = [];
    for (const tracked of this.runs.values()) {
      if (!tracked.changed) continue;
      if (tracked.ledger.length > 0) ops.push({ op: 'put_evidence', run: tracked.key, entries: tracked.ledger });
      for (const record of tracked.snapshots) ops.push({ op: 'put_snapshot', record });
      ops.push({
        op: 'put_run_state',
        state: { ...tracked.state, version: tracked.storedVersion + 1 },
        expected_version: tracked.storedVersion,
      });
    }
    return ops;
  }
}
