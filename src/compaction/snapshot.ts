// Building a compaction snapshot from a run's state, and compacting: build, run the gate, and on a
// failure retry once with the same inputs before stopping the run with SYSTEM_ERROR (the spec's MVP
// stop semantics). Deterministic: the same inputs give the same snapshot, byte for byte.

import type {
  Claim,
  CompactionConfig,
  CompactionSnapshot,
  Conflict,
  RunState,
  SnapshotValidation,
  ValidationCheck,
} from '../spec/compaction.js';
import { byCodeUnit } from './canonical-json.js';
import { toPointer } from './evidence.js';
import { validateSnapshot } from './gate.js';

/** What the run's context builds since the last snapshot retrieved: counts only, never text. */
export interface RetrievalSummary {
  /** Context builds composed since the last snapshot. */
  builds: number;
  /** Retrieval queries run by those builds, when known. */
  queries?: number;
  /** Items selected into packets, when known. */
  selected?: number;
  /** Items retrieved but left out (budget, filters), when known. */
  excluded?: number;
  /** Names of the filters applied (sensitivity, scope, expiry…), when known. */
  filters?: readonly string[];
}

/** Everything a snapshot is made from. Ids and times are given: building is pure. */
export interface SnapshotInput {
  state: RunState;
  /**
   * The run's latest snapshot that passed its gate (the reference the objective and done
   * definition must keep), null before the first.
   */
  previous: CompactionSnapshot | null;
  /** The sequence to give the snapshot (default one after `previous`): one after the run's latest snapshot of any status. */
  sequence?: number;
  snapshot_id: string;
  created_at: string;
  /** Ids of the context builds (manifests) since the previous snapshot. */
  manifests: readonly string[];
  /** The evidence ids in the run's ledger (at least those the state cites). */
  ledger: ReadonlySet<string>;
  /** The run's events that may back a pointer (shareable), by id → length of their text. */
  backedEvents: ReadonlyMap<string, number>;
  config: CompactionConfig;
  retrieval: RetrievalSummary;
}

/** What compact() did. */
export interface CompactResult {
  /** The snapshot to append, with its validation (PASS, or FAIL with SYSTEM_ERROR). */
  snapshot: CompactionSnapshot;
  /** 1 when the first attempt passed, 2 when it failed and was retried. */
  attempts: 1 | 2;
  /** True when both attempts failed: the run must stop (SYSTEM_ERROR). */
  stopped: boolean;
  /** One paragraph naming the failed checks when stopped, otherwise null. */
  diagnostic: string | null;
}

/** The steps compact() runs, replaceable in tests. */
export interface CompactSteps {
  build: (input: SnapshotInput) => CompactionSnapshot;
  validate: typeof validateSnapshot;
}

/** Validation of a snapshot the gate has not yet run on: FAIL with no checks, never mistaken for a pass. */
const NOT_VALIDATED: SnapshotValidation = { status: 'FAIL', checks: [], failure_action_taken: 'NONE' };

/**
 * The snapshot of `input.state`: sequence one after `previous` (1 for the first), counts and state
 * copied (claims, conflicts, failures and questions in their recorded order, pointers reduced to
 * their four keys), `chunk_ids_cited` every chunk cited by a claim or conflict (sorted, once each),
 * and retrieval diagnostics as counts and build ids. Its `validation` is FAIL with no checks until
 * compact() runs the gate.
 *
 * @example
 * buildSnapshot({ state, previous: null, snapshot_id: newId('snp'), created_at: now, manifests: [], ledger, backedEvents, config: DEFAULT_COMPACTION, retrieval: { builds: 0 } }).sequence // 1
 */
export function buildSnapshot(input: SnapshotInput): CompactionSnapshot {
  const { state, config } = input;
  const claims = state.claims.map(copyClaim);
  const conflicts = state.conflicts.map(copyConflict);
  const cited = [
    ...claims.flatMap((claim) => claim.evidence_refs),
    ...conflicts.flatMap((conflict) => [...conflict.side_a_refs, ...conflict.side_b_refs]),
  ];
  const chunkIdsCited = sortedUnique(cited.map((pointer) => pointer.chunk_id));
  const manifests = [...new Set(input.manifests)];
  return {
    snapshot_id: input.snapshot_id,
    run_id: state.run_id,
    sequence: input.sequence ?? (input.previous?.sequence ?? 0) + 1,
    created_at: input.created_at,
    objective: state.objective ?? '',
    done_definition: state.done_definition === null ? '' : structuredClone(state.done_definition),
    provenance_mode: config.provenanceMode,
    policy_snapshot_ref: config.policySnapshotRef,
    counts: {
      steps_since_last_compaction: state.steps_since,
      counted_events_since_last_compaction: state.counted_since,
    },
    latest_context_manifest_ids: manifests,
    state: {
      claims,
      conflicts,
      open_questions: [...state.open_questions],
      failures: state.failures.map((failure) => ({
        failure_id: failure.failure_id,
        category: failure.category,
        where: failure.where,
        why: failure.why,
      })),
      source_coverage: {
        source_ids_seen: [...state.source_ids_seen],
        chunk_ids_seen: [...state.chunk_ids_seen],
        chunk_ids_cited: chunkIdsCited,
      },
    },
    retrieval_diagnostics: retrievalDiagnostics(
      input.retrieval,
      manifests,
      state.chunk_ids_seen.length,
      chunkIdsCited.length,
    ),
    validation: { ...NOT_VALIDATED, checks: [] },
  };
}

function copyClaim(claim: Claim): Claim {
  return {
    claim_id: claim.claim_id,
    status: claim.status,
    statement: claim.statement,
    evidence_refs: claim.evidence_refs.map(toPointer),
  };
}

function copyConflict(conflict: Conflict): Conflict {
  return {
    conflict_id: conflict.conflict_id,
    description: conflict.description,
    side_a_refs: conflict.side_a_refs.map(toPointer),
    side_b_refs: conflict.side_b_refs.map(toPointer),
  };
}

function sortedUnique(values: readonly string[]): string[] {
  return [...new Set(values)].sort(byCodeUnit);
}

// Unknown counts are null rather than absent, so every snapshot has the same keys.
function retrievalDiagnostics(
  retrieval: RetrievalSummary,
  manifests: readonly string[],
  chunksSeen: number,
  chunksCited: number,
): Record<string, unknown> {
  return {
    context_builds: retrieval.builds,
    queries: retrieval.queries ?? null,
    items_selected: retrieval.selected ?? null,
    items_excluded: retrieval.excluded ?? null,
    filters_applied: sortedUnique(retrieval.filters ?? []),
    chunks_seen: chunksSeen,
    chunks_cited: chunksCited,
    context_build_ids: [...manifests],
  };
}

/**
 * Builds the snapshot and runs the gate. On a failure it retries once with the same inputs (the
 * build is deterministic, so a failure in the state fails again: the retry guards against a
 * transient fault, as the spec's MVP asks). The result's snapshot carries its validation: PASS with
 * NONE (first attempt), PASS with RETRY (passed on the retry), or FAIL with SYSTEM_ERROR and a
 * `retry` check, `stopped` true and a diagnostic naming the failed checks.
 *
 * @example
 * const { snapshot, stopped, diagnostic } = compact(input);
 * if (stopped) stopRun(diagnostic);
 */
export function compact(input: SnapshotInput, steps: Partial<CompactSteps> = {}): CompactResult {
  const build = steps.build ?? buildSnapshot;
  const validate = steps.validate ?? validateSnapshot;
  const attempt = (): { snapshot: CompactionSnapshot; checks: ValidationCheck[] } => {
    const snapshot = build(input);
    return { snapshot, checks: validate(snapshot, input.previous, input.ledger, input.backedEvents) };
  };
  const first = attempt();
  if (passed(first.checks)) {
    return {
      snapshot: withValidation(first.snapshot, { status: 'PASS', checks: first.checks, failure_action_taken: 'NONE' }),
      attempts: 1,
      stopped: false,
      diagnostic: null,
    };
  }
  const second = attempt();
  if (passed(second.checks)) {
    const retry: ValidationCheck = {
      name: 'retry',
      status: 'PASS',
      message: `failed on the first attempt (${failedNames(first.checks)}) and passed on its one retry`,
    };
    const snapshot = withValidation(second.snapshot, {
      status: 'PASS',
      checks: [...second.checks, retry],
      failure_action_taken: 'RETRY',
    });
    return { snapshot, attempts: 2, stopped: false, diagnostic: null };
  }
  const retry: ValidationCheck = {
    name: 'retry',
    status: 'FAIL',
    message: 'failed on the first attempt and on its one retry',
  };
  const snapshot = withValidation(second.snapshot, {
    status: 'FAIL',
    checks: [...second.checks, retry],
    failure_action_taken: 'SYSTEM_ERROR',
  });
  return { snapshot, attempts: 2, stopped: true, diagnostic: diagnosticOf(snapshot, second.checks) };
}

function passed(checks: readonly ValidationCheck[]): boolean {
  return checks.every((check) => check.status === 'PASS');
}

function failedNames(checks: readonly ValidationCheck[]): string {
  return checks
    .filter((check) => check.status === 'FAIL')
    .map((check) => check.name)
    .join(', ');
}

function withValidation(snapshot: CompactionSnapshot, validation: SnapshotValidation): CompactionSnapshot {
  return { ...snapshot, validation };
}

function diagnosticOf(snapshot: CompactionSnapshot, checks: readonly ValidationCheck[]): string {
  const failures = checks.filter((check) => check.status === 'FAIL').map((check) => `${check.name}: ${check.message}`);
  return (
    `SYSTEM_ERROR: compaction snapshot ${snapshot.snapshot_id} (sequence ${snapshot.sequence}) of run ${snapshot.run_id} ` +
    `failed validation on the first attempt and on its one retry, so the run has stopped. ` +
    `Failed checks: ${failures.join('; ')}. ` +
    'Commits to the run are refused (RUN_STOPPED) until it is resumed (engram.runs.resume, or `engram runs resume`); ' +
    'after resuming, correct the run state in the next turn (restore the objective and done definition, add evidence to the ledger, give conflicts both sides): ' +
    'the next snapshot is checked against the last one that passed. A different objective needs a new run.'
  );
}
