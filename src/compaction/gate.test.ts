import { describe, expect, it } from 'vitest';

import type { CompactionSnapshot, EvidencePointer, RunState } from '../spec/compaction.js';
import { EngramError } from '../spec/errors.js';
import { schemas } from '../spec/schema-check.js';
import { assertSnapshot, checkSnapshot } from '../spec/validators.js';
import { pointerOf, toPointer } from './evidence.js';
import { GATE_CHECKS, validateSnapshot } from './gate.js';
import { DEFAULT_COMPACTION, emptyRunState } from './run-state.js';
import { buildSnapshot, type SnapshotInput } from './snapshot.js';

const now = '2026-01-01T00:00:00.000Z';
const key = { tenant_id: 'default', user_id: 'u', agent_id: 'a', run_id: 'r' };

function corpusPointer(chunk: string, span: [number, number] = [0, 10]): EvidencePointer {
  return toPointer(pointerOf({ corpus_id: 'docs', chunk_id: chunk, span }, new Map()));
}

const a = corpusPointer('chunk-a');
const b = corpusPointer('chunk-b');

function runState(overrides: Partial<RunState> = {}): RunState {
  return {
    ...emptyRunState(key, 's', now),
    objective: 'Compare vendors',
    done_definition: { deliverable: 'a table', invariants: ['cite every price'] },
    claims: [
      { claim_id: 'c1', status: 'verified', statement: 'A costs 10', evidence_refs: [a] },
      { claim_id: 'c2', status: 'candidate', statement: 'B is slower', evidence_refs: [] },
    ],
    conflicts: [{ conflict_id: 'k1', description: 'price of A', side_a_refs: [a], side_b_refs: [b] }],
    counted_since: 18,
    steps_since: 6,
    ...overrides,
  };
}

function input(overrides: Partial<SnapshotInput> = {}): SnapshotInput {
  return {
    state: runState(),
    previous: null,
    snapshot_id: 'snp_1',
    created_at: now,
    manifests: ['ctx_2', 'ctx_1'],
    ledger: new Set([a.evidence_id, b.evidence_id]),
    backedEvents: new Map(),
    config: DEFAULT_COMPACTION,
    retrieval: { builds: 2 },
    ...overrides,
  };
}

function gate(snapshot: CompactionSnapshot, from: Partial<SnapshotInput> = {}) {
  const { previous, ledger, backedEvents } = input(from);
  const checks = validateSnapshot(snapshot, previous, ledger, backedEvents);
  return {
    checks,
    failed: checks.filter((check) => check.status === 'FAIL'),
    byName: (name: string) => checks.find((check) => check.name === name)!,
  };
}

describe('schema', () => {
  it('accepts a built snapshot and registers the schema', () => {
    const snapshot = buildSnapshot(input());
    expect(checkSnapshot(snapshot)).toEqual([]);
    expect(assertSnapshot(snapshot)).toBe(snapshot);
    expect(schemas.compactionSnapshot.$id).toBe('urn:engram:schema:compaction-snapshot:v1');
    expect(checkSnapshot(JSON.parse(JSON.stringify(snapshot)))).toEqual([]);
    expect(checkSnapshot({ ...snapshot, done_definition: 'a string works too', policy_snapshot_ref: 'pol_1' })).toEqual(
      [],
    );
  });

  it('rejects a missing key, a wrong type and anything outside v1', () => {
    const snapshot = buildSnapshot(input());
    const { objective: _objective, ...missing } = snapshot;
    expect(checkSnapshot(missing)[0]).toMatchObject({ field: 'objective', rule: 'required' });
    expect(checkSnapshot({ ...snapshot, sequence: '1' })[0]).toMatchObject({ field: 'sequence', rule: 'type' });
    expect(checkSnapshot({ ...snapshot, sequence: 0 })[0]).toMatchObject({ field: 'sequence', rule: 'minimum' });
    expect(checkSnapshot({ ...snapshot, done_definition: ['x'] })[0]).toMatchObject({
      field: 'done_definition',
      rule: 'type',
    });
    expect(checkSnapshot({ ...snapshot, created_at: 'yesterday' })[0]).toMatchObject({
      field: 'created_at',
      rule: 'format',
    });
    expect(checkSnapshot({ ...snapshot, extra: true })[0]).toMatchObject({
      field: 'extra',
      rule: 'additionalProperties',
    });
    expect(
      checkSnapshot({ ...snapshot, validation: { ...snapshot.validation, failure_action_taken: 'IGNORE' } })[0],
    ).toMatchObject({ field: 'validation.failure_action_taken', rule: 'enum' });
    const counts = { ...snapshot, counts: { steps_since_last_compaction: 1 } };
    expect(checkSnapshot(counts)[0]).toMatchObject({
      field: 'counts.counted_events_since_last_compaction',
      rule: 'required',
    });
    const claim = snapshot.state.claims[0]!;
    const withClaim = (patch: Record<string, unknown>) => ({
      ...snapshot,
      state: { ...snapshot.state, claims: [{ ...claim, ...patch }] },
    });
    expect(checkSnapshot(withClaim({ status: 'maybe' }))[0]).toMatchObject({
      field: 'state.claims[0].status',
      rule: 'enum',
    });
    expect(checkSnapshot(withClaim({ evidence_refs: [{ ...a, evidence_id: 'evt_1' }] }))[0]).toMatchObject({
      field: 'state.claims[0].evidence_refs[0].evidence_id',
      rule: 'pattern',
    });
    expect(checkSnapshot(withClaim({ evidence_refs: [{ ...a, span: [1] }] }))[0]).toMatchObject({
      field: 'state.claims[0].evidence_refs[0].span',
      rule: 'minItems',
    });
    expect(checkSnapshot(withClaim({ evidence_refs: [{ ...a, span: [-1, 2] }] }))[0]).toMatchObject({
      field: 'state.claims[0].evidence_refs[0].span[0]',
      rule: 'minimum',
    });
    expect(checkSnapshot(withClaim({ evidence_refs: [{ ...a, text: 'raw blob' }] }))[0]).toMatchObject({
      rule: 'additionalProperties',
    });
    const { chunk_ids_cited: _cited, ...coverage } = snapshot.state.source_coverage;
    expect(checkSnapshot({ ...snapshot, state: { ...snapshot.state, source_coverage: coverage } })[0]).toMatchObject({
      field: 'state.source_coverage.chunk_ids_cited',
    });
    try {
      assertSnapshot(missing);
      throw new Error('expected SCHEMA_VIOLATION');
    } catch (error) {
      expect(EngramError.isInstance(error) && error.code).toBe('SCHEMA_VIOLATION');
    }
  });
});

describe('validateSnapshot', () => {
  it('passes a sound snapshot, running every check in order', () => {
    const { checks, failed } = gate(buildSnapshot(input()));
    expect(checks.map((check) => check.name)).toEqual([...GATE_CHECKS]);
    expect(failed).toEqual([]);
  });

  it('fails a verified claim without evidence, naming it', () => {
    const state = runState({
      claims: [{ claim_id: 'bare-claim', status: 'verified', statement: 'x', evidence_refs: [] }],
    });
    const { failed, byName } = gate(buildSnapshot(input({ state })));
    expect(failed.map((check) => check.name)).toEqual(['verified_claims_have_evidence']);
    expect(byName('verified_claims_have_evidence').message).toContain('"bare-claim"');
  });

  it('fails a one-sided conflict, naming it and its sides', () => {
    const state = runState({
      conflicts: [{ conflict_id: 'k-one', description: 'd', side_a_refs: [a, b], side_b_refs: [] }],
    });
    const { failed, byName } = gate(buildSnapshot(input({ state })));
    expect(failed.map((check) => check.name)).toEqual(['conflicts_two_sided']);
    expect(byName('conflicts_two_sided').message).toContain('"k-one" (side A 2, side B 0)');
  });

  it('fails when the objective or the done definition changes, but not on key order', () => {
    const previous = buildSnapshot(input());
    const moved = buildSnapshot(
      input({ previous, snapshot_id: 'snp_2', state: runState({ objective: 'Something else' }) }),
    );
    const objective = gate(moved, { previous });
    expect(objective.failed.map((check) => check.name)).toEqual(['objective_stable']);
    expect(objective.byName('objective_stable').message).toContain('was "Compare vendors", now "Something else"');
    const reordered = runState({ done_definition: { invariants: ['cite every price'], deliverable: 'a table' } });
    expect(gate(buildSnapshot(input({ previous, state: reordered })), { previous }).failed).toEqual([]);
    const changed = runState({ done_definition: { deliverable: 'a chart', invariants: ['cite every price'] } });
    expect(
      gate(buildSnapshot(input({ previous, state: changed })), { previous }).failed.map((check) => check.name),
    ).toEqual(['done_definition_stable']);
  });

  it('fails a verified claim whose evidence is not in the ledger; events back it within their text', () => {
    const orphan = corpusPointer('chunk-z');
    const state = runState({
      claims: [{ claim_id: 'c-orphan', status: 'verified', statement: 'x', evidence_refs: [a, orphan] }],
    });
    const { failed, byName } = gate(buildSnapshot(input({ state })));
    expect(failed.map((check) => check.name)).toEqual(['verified_claims_in_ledger']);
    expect(byName('verified_claims_in_ledger').message).toContain(`"c-orphan" (${orphan.evidence_id})`);
    // A candidate may cite anything: only verified claims must be backed.
    const candidate = runState({
      claims: [{ claim_id: 'c', status: 'candidate', statement: 'x', evidence_refs: [orphan] }],
    });
    expect(gate(buildSnapshot(input({ state: candidate }))).failed).toEqual([]);
    const eventPointer = (span: [number, number]): EvidencePointer => ({
      ...orphan,
      corpus_id: 'events',
      chunk_id: 'evt_1',
      span,
    });
    const backed = (span: [number, number]) =>
      runState({
        claims: [{ claim_id: 'c-evt', status: 'verified', statement: 'x', evidence_refs: [eventPointer(span)] }],
      });
    const backedEvents = new Map([['evt_1', 20]]);
    expect(gate(buildSnapshot(input({ state: backed([0, 20]) })), { backedEvents }).failed).toEqual([]);
    expect(
      gate(buildSnapshot(input({ state: backed([0, 21]) })), { backedEvents }).failed.map((check) => check.name),
    ).toEqual(['verified_claims_in_ledger']);
    expect(gate(buildSnapshot(input({ state: backed([0, 5]) })), { backedEvents: new Map() }).failed).toHaveLength(1);
  });

  it('fails a run without an objective or done definition', () => {
    const { failed, byName } = gate(
      buildSnapshot(input({ state: runState({ objective: null, done_definition: null }) })),
    );
    expect(failed.map((check) => check.name)).toEqual(['objective_present']);
    expect(byName('objective_present').message).toContain('no objective and no done_definition');
    expect(gate(buildSnapshot(input({ state: runState({ done_definition: {} }) }))).failed).toHaveLength(1);
  });

  it('reports a schema violation without throwing on a malformed snapshot', () => {
    const broken = {
      ...buildSnapshot(input()),
      state: { claims: [{ claim_id: 'c', status: 'verified' }] },
    } as unknown as CompactionSnapshot;
    const { failed } = gate(broken);
    expect(failed.map((check) => check.name)).toEqual(['schema', 'verified_claims_have_evidence']);
    expect(failed[0]!.message).toContain('state.claims[0].statement is required');
  });
});
