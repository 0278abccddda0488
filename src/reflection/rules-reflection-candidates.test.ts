// The memory candidates of the rule-based reflection: preferences said more than once and
// recurring tool sequences.

import { describe, expect, it } from 'vitest';

import { item, proposals, reflect, run, tone } from '../testing/rules-reflection-kit.js';

describe('rule-based reflection: memory candidates', () => {
  it('proposes a preference stated in two events as one affective candidate citing both', () => {
    const r = run();
    const first = r.user('I prefer a concise tone. Can you outline the Atlas launch plan?');
    r.agent('Here is an outline of the Atlas launch plan.');
    const second = r.user('Please keep a concise tone in the outline.');
    const found = proposals(reflect(r.events)).filter((candidate) => candidate.memory_type === 'affective');
    expect(found).toHaveLength(1);
    expect(found[0]!.target).toMatchObject({
      write: 'item',
      type: 'preferences',
      key: 'pref:writing:tone',
      value: { scope: 'writing', name: 'tone', value: 'concise' },
    });
    expect(found[0]!.source_event_ids).toEqual([first.id, second.id]);
    expect(found[0]!.claim).toBe('Prefers concise (writing tone)');
    expect(found[0]!.applies_when).toEqual(['writing']);
    expect(found[0]!.source_episode_indexes.length).toBeGreaterThan(0);
    expect(found[0]!.initial_salience.emotional_charge).toBeGreaterThan(0.5);
  });

  it('grows confidence and emotional charge with repetitions', () => {
    const twice = run();
    twice.user('I prefer a concise tone.');
    twice.user('I prefer a concise tone, really.');
    const thrice = run();
    thrice.user('I prefer a concise tone.');
    thrice.user('I prefer a concise tone, really.');
    thrice.user('Again: I prefer a concise tone.');
    const [two] = proposals(reflect(twice.events));
    const [three] = proposals(reflect(thrice.events));
    expect(three!.confidence).toBeGreaterThan(two!.confidence);
    expect(three!.initial_salience.emotional_charge).toBeGreaterThan(two!.initial_salience.emotional_charge);
  });

  it('proposes nothing for a preference stated once', () => {
    const r = run();
    r.user('I prefer a concise tone.');
    r.agent('Noted, I will keep it short.');
    expect(reflect(r.events).reflection.memory_candidates).toEqual([]);
  });

  it('counts a current item said before the run as one statement', () => {
    const r = run();
    r.user('I prefer a concise tone.');
    const before = item('preferences', 'pref:writing:tone', tone('concise'));
    const found = proposals(reflect(r.events, [before]));
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ memory_type: 'affective', item_ids: [before.id] });
  });

  it('proposes a recurring tool sequence as a procedural candidate', () => {
    const r = run();
    r.user('Find me a pasta recipe for dinner.');
    r.tool('search_recipes', { title: 'Carbonara', url: 'https://example.com/carbonara' });
    r.tool('fetch_page', 'Carbonara: eggs, pecorino, guanciale.');
    r.agent('Here is a carbonara recipe.');
    r.user('Now a risotto recipe please.');
    r.tool('search_recipes', { title: 'Risotto' });
    r.tool('search_recipes', { title: 'Risotto alla milanese' });
    r.tool('fetch_page', 'Risotto: rice, stock, parmesan.');
    const found = proposals(reflect(r.events)).filter((candidate) => candidate.memory_type === 'procedural');
    expect(found).toHaveLength(1);
    expect(found[0]!.claim).toBe('To handle recipe requests, call search_recipes, then fetch_page.');
    expect(found[0]!.target).toEqual({
      write: 'item',
      type: 'procedure',
      key: 'procedure:recipe:search_recipes_fetch_page',
      value: {
        task_type: 'recipe',
        name: 'search_recipes_fetch_page',
        steps: ['call search_recipes', 'call fetch_page'],
      },
    });
    expect(found[0]!.source_event_ids).toHaveLength(5);
  });

  it('proposes no procedure for a sequence seen once or only failing', () => {
    const r = run();
    r.user('Find me a pasta recipe.');
    r.tool('search_recipes', { title: 'Carbonara' });
    r.tool('fetch_page', 'Carbonara: eggs.');
    r.user('And a risotto recipe.');
    r.tool('search_recipes', 'error: timeout', 'error');
    r.tool('fetch_page', 'Risotto: rice.');
    expect(proposals(reflect(r.events)).filter((candidate) => candidate.memory_type === 'procedural')).toEqual([]);
  });
});
