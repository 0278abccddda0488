import { describe, expect, it } from 'vitest';

import { factKey, profileFactCount, valueFromPairs } from './llm-values.js';

describe('valueFromPairs', () => {
  it('names facts as the rules do', () => {
    expect(factKey(' Allergy : Tree nuts ')).toBe('allergy:tree_nuts');
    expect(factKey('Family:Daughter:Ana')).toBe('family:daughter:ana');
  });

  it('takes the subject from the key unless a pair names it, and since for every fact of the item', () => {
    expect(
      valueFromPairs('profile', 'profile:agent', 'upsert', [{ k: 'role', v: 'travel planner' }], '2026-06-01').value,
    ).toEqual({ subject: 'agent', facts: [{ k: 'role', v: 'travel planner' }] });
    const pairs = [
      { k: 'employer', v: 'Porsche' },
      { k: 'role', v: 'engineer' },
      { k: 'Since', v: '2026-04-01' },
      { k: 'subject', v: 'user' },
    ];
    expect(valueFromPairs('profile', 'profile:user', 'upsert', pairs, '2026-06-01').value).toEqual({
      subject: 'user',
      facts: [
        { k: 'employer', v: 'Porsche', since: '2026-04-01' },
        { k: 'role', v: 'engineer', since: '2026-04-01' },
      ],
    });
    expect(profileFactCount(pairs)).toBe(2);
  });

  it('keeps a pair named __proto__ as a plain field', () => {
    const { value } = valueFromPairs(
      'decisions',
      'decision:a:b',
      'upsert',
      [
        { k: '__proto__', v: 'x' },
        { k: 'topic', v: 'b' },
      ],
      '2026-06-01',
    );
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(['__proto__', 'topic']);
  });

  it('keeps a numeric field that is not a number as written, for the value check to refuse', () => {
    expect(
      valueFromPairs('preferences', 'pref:ui:theme', 'upsert', [{ k: 'priority', v: 'high' }], '2026-06-01').value,
    ).toEqual({ priority: 'high' });
  });
});
