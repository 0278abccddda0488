import { describe, expect, it } from 'vitest';

import { ValidationError } from './errors.js';
import { isDateTime, parseDateTime } from './date-time.js';
import { check, schemas } from './schema-check.js';
import { toIso } from '../util/clock.js';

const scope = { user_id: 'u', agent_id: 'a', session_id: 's', run_id: 'r' };
const LEAP = '2026-06-30T23:59:60Z';

describe('the date-time rule', () => {
  it('reads RFC 3339 date-times with a time zone to the millisecond, offsets applied', () => {
    expect(parseDateTime('2026-01-02T05:04:05+02:00')).toBe(Date.UTC(2026, 0, 2, 3, 4, 5));
    expect(parseDateTime('2026-01-02T03:04:05.123456Z')).toBe(Date.UTC(2026, 0, 2, 3, 4, 5, 123));
    expect(parseDateTime('2026-01-02t03:04:05.5z')).toBe(Date.UTC(2026, 0, 2, 3, 4, 5, 500));
    expect(parseDateTime('2026-01-02 03:04:05-0130')).toBe(Date.UTC(2026, 0, 2, 4, 34, 5));
    expect(parseDateTime('2024-02-29T00:00:00Z')).toBe(Date.UTC(2024, 1, 29));
    // Date.UTC would read the year 0045 as 1945.
    expect(new Date(parseDateTime('0045-03-01T00:00:00Z')!).toISOString()).toBe('0045-03-01T00:00:00.000Z');
  });

  it('refuses leap seconds, impossible days and times, and instants outside the years 0000–9999 in UTC', () => {
    for (const text of [
      LEAP,
      '2026-12-31T23:59:60+00:00',
      '2026-02-29T00:00:00Z',
      '2026-04-31T00:00:00Z',
      '2026-01-01T24:00:00Z',
      '2026-01-01T00:60:00Z',
      '2026-01-01T00:00:00+24:00',
      '2026-01-01T00:00:00',
      '2026-01-01',
      '9999-12-31T23:59:59-00:01',
      '0000-01-01T00:00:00+00:01',
      '+012026-01-01T00:00:00Z',
      'yesterday',
    ]) {
      expect(parseDateTime(text), text).toBeUndefined();
      expect(isDateTime(text), text).toBe(false);
    }
    expect(isDateTime('9999-12-31T23:59:59.999Z')).toBe(true);
    expect(isDateTime('0000-01-01T00:00:00Z')).toBe(true);
    expect(isDateTime(5)).toBe(false);
  });

  it('toIso normalises by the same rule and answers a broken date-time with a ValidationError naming the field, never a RangeError', () => {
    expect(toIso('2026-01-02T05:04:05+02:00')).toBe('2026-01-02T03:04:05.000Z');
    expect(() => toIso(LEAP, 'ts')).toThrow(
      expect.objectContaining({ code: 'VALIDATION_FAILED', field: 'ts', rule: 'format' }),
    );
    expect(() => toIso(new Date(Number.NaN), 'as_of')).toThrow(ValidationError);
    expect(() => toIso(new Date(Date.UTC(10_000, 0, 1)), 'as_of')).toThrow(expect.objectContaining({ field: 'as_of' }));
  });

  it('is the date-time format of every schema: each date-time field refuses a leap second, naming itself', () => {
    const cases: Array<[string, unknown, string]> = [
      [schemas.commitTurnRequest.$id, { scope, turn_id: 't', ts: LEAP, markers: ['ACT_DONE'] }, 'ts'],
      [
        schemas.commitTurnRequest.$id,
        { scope, turn_id: 't', messages: [{ role: 'user', content: 'x', expires_at: LEAP }] },
        'messages[0].expires_at',
      ],
      [schemas.composeRequest.$id, { scope, purpose: 'responder', as_of: LEAP }, 'as_of'],
      [
        schemas.composeRequest.$id,
        { scope, purpose: 'responder', cues: { time_range: { start: LEAP } } },
        'cues.time_range.start',
      ],
      [
        schemas.searchEventsRequest.$id,
        { scope: { user_id: 'u' }, query: 'x', time_range: { end: LEAP } },
        'time_range.end',
      ],
      [
        `${schemas.memoryRequests.$id}#/$defs/remember`,
        {
          scope: { user_id: 'u', agent_id: 'a' },
          type: 'goals',
          key: 'goal:a:b',
          value: { name: 'b' },
          valid_from: LEAP,
        },
        'valid_from',
      ],
      [
        `${schemas.reflectionRequests.$id}#/$defs/add_insight`,
        { scope: { user_id: 'u', agent_id: 'a', run_id: 'r' }, type: 'hypothesis', statement: 'x', expires_at: LEAP },
        'expires_at',
      ],
    ];
    for (const [id, value, field] of cases) {
      const issues = check(id, value);
      expect(issues, `${id} ${field}`).toContainEqual(
        expect.objectContaining({ field, rule: 'format', message: expect.stringContaining('no leap second') }),
      );
    }
  });
});
