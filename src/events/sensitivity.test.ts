import { describe, expect, it } from 'vitest';

import { eventRecord } from '../testing/event-record.js';
import {
  assertLevelAllowed,
  confinedLevel,
  SECRET_SHOWN_FIELDS,
  shownEvent,
  strongestSensitivity,
} from './sensitivity.js';

describe('which fields of a secret event may be shown', () => {
  const described = {
    content: 'the vault code is 1234',
    speaker: 'vault_lookup',
    tags: ['vault'],
    origin_metadata: { tool_name: 'vault_lookup', call_id: 'call-7', note: 'code' },
    snapshot_ref: 'snapshot://vault',
    resonance_links: [{ target_id: 'vault', strength: 0.9 }],
  };

  it('keeps the ids, scope, kind, role and times of a secret event and withholds every other field', () => {
    const secret = eventRecord({
      ...described,
      sensitivity: 'secret',
      kind: 'tool_result',
      role: 'tool',
      content_type: 'tool_output',
      expires_at: '2027-01-01T00:00:00.000Z',
    });
    const shown = shownEvent(secret);
    expect(shown).toEqual({
      ...Object.fromEntries(SECRET_SHOWN_FIELDS.map((field) => [field, secret[field]])),
      embeddable: false,
      content: '[secret content withheld]',
      speaker: null,
      tags: [],
      origin_metadata: {},
      snapshot_ref: null,
      resonance_links: [],
    });
    expect(Object.keys(shown).sort()).toEqual(Object.keys(secret).sort());
    expect(JSON.stringify(shown)).not.toMatch(/vault|1234|call-7/);
  });

  it('shows normal and private events whole', () => {
    for (const sensitivity of ['normal', 'private'] as const) {
      const event = eventRecord({ ...described, sensitivity });
      expect(shownEvent(event)).toBe(event);
    }
  });
});

describe('the level of what private evidence supports', () => {
  it('is the strongest sensitivity of the evidence', () => {
    expect(strongestSensitivity([])).toBe('normal');
    expect(strongestSensitivity(['normal', 'private', 'normal'])).toBe('private');
    expect(strongestSensitivity(['private', 'secret'])).toBe('secret');
  });

  it('stays at the user level for private evidence and keeps any level for normal evidence', () => {
    expect(confinedLevel('agent', 'private')).toBe('user');
    expect(confinedLevel('tenant', 'private')).toBe('user');
    expect(confinedLevel('agent', 'normal')).toBe('agent');
  });

  it('refuses an explicit agent or tenant level for private evidence, and anything for secret evidence', () => {
    expect(() => assertLevelAllowed('agent', 'private', 'edit.scope_level')).toThrow(
      expect.objectContaining({ code: 'VALIDATION_FAILED', field: 'edit.scope_level' }),
    );
    expect(() => assertLevelAllowed('tenant', 'private', 'scope_level')).toThrow(/must be "user"/);
    expect(() => assertLevelAllowed(undefined, 'secret', 'insight_id')).toThrow(
      expect.objectContaining({ field: 'insight_id' }),
    );
    for (const [level, sensitivity] of [
      ['user', 'private'],
      [undefined, 'private'],
      ['agent', 'normal'],
      ['tenant', 'normal'],
    ] as const) {
      expect(() => assertLevelAllowed(level, sensitivity, 'scope_level')).not.toThrow();
    }
  });
});
