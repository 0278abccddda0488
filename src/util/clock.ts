// Time. Every record carries ISO 8601 UTC strings with milliseconds, which sort as text; the clock
// is injectable so that tests and replays can fix "now". Strings become instants only by the one
// date-time rule of spec/date-time.ts.

import { DATE_TIME_RULE, isWritable, parseDateTime } from '../spec/date-time.js';
import { ValidationError } from '../spec/errors.js';

/** A source of the current time. */
export interface Clock {
  now(): Date;
}

/** The system clock. */
export const systemClock: Clock = { now: () => new Date() };

/**
 * Normalises a date-time (by the one rule) to UTC with milliseconds (`2026-01-02T03:04:05.000Z`).
 * A value that breaks the rule is a ValidationError naming `field`, never a RangeError: input
 * reaches this only through validators that apply the same rule, so this is the last guard.
 *
 * @example
 * toIso('2026-01-02T05:04:05+02:00') // '2026-01-02T03:04:05.000Z'
 * toIso('2026-06-30T23:59:60Z', 'ts') // throws ValidationError (ts, format)
 */
export function toIso(value: string | Date, field = 'date-time'): string {
  const date = typeof value === 'string' ? new Date(parseDateTime(value) ?? Number.NaN) : value;
  if (!isWritable(date)) throw ValidationError.of(field, 'format', DATE_TIME_RULE);
  return date.toISOString();
}

/**
 * toIso of a date-time that may be null (an open end): null stays null.
 *
 * @example
 * isoOrNull(request.valid_to, 'valid_to') // '2026-12-31T22:00:00.000Z' | null
 */
export function isoOrNull(value: string | null, field: string): string | null {
  return value === null ? null : toIso(value, field);
}

/**
 * A time range with both ends normalised by toIso (stored times compare as text, so an offset like
 * `+02:00` must become UTC before any comparison); `field` names the range in errors.
 *
 * @example
 * isoRange({ start: '2026-01-02T00:00:00+02:00' }, 'cues.time_range') // { start: '2026-01-01T22:00:00.000Z' }
 */
export function isoRange(
  range: { start?: string; end?: string } | undefined,
  field: string,
): { start?: string; end?: string } | undefined {
  if (range === undefined) return undefined;
  return {
    ...(range.start === undefined ? {} : { start: toIso(range.start, `${field}.start`) }),
    ...(range.end === undefined ? {} : { end: toIso(range.end, `${field}.end`) }),
  };
}
