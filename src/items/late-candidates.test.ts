import { describe, expect, it } from 'vitest';

import type { ItemCandidate, MemoryItem } from '../spec/items.js';
import { withoutLaterChanges } from './late-candidates.js';

const at = (hour: number) => `2026-06-01T${String(hour).padStart(2, '0')}:00:00.000Z`;

function version(
  number: number,
  hour: number,
  facts: Array<Record<string, unknown>>,
  overrides: Partial<MemoryItem> = {},
): MemoryItem {
  return {
    id: `mem_${number}`,
    tenant_id: 't',
    user_id: 'u',
    agent_id: 'a',
    scope_level: 'user',
    type: 'profile',
    key: 'profile:user',
    value: { subject: 'user', facts },
    confidence: 0.85,
    status: 'superseded',
    sensitivity: 'normal',
    valid_from: at(hour),
    valid_to: null,
    salience: { consequence: 0.5, emotional_charge: 0.2, reusability: 0.5 },
    version: number,
    supersedes: null,
    source_event_ids: [],
    evidence_refs: [],
    provenance: { extractor: 'rules', rule: 'en.profile.fact' },
    tags: [],
    entities: [],
    // Written an hour after it was learned: what counts is when it was learned.
    recorded_at: at(hour + 1),
    updated_at: at(hour + 1),
    ended_at: null,
    ...overrides,
  };
}

function profile(
  hour: number,
  facts: Array<Record<string, unknown>>,
  overrides: Partial<ItemCandidate> = {},
): ItemCandidate {
  return {
    action: 'upsert',
    type: 'profile',
    key: 'profile:user',
    value: { subject: 'user', facts },
    confidence: 0.9,
    rule: 'llm:extract-items@2',
    gate: 'may',
    source_event_ids: ['evt_1'],
    valid_from: at(hour),
    ...overrides,
  };
}

describe('withoutLaterChanges', () => {
  const berlin = { k: 'location', v: 'Berlin' };
  const lisbon = { k: 'location', v: 'Lisbon', since: '2026-06-01' };
  const peanuts = { k: 'allergy:peanuts', v: 'allergic to peanuts' };
  const versions = [
    version(1, 8, [berlin, peanuts]),
    version(2, 12, [lisbon, peanuts], { status: 'active', supersedes: 'mem_1' }),
  ];

  it('keeps the facts of a profile that no later version touched, and drops those a later one set', () => {
    const late = profile(10, [
      { k: 'location', v: 'Berlin, Germany' },
      { k: 'employer', v: 'Acme' },
      { k: 'allergy:peanuts', v: 'severe peanut allergy' },
    ]);
    expect(withoutLaterChanges(late, versions)!.value['facts']).toEqual([
      { k: 'employer', v: 'Acme' },
      { k: 'allergy:peanuts', v: 'severe peanut allergy' },
    ]);
    expect(withoutLaterChanges(profile(10, [{ k: 'location', v: 'Hamburg' }]), versions)).toBeNull();
  });

  it('counts a fact a later version ended as changed later', () => {
    const ended = [...versions, version(3, 14, [lisbon], { status: 'active', supersedes: 'mem_2' })];
    expect(withoutLaterChanges(profile(13, [peanuts, { k: 'diet', v: 'vegan' }]), ended)!.value['facts']).toEqual([
      { k: 'diet', v: 'vegan' },
    ]);
  });

  it('takes a candidate learned at or after every version as it is, and one without a time as current', () => {
    const same = profile(12, [{ k: 'location', v: 'Porto' }]);
    expect(withoutLaterChanges(same, versions)).toBe(same);
    const timeless = profile(0, [berlin], { valid_from: null });
    expect(withoutLaterChanges(timeless, versions)).toBe(timeless);
  });

  it('drops a late candidate of another type, a late retraction, and anything of a key retracted later', () => {
    const tone = (hour: number): MemoryItem => ({
      ...version(1, hour, []),
      type: 'preferences',
      key: 'pref:writing:tone',
      value: { scope: 'writing', name: 'tone', value: 'formal' },
      status: 'active',
    });
    const preference: ItemCandidate = {
      ...profile(10, []),
      type: 'preferences',
      key: 'pref:writing:tone',
      value: { scope: 'writing', name: 'tone', value: 'casual' },
    };
    expect(withoutLaterChanges(preference, [tone(11)])).toBeNull();
    expect(withoutLaterChanges(preference, [tone(9)])).toBe(preference);
    expect(withoutLaterChanges({ ...preference, action: 'retract', value: {} }, [tone(11)])).toBeNull();
    expect(withoutLaterChanges(preference, [{ ...tone(9), status: 'retracted', ended_at: at(11) }])).toBeNull();
    expect(
      withoutLaterChanges(profile(10, [{ k: 'diet', v: 'vegan' }]), [
        { ...versions[1]!, status: 'retracted', ended_at: at(11) },
      ]),
    ).toBeNull();
  });
});
