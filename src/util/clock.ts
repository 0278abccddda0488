// Time. Every record carries ISO 8601 UTC strings with milliseconds, which sort as text; the clock
// is injectable so that tests and replays can fix "now".

/** A source of the current time. */
export interface Clock {
  now(): Date;
}

/** The system clock. */
export const systemClock: Clock = { now: () => new Date() };

/**
 * Normalises any ISO 8601 date-time to UTC with milliseconds (`2026-01-02T03:04:05.000Z`).
 *
 * @example
 * toIso('2026-01-02T05:04:05+02:00') // '2026-01-02T03:04:05.000Z'
 */
export function toIso(value: string | Date): string {
  return (typeof value === 'string' ? new Date(value) : value).toISOString();
}
