// What the tests of the rule-based reflection share: a run of user, agent and tool events built one
// after another, a current memory item of user u1, and reflectByRules checked on every call against
// the SessionReflection schema, with one target per memory candidate.

import { expect } from 'vitest';

import type { EventRecord } from '../spec/event.js';
import type { MemoryItem, MemoryType } from '../spec/items.js';
import { checkSessionReflection } from '../spec/validators.js';
import { newId } from '../util/ids.js';
import { reflectByRules, type RulesReflection } from '../reflection/rules-reflection.js';
import { eventRecord } from './event-record.js';

/** The trace id every reflection of these tests carries. */
export const TRACE = newId('trc');

/** A run builder: events one minute apart (or `gap` minutes after the previous one), each its own turn. */
export function run() {
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

/** A current memory item of user u1, with any field overridden. */
export function item(
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

/** The value of a writing-tone preference. */
export const tone = (value: string): Record<string, unknown> => ({
  scope: 'writing',
  name: 'tone',
  value,
  priority: 0.8,
});

/** reflectByRules over the events and items, its output checked against the schema. */
export function reflect(events: readonly EventRecord[], items: readonly MemoryItem[] = []): RulesReflection {
  const out = reflectByRules({ trace_id: TRACE, events, items });
  expect(checkSessionReflection(out.reflection)).toEqual([]);
  expect(out.targets).toHaveLength(out.reflection.memory_candidates.length);
  return out;
}

/** The memory candidates with their targets, side by side. */
export function proposals(out: RulesReflection) {
  return out.reflection.memory_candidates.map((candidate, index) => ({ ...candidate, ...out.targets[index]! }));
}
