import { describe, expect, it } from 'vitest';

import { factsFrom } from './fact-test-kit.js';

const health = (text: string) => factsFrom('en.profile.health', text);
const SINCE = '2026-02-18';

describe('health in the words medicine names things by', () => {
  it.each([
    ['my GP just started me on propranolol.', [{ k: 'health:propranolol', v: 'on propranolol', since: SINCE }]],
    [
      'neuro has put me on topiramate 25mg for my migraines.',
      [{ k: 'health:topiramate', v: 'on topiramate', since: SINCE }],
    ],
    [
      'ortho says patellar tendinopathy in my right knee.',
      [{ k: 'health:patellar_tendinopathy', v: 'patellar tendinopathy in my right knee', since: SINCE }],
    ],
    ["I've got osteoarthritis in both hands", [{ k: 'health:osteoarthritis', v: 'osteoarthritis', since: SINCE }]],
    [
      'broke my ankle playing futsal, in a boot for 6 weeks.',
      [{ k: 'health:ankle', v: 'broke my ankle', since: SINCE }],
    ],
    ['I walk with a stick since my hip operation.', [{ k: 'health:hip_operation', v: 'hip operation' }]],
    [
      'update: hurt my back lifting a patient in March, herniated disc.',
      [
        { k: 'health:back', v: 'hurt my back', since: SINCE },
        { k: 'health:herniated_disc', v: 'herniated disc', since: SINCE },
      ],
    ],
    [
      'no more injections! I got an insulin pump last week',
      [{ k: 'health:insulin_pump', v: 'uses insulin pump', since: SINCE }],
    ],
    ['I wear hearing aids since the accident', [{ k: 'health:hearing_aids', v: 'uses hearing aids', since: SINCE }]],
    ['I take metformin twice a day.', [{ k: 'health:metformin', v: 'on metformin', since: SINCE }]],
  ])('%s', (text, expected) => {
    expect(health(text)).toEqual(expected);
  });

  it('ends a medicine the user comes off, named or just said ("took me off it"), and keeps the next one', () => {
    expect(health('propranolol turned me into a zombie so the GP took me off it. trying candesartan now.')).toEqual([
      { k: 'health:propranolol', v: null, was: 'on propranolol', until: SINCE },
      { k: 'health:candesartan', v: 'on candesartan', since: SINCE },
    ]);
    expect(health('I stopped the sertraline last month')).toEqual([
      { k: 'health:sertraline', v: null, was: 'on sertraline', until: SINCE },
    ]);
  });

  it("is no health fact of the user's: someone else's, a maybe, a question, a word that only ends like a condition", () => {
    for (const text of [
      'my son broke his arm',
      'what if I tore my ACL?',
      'I have a diploma in design',
      'she is on sertraline',
      'my dad got a pacemaker last year',
      'should I get a CPAP machine?',
      'I take the bus to the clinic',
    ])
      expect(health(text), text).toEqual([]);
  });
});
