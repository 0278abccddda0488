import { describe, expect, it, vi } from 'vitest';

import type { EvidencePointer, RunState } from '../spec/compaction.js';
import type { EventRecord } from '../spec/event.js';
import { checkSnapshot } from '../spec/validators.js';
import { contentText } from '../events/content-text.js';
import { pointerOf, toPointer } from './evidence.js';
import { validateSnapshot } from './gate.js';
import { DEFAULT_COMPACTION, applyRunPayload, countMarkers, emptyRunState } from './run-state.js';
import { buildSnapshot, compact, type SnapshotInput } from './snapshot.js';

const now = '2026-01-01T00:00:00.000Z';
const key = { tenant_id: 'default', user_id: 'u', agent_id: 'a', run_id: 'r' };

function corpusPointer(chunk: string): EvidencePointer {
  return toPointer(pointerOf({ corpus_id: 'docs', chunk_id: chunk, span: [0, 10] }, new Map()));
}

const a = corpusPointer('chunk-b');
const b = corpusPointer('chunk-a');

function runState(overrides: Partial<RunState> = {}): RunState {
  return {
    ...emptyRunState(key, 's', now),
    objective: 'Compare vendors',
    done_definition: 'a table with a cited price per vendor',
    claims: [
      { claim_id: 'c2', status: 'verified', statement: 'A costs 10', evidence_refs: [a] },
      { claim_id: 'c1', status: 'candidate', statement: 'B is slower', evidence_refs: [] },
    ],
    conflicts: [{ conflict_id: 'k1', description: 'price of A', side_a_refs: [a], side_b_refs: [b] }],
    open_questions: ['Is tax included?'],
    failures: [{ failure_id: 'f1', category: 'tool', where: 'search', why: 'timeout' }],
    source_ids_seen: ['doc-2', 'doc-1'],
    chunk_ids_seen: ['chunk-b', 'chunk-a', 'chunk-c'],
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
    manifests: ['ctx_2', 'ctx_1', 'ctx_2'],
    ledger: new Set([a.evidence_id, b.evidence_id]),
    backedEvents: new Map(),
    config: { ...DEFAULT_COMPACTION, policySnapshotRef: 'pol_7' },
    retrieval: { builds: 2, queries: 5, filters: ['sensitivity', 'scope', 'sensitivity'] },
    ...overrides,
  };
}

describe('buildSnapshot', () => {
  it('copies the state into the v1 shape with sequence, counts, coverage and diagnostics', () => {
    const snapshot = buildSnapshot(input());
    expect(snapshot).toMatchObject({
      snapshot_id: 'snp_1',
      run_id: 'r',
      sequence: 1,
      created_at: now,
      objective: 'Compare vendors',
      provenance_mode: 'audit_only',
      policy_snapshot_ref: 'pol_7',
      counts: { steps_since_last_compaction: 6, counted_events_since_last_compaction: 18 },
      latest_context_manifest_ids: ['ctx_2', 'ctx_1'],
      validation: { status: 'FAIL', checks: [], failure_action_taken: 'NONE' },
    });
    expect(snapshot.state.claims.map((claim) => claim.claim_id)).toEqual(['c2', 'c1']);
    expect(snapshot.state.source_coverage).toEqual({
      source_ids_seen: ['doc-2', 'doc-1'],
      chunk_ids_seen: ['chunk-b', 'chunk-a', 'chunk-c'],
      chunk_ids_cited: ['chunk-a', 'chunk-b'],
    });
    expect(snapshot.retrieval_diagnostics).toEqual({
      context_builds: 2,
      queries: 5,
      items_selected: null,
      items_excluded: null,
      filters_applied: ['scope', 'sensitivity'],
      chunks_seen: 3,
      chunks_cited: 2,
      context_build_ids: ['ctx_2', 'ctx_1'],
    });
    expect(checkSnapshot(snapshot)).toEqual([]);
    expect(buildSnapshot(input({ previous: { ...snapshot, sequence: 4 } })).sequence).toBe(5);
  });

  it('is deterministic and shares nothing with the state', () => {
    const state = runState({
      claims: [
        {
          claim_id: 'c',
          status: 'verified',
          statement: 's',
          evidence_refs: [{ ...a, extra: 'dropped' } as EvidencePointer],
        },
      ],
    });
    const first = buildSnapshot(input({ state }));
    expect(JSON.stringify(buildSnapshot(input({ state })))).toBe(JSON.stringify(first));
    expect(Object.keys(first.state.claims[0]!.evidence_refs[0]!)).toEqual([
      'evidence_id',
      'chunk_id',
      'span',
      'corpus_id',
    ]);
    first.state.claims[0]!.evidence_refs[0]!.span[0] = 99;
    first.state.open_questions.push('mutated');
    expect(state.claims[0]!.evidence_refs[0]!.span[0]).toBe(0);
    expect(state.open_questions).toEqual(['Is tax included?']);
  });
});

describe('compact', () => {
  it('passes on the first attempt with NONE', () => {
    const result = compact(input());
    expect(result).toMatchObject({ attempts: 1, stopped: false, diagnostic: null });
    expect(result.snapshot.validation.status).toBe('PASS');
    expect(result.snapshot.validation.failure_action_taken).toBe('NONE');
    expect(result.snapshot.validation.checks.every((check) => check.status === 'PASS')).toBe(true);
    expect(checkSnapshot(result.snapshot)).toEqual([]);
  });

  it('retries exactly once, then stops with SYSTEM_ERROR and a diagnostic naming the failed checks', () => {
    const build = vi.fn(buildSnapshot);
    const previous = compact(input()).snapshot;
    const drifted = input({
      previous,
      snapshot_id: 'snp_2',
      state: runState({
        objective: 'Something else',
        conflicts: [{ conflict_id: 'k-one', description: 'd', side_a_refs: [a], side_b_refs: [] }],
      }),
    });
    const result = compact(drifted, { build });
    expect(build).toHaveBeenCalledTimes(2);
    expect(build.mock.calls[0]![0]).toBe(build.mock.calls[1]![0]);
    expect(result).toMatchObject({ attempts: 2, stopped: true });
    const { validation } = result.snapshot;
    expect(validation.status).toBe('FAIL');
    expect(validation.failure_action_taken).toBe('SYSTEM_ERROR');
    expect(validation.checks.at(-1)).toEqual({
      name: 'retry',
      status: 'FAIL',
      message: 'failed on the first attempt and on its one retry',
    });
    expect(validation.checks.filter((check) => check.status === 'FAIL').map((check) => check.name)).toEqual([
      'objective_stable',
      'conflicts_two_sided',
      'retry',
    ]);
    expect(result.diagnostic).toMatch(
      /^SYSTEM_ERROR: compaction snapshot snp_2 \(sequence 2\) of run r failed validation on the first attempt and on its one retry/,
    );
    expect(result.diagnostic).toContain('objective_stable: the objective changed');
    expect(result.diagnostic).toContain('conflicts_two_sided: conflict(s) without a pointer on each side: "k-one"');
    expect(result.diagnostic).not.toContain('\n');
    expect(checkSnapshot(result.snapshot)).toEqual([]);
  });

  it('records RETRY when the retry passes', () => {
    const validate = vi
      .fn(validateSnapshot)
      .mockImplementationOnce(() => [{ name: 'schema', status: 'FAIL', message: 'transient' }]);
    const result = compact(input(), { validate });
    expect(validate).toHaveBeenCalledTimes(2);
    expect(result).toMatchObject({ attempts: 2, stopped: false, diagnostic: null });
    expect(result.snapshot.validation.status).toBe('PASS');
    expect(result.snapshot.validation.failure_action_taken).toBe('RETRY');
    expect(result.snapshot.validation.checks.at(-1)).toMatchObject({ name: 'retry', status: 'PASS' });
  });

  it('compacts a run recorded through its payloads and markers', () => {
    const log = new Map<string, EventRecord>([
      ['evt_1', { ...({} as EventRecord), id: 'evt_1', content: { price: '10 EUR' }, sensitivity: 'normal' }],
    ]);
    let state = emptyRunState(key, 's', now);
    const ledger: string[] = [];
    const turns = [
      {
        objective: 'Compare vendors',
        done_definition: { deliverable: 'table' },
        evidence: [{ corpus_id: 'web', chunk_id: 'w1', span: [0, 4] as [number, number] }],
      },
      {
        claims: [
          {
            claim_id: 'c1',
            status: 'verified' as const,
            statement: 'A costs 10 EUR',
            evidence: [{ event_id: 'evt_1', quote: '10 EUR' }],
          },
        ],
      },
    ];
    for (const payload of turns) {
      const applied = applyRunPayload(state, payload, { events: log, now });
      state = countMarkers(applied.state, ['PLAN_DONE', 'ACT_DONE', 'OBSERVE_DONE', 'STEP_DONE']);
      ledger.push(...applied.ledger.map((entry) => entry.evidence_id));
    }
    const backedEvents = new Map([...log.values()].map((event) => [event.id, contentText(event.content).length]));
    const result = compact({ ...input(), state, ledger: new Set(ledger), backedEvents });
    expect(result.stopped).toBe(false);
    expect(result.snapshot.counts).toEqual({ steps_since_last_compaction: 2, counted_events_since_last_compaction: 6 });
    expect(result.snapshot.state.source_coverage.chunk_ids_cited).toEqual(['evt_1']);
    // The event alone backs the claim even when the ledger lost it.
    expect(compact({ ...input(), state, ledger: new Set(), backedEvents }).stopped).toBe(false);
  });
});
