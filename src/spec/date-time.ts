// The one date-time rule of every boundary (requests, query strings, import files, stored rows): an
// RFC 3339 date-time with a time zone that names an instant Engram can write back as
// `YYYY-MM-DDTHH:MM:SS.sssZ`. A leap second or a UTC year outside 0000–9999 is refused, never moved.

/** The date-time grammar of JSON Schema's `date-time` format: `T`, `t` or a space; `Z`, `±HH:MM`, `±HHMM` or `±HH`. */
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,32}))?(?:[Zz]|([+-])(\d{2})(?::?(\d{2}))?)$/;

/** What a date-time must be, in the words every refusal uses. */
export const DATE_TIME_RULE =
  'must be an RFC 3339 date-time with a time zone (e.g. 2026-06-30T23:59:59Z): seconds 00–59 (no leap second), a UTC year from 0000 to 9999';

const isLeapYear = (year: number): boolean => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);

function daysIn(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * The instant a date-time names, in milliseconds since 1970 (fractions past the millisecond cut
 * off), or undefined when the text breaks the rule. Computed from the parts, not by Date.parse,
 * whose reading of anything but its own format varies.
 *
 * @example
 * parseDateTime('2026-01-02T05:04:05+02:00') // Date.UTC(2026, 0, 2, 3, 4, 5)
 * parseDateTime('2026-06-30T23:59:60Z')      // undefined: a leap second
 */
export function parseDateTime(text: string): number | undefined {
  const match = DATE_TIME.exec(text);
  if (match === null) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const [fraction, sign, offsetHours, offsetMinutes] = [
    match[7] ?? '',
    match[8],
    Number(match[9] ?? 0),
    Number(match[10] ?? 0),
  ];
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59 || offsetHours > 23 || offsetMinutes > 59) return undefined;
  const local = new Date(0);
  // setUTCFullYear, not Date.UTC: Date.UTC reads the years 0–99 as 1900–1999.
  local.setUTCFullYear(year, month - 1, day);
  local.setUTCHours(hour, minute, second, Number(fraction.slice(0, 3).padEnd(3, '0')));
  const offset = (sign === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes) * 60_000;
  const instant = local.getTime() - offset;
  return isWritable(new Date(instant)) ? instant : undefined;
}

/**
 * True when `date` is an instant `toISOString` writes as `YYYY-MM-DDTHH:MM:SS.sssZ` (a UTC year
 * 0000–9999): other years come out as `+010000-…` or `-000001-…`, which sort wrongly as text and
 * which no date-time reader accepts back.
 *
 * @example
 * isWritable(new Date('2026-01-01T00:00:00Z')) // true
 */
export function isWritable(date: Date): boolean {
  const year = date.getUTCFullYear();
  return Number.isFinite(date.getTime()) && year >= 0 && year <= 9999;
}

/**
 * True when `value` is a date-time string by the one rule (the `date-time` format of every schema).
 *
 * @example
 * isDateTime('2026-06-30T23:59:59Z') // true
 * isDateTime('2026-06-30T23:59:60Z') // false
 */
export function isDateTime(value: unknown): value is string {
  return typeof value === 'string' && parseDateTime(value) !== undefined;
}
