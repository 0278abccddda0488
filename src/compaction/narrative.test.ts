import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import type { CompactionSnapshot, EvidencePointer } from '../spec/compaction.js';
import { checkSnapshot } from '../spec/validators.js';
import { NARRATIVE_HEADINGS, inline, renderNarrative } from './narrative.js';

const hostile = fc.constantFrom(
  '## 3. Verified claims',
  '\n# Title\n- item',
  '*bold* _it_ `code`',
  '[link](http://x)',
  '<script>',
  'a | b',
  '&amp;',
  '1. one',
  '\r\n> quote',
  '\\',
  '',
);
const text = fc.oneof(fc.string({ unit: 'binary', maxLength: 40 }), hostile);
const id = fc.oneof(fc.string({ minLength: 1, maxLength: 12 }), fc.constantFrom('**id**', 'a\nb', '#1'));
const pointer: fc.Arbitrary<EvidencePointer> = fc.record({
  evidence_id: fc.stringMatching(/^evd_[0-9A-HJKMNP-TV-Z]{26}$/),
  chunk_id: id,
  span: fc.tuple(fc.nat(1000), fc.nat(1000)),
  corpus_id: id,
});
const pointers = fc.array(pointer, { maxLength: 3 });
const json = fc.jsonValue({ maxDepth: 2 });

const snapshotArbitrary: fc.Arbitrary<CompactionSnapshot> = fc.record({
  snapshot_id: id,
  run_id: id,
  sequence: fc.integer({ min: 1, max: 1000 }),
  created_at: fc
    .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true })
    .map((date) => date.toISOString()),
  objective: text,
  done_definition: fc.oneof(text, fc.dictionary(fc.string({ maxLength: 6 }), json, { maxKeys: 4 })),
  provenance_mode: fc.constantFrom('audit_only', 'strict'),
  policy_snapshot_ref: fc.option(id, { nil: null }),
  counts: fc.record({ steps_since_last_compaction: fc.nat(50), counted_events_since_last_compaction: fc.nat(50) }),
  latest_context_manifest_ids: fc.array(id, { maxLength: 3 }),
  state: fc.record({
    claims: fc.array(
      fc.record({
        claim_id: id,
        status: fc.constantFrom('verified' as const, 'candidate' as const, 'retracted' as const),
        statement: text,
        evidence_refs: pointers,
      }),
      { maxLength: 4 },
    ),
    conflicts: fc.array(
      fc.record({ conflict_id: id, description: text, side_a_refs: pointers, side_b_refs: pointers }),
      { maxLength: 3 },
    ),
    open_questions: fc.array(text, { maxLength: 3 }),
    failures: fc.array(fc.record({ failure_id: id, category: text, where: text, why: text }), { maxLength: 3 }),
    source_coverage: fc.record({
      source_ids_seen: fc.array(id, { maxLength: 3 }),
      chunk_ids_seen: fc.array(id, { maxLength: 3 }),
      chunk_ids_cited: fc.array(id, { maxLength: 3 }),
    }),
  }),
  retrieval_diagnostics: fc.dictionary(fc.string({ maxLength: 6 }), json, { maxKeys: 4 }),
  validation: fc.record({
    status: fc.constantFrom('PASS' as const, 'FAIL' as const),
    checks: fc.array(
      fc.record({ name: id, status: fc.constantFrom('PASS' as const, 'FAIL' as const), message: text }),
      { maxLength: 3 },
    ),
    failure_action_taken: fc.constantFrom('NONE' as const, 'RETRY' as const, 'SYSTEM_ERROR' as const),
  }),
});

/** The same value with every object's keys in reverse order. */
function reverseKeys<T>(value: T): T {
  if (Array.isArray(value)) return value.map(reverseKeys) as T;
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([key, child]) => [key, reverseKeys(child)]),
  ) as T;
}

const snapshot: CompactionSnapshot = {
  snapshot_id: 'snp_2',
  run_id: 'run-1',
  sequence: 2,
  created_at: '2026-01-01T00:00:00.000Z',
  objective: 'Pick the *cheaper* vendor',
  done_definition: { invariants: ['cite prices'], deliverable: 'table' },
  provenance_mode: 'audit_only',
  policy_snapshot_ref: null,
  counts: { steps_since_last_compaction: 6, counted_events_since_last_compaction: 18 },
  latest_context_manifest_ids: ['ctx_1', 'ctx_2'],
  state: {
    claims: [
      {
        claim_id: 'c1',
        status: 'verified',
        statement: 'A costs 10 EUR',
        evidence_refs: [
          { evidence_id: 'evd_AAAAAAAAAAAAAAAAAAAAAAAAAA', chunk_id: 'evt_1', span: [0, 6], corpus_id: 'events' },
        ],
      },
      { claim_id: 'c2', status: 'candidate', statement: 'B ships faster', evidence_refs: [] },
    ],
    conflicts: [
      {
        conflict_id: 'k1',
        description: 'price of A',
        side_a_refs: [
          { evidence_id: 'evd_AAAAAAAAAAAAAAAAAAAAAAAAAA', chunk_id: 'evt_1', span: [0, 6], corpus_id: 'events' },
        ],
        side_b_refs: [
          { evidence_id: 'evd_BBBBBBBBBBBBBBBBBBBBBBBBBB', chunk_id: 'c9', span: [3, 9], corpus_id: 'web' },
        ],
      },
    ],
    open_questions: ['Is tax included?'],
    failures: [{ failure_id: 'f1', category: 'tool', where: 'search', why: 'timeout' }],
    source_coverage: { source_ids_seen: ['doc'], chunk_ids_seen: ['evt_1', 'c9'], chunk_ids_cited: ['c9', 'evt_1'] },
  },
  retrieval_diagnostics: { context_builds: 2, context_build_ids: ['ctx_1', 'ctx_2'] },
  validation: {
    status: 'PASS',
    checks: [{ name: 'schema', status: 'PASS', message: 'ok' }],
    failure_action_taken: 'NONE',
  },
};

const expected = `# Run run-1: compaction snapshot 2

## 1. Objective, budgets and provenance

- Objective: Pick the \\*cheaper\\* vendor
- Done definition: {"deliverable":"table","invariants":\\["cite prices"\\]}
- Budget used since the last snapshot: 18 counted events (PLAN\\_DONE, ACT\\_DONE, OBSERVE\\_DONE), 6 steps
- Provenance mode: audit\\_only
- Policy snapshot: none

## 2. What changed since the last snapshot

- Snapshot snp\\_2, sequence 2 (after sequence 1), taken at 2026-01-01T00:00:00.000Z
- Claims: 1 verified, 1 candidate, 0 retracted
- Conflicts: 1; failures: 1; open questions: 1
- Sources seen: 1; chunks seen: 2; chunks cited: 2
- Context builds since the last snapshot: 2
- Validation: PASS (action NONE)

## 3. Verified claims

- **c1**: A costs 10 EUR
  - evd\\_AAAAAAAAAAAAAAAAAAAAAAAAAA (corpus events, chunk evt\\_1, characters 0 to 6)

## 4. Conflicts

- **k1**: price of A
  - Side A: evd\\_AAAAAAAAAAAAAAAAAAAAAAAAAA (corpus events, chunk evt\\_1, characters 0 to 6)
  - Side B: evd\\_BBBBBBBBBBBBBBBBBBBBBBBBBB (corpus web, chunk c9, characters 3 to 9)

## 5. Failures

- **f1** (tool) at search: timeout

## 6. Open questions

- Is tax included?

## 7. Next actions

1. Resolve conflict **k1**: price of A
2. Answer the open question: Is tax included?
3. Gather evidence for candidate claim **c2**: B ships faster

## 8. Manifest references

- Context builds: ctx\\_1, ctx\\_2
- Retrieval diagnostics: {"context\\_build\\_ids":\\["ctx\\_1","ctx\\_2"\\],"context\\_builds":2}
- Snapshot: snp\\_2 (run run-1)
`;

describe('renderNarrative', () => {
  it('renders the eight sections from the snapshot alone', () => {
    expect(checkSnapshot(snapshot)).toEqual([]);
    expect(renderNarrative(snapshot)).toBe(expected);
  });

  it('derives at most three next actions by fixed rules, or none', () => {
    const failed: CompactionSnapshot = {
      ...snapshot,
      validation: {
        status: 'FAIL',
        checks: [
          { name: 'objective_stable', status: 'FAIL', message: 'm' },
          { name: 'retry', status: 'FAIL', message: 'm' },
        ],
        failure_action_taken: 'SYSTEM_ERROR',
      },
    };
    const actions = renderNarrative(failed).split('## 7. Next actions\n\n')[1]!.split('\n\n')[0]!;
    expect(actions).toBe(
      [
        '1. Fix what the failed compaction checks name: objective\\_stable',
        '2. Resolve conflict **k1**: price of A',
        '3. Answer the open question: Is tax included?',
      ].join('\n'),
    );
    const quiet: CompactionSnapshot = {
      ...snapshot,
      state: { ...snapshot.state, claims: [], conflicts: [], open_questions: [], failures: [] },
    };
    const rendered = renderNarrative(quiet);
    expect(rendered).toContain('## 7. Next actions\n\nNone.\n');
    expect(rendered).toContain('## 3. Verified claims\n\nNone.\n');
    const long = { ...quiet, state: { ...quiet.state, open_questions: ['q'.repeat(500)] } };
    expect(renderNarrative(long)).toContain(`1. Answer the open question: ${'q'.repeat(160)}…\n`);
  });

  it('escapes user text onto one line', () => {
    expect(inline('*bold* <b>\nnext')).toBe('\\*bold\\* \\<b\\> next');
    expect(inline('[x](y) `c` a|b ~s~ &amp; #h !')).toBe('\\[x\\](y) \\`c\\` a\\|b \\~s\\~ \\&amp; \\#h \\!');
    expect(inline('back\\slash\r\ttab')).toBe('back\\\\slash  tab');
  });

  it('renders any valid snapshot deterministically, with the eight headings in order', () => {
    fc.assert(
      fc.property(snapshotArbitrary, (generated) => {
        expect(checkSnapshot(generated)).toEqual([]);
        const rendered = renderNarrative(generated);
        expect(renderNarrative(structuredClone(generated))).toBe(rendered);
        expect(renderNarrative(JSON.parse(JSON.stringify(generated)) as CompactionSnapshot)).toBe(rendered);
        expect(renderNarrative(reverseKeys(generated))).toBe(rendered);
        const lines = rendered.split('\n');
        expect(lines.filter((line) => line.startsWith('## '))).toEqual([...NARRATIVE_HEADINGS]);
        expect(lines.filter((line) => line.startsWith('#') && !line.startsWith('## '))).toHaveLength(1);
        expect(rendered.endsWith('\n')).toBe(true);
        expect(rendered).not.toMatch(/[\r\u2028\u2029]/);
        const actions = rendered.split('## 7. Next actions\n\n')[1]!.split('\n\n')[0]!.split('\n');
        expect(actions.length).toBeGreaterThanOrEqual(1);
        expect(actions.length).toBeLessThanOrEqual(3);
      }),
      { numRuns: 200 },
    );
  });
});
