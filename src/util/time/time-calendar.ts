// Calendar arithmetic for time expressions, on whole UTC days counted from 1970-01-01 ("day
// numbers"): weeks start on Monday (ISO 8601), seasons are the meteorological ones of the northern
// hemisphere. Shared by the English and Chinese rules; nothing here reads text.

/** What a window stands for: one day, a calendar unit, a span around a point, or an explicit range. */
export type TimeWindowKind = 'day' | 'week' | 'weekend' | 'month' | 'season' | 'year' | 'around' | 'range';

/** A window of whole days, both ends included. */
export interface DaySpan {
  first: number;
  last: number;
  kind: TimeWindowKind;
}

/**
 * One expression found in a question: its place in the text (`end` exclusive) and its window, or
 * null when it names a time relative to something that cannot be resolved ("the week before my
 * trip"); such a match still claims its text, so no shorter reading of it is kept.
 */
export interface Found {
  index: number;
  end: number;
  span: DaySpan | null;
  /** Only meaningful as one end of a range ("between March and May"); dropped when alone. */
  weak?: boolean;
}

/** Whether the question looks back (or says nothing) or ahead; picks "in May" and "on Friday". */
export type Tense = 'past' | 'unmarked' | 'future';

/** What every rule reads: the question, the reference day and the question's tense. */
export interface RuleContext {
  text: string;
  today: number;
  tense: Tense;
}

export type Unit = 'day' | 'week' | 'month' | 'year';
export type Season = 'spring' | 'summer' | 'autumn' | 'winter';

const DAY_MS = 86_400_000;

/** The day number of a calendar date (month 1–12; day and month may overflow, as in Date). */
export function dayNumber(year: number, month: number, day: number): number {
  const date = new Date(0);
  // setUTCFullYear, not Date.UTC: Date.UTC reads the years 0–99 as 1900–1999.
  date.setUTCFullYear(year, month - 1, day);
  return Math.floor(date.getTime() / DAY_MS);
}

/** The calendar date of a day number; weekday is ISO (1 = Monday … 7 = Sunday). */
export function civil(day: number): { year: number; month: number; day: number; weekday: number } {
  const date = new Date(day * DAY_MS);
  return {
    year: date.getUTCFullYear(),
    month: date.getUTCMonth() + 1,
    day: date.getUTCDate(),
    weekday: isoWeekday(day),
  };
}

/** The ISO weekday of a day number: 1970-01-01 (day 0) was a Thursday. */
export function isoWeekday(day: number): number {
  return ((((day + 3) % 7) + 7) % 7) + 1;
}

/** The day number of an instant (its UTC date). */
export function dayOf(instant: number): number {
  return Math.floor(instant / DAY_MS);
}

/** The first instant of a day, as `YYYY-MM-DDT00:00:00.000Z`. */
export function startIso(day: number): string {
  return new Date(day * DAY_MS).toISOString();
}

/** The last millisecond of a day: stored times compare with `<=`, so the end is inclusive. */
export function endIso(day: number): string {
  return new Date((day + 1) * DAY_MS - 1).toISOString();
}

export const span = (first: number, last: number, kind: TimeWindowKind): DaySpan => ({ first, last, kind });
export const oneDay = (day: number): DaySpan => span(day, day, 'day');

/** Monday of the ISO week holding `day`. */
export function weekStart(day: number): number {
  return day - (isoWeekday(day) - 1);
}

/** The ISO week `offset` weeks from the one holding `day` (Monday to Sunday). */
export function weekSpan(day: number, offset: number): DaySpan {
  const monday = weekStart(day) + 7 * offset;
  return span(monday, monday + 6, 'week');
}

/** Saturday and Sunday of the ISO week `offset` weeks from the one holding `day`. */
export function weekendSpan(day: number, offset: number): DaySpan {
  const saturday = weekStart(day) + 5 + 7 * offset;
  return span(saturday, saturday + 1, 'weekend');
}

/** The last weekend that is over before `day` (on a Sunday, the one before). */
export function weekendBefore(day: number): DaySpan {
  const thisWeekend = weekendSpan(day, 0);
  return thisWeekend.last < day ? thisWeekend : weekendSpan(day, -1);
}

/** The first weekend that starts after `day`. */
export function weekendAfter(day: number): DaySpan {
  const thisWeekend = weekendSpan(day, 0);
  return thisWeekend.first > day ? thisWeekend : weekendSpan(day, 1);
}

/** A calendar month (1–12, overflow carried into the year). */
export function monthSpan(year: number, month: number): DaySpan {
  return span(dayNumber(year, month, 1), dayNumber(year, month + 1, 0), 'month');
}

export function yearSpan(year: number): DaySpan {
  return span(dayNumber(year, 1, 1), dayNumber(year, 12, 31), 'year');
}

/** The first month of each season; winter `year` runs from December of `year` to February after. */
const SEASON_START: Record<Season, number> = { spring: 3, summer: 6, autumn: 9, winter: 12 };

export function seasonSpan(season: Season, year: number): DaySpan {
  const first = SEASON_START[season];
  return span(dayNumber(year, first, 1), dayNumber(year, first + 3, 0), 'season');
}

/** The season to pick for "last summer", "this summer", "next summer" or a bare "the summer". */
export function seasonFor(season: Season, today: number, choice: 'last' | 'this' | 'next' | Tense): DaySpan {
  const { year, month } = civil(today);
  const candidates = [-2, -1, 0, 1].map((offset) => seasonSpan(season, year + offset));
  if (choice === 'last') return latest(candidates.filter((s) => s.last < today));
  if (choice === 'next') return earliest(candidates.filter((s) => s.first > today));
  // "this winter" in January is the winter under way, begun the December before.
  if (choice === 'this') return seasonSpan(season, season === 'winter' && month < 3 ? year - 1 : year);
  if (choice === 'future') return earliest(candidates.filter((s) => s.last >= today));
  return latest(candidates.filter((s) => s.first <= today));
}

const latest = (spans: DaySpan[]): DaySpan => spans.reduce((a, b) => (b.first > a.first ? b : a));
const earliest = (spans: DaySpan[]): DaySpan => spans.reduce((a, b) => (b.first < a.first ? b : a));

/**
 * The year of a month (or a day of it) named without one: for "last" the latest strictly before
 * today's month, for "next" the earliest strictly after, for "this" today's year; otherwise the
 * latest not after today, or the earliest not before it when the question speaks of the future.
 */
export function yearOfMonth(
  month: number,
  dayOfMonth: number | undefined,
  today: number,
  choice: 'last' | 'this' | 'next' | Tense,
): number {
  const now = civil(today);
  if (choice === 'this') return now.year;
  if (choice === 'last') return month < now.month ? now.year : now.year - 1;
  if (choice === 'next') return month > now.month ? now.year : now.year + 1;
  const first = dayNumber(now.year, month, dayOfMonth ?? 1);
  const last = dayOfMonth === undefined ? monthSpan(now.year, month).last : first;
  if (choice === 'future') return last >= today ? now.year : now.year + 1;
  return first <= today ? now.year : now.year - 1;
}

/** The day `amount` units from `day`; months and years keep the day of the month (clamped to its end). */
export function shiftDay(day: number, amount: number, unit: Unit): number {
  if (unit === 'day') return day + amount;
  if (unit === 'week') return day + 7 * amount;
  const date = civil(day);
  const months = unit === 'month' ? amount : 12 * amount;
  const target = monthSpan(date.year, date.month + months);
  return Math.min(target.first + date.day - 1, target.last);
}

/**
 * A window around a point `distance` days away from where it was counted: the further, the wider
 * (±15%, or ±40% for a vague count such as "a few"), always whole days. Two days ago is that day;
 * four weeks ago is ±4 days.
 */
export function around(centre: number, distance: number, vague: boolean): DaySpan {
  const margin = Math.round(Math.abs(distance) * (vague ? 0.4 : 0.15));
  return span(centre - margin, centre + margin, margin === 0 ? 'day' : 'around');
}

/** The most recent `weekday` (ISO) strictly before `day`, or the first strictly after it. */
export function weekdayNear(day: number, weekday: number, direction: 'before' | 'after'): number {
  const gap = (isoWeekday(day) - weekday + 7) % 7;
  if (direction === 'before') return day - (gap === 0 ? 7 : gap);
  const ahead = (weekday - isoWeekday(day) + 7) % 7;
  return day + (ahead === 0 ? 7 : ahead);
}

/**
 * The matches that do not overlap, longest first (a tie goes to the one found first, so rule order
 * is the precedence), returned in text order.
 */
export function selectLongest(found: readonly Found[]): Found[] {
  const order = found.map((match, position) => ({ match, position }));
  order.sort((a, b) => b.match.end - b.match.index - (a.match.end - a.match.index) || a.position - b.position);
  const kept: Found[] = [];
  for (const { match } of order) {
    if (kept.every((other) => match.end <= other.index || match.index >= other.end)) kept.push(match);
  }
  return kept.sort((a, b) => a.index - b.index);
}
