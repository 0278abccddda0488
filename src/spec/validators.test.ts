import { describe, expect, it } from 'vitest';

import { EngramError, ValidationError } from './errors.js';
import { check, schemas } from './schema-check.js';
import {
  assertPacket,
  checkSessionReflection,
  underPath,
  validateCommitTurnRequest,
  validateComposeRequest,
  validateSessionScope,
  validateStatePatch,
} from './validators.js';

const scope = { user_id: 'u', agent_id: 'a', session_id: 's', run_id: 'r' };

function issueOf(run: () => unknown): ValidationError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return error as ValidationError;
  }
  throw new Error('expected a ValidationError');
}

describe('request validation', () => {
  it('names every field under the base path where the request sits in the caller input', () => {
    const turn = { scope, turn_id: 't', messages: [{ role: 'robot', content: 'x' }], colour: 'red' };
    const error = issueOf(() => validateCommitTurnRequest(turn, 'turns[1]'));
    expect(error.issues.map((issue) => issue.field)).toEqual(['turns[1].messages[0].role', 'turns[1].colour']);
    expect(error.message).toBe(
      'turns[1].messages[0].role: must be one of ["user","assistant","system","human","agent"] [rule: enum] (and 1 more)',
    );
    expect(issueOf(() => validateCommitTurnRequest('not a turn', 'turns[0]')).field).toBe('turns[0]');
    expect(issueOf(() => validateStatePatch({ expected_version: -1, set: {} }, '')).field).toBe('expected_version');
    expect(issueOf(() => validateStatePatch({ expected_version: -1, set: {} })).field).toBe(
      'state_patch.expected_version',
    );
    expect(issueOf(() => validateSessionScope({ user_id: 'u', agent_id: 'a' })).field).toBe('scope.session_id');
    expect(issueOf(() => validateSessionScope({ user_id: 'u', agent_id: 'a' }, '')).field).toBe('session_id');
    expect([underPath('', 'a.b'), underPath('line 3', '[2]'), underPath('x', '')]).toEqual(['a.b', 'line 3[2]', 'x']);
  });

  it('names the missing field and the rule', () => {
    const error = issueOf(() =>
      validateCommitTurnRequest({ scope: { ...scope, user_id: undefined }, turn_id: 't', messages: [] }),
    );
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.field).toBe('scope.user_id');
    expect(error.rule).toBe('required');
    expect(error.message).toContain('scope.user_id');
  });

  it('names nested array fields, wrong types and unknown properties', () => {
    const wrongRole = issueOf(() =>
      validateCommitTurnRequest({ scope, turn_id: 't', messages: [{ role: 'robot', content: 'x' }] }),
    );
    expect(wrongRole.field).toBe('messages[0].role');
    expect(wrongRole.rule).toBe('enum');
    const unknown = issueOf(() => validateCommitTurnRequest({ scope, turn_id: 't', messages: [], colour: 'blue' }));
    expect(unknown.field).toBe('colour');
    expect(unknown.rule).toBe('additionalProperties');
    const wrongType = issueOf(() =>
      validateComposeRequest({ scope, purpose: 'responder', budget: { max_tokens: '500' } }),
    );
    expect(wrongType.field).toBe('budget.max_tokens');
    expect(wrongType.rule).toBe('type');
  });

  it('refuses a turn with nothing in it, bad timestamps, control characters in ids and a budget under the schema minimum', () => {
    expect(() => validateCommitTurnRequest({ scope, turn_id: 't' })).toThrow(ValidationError);
    expect(
      issueOf(() => validateCommitTurnRequest({ scope, turn_id: 't', ts: 'yesterday', markers: ['ACT_DONE'] })).field,
    ).toBe('ts');
    expect(
      issueOf(() =>
        validateCommitTurnRequest({ scope: { ...scope, user_id: 'a\u0000b' }, turn_id: 't', markers: ['ACT_DONE'] }),
      ).field,
    ).toBe('scope.user_id');
    expect(
      issueOf(() => validateComposeRequest({ scope, purpose: 'responder', budget: { max_tokens: 100 } })).rule,
    ).toBe('minimum');
  });

  it('refuses JSON nested deeper than 64 levels before anything recursive reads it, naming where it starts', () => {
    const deep = (levels: number) => {
      let value: Record<string, unknown> = { leaf: true };
      for (let level = 0; level < levels; level += 1) value = { nested: value };
      return value;
    };
    // Deep enough to overflow a recursive walk of the call stack.
    const error = issueOf(() =>
      validateCommitTurnRequest({
        scope,
        turn_id: 't',
        messages: [{ role: 'user', content: 'x', metadata: deep(20_000) }],
      }),
    );
    expect(error.field).toBe('messages[0].metadata');
    expect(error.rule).toBe('max_depth');
    expect(() =>
      validateCommitTurnRequest({
        scope,
        turn_id: 't',
        messages: [{ role: 'user', content: 'x', metadata: deep(50) }],
      }),
    ).not.toThrow();
  });

  it('accepts a complete, valid turn', () => {
    const turn = {
      scope: { ...scope, tenant_id: 'acme' },
      turn_id: 'turn-1',
      ts: '2026-01-01T10:00:00+02:00',
      messages: [{ role: 'user', content: 'hello', sensitivity: 'private', tags: ['greeting'] }],
      tool_results: [{ tool_name: 'search', call_id: 'c1', content: { hits: 3 }, status: 'ok' }],
      state_patch: { expected_version: 0, set: { goal: 'x' }, append: { decisions: [{ statement: 'y' }] } },
      markers: ['PLAN_DONE', { marker: 'ACT_DONE', ts: '2026-01-01T10:00:01Z' }],
    };
    expect(validateCommitTurnRequest(turn)).toBe(turn);
  });
});

describe('contract schemas', () => {
  it('checks packets against MemoryPacket v1 and reports violations as Engram bugs', () => {
    expect(() => assertPacket({ meta: {} })).toThrow(EngramError);
    try {
      assertPacket({ meta: {} });
    } catch (error) {
      expect((error as EngramError).code).toBe('SCHEMA_VIOLATION');
    }
    expect(schemas.memoryPacket.$id).toBe('https://yourmem.ai/schemas/memorypacket/v1.json');
  });

  it('compiles the draft-07 SessionReflection schema with its formats', () => {
    const valid = {
      trace_id: 'trc_01J00000000000000000000000',
      episode_candidates: [
        {
          summary: 's',
          entities: [],
          domains: [],
          source_event_ids: ['evt_01J00000000000000000000000'],
          confidence: 0.5,
        },
      ],
      memory_candidates: [
        {
          claim: 'c',
          memory_type: 'semantic',
          applies_when: [],
          does_not_apply_when: [],
          confidence: 0.9,
          initial_salience: { consequence: 0.1, emotional_charge: 0.2, reusability: 0.3 },
          source_episode_indexes: [0],
        },
      ],
      contradictions: [],
      doctrine_suggestions: [],
    };
    expect(checkSessionReflection(valid)).toEqual([]);
    const issues = checkSessionReflection({ ...valid, trace_id: 'evt_01J00000000000000000000000' });
    expect(issues[0]!.field).toBe('trace_id');
    expect(
      checkSessionReflection({
        ...valid,
        memory_candidates: [{ ...valid.memory_candidates[0], source_episode_indexes: [-1] }],
      }),
    ).not.toEqual([]);
  });

  it('validates the event record contract', () => {
    expect(check(schemas.eventRecord.$id, {})).not.toEqual([]);
  });
});
