// The rule-based reflection as a whole: episodes cut by topic, pause and session, secrets never
// read, the same output for the same run, and an empty run. Candidates and corrections have
// files of their own (rules-reflection-candidates, rules-reflection-corrections).

import { describe, expect, it } from 'vitest';

import { ValidationError } from '../spec/errors.js';
import { item, reflect, run, tone, TRACE } from '../testing/rules-reflection-kit.js';
import { reflectByRules } from './rules-reflection.js';

describe('rule-based reflection: episodes, secrets, determinism', () => {
  function twoTopics() {
    const r = run();
    r.user('We need to plan the Atlas launch for March. What are the main launch risks?');
    r.agent('The main launch risks for Atlas are staffing and the marketing budget.');
    r.user('How do we reduce the budget risk for the launch?');
    r.agent('Cut the launch budget risk by locking the vendor contract early.');
    r.user('Separately, can you suggest a pasta recipe for dinner tonight?');
    r.agent('Try a carbonara recipe: eggs, pecorino, guanciale and black pepper.');
    r.user('Is pecorino essential for carbonara, or can I use parmesan cheese?');
    r.agent('Parmesan works; pecorino gives the carbonara a sharper taste.');
    return r;
  }

  it('splits episodes where the topic shifts, each shareable message in exactly one', () => {
    const r = twoTopics();
    r.user('my bank password is hunter2', { sensitivity: 'secret' });
    const { episode_candidates: episodes } = reflect(r.events).reflection;
    expect(episodes).toHaveLength(2);
    expect(episodes[0]!.domains).toContain('launch');
    expect(episodes[0]!.entities).toContain('Atlas');
    expect(episodes[1]!.domains).toContain('carbonara');
    expect(episodes[0]!.candidate_meaning).not.toBeNull();
    for (const episode of episodes) {
      expect(episode.summary.length).toBeGreaterThan(0);
      expect(episode.summary.length).toBeLessThanOrEqual(300);
      expect(episode.confidence).toBeGreaterThanOrEqual(0.5);
      expect(episode.confidence).toBeLessThanOrEqual(0.8);
    }
    const cited = episodes.flatMap((episode) => episode.source_event_ids);
    const shareable = r.events.filter((event) => event.sensitivity !== 'secret').map((event) => event.id);
    expect(cited).toEqual(shareable);
  });

  it('starts an episode after a long pause and gives every session one', () => {
    const r = run();
    r.user('Please review the Atlas launch checklist.');
    r.agent('The Atlas launch checklist looks complete.');
    r.user('Please review the Atlas launch checklist again.', {}, 45);
    r.agent('Still complete.');
    r.user('Review the Atlas launch checklist once more.', { session_id: 's2' });
    const episodes = reflect(r.events).reflection.episode_candidates;
    expect(episodes.map((episode) => episode.source_event_ids.length)).toEqual([2, 2, 1]);
  });

  it('keeps at most eight episodes, merging the smallest', () => {
    const r = run();
    for (let hour = 0; hour < 12; hour += 1) r.user(`Topic number ${hour} about the garden.`, {}, 60);
    const episodes = reflect(r.events).reflection.episode_candidates;
    expect(episodes).toHaveLength(8);
    expect(episodes.flatMap((episode) => episode.source_event_ids)).toEqual(r.events.map((event) => event.id));
  });

  it('never reads or cites a secret event or a secret item', () => {
    const r = twoTopics();
    const secret = r.user('I prefer a CANARY-4711 tone. My token is CANARY-4711.', { sensitivity: 'secret' });
    r.user('I prefer a CANARY-4711 tone.', { sensitivity: 'secret' });
    r.tool('search_recipes', 'CANARY-4711');
    r.events[r.events.length - 1]!.sensitivity = 'secret';
    const hidden = item('preferences', 'pref:writing:tone', tone('CANARY-4711'), { sensitivity: 'secret' });
    r.user('I prefer a concise tone.');
    const text = JSON.stringify(reflect(r.events, [hidden]));
    expect(text).not.toContain('CANARY');
    expect(text).not.toContain(secret.id);
    expect(text).not.toContain(hidden.id);
  });

  it('is deterministic', () => {
    const r = twoTopics();
    r.user('I prefer a concise tone.');
    r.user('No, I meant a formal tone. I prefer a formal tone.');
    const items = [item('preferences', 'pref:writing:tone', tone('casual'))];
    const first = reflectByRules({ trace_id: TRACE, events: r.events, items });
    const second = reflectByRules({ trace_id: TRACE, events: r.events, items });
    expect(second).toEqual(first);
    expect(JSON.stringify(second)).toBe(JSON.stringify(first));
  });

  it('proposes no doctrine and rejects a malformed trace id', () => {
    expect(reflect(twoTopics().events).reflection.doctrine_suggestions).toEqual([]);
    expect(() => reflectByRules({ trace_id: 'trace-1', events: [], items: [] })).toThrow(ValidationError);
  });

  it('reflects an empty run to an empty, valid proposal', () => {
    const out = reflect([]);
    expect(out.reflection).toEqual({
      trace_id: TRACE,
      episode_candidates: [],
      memory_candidates: [],
      contradictions: [],
      doctrine_suggestions: [],
    });
    expect(out.targets).toEqual([]);
  });
});
