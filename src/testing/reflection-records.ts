// The reflections, review candidates and insights the storage conformance suites write: each of
// t1/u1/a1/s1/r1, complete, with any field overridden.

import { newId } from '../index.js';
import type { InsightRecord, ReflectionRecord, ReviewCandidate } from '../spec/reflection.js';

const AT = '2026-06-01T10:00:00.000Z';
const scope = { tenant_id: 't1', user_id: 'u1', agent_id: 'a1', session_id: 's1', run_id: 'r1' };
const salience = { consequence: 0.4, emotional_charge: 0.1, reusability: 0.9 };

/** A succeeded reflection of t1/u1/a1/s1/r1, with any field overridden. */
export function reflection(overrides: Partial<ReflectionRecord> = {}): ReflectionRecord {
  const trace_id = overrides.trace_id ?? newId('trc');
  return {
    ...scope,
    trace_id,
    source: 'llm',
    model: 'small-model',
    status: 'succeeded',
    reflection: {
      trace_id,
      episode_candidates: [
        {
          summary: 'fixed the ünïcødé 中文 build',
          entities: ['build'],
          domains: ['ci'],
          source_event_ids: ['evt_a'],
          confidence: 0.8,
          candidate_meaning: null,
        },
      ],
      memory_candidates: [
        {
          claim: 'prefers pnpm',
          memory_type: 'semantic',
          applies_when: ['js'],
          does_not_apply_when: [],
          initial_salience: salience,
          source_episode_indexes: [0],
          confidence: 0.7,
        },
      ],
      contradictions: [{ detail: 'x', item_ids: ['mem_a', 'mem_b'] }],
      doctrine_suggestions: [],
    },
    failure: null,
    event_count: 12,
    candidate_ids: [newId('cand'), newId('cand')],
    created_at: AT,
    ...overrides,
  };
}

/** A pending memory candidate of t1/u1/a1/s1/r1, with any field overridden. */
export function candidate(overrides: Partial<ReviewCandidate> = {}): ReviewCandidate {
  return {
    ...scope,
    id: newId('cand'),
    trace_id: 'trc_1',
    kind: 'memory',
    source: 'llm',
    status: 'pending',
    payload: { claim: 'prefers pnpm', nested: { list: [1, 'two'] } },
    memory_type: 'semantic',
    confidence: 0.75,
    salience,
    source_event_ids: ['evt_a', 'evt_b'],
    sensitivity: 'normal',
    item_ids: ['mem_a'],
    target: {
      write: 'item',
      type: 'preferences',
      key: 'package_manager',
      value: { name: 'pnpm' },
      tags: ['js'],
      valid_from: null,
    },
    open_loop_id: null,
    created_at: AT,
    decision: null,
    ...overrides,
  };
}

/** An unvalidated hypothesis of t1/u1/a1/s1/r1, with any field overridden. */
export function insight(overrides: Partial<InsightRecord> = {}): InsightRecord {
  return {
    ...scope,
    id: newId('ins'),
    type: 'hypothesis',
    statement: 'the flaky test depends on the clock',
    trigger: 'failure',
    confidence: 0.6,
    validation_state: 'unvalidated',
    tests_suggested: ['freeze the clock'],
    expires_at: 'run_end',
    sources: ['evt_a', 'cand_x'],
    expired_at: null,
    promoted_to: null,
    candidate_id: null,
    history: [{ state: 'unvalidated', by: 'reflection', at: AT, note: null }],
    version: 1,
    created_at: AT,
    updated_at: AT,
    ...overrides,
  };
}
