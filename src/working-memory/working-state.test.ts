import { describe, expect, it } from 'vitest';

import { ConflictError, ValidationError } from '../spec/errors.js';
import { emptyWorkingState } from '../spec/working-state.js';
import { applyStatePatch } from './working-state.js';

describe('applyStatePatch', () => {
  it('merges, appends, bumps the version and stamps evidence on decisions and open loops', () => {
    const next = applyStatePatch(
      null,
      {
        expected_version: 0,
        set: { goal: 'Ship v1', slots: { customer: 'ACME' } },
        append: {
          decisions: [{ statement: 'Use SQLite' }],
          open_loops: [{ question: 'Which region?', status: 'open' }],
        },
      },
      'evt_01J00000000000000000000000',
    );
    expect(next.state_version).toBe(1);
    expect(next.goal).toBe('Ship v1');
    expect(next.slots).toEqual({ customer: 'ACME' });
    expect(next.decisions).toEqual([{ statement: 'Use SQLite', evidence_id: 'evt_01J00000000000000000000000' }]);
    expect(next.open_loops[0]!.evidence_id).toBe('evt_01J00000000000000000000000');
    const after = applyStatePatch(
      next,
      { expected_version: 1, set: { slots: { customer: null, region: 'eu' } } },
      'evt_x',
    );
    expect(after.slots).toEqual({ region: 'eu' });
    expect(after.decisions).toHaveLength(1);
  });

  it('refuses a stale version with a conflict naming both versions', () => {
    const state = { ...emptyWorkingState(), state_version: 4 };
    const attempt = () => applyStatePatch(state, { expected_version: 3, set: { goal: 'x' } }, 'evt_x');
    expect(attempt).toThrow(ConflictError);
    try {
      attempt();
    } catch (error) {
      expect((error as ConflictError).code).toBe('STATE_VERSION_CONFLICT');
      expect((error as ConflictError).field).toBe('state_patch.expected_version');
      expect((error as ConflictError).expected).toBe(3);
      expect((error as ConflictError).actual).toBe(4);
    }
  });

  it('refuses a result that breaks the working-state schema, naming the field', () => {
    try {
      applyStatePatch(null, { expected_version: 0, append: { plan: [{ step: 'x', status: 'someday' }] } }, 'evt_x');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).field).toBe('state_patch.plan[0].status');
      expect((error as ValidationError).rule).toBe('enum');
    }
  });
});
