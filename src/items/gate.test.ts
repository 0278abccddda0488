import { describe, expect, it } from 'vitest';

import type { ExtractionEvent, ItemCandidate } from '../spec/items.js';
import { applyGate } from './gate.js';

const event = (id: string, text: string, kind: ExtractionEvent['kind'] = 'message'): ExtractionEvent => ({
  event_id: id,
  kind,
  role: kind === 'tool_result' ? 'tool' : 'user',
  text,
  ts: '2026-01-01T00:00:00.000Z',
});

const candidate = (eventId: string, gate: 'must' | 'may', confidence: number): ItemCandidate => ({
  action: 'upsert',
  type: gate === 'must' ? 'decisions' : 'preferences',
  key: gate === 'must' ? 'decision:general:db' : 'pref:other:drink',
  value: {},
  confidence,
  rule: `test.${gate}`,
  gate,
  source_event_ids: [eventId],
});

describe('retention gate', () => {
  it('writes must candidates, confident may candidates, and explains everything else', () => {
    const events = [
      event('e1', 'We decided to use SQLite.'),
      event('e2', 'I prefer tea.'),
      event('e3', 'I kind of like coffee'),
      event('e4', 'thanks!'),
      event('e5', 'ugh, I hate Mondays'),
      event('e6', 'maybe we should try Postgres someday'),
      event('e7', '{"hits": 3}', 'tool_result'),
      event('e8', 'What time is it?'),
    ];
    const candidates = [candidate('e1', 'must', 0.9), candidate('e2', 'may', 0.85), candidate('e3', 'may', 0.4)];
    const { decisions, accepted } = applyGate(events, candidates);
    expect(accepted).toEqual([candidates[0], candidates[1]]);
    const byId = Object.fromEntries(decisions.map((decision) => [decision.event_id, decision]));
    expect(byId['e1']).toMatchObject({ decision: 'must', wrote: true, rules: ['test.must'] });
    expect(byId['e2']).toMatchObject({ decision: 'may', wrote: true });
    expect(byId['e3']).toMatchObject({ decision: 'may', wrote: false });
    expect(byId['e3']!.reason).toContain('held below confidence 0.6');
    expect(byId['e4']!.reason).toMatch(/^small talk/);
    expect(byId['e5']!.reason).toMatch(/^emotional venting/);
    expect(byId['e6']!.reason).toMatch(/^speculative/);
    expect(byId['e7']!.reason).toMatch(/^read-only tool output/);
    expect(byId['e8']!.reason).toMatch(/^a question/);
    for (const id of ['e4', 'e5', 'e6', 'e7', 'e8'])
      expect(byId[id]).toMatchObject({ decision: 'never', wrote: false });
  });

  it('always writes an explicit denial', () => {
    const retract: ItemCandidate = { ...candidate('e1', 'may', 0.3), action: 'retract' };
    const { accepted, decisions } = applyGate([event('e1', "That's no longer true")], [retract]);
    expect(accepted).toEqual([retract]);
    expect(decisions[0]).toMatchObject({ decision: 'must', wrote: true });
  });

  it('writes none of the readings of a statement a person must choose between, and proposes each', () => {
    const reading = (key: string): ItemCandidate => ({
      ...candidate('e1', 'must', 0.85),
      type: 'tasks',
      key,
      value: { status: 'done' },
      review: 'matches 2 open tasks',
    });
    const readings = [reading('task:general:a'), reading('task:general:b')];
    const { decisions, accepted, proposed } = applyGate([event('e1', 'The insurance is renewed.')], readings);
    expect(accepted).toEqual([]);
    expect(proposed).toEqual(readings);
    expect(decisions[0]).toMatchObject({ decision: 'must', wrote: false });
    expect(decisions[0]!.reason).toContain('proposed for review, one reading each (matches 2 open tasks)');
  });
});
