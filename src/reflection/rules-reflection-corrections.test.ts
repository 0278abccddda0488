// Corrections and contradictions in the rule-based reflection: a corrected or denied value, and a
// value that disputes a current item or another said in the same run.

import { describe, expect, it } from 'vitest';

import type { ContradictionProposal } from '../spec/reflection.js';
import { item, proposals, reflect, run, tone } from '../testing/rules-reflection-kit.js';

describe('rule-based reflection: corrections and contradictions', () => {
  it('turns an English correction into a new value for the key it corrects', () => {
    const current = item('preferences', 'pref:writing:tone', tone('concise'));
    const r = run();
    r.agent('I will keep a concise tone.');
    const correction = r.user('No, I meant a formal tone.');
    const out = reflect(r.events, [current]);
    const found = proposals(out).filter((candidate) => candidate.memory_type === 'correction');
    expect(found).toHaveLength(1);
    expect(found[0]!.target).toMatchObject({
      write: 'item',
      type: 'preferences',
      key: 'pref:writing:tone',
      value: { value: 'formal' },
    });
    expect(found[0]!.item_ids).toEqual([current.id]);
    expect(found[0]!.source_event_ids).toEqual([correction.id]);
    expect(out.reflection.contradictions).toEqual([]);
  });

  it('turns a Chinese correction into a new value for the key it corrects', () => {
    const length = item('preferences', 'pref:writing:length', { scope: 'writing', name: 'length', value: '简洁' });
    const r = run();
    r.user('不是简洁，而是详细。');
    const found = proposals(reflect(r.events, [length]));
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      memory_type: 'correction',
      item_ids: [length.id],
      target: { write: 'item', key: 'pref:writing:length', value: { value: '详细' } },
    });

    const current = item('preferences', 'pref:writing:tone', tone('简洁'));
    const said = run();
    said.user('我说错了，我更喜欢正式的语气。');
    const out = reflect(said.events, [current]);
    expect(proposals(out)).toEqual([
      expect.objectContaining({
        memory_type: 'correction',
        item_ids: [current.id],
        target: expect.objectContaining({
          key: 'pref:writing:tone',
          value: expect.objectContaining({ value: '正式' }),
        }),
      }),
    ]);
    expect(out.reflection.contradictions).toEqual([]);
  });

  it('turns a denial into a retraction of the denied key, and "scratch that" into a new value', () => {
    const drink = item('preferences', 'pref:other:drink', { scope: 'other', name: 'drink', value: 'tea' });
    const denied = run();
    denied.user('I no longer prefer tea.');
    expect(proposals(reflect(denied.events, [drink]))).toEqual([
      expect.objectContaining({
        memory_type: 'correction',
        claim: 'No longer true: Prefers tea (other drink)',
        target: { write: 'retract', key: 'pref:other:drink' },
        item_ids: [drink.id],
      }),
    ]);

    const changed = run();
    const first = changed.user('I prefer tea.');
    const second = changed.user('Scratch that, I prefer coffee.');
    const found = proposals(reflect(changed.events));
    expect(found).toEqual([
      expect.objectContaining({
        memory_type: 'correction',
        target: expect.objectContaining({
          key: 'pref:other:drink',
          value: expect.objectContaining({ value: 'coffee' }),
        }),
      }),
    ]);
    expect(found[0]!.source_event_ids).toEqual([first.id, second.id]);
  });

  it('leaves a correction the rules cannot place for the reviewer to complete', () => {
    const r = run();
    r.agent('The meeting is on Monday.');
    r.user("That's wrong, the meeting moved.");
    const found = proposals(reflect(r.events));
    expect(found).toEqual([
      expect.objectContaining({ memory_type: 'correction', target: { write: 'none' }, item_ids: [] }),
    ]);
    expect(found[0]!.confidence).toBeLessThan(0.5);
  });

  it('reports a value that disputes a current item, with that item', () => {
    const current = item('preferences', 'pref:writing:tone', tone('concise'));
    const decision = item('decisions', 'decision:general:launch_date', {
      project: 'general',
      topic: 'launch_date',
      decision: 'ship on Monday',
    });
    const r = run();
    const said = r.user('I prefer a detailed tone.');
    const decided = r.user('We decided to ship on Friday.');
    const contradictions = reflect(r.events, [current, decision]).reflection.contradictions as ContradictionProposal[];
    expect(contradictions).toEqual([
      {
        detail: 'The run says pref:writing:tone is "detailed", but the current item says "concise".',
        item_ids: [current.id],
        source_event_ids: [said.id],
        question: 'Which is right for pref:writing:tone: "concise" or "detailed"?',
      },
      expect.objectContaining({
        item_ids: [decision.id],
        source_event_ids: [decided.id],
        question: 'Which is right for decision:general:launch_date: "ship on Monday" or "ship on Friday"?',
      }),
    ]);
  });

  it('reports two values for one key within the run', () => {
    const r = run();
    const tabs = r.user('I prefer tabs over spaces.');
    const spaces = r.user('I prefer spaces for indentation.');
    const [contradiction] = reflect(r.events).reflection.contradictions as ContradictionProposal[];
    expect(contradiction).toMatchObject({
      item_ids: [],
      source_event_ids: [tabs.id, spaces.id],
      question: 'Which is right for pref:coding:indent: "tabs" or "spaces"?',
    });
  });

  it('reports no contradiction for a value the items already hold', () => {
    const r = run();
    r.user('I prefer a concise tone.');
    expect(
      reflect(r.events, [item('preferences', 'pref:writing:tone', tone('concise'))]).reflection.contradictions,
    ).toEqual([]);
  });
});
