// The compaction gate (spec B): the binding checks every snapshot must pass before a run may go on.
// Each check names what broke (the claim or conflict ids), so the diagnostic of a stopped run says
// what to fix.

import type { CompactionSnapshot, EvidencePointer, ValidationCheck } from '../spec/compaction.js';
import { checkSnapshot } from '../spec/validators.js';
import { canonicalJson, jsonEqual } from './canonical-json.js';
import { EVENTS_CORPUS } from './evidence.js';

/** The names of the gate's checks, in the order they run. */
export const GATE_CHECKS = [
  'schema',
  'objective_present',
  'objective_stable',
  'done_definition_stable',
  'verified_claims_have_evidence',
  'conflicts_two_sided',
  'verified_claims_in_ledger',
] as const;

const LISTED_IDS = 10;
const QUOTED_CHARS = 80;

/**
 * Runs the gate on `snapshot` (its `validation` is not looked at beyond the schema):
 * - `schema`: compaction-snapshot-v1.schema.json;
 * - `objective_present`: a non-empty objective and done definition;
 * - `objective_stable`, `done_definition_stable`: the same as `previous` (key order aside); pass
 *   when there is no previous snapshot;
 * - `verified_claims_have_evidence`: every verified claim has at least one pointer;
 * - `conflicts_two_sided`: every conflict has at least one pointer on each side;
 * - `verified_claims_in_ledger`: every pointer of a verified claim is in `ledger` (evidence ids of
 *   the run's ledger), or points into an event of `backedEvents` (event id → text length) with
 *   its span inside the text.
 *
 * @example
 * validateSnapshot(snapshot, previous, new Set(ledgerIds), new Map([['evt_…', 42]])).every((c) => c.status === 'PASS')
 */
export function validateSnapshot(
  snapshot: CompactionSnapshot,
  previous: CompactionSnapshot | null,
  ledger: ReadonlySet<string>,
  backedEvents: ReadonlyMap<string, number>,
): ValidationCheck[] {
  return [
    schemaCheck(snapshot),
    objectivePresent(snapshot),
    objectiveStable(snapshot, previous),
    doneDefinitionStable(snapshot, previous),
    verifiedHaveEvidence(snapshot),
    conflictsTwoSided(snapshot),
    verifiedInLedger(snapshot, ledger, backedEvents),
  ];
}

function pass(name: string, message: string): ValidationCheck {
  return { name, status: 'PASS', message };
}

function fail(name: string, message: string): ValidationCheck {
  return { name, status: 'FAIL', message };
}

function schemaCheck(snapshot: CompactionSnapshot): ValidationCheck {
  const issues = checkSnapshot(snapshot);
  if (issues.length === 0) return pass('schema', 'matches CompactionSnapshot v1');
  const listed = issues
    .slice(0, LISTED_IDS)
    .map((issue) => `${issue.field === '' ? '(snapshot)' : issue.field} ${issue.message}`);
  return fail('schema', `violates CompactionSnapshot v1: ${listed.join('; ')}${more(issues.length)}`);
}

function objectivePresent(snapshot: CompactionSnapshot): ValidationCheck {
  const missing: string[] = [];
  if (typeof snapshot.objective !== 'string' || snapshot.objective.trim() === '') missing.push('objective');
  const done = snapshot.done_definition;
  const emptyDone =
    typeof done === 'string'
      ? done.trim() === ''
      : typeof done !== 'object' || done === null || Object.keys(done).length === 0;
  if (emptyDone) missing.push('done_definition');
  if (missing.length === 0) return pass('objective_present', 'the objective and done definition are set');
  return fail(
    'objective_present',
    `the run has no ${missing.join(' and no ')}: record them in the run payload before the first snapshot`,
  );
}

function objectiveStable(snapshot: CompactionSnapshot, previous: CompactionSnapshot | null): ValidationCheck {
  if (previous === null) return pass('objective_stable', 'first snapshot of the run');
  if (snapshot.objective === previous.objective)
    return pass('objective_stable', `same objective as snapshot ${previous.snapshot_id}`);
  return fail(
    'objective_stable',
    `the objective changed since snapshot ${previous.snapshot_id} (sequence ${previous.sequence}): was ${quoted(previous.objective)}, now ${quoted(snapshot.objective)}`,
  );
}

function doneDefinitionStable(snapshot: CompactionSnapshot, previous: CompactionSnapshot | null): ValidationCheck {
  if (previous === null) return pass('done_definition_stable', 'first snapshot of the run');
  if (jsonEqual(snapshot.done_definition, previous.done_definition)) {
    return pass('done_definition_stable', `same done definition as snapshot ${previous.snapshot_id}`);
  }
  return fail(
    'done_definition_stable',
    `the done definition changed since snapshot ${previous.snapshot_id} (sequence ${previous.sequence}): ` +
      `was ${quoted(canonicalJson(previous.done_definition))}, now ${quoted(canonicalJson(snapshot.done_definition))}`,
  );
}

function verifiedClaims(snapshot: CompactionSnapshot): CompactionSnapshot['state']['claims'] {
  return Array.isArray(snapshot.state?.claims)
    ? snapshot.state.claims.filter((claim) => claim.status === 'verified')
    : [];
}

function verifiedHaveEvidence(snapshot: CompactionSnapshot): ValidationCheck {
  const verified = verifiedClaims(snapshot);
  const bare = verified
    .filter((claim) => !Array.isArray(claim.evidence_refs) || claim.evidence_refs.length === 0)
    .map((claim) => claim.claim_id);
  if (bare.length === 0)
    return pass(
      'verified_claims_have_evidence',
      `${verified.length} verified claim(s), each with at least one evidence pointer`,
    );
  return fail('verified_claims_have_evidence', `verified claim(s) without an evidence pointer: ${listIds(bare)}`);
}

function conflictsTwoSided(snapshot: CompactionSnapshot): ValidationCheck {
  const conflicts = Array.isArray(snapshot.state?.conflicts) ? snapshot.state.conflicts : [];
  const sizeOf = (refs: unknown) => (Array.isArray(refs) ? refs.length : 0);
  const oneSided = conflicts
    .filter((conflict) => sizeOf(conflict.side_a_refs) === 0 || sizeOf(conflict.side_b_refs) === 0)
    .map(
      (conflict) =>
        `${JSON.stringify(conflict.conflict_id)} (side A ${sizeOf(conflict.side_a_refs)}, side B ${sizeOf(conflict.side_b_refs)})`,
    );
  if (oneSided.length === 0)
    return pass('conflicts_two_sided', `${conflicts.length} conflict(s), each cited on both sides`);
  return fail(
    'conflicts_two_sided',
    `conflict(s) without a pointer on each side: ${oneSided.slice(0, LISTED_IDS).join(', ')}${more(oneSided.length)}`,
  );
}

function verifiedInLedger(
  snapshot: CompactionSnapshot,
  ledger: ReadonlySet<string>,
  backedEvents: ReadonlyMap<string, number>,
): ValidationCheck {
  const unbacked: string[] = [];
  for (const claim of verifiedClaims(snapshot)) {
    const missing = (Array.isArray(claim.evidence_refs) ? claim.evidence_refs : []).filter(
      (pointer) => !isBacked(pointer, ledger, backedEvents),
    );
    if (missing.length > 0)
      unbacked.push(`${JSON.stringify(claim.claim_id)} (${missing.map((pointer) => pointer.evidence_id).join(', ')})`);
  }
  if (unbacked.length === 0)
    return pass(
      'verified_claims_in_ledger',
      "every pointer of a verified claim is in the run's evidence ledger or its event log",
    );
  return fail(
    'verified_claims_in_ledger',
    `verified claim(s) citing evidence that is neither in the run's ledger nor a span of one of its events: ${unbacked.slice(0, LISTED_IDS).join(', ')}${more(unbacked.length)}`,
  );
}

function isBacked(
  pointer: EvidencePointer,
  ledger: ReadonlySet<string>,
  backedEvents: ReadonlyMap<string, number>,
): boolean {
  if (typeof pointer !== 'object' || pointer === null) return false;
  if (ledger.has(pointer.evidence_id)) return true;
  if (pointer.corpus_id !== EVENTS_CORPUS || !Array.isArray(pointer.span)) return false;
  const length = backedEvents.get(pointer.chunk_id);
  const [start, end] = pointer.span;
  return length !== undefined && start >= 0 && start <= end && end <= length;
}

function listIds(ids: readonly string[]): string {
  return (
    ids
      .slice(0, LISTED_IDS)
      .map((id) => JSON.stringify(id))
      .join(', ') + more(ids.length)
  );
}

function more(count: number): string {
  return count > LISTED_IDS ? ` and ${count - LISTED_IDS} more` : '';
}

function quoted(text: string): string {
  return JSON.stringify(text.length > QUOTED_CHARS ? `${text.slice(0, QUOTED_CHARS)}…` : text);
}
