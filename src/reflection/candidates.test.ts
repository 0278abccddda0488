import { describe, expect, it } from 'vitest';

import type { EventRecord } from '../spec/event.js';
import type { ReviewCandidate } from '../spec/reflection.js';
import { newId } from '../util/ids.js';
import { eventRecord } from '../testing/event-record.js';
import { candidateFingerprint, candidatesOf, newProposals } from './candidates.js';
import { reflectByRules } from './rules-reflection.js';

const scope = { tenant_id: 't1', user_id: 'u1', agent_id: 'a1', session_id: 's1', run_id: 'r1' };

/** A run in which the user states a preference twice and corrects a fact: something of each kind. */
function runEvents(): EventRecord[] {
  const texts = [
    'I prefer a concise tone. Can you outline the Atlas launch plan?',
    'Please keep a concise tone in the outline.',
    'Actually my email is mira@example.org, not the old one.',
  ];
  return texts.map((content, at) =>
    eventRecord({
      content,
      ts: new Date(Date.parse('2026-06-01T10:00:00.000Z') + at * 60_000).toISOString(),
      turn_id: `turn-${at}`,
    }),
  );
}

/** The candidates of one rule-based reflection over the events (a new trace each time, as reflect makes). */
function reflectOnce(events: readonly EventRecord[]): ReviewCandidate[] {
  const { reflection, targets } = reflectByRules({ trace_id: newId('trc'), events, items: [] });
  return candidatesOf({
    reflection,
    source: 'rules',
    scope,
    targets,
    events: new Map(events.map((event) => [event.id, event])),
    now: '2026-06-01T11:00:00.000Z',
  });
}

describe('newProposals', () => {
  it('adds nothing when the same run is reflected a second time', () => {
    const events = runEvents();
    const first = reflectOnce(events);
    expect(first.length).toBeGreaterThan(1);
    const second = reflectOnce(events);
    // Each reflection has its own ids and trace, but proposes the same things.
    expect(second.map((candidate) => candidate.id)).not.toEqual(first.map((candidate) => candidate.id));
    expect(newProposals(second, first)).toEqual([]);
    // Whatever became of the first proposals (approved, rejected) they are not proposed again.
    const decided = first.map((candidate) => ({ ...candidate, status: 'rejected' as const }));
    expect(newProposals(second, decided)).toEqual([]);
  });

  it('keeps a proposal once when one reflection makes it twice, and keeps what is new', () => {
    const [candidate] = reflectOnce(runEvents());
    const twin = { ...candidate!, id: newId('cand') };
    const other: ReviewCandidate = {
      ...candidate!,
      id: newId('cand'),
      kind: 'memory',
      target: { write: 'retract', key: 'pref:writing:tone' },
    };
    expect(newProposals([candidate!, twin, other], []).map((entry) => entry.id)).toEqual([candidate!.id, other.id]);
  });

  it('tells proposals apart by what approving them writes, the items they are about, and for those that write nothing by their proposal', () => {
    const base = reflectOnce(runEvents())[0]!;
    const fingerprint = (overrides: Partial<ReviewCandidate>) => candidateFingerprint({ ...base, ...overrides });
    const contradiction = { kind: 'contradiction' as const, target: { write: 'resolve' as const, keep: null } };
    expect(fingerprint({ ...contradiction, item_ids: ['mem_a', 'mem_b'] })).toBe(
      fingerprint({ ...contradiction, item_ids: ['mem_b', 'mem_a'] }),
    );
    expect(fingerprint({ ...contradiction, item_ids: ['mem_a'] })).not.toBe(
      fingerprint({ ...contradiction, item_ids: ['mem_c'] }),
    );
    const none = { kind: 'memory' as const, target: { write: 'none' as const } };
    expect(fingerprint({ ...none, payload: { claim: 'one' } })).not.toBe(
      fingerprint({ ...none, payload: { claim: 'two' } }),
    );
    // Key order does not matter.
    expect(fingerprint({ target: { write: 'retract', key: 'k:a' } })).toBe(
      candidateFingerprint({
        ...base,
        target: JSON.parse('{"key":"k:a","write":"retract"}') as ReviewCandidate['target'],
      }),
    );
  });
});
