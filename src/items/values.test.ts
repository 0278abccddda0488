import { describe, expect, it } from 'vitest';

import { describeValue, isEnded, mergeValue } from './values.js';

const profile = (...facts: Array<Record<string, unknown>>) => ({ subject: 'user', facts });

describe('mergeValue for profiles', () => {
  it('replaces a fact with the same k and keeps the others', () => {
    const merged = mergeValue(
      'profile',
      profile({ k: 'location', v: 'Porto' }, { k: 'role', v: 'nurse' }),
      profile({ k: 'location', v: 'Lyon' }),
    );
    expect(merged['facts']).toEqual([
      { k: 'location', v: 'Lyon' },
      { k: 'role', v: 'nurse' },
    ]);
  });

  it('drops the fact an ended fact names by its k', () => {
    const current = profile({ k: 'employer', v: 'Acme' }, { k: 'location', v: 'Oslo' });
    const merged = mergeValue(
      'profile',
      current,
      profile({ k: 'employer', v: null, was: 'Acme', until: '2026-03-02' }),
    );
    expect(merged['facts']).toEqual([{ k: 'location', v: 'Oslo' }]);
  });

  it('drops the facts that hold every word an ended fact of any kind names', () => {
    const current = profile(
      { k: 'possession:motorbike', v: 'old Suzuki motorbike' },
      { k: 'possession:laptop', v: 'Dell laptop' },
      { k: 'taste:suzuki_cars', v: 'likes Suzuki cars' },
    );
    const merged = mergeValue(
      'profile',
      current,
      profile({ k: '*:suzuki_motorbike', v: null, was: 'Suzuki motorbike', until: '2026-03-02' }),
    );
    expect(merged['facts']).toEqual([
      { k: 'possession:laptop', v: 'Dell laptop' },
      { k: 'taste:suzuki_cars', v: 'likes Suzuki cars' },
    ]);
  });

  it('matches words by stem, not by the time of day', () => {
    const current = profile(
      { k: 'routine:cycle', v: 'cycle to the office every morning' },
      { k: 'routine:row', v: 'row on the river every morning' },
    );
    const merged = mergeValue(
      'profile',
      current,
      profile({ k: '*:cycling', v: null, was: 'cycling in the mornings', until: '2026-03-02' }),
    );
    expect(merged['facts']).toEqual([{ k: 'routine:row', v: 'row on the river every morning' }]);
  });

  it('matches Chinese by its words, not by whole runs of characters', () => {
    const current = profile(
      { k: 'education:土木工程', v: '土木工程' },
      { k: 'education:武汉大学', v: '武汉大学 大二' },
    );
    const merged = mergeValue('profile', current, profile({ k: '*:土木', v: null, was: '土木', until: '2026-03-02' }));
    expect(merged['facts']).toEqual([{ k: 'education:武汉大学', v: '武汉大学 大二' }]);
  });

  it('swaps the words an ended fact names for its `now`, keeping the k and dating the change', () => {
    const current = profile(
      { k: 'routine:choir', v: 'choir practice every Tuesday', since: '2026-01-05' },
      { k: 'pet:rex', v: 'dog Rex' },
    );
    const merged = mergeValue(
      'profile',
      current,
      profile({ k: '*:tuesday', v: null, was: 'Tuesday', now: 'Thursday', until: '2026-03-02' }),
    );
    expect(merged['facts']).toEqual([
      { k: 'routine:choir', v: 'choir practice every Thursday', since: '2026-03-02' },
      { k: 'pet:rex', v: 'dog Rex' },
    ]);
  });

  it('ends a fact that holds the words of `was` but not as written, rather than guessing the swap', () => {
    const current = profile({ k: 'date:wedding', v: 'wedding 3rd of August' });
    const merged = mergeValue(
      'profile',
      current,
      profile({ k: '*:august_3rd', v: null, was: 'August 3rd', now: 'August 13th', until: '2026-03-02' }),
    );
    expect(merged['facts']).toEqual([]);
  });

  it('leaves the value as it was when an ended fact names nothing current', () => {
    const current = profile({ k: 'pet:rex', v: 'dog Rex' });
    expect(mergeValue('profile', current, profile({ k: '*:boat', v: null, was: 'boat', until: '2026-03-02' }))).toEqual(
      current,
    );
  });

  it('keeps no ended fact in the current value, not even one stored before', () => {
    const current = profile({ k: 'diet', v: null, was: 'vegan', until: '2026-01-01' }, { k: 'location', v: 'Oslo' });
    expect(mergeValue('profile', current, profile({ k: 'role', v: 'chef' }))['facts']).toEqual([
      { k: 'location', v: 'Oslo' },
      { k: 'role', v: 'chef' },
    ]);
  });

  it('applies facts in order, so an end then a new value of the same k keeps the new one', () => {
    const merged = mergeValue(
      'profile',
      profile({ k: 'diet', v: 'vegan' }),
      profile({ k: 'diet', v: null, was: 'vegan' }, { k: 'diet', v: 'vegetarian' }),
    );
    expect(merged['facts']).toEqual([{ k: 'diet', v: 'vegetarian' }]);
  });
});

describe('ended facts', () => {
  it('are the facts with a null value', () => {
    expect(isEnded({ k: 'pet:rex', v: null, was: 'dog Rex' })).toBe(true);
    expect(isEnded({ k: 'pet:rex', v: 'dog Rex' })).toBe(false);
  });

  it('are not described as current', () => {
    expect(
      describeValue('profile', profile({ k: 'pet:rex', v: null, was: 'dog Rex' }, { k: 'location', v: 'Oslo' })),
    ).toBe('location: Oslo');
  });
});
