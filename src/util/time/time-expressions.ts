// Time expressions in a question ("four weeks ago", "last summer", "on 8 May 2023", "上周五"),
// resolved to windows of whole UTC days against the time the question is asked; compose boosts
// what happened inside them, and the extraction rules read the time of a plan with them (told to
// look ahead). Pure and deterministic: same text and reference, same windows.

import { isWritable, parseDateTime } from '../../spec/date-time.js';
import { chineseExpressions, chineseTense, namesChineseDuration } from './chinese-time.js';
import { calendarExpressions } from './english-dates.js';
import { englishTense, namesEnglishDuration, relativeExpressions } from './english-relative.js';
import type { Found, Tense, TimeWindowKind } from './time-calendar.js';
import { civil, dayOf, endIso, selectLongest, startIso } from './time-calendar.js';

export type { Tense, TimeWindowKind } from './time-calendar.js';

/** A window a question names: ISO instants in UTC, both ends included, and the words that named it. */
export interface TimeWindow {
  start: string;
  end: string;
  text: string;
  kind: TimeWindowKind;
}

/** Only the start of a very long query is read: time words sit in the question, and the cost stays bounded. */
const MAX_QUERY = 2_000;
const CJK = /[\u3400-\u9fff]/;
/**
 * A word every English expression the grammar reads holds one of, at the start of a word: a digit
 * (written dates, years, counts), a unit (day, week, weekend, fortnight, month, year, decade), a
 * part of a day (yesterday, tonight, morning…), a weekday, a month (or its abbreviation) or a
 * season. Text without one names no time, and the grammar's dozen patterns and chrono are not run
 * on it: a fifth of a chat's turns holds one, and those are read at a seventh of the cost (LoCoMo's
 * 5,882 turns: 41 → 6 µs a turn). Kept a superset of the grammar: english-dates.ts and
 * english-relative.ts name no time without one of these words.
 */
const ENGLISH_TIME_WORD =
  /\d|\b(?:yesterday|today|tonight|tomorrow|night|morning|afternoon|evening|days?|weeks?|weekends?|fortnights?|months?|years?|decades?|(?:mon|tues|wednes|thurs|fri|satur|sun)day|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|spring|summer|autumn|fall|winter)/i;
/**
 * The same for Chinese (chinese-time.ts): a day, part of a day or unit (天 日 晚 早 周 星期 礼拜 月 年
 * 号), a season, or a holiday's name.
 */
const CHINESE_TIME_WORD = /[天日晚早周期拜月年号春夏秋冬]|五一|劳动|国庆|元旦|圣诞|平安夜|情人|儿童|教师/;
const WEEKDAY_NAMES = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

/**
 * The time windows a question names, in the order they appear, read against `reference` (when the
 * question is asked). A day covers the whole UTC day; "four weeks ago" covers ±4 days around that
 * point, wider the further back; "in May" is the latest May not after the reference, or the next
 * one when the question looks ahead ("will", "plan", 会); "last summer" is the last one over.
 * What is relative to something undated ("the week before my trip") gives no window. `tense`
 * replaces the one read from the text: a plan said in the past tense ("booked Marrakech for 24
 * April") still names the next April. Never throws: odd text or an invalid reference gives [].
 *
 * @example
 * resolveTimeWindows('What did I do four weeks ago?', '2023-05-20T12:00:00Z')
 * // [{ start: '2023-04-18T00:00:00.000Z', end: '2023-04-26T23:59:59.999Z', text: 'four weeks ago', kind: 'around' }]
 * resolveTimeWindows('上周五我们聊了什么？', '2023-05-20T12:00:00Z')
 * // [{ start: '2023-05-12T00:00:00.000Z', end: '2023-05-12T23:59:59.999Z', text: '上周五', kind: 'day' }]
 */
export function resolveTimeWindows(
  query: string,
  reference: Date | string,
  options: { tense?: Tense } = {},
): TimeWindow[] {
  const instant = referenceInstant(reference);
  if (instant === undefined || typeof query !== 'string') return [];
  const text = query.length > MAX_QUERY ? query.slice(0, MAX_QUERY) : query;
  const today = dayOf(instant);
  const found: Found[] = [];
  if (ENGLISH_TIME_WORD.test(text)) {
    const ctx = { text, today, tense: options.tense ?? englishTense(text) };
    const calendar = calendarExpressions(ctx);
    found.push(...relativeExpressions(ctx, calendar), ...calendar);
  }
  if (CJK.test(text) && CHINESE_TIME_WORD.test(text))
    found.push(...chineseExpressions({ text, today, tense: options.tense ?? chineseTense(text) }));
  return toWindows(text, selectLongest(found));
}

/**
 * A question's tense as the time grammar reads it: English words when it has Latin letters, else
 * Chinese particles (了/过 past, 会/打算 future); "unmarked" when nothing says.
 *
 * @example
 * questionTense('What did I buy?') // 'past'
 * questionTense('我夏天要飞去哪儿？') // 'unmarked'
 */
export function questionTense(text: string): Tense {
  return /[a-z]/i.test(text) ? englishTense(text) : chineseTense(text);
}

/** English and Chinese ways of asking for a time or a length of time: "When did…", "What year…", "How long…", "How many days ago…", 什么时候, 哪天, 多久. */
const ASKS_WHEN_EN =
  /(?:^|[.!?;:—–]\s*)\W*(?:when|since when|(?:for )?how long|how many (?:days|weeks|months|years)|(?:what|which) (?:date|day|year|month|week|time))\b/i;
const ASKS_WHEN_ZH = /什么时候|何时|哪天|哪一天|几号|几月|哪年|哪一年|多久|多长时间|(?<![这那前近])几(?:天|个月|年)/;

/**
 * Whether a question asks when something happened (or will), or for how long: its answer is a time
 * or a length of time, so the passages that say one are worth more to it. English asks it at the
 * start of a sentence ("Where did I go when it rained?" does not).
 *
 * @example
 * asksWhen('When did Melanie run a charity race?') // true
 * asksWhen('How long has Nate had his turtles?') // true
 * asksWhen('我们什么时候去的杭州？') // true
 * asksWhen('What did Melanie run?') // false
 */
export function asksWhen(question: string): boolean {
  return ASKS_WHEN_EN.test(question) || ASKS_WHEN_ZH.test(question);
}

/**
 * Whether a text names a time its own moment can place ("last Saturday", "two days ago", "in May",
 * "昨天"), read against `said` (when it was said).
 *
 * @example
 * namesTime('I ran a charity race last Saturday.', '2023-05-25T13:56:00Z') // true
 * namesTime('It was really rewarding.', '2023-05-25T13:56:00Z') // false
 */
export function namesTime(text: string, said: string): boolean {
  return resolveTimeWindows(text, said).length > 0;
}

/**
 * Whether a text says how long something has lasted or took: "for three years", "seven years now",
 * "since 2016", "养了三年了", "2016年以来". What answers "How long…?".
 *
 * @example
 * namesDuration("I've had them for 3 years now!") // true
 * namesDuration('我学画画已经七年了。') // true
 * namesDuration('They bring me tons of joy.') // false
 */
export function namesDuration(text: string): boolean {
  return (/[a-z0-9]/i.test(text) && namesEnglishDuration(text)) || (CJK.test(text) && namesChineseDuration(text));
}

/** The chosen matches as windows: unresolvable ones and repeats of an earlier window left out. */
function toWindows(text: string, chosen: readonly Found[]): TimeWindow[] {
  const windows: TimeWindow[] = [];
  const seen = new Set<string>();
  for (const { index, end, span } of chosen) {
    if (span === null || !writableDay(span.first) || !writableDay(span.last + 1)) continue;
    const window = {
      start: startIso(span.first),
      end: endIso(span.last),
      text: text.slice(index, end).trim(),
      kind: span.kind,
    };
    const key = `${window.start}/${window.end}`;
    if (seen.has(key)) continue;
    seen.add(key);
    windows.push(window);
  }
  return windows;
}

/** True when a day's start is an instant every date-time reader accepts (a UTC year 0000–9999). */
function writableDay(day: number): boolean {
  return Number.isFinite(day) && Math.abs(day) < 4e6 && isWritable(new Date(day * 86_400_000));
}

function referenceInstant(reference: Date | string): number | undefined {
  if (reference instanceof Date) return isWritable(reference) ? reference.getTime() : undefined;
  return typeof reference === 'string' ? parseDateTime(reference) : undefined;
}

/**
 * A passage's date for a packet line: the UTC day and its weekday, short and unambiguous. Accepts
 * an RFC 3339 date-time or a plain `YYYY-MM-DD`; anything else comes back unchanged, so a line is
 * never lost to a bad date.
 *
 * @example
 * formatPassageDate('2023-05-08T13:56:00.000Z') // '2023-05-08 (Mon)'
 */
export function formatPassageDate(iso: string): string {
  const instant =
    parseDateTime(iso) ?? (/^\d{4}-\d{2}-\d{2}$/.test(iso) ? parseDateTime(`${iso}T00:00:00Z`) : undefined);
  if (instant === undefined) return iso;
  const day = dayOf(instant);
  const { weekday } = civil(day);
  return `${startIso(day).slice(0, 10)} (${WEEKDAY_NAMES[weekday - 1] ?? ''})`;
}
