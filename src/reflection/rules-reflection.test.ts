import { describe, expect, it } from 'vitest';

import type { EventRecord } from '../spec/event.js';
import { ValidationError } from '../spec/errors.js';
import type { MemoryItem, MemoryType } from '../spec/items.js';
import type { ContradictionProposal } from '../spec/reflection.js';
import { checkSessionReflection } from '../spec/validators.js';
import { newId } from '../util/ids.js';
import { eventRecord } from '../testing/event-record.js';
import { reflectByRules, type RulesReflection } from './rules-reflection.js';

const TRACE = newId('trc');

/** A run builder: events one minute apart (or `gap` minutes after the previous one), each its own turn. */
function run() {
  let time = Date.parse('2026-06-01T10:00:00.000Z');
  let turn = 0;
  const events: EventRecord[] = [];
  const add = (overrides: Partial<EventRecord>, gap = 1, newTurn = true): EventRecord => {
    time += gap * 60_000;
    if (newTurn) turn += 1;
    const event = eventRecord({ ts: new Date(time).toISOString(), turn_id: `turn-${turn}`, ...overrides });
    events.push(event);
    return event;
  };
  return {
    events,
    user: (content: string, overrides: Partial<EventRecord> = {}, gap = 1) => add({ content, ...overrides }, gap),
    agent: (content: string, overrides: Partial<EventRecord> = {}) =>
      add({ content, role: 'agent', ...overrides }, 1, false),
    tool: (name: string, content: string | Record<string, unknown>, status: 'ok' | 'error' = 'ok') =>
      add(
        {
          kind: 'tool_result',
          role: 'tool',
          content_type: 'tool_output',
          content,
          origin_metadata: { tool_name: name, status },
        },
        1,
        false,
      ),
  };
}

function item(
  type: MemoryType,
  key: string,
  value: Record<string, unknown>,
  overrides: Partial<MemoryItem> = {},
): MemoryItem {
  return {
    id: newId('mem'),
    tenant_id: 't1',
    user_id: 'u1',
    agent_id: null,
    scope_level: 'user',
    type,
    key,
    value,
    confidence: 0.85,
    status: 'active',
    sensitivity: 'normal',
    valid_from: null,
    valid_to: null,
    salience: { consequence: 0.4, emotional_charge: 0.5, reusability: 0.9 },
    version: 1,
    supersedes: null,
    source_event_ids: [newId('evt')],
    evidence_refs: [],
    provenance: { extractor: 'rules', rule: 'en.preference.prefer' },
    tags: [],
    entities: [],
    recorded_at: '2026-05-01T10:00:00.000Z',
    updated_at: '2026-05-01T10:00:00.000Z',
    ended_at: null,
    ...overrides,
  };
}

const tone = (value: string): Record<string, unknown> => ({ scope: 'writing', name: 'tone', value, priority: 0.8 });

function reflect(events: readonly EventRecord[], items: readonly MemoryItem[] = []): RulesReflection {
  const out = reflectByRules({ trace_id: TRACE, events, items });
  expect(checkSessionReflection(out.reflection)).toEqual([]);
  expect(out.targets).toHaveLength(out.reflection.memory_candidates.length);
  return out;
}

/** The memory candidates with their targets, side by side. */
function proposals(out: RulesReflection) {
  return out.reflection.memory_candidates.map((candidate, index) => ({ ...candidate, ...out.targets[index]! }));
}

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
