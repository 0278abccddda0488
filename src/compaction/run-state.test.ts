import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import type { RunState } from '../spec/compaction.js';
import { EngramError, ValidationError } from '../spec/errors.js';
import type { EventRecord, Marker } from '../spec/event.js';
import { pointerOf } from './evidence.js';
import {
  DEFAULT_COMPACTION,
  RUN_LIMITS,
  applyRunPayload,
  countMarkers,
  emptyRunState,
  resolveCompactionConfig,
  shouldCompact,
} from './run-state.js';

const key = { tenant_id: 'default', user_id: 'u', agent_id: 'a', run_id: 'r' };
const now = '2026-01-01T00:00:00.000Z';

function event(id: string, content: string, sensitivity: EventRecord['sensitivity'] = 'normal'): EventRecord {
  return {
    ...({} as EventRecord),
    id,
    content,
    sensitivity,
    kind: 'tool_result',
    marker: null,
  };
}

const events = new Map([
  ['evt_1', event('evt_1', 'Vendor A costs 10 EUR.')],
  ['evt_2', event('evt_2', 'Vendor A costs 12 EUR.')],
]);
const context = { events, now };

function rejection(run: () => unknown): ValidationError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return error as ValidationError;
  }
  throw new Error('expected a ValidationError');
}

describe('emptyRunState', () => {
  it('starts active, empty, at version and sequence 0', () => {
    const state = emptyRunState(key, 's1', now);
    expect(state).toMatchObject({
      ...key,
      session_id: 's1',
      status: 'active',
      objective: null,
      claims: [],
      counted_since: 0,
      steps_since: 0,
      sequence: 0,
      version: 0,
      updated_at: now,
    });
  });
});

describe('applyRunPayload', () => {
  it('records the objective, claims, conflicts, failures and the ledger in order', () => {
    const { state, ledger } = applyRunPayload(
      emptyRunState(key, 's1', now),
      {
        objective: 'Pick the cheaper vendor',
        done_definition: { must: ['a price per vendor'] },
        evidence: [{ corpus_id: 'web', chunk_id: 'c9', span: [0, 5], source_id: 'https://a.example' }],
        claims: [
          {
            claim_id: 'c1',
            status: 'verified',
            statement: 'A costs 10',
            evidence: [{ event_id: 'evt_1', quote: '10 EUR' }],
          },
        ],
        conflicts: [
          {
            conflict_id: 'k1',
            description: 'price of A',
            side_a: [{ event_id: 'evt_1' }],
            side_b: [{ event_id: 'evt_2' }],
          },
        ],
        failures: [{ failure_id: 'f1', category: 'tool', where: 'search', why: 'timeout' }],
        open_questions: { add: ['Is tax included?', 'Is tax included?', 'Shipping?'] },
        sources_seen: [{ source_id: 'https://b.example', chunk_ids: ['c10'] }],
      },
      { ...context, session_id: 's2', now: '2026-01-01T00:01:00.000Z' },
    );
    expect(state.objective).toBe('Pick the cheaper vendor');
    expect(state.done_definition).toEqual({ must: ['a price per vendor'] });
    expect(state.claims[0]!.evidence_refs).toEqual([
      {
        evidence_id: pointerOf({ event_id: 'evt_1', quote: '10 EUR' }, events).evidence_id,
        chunk_id: 'evt_1',
        span: [15, 21],
        corpus_id: 'events',
      },
    ]);
    expect(state.conflicts[0]!.side_a_refs).toHaveLength(1);
    expect(state.failures).toHaveLength(1);
    expect(state.open_questions).toEqual(['Is tax included?', 'Shipping?']);
    expect(ledger.map((entry) => entry.chunk_id)).toEqual(['c9', 'evt_1', 'evt_1', 'evt_2']);
    expect(ledger.every((entry) => entry.recorded_at === '2026-01-01T00:01:00.000Z')).toBe(true);
    expect(state.source_ids_seen).toEqual(['https://b.example', 'https://a.example']);
    expect(state.chunk_ids_seen).toEqual(['c10', 'c9', 'evt_1', 'evt_2']);
    expect(state.session_id).toBe('s2');
    expect(state.version).toBe(0);
  });

  it("upserts by id in place, keeps a claim's pointers when none are given, and resolves questions", () => {
    const first = applyRunPayload(
      emptyRunState(key, 's1', now),
      {
        claims: [
          { claim_id: 'c1', status: 'candidate', statement: 'A costs 10', evidence: [{ event_id: 'evt_1' }] },
          { claim_id: 'c2', status: 'candidate', statement: 'B is slower' },
        ],
        open_questions: { add: ['q1', 'q2'] },
      },
      context,
    ).state;
    const { state, ledger } = applyRunPayload(
      first,
      {
        claims: [{ claim_id: 'c1', status: 'verified', statement: 'A costs 10 EUR' }],
        open_questions: { add: ['q3'], resolve: ['q1', 'q3', 'unknown'] },
      },
      context,
    );
    expect(state.claims.map((claim) => [claim.claim_id, claim.status])).toEqual([
      ['c1', 'verified'],
      ['c2', 'candidate'],
    ]);
    expect(state.claims[0]!.evidence_refs).toEqual(first.claims[0]!.evidence_refs);
    expect(ledger).toEqual([]);
    expect(state.open_questions).toEqual(['q2']);
    expect(
      applyRunPayload(
        state,
        { claims: [{ claim_id: 'c1', status: 'retracted', statement: 'x', evidence: [] }] },
        context,
      ).state.claims[0]!.evidence_refs,
    ).toEqual([]);
  });

  it('replaces a changed objective (the next snapshot gate fails) and keeps an equal done definition', () => {
    const first = applyRunPayload(
      emptyRunState(key, 's', now),
      { objective: 'one', done_definition: { a: 1, b: 2 } },
      context,
    ).state;
    const second = applyRunPayload(first, { objective: 'two', done_definition: { b: 2, a: 1 } }, context).state;
    expect(second.objective).toBe('two');
    expect(second.done_definition).toBe(first.done_definition);
  });

  it('refuses empty objectives, bad statuses and pointers, with the field', () => {
    const state = emptyRunState(key, 's', now);
    expect(rejection(() => applyRunPayload(state, { objective: '  ' }, context)).field).toBe('run.objective');
    expect(rejection(() => applyRunPayload(state, { done_definition: {} }, context)).field).toBe('run.done_definition');
    expect(rejection(() => applyRunPayload(state, { done_definition: [] as unknown as string }, context)).rule).toBe(
      'type',
    );
    const status = rejection(() =>
      applyRunPayload(state, { claims: [{ claim_id: 'c', status: 'maybe' as 'verified', statement: 's' }] }, context),
    );
    expect(status.field).toBe('run.claims[0].status');
    const pointer = rejection(() =>
      applyRunPayload(
        state,
        {
          claims: [
            {
              claim_id: 'c',
              status: 'verified',
              statement: 's',
              evidence: [{ event_id: 'evt_1' }, { event_id: 'nope' }],
            },
          ],
        },
        context,
      ),
    );
    expect(pointer.field).toBe('run.claims[0].evidence[1].event_id');
    expect(
      rejection(() =>
        applyRunPayload(
          state,
          {
            conflicts: [
              {
                conflict_id: 'k',
                description: 'd',
                side_a: [{ corpus_id: 'x', chunk_id: 'y', span: [2, 1] }],
                side_b: [],
              },
            ],
          },
          context,
        ),
      ).field,
    ).toBe('run.conflicts[0].side_a[0].span');
  });

  it('refuses a verified claim without evidence and a one-sided conflict at the turn, before any gate', () => {
    const state = emptyRunState(key, 's', now);
    const bare = rejection(() =>
      applyRunPayload(state, { claims: [{ claim_id: 'c', status: 'verified', statement: 's' }] }, context),
    );
    expect([bare.field, bare.rule]).toEqual(['run.claims[0].evidence', 'verified_needs_evidence']);
    const oneSided = rejection(() =>
      applyRunPayload(
        state,
        { conflicts: [{ conflict_id: 'k', description: 'd', side_a: [{ event_id: 'evt_1' }], side_b: [] }] },
        context,
      ),
    );
    expect([oneSided.field, oneSided.rule]).toEqual(['run.conflicts[0].side_b', 'two_sided']);
  });

  it('accepts ids as long as the commit_turn schema allows', () => {
    const url = `https://example.com/${'p'.repeat(1_500)}`;
    const { state } = applyRunPayload(
      emptyRunState(key, 's', now),
      { sources_seen: [{ source_id: url, chunk_ids: ['c'.repeat(512)] }] },
      context,
    );
    expect(state.source_ids_seen).toEqual([url]);
    expect(
      rejection(() =>
        applyRunPayload(state, { sources_seen: [{ source_id: 's', chunk_ids: ['c'.repeat(513)] }] }, context),
      ).rule,
    ).toBe('identifier');
  });

  it('enforces the caps with typed errors', () => {
    const state = emptyRunState(key, 's', now);
    const tooLong = rejection(() =>
      applyRunPayload(
        state,
        { claims: [{ claim_id: 'c', status: 'candidate', statement: 'x'.repeat(RUN_LIMITS.statementChars + 1) }] },
        context,
      ),
    );
    expect([tooLong.field, tooLong.rule]).toEqual(['run.claims[0].statement', 'maxLength']);
    const claims = Array.from({ length: RUN_LIMITS.perTurn + 1 }, (_, index) => ({
      claim_id: `c${index}`,
      status: 'candidate' as const,
      statement: 's',
    }));
    expect(rejection(() => applyRunPayload(state, { claims }, context)).rule).toBe('maxItems');
    const full: RunState = {
      ...state,
      claims: Array.from({ length: RUN_LIMITS.claims }, (_, index) => ({
        claim_id: `old${index}`,
        status: 'candidate' as const,
        statement: 's',
        evidence_refs: [],
      })),
    };
    const overTotal = rejection(() =>
      applyRunPayload(full, { claims: [{ claim_id: 'new', status: 'candidate', statement: 's' }] }, context),
    );
    expect([overTotal.field, overTotal.rule]).toEqual(['run.claims', 'maxItems']);
    expect(
      applyRunPayload(full, { claims: [{ claim_id: 'old0', status: 'retracted', statement: 's' }] }, context).state
        .claims,
    ).toHaveLength(RUN_LIMITS.claims);
    const pointers = Array.from({ length: RUN_LIMITS.pointersPerItem + 1 }, (_, index) => ({
      corpus_id: 'd',
      chunk_id: `c${index}`,
      span: [0, 1] as [number, number],
    }));
    expect(
      rejection(() =>
        applyRunPayload(
          state,
          { claims: [{ claim_id: 'c', status: 'verified', statement: 's', evidence: pointers }] },
          context,
        ),
      ).field,
    ).toBe('run.claims[0].evidence');
  });
});

describe('cadence', () => {
  it('counts terminal markers and steps only', () => {
    const state = emptyRunState(key, 's', now);
    const counted = countMarkers(state, ['PLAN_DONE', 'ACT_DONE', 'OBSERVE_DONE', 'STEP_DONE', 'RUN_END']);
    expect([counted.counted_since, counted.steps_since]).toEqual([3, 1]);
    expect(counted.objective).toBeNull();
    expect(countMarkers({ counted_since: 1, steps_since: 2 }, [])).toEqual({ counted_since: 1, steps_since: 2 });
    expect(shouldCompact({ counted_since: 17, steps_since: 7 }, DEFAULT_COMPACTION)).toBe(false);
    expect(shouldCompact({ counted_since: 18, steps_since: 0 }, DEFAULT_COMPACTION)).toBe(true);
    expect(shouldCompact({ counted_since: 0, steps_since: 8 }, DEFAULT_COMPACTION)).toBe(true);
  });

  // A turn is a list of events; verbose ones (messages, tool output, RUN_END) carry no counted marker.
  const entry = fc.oneof(
    fc
      .constantFrom<Marker>('PLAN_DONE', 'ACT_DONE', 'OBSERVE_DONE', 'STEP_DONE', 'RUN_END')
      .map((marker) => ({ marker })),
    fc.constantFrom('message', 'tool_result', 'state_patch').map(() => ({ marker: null })),
  );
  const run = fc.array(fc.array(entry, { maxLength: 12 }), { maxLength: 40 });
  const config = fc.record({
    eventThreshold: fc.integer({ min: 1, max: 30 }),
    stepFallback: fc.integer({ min: 1, max: 12 }),
  });

  function compactionsOf(
    turns: Array<Array<{ marker: Marker | null }>>,
    thresholds: { eventThreshold: number; stepFallback: number },
  ): number[] {
    let counters = { counted_since: 0, steps_since: 0 };
    const at: number[] = [];
    turns.forEach((turn, index) => {
      counters = countMarkers(
        counters,
        turn.flatMap((item) => (item.marker === null ? [] : [item.marker])),
      );
      if (shouldCompact(counters, thresholds)) {
        at.push(index);
        counters = { counted_since: 0, steps_since: 0 };
      }
    });
    return at;
  }

  it('compacts exactly where the terminal markers or the step fallback say, whatever verbose events are mixed in', () => {
    fc.assert(
      fc.property(run, config, (turns, thresholds) => {
        // The reference: count the spec's units directly.
        const expected: number[] = [];
        let counted = 0;
        let steps = 0;
        turns.forEach((turn, index) => {
          counted += turn.filter(
            (item) => item.marker === 'PLAN_DONE' || item.marker === 'ACT_DONE' || item.marker === 'OBSERVE_DONE',
          ).length;
          steps += turn.filter((item) => item.marker === 'STEP_DONE').length;
          if (counted >= thresholds.eventThreshold || steps >= thresholds.stepFallback) {
            expected.push(index);
            counted = 0;
            steps = 0;
          }
        });
        expect(compactionsOf(turns, thresholds)).toEqual(expected);
        // Dropping every verbose event (and RUN_END) changes nothing.
        const terse = turns.map((turn) => turn.filter((item) => item.marker !== null && item.marker !== 'RUN_END'));
        expect(compactionsOf(terse, thresholds)).toEqual(expected);
      }),
    );
  });

  it('resolves and checks the configuration', () => {
    expect(resolveCompactionConfig()).toEqual({
      eventThreshold: 18,
      stepFallback: 8,
      provenanceMode: 'audit_only',
      policySnapshotRef: null,
    });
    expect(resolveCompactionConfig({ eventThreshold: 9 }).stepFallback).toBe(8);
    for (const bad of [{ eventThreshold: 0 }, { stepFallback: 1.5 }, { provenanceMode: '' }]) {
      try {
        resolveCompactionConfig(bad);
        throw new Error('expected CONFIG_INVALID');
      } catch (error) {
        expect(EngramError.isInstance(error) && error.code).toBe('CONFIG_INVALID');
      }
    }
  });
});
