// Calendar dates named in a sentence, in English and Chinese, resolved against the event's own date
// so "tomorrow" means the day after the message was written. Pure arithmetic on UTC dates: the
// same text and event date always give the same result.

import type { Language } from './rule.js';

export interface DateMention {
  /** YYYY-MM-DD. */
  date: string;
  /** Where the expression is in the sentence. */
  index: number;
  length: number;
  /** True for expressions resolved against the event date (tomorrow, next Friday, 下周五). */
  relative: boolean;
  /** A day named by its month ("14 May", "June 3rd", "5月8号"), with or without a year. */
  calendar: boolean;
}

const DAY_MS = 86_400_000;
const MONTH = String.raw`jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?`;
const WEEKDAY = 'monday|tuesday|wednesday|thursday|friday|saturday|sunday';
const MONTHS: Readonly<Record<string, number>> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  oct: 10,
  nov: 11,
  dec: 12,
};
const WEEKDAYS: readonly string[] = WEEKDAY.split('|');
const SMALL_NUMBERS: Readonly<Record<string, number>> = {
  a: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  ten: 10,
};

// Read on the lower-cased sentence. At one place the first alternative wins, so a range ("8 to 15
// October", "23–25 March") gives its first day and a weekday before a date ("Saturday 2 May",
// "Friday the 26th") gives the date, not the next such weekday.
const ORDINAL = '(?:st|nd|rd|th)';
const EN_DATE = new RegExp(
  [
    String.raw`\b(?<rangeDay>\d{1,2})${ORDINAL}?\s*(?:-|–|to|until|till)\s*\d{1,2}${ORDINAL}?\s+(?:of\s+)?(?<rangeMonth>${MONTH})\b\.?(?:,?\s+(?<rangeYear>\d{4})\b)?`,
    String.raw`\b(?:(?:on\s+)?(?:${WEEKDAY}),?\s+)?the\s+(?<ordinal>\d{1,2})${ORDINAL}\b(?!\s*(?:-|–|to)?\s*(?:\d{1,2}${ORDINAL}?\s+)?(?:of\s+)?(?:${MONTH})\b)`,
    String.raw`\b(?:on\s+)?(?:${WEEKDAY}),?\s+(?:the\s+)?(?=\d{1,2}${ORDINAL}?\s+(?:of\s+)?(?:${MONTH})\b)`,
    String.raw`\b(?<isoYear>\d{4})[-/](?<isoMonth>\d{1,2})[-/](?<isoDay>\d{1,2})\b`,
    String.raw`\b(?<day>\d{1,2})${ORDINAL}?\s+(?:of\s+)?(?<dayMonth>${MONTH})\.?(?:,?\s+(?<dayYear>\d{4}))?\b`,
    // "moved it to November, 12 to 19": a range after its month starts on its first day.
    String.raw`\b(?<firstMonth>${MONTH})\.?(?:\s+(?:instead|then|now|again))?,?\s+(?:the\s+)?(?<firstDay>\d{1,2})${ORDINAL}?\s*(?:-|–|to|until|till)\s*\d{1,2}${ORDINAL}?\b`,
    String.raw`\b(?<month>${MONTH})\.?\s+(?<monthDay>\d{1,2})${ORDINAL}?\b(?:,?\s+(?<monthYear>\d{4})\b)?`,
    String.raw`\b(?<named>the day after tomorrow|today|tonight|tomorrow|yesterday)\b`,
    // "every Friday" is a habit, not a day.
    String.raw`\b(?<!\b(?:every|each)\s+(?:other\s+|single\s+)?)(?:(?<which>next|this|coming|on)\s+)?(?<weekday>${WEEKDAY})\b`,
    String.raw`\bin\s+(?<count>\d{1,3}|a|one|two|three|four|five|six|seven|ten)\s+(?<unit>days?|weeks?)\b`,
    String.raw`\b(?:the\s+)?end\s+of\s+(?:the\s+|this\s+)?(?<end>year|month)\b`,
    String.raw`\b(?:the\s+)?end\s+of\s+(?<endMonth>${MONTH})\b`,
  ].join('|'),
  'g',
);
export const EN_DATE_CUE = new RegExp(
  String.raw`\d|\b(?:today|tonight|tomorrow|yesterday|end of|days?|weeks?|${WEEKDAY})\b`,
);

const ZH_WEEKDAYS = '一二三四五六日天';
// Holidays of a fixed day, by month and day.
const ZH_HOLIDAYS: Readonly<Record<string, readonly [number, number]>> = {
  五一: [5, 1],
  劳动节: [5, 1],
  国庆节: [10, 1],
  国庆: [10, 1],
  元旦: [1, 1],
  圣诞节: [12, 25],
  圣诞: [12, 25],
  平安夜: [12, 24],
  情人节: [2, 14],
};
// Groups: full date 1–3, month-day 4–5, named day 6, weekday 7–8, "N days later" 9–10, end of year/month 11, holiday 12.
const ZH_DATE = new RegExp(
  [
    String.raw`(\d{4})\s*[-/.年]\s*(\d{1,2})\s*[-/.月]\s*(\d{1,2})\s*[日号]?`,
    String.raw`(\d{1,2})\s*月\s*(\d{1,2})\s*[日号]`,
    '(大后天|后天|明天|今天|今晚|昨天|前天)',
    String.raw`(?<!每)(下下|下|这|本|上)?个?(?:周|星期|礼拜)([${ZH_WEEKDAYS}])`,
    '(\\d{1,3}|[一二两三四五六七八九十]{1,3})(天|周|个星期)(?:后|之后|以后)',
    '(年底|年末|月底|月末)',
    `(${Object.keys(ZH_HOLIDAYS).join('|')})`,
  ].join('|'),
  'gu',
);
export const ZH_DATE_CUE =
  /\d|[今明后昨前]天|天(?:之|以)?后|今晚|周|星期|礼拜|月|年底|年末|五一|劳动节|国庆|元旦|圣诞|平安夜|情人节/u;
const ZH_NAMED_DAYS: Readonly<Record<string, number>> = {
  大后天: 3,
  后天: 2,
  明天: 1,
  今天: 0,
  今晚: 0,
  昨天: -1,
  前天: -2,
};
const EN_NAMED_DAYS: Readonly<Record<string, number>> = {
  'the day after tomorrow': 2,
  today: 0,
  tonight: 0,
  tomorrow: 1,
  yesterday: -1,
};

function utc(date: string): number {
  return Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)));
}

const pad = (value: number, width = 2): string => String(value).padStart(width, '0');

function format(ms: number): string {
  const date = new Date(ms);
  return `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** The date `days` after `date`. */
export function addDays(date: string, days: number): string {
  return format(utc(date) + days * DAY_MS);
}

/** ISO weekday of a date: Monday 1 … Sunday 7. */
function isoWeekday(date: string): number {
  const day = new Date(utc(date)).getUTCDay();
  return day === 0 ? 7 : day;
}

/** A valid calendar date, or undefined (30 February, month 13). */
function calendar(year: number, month: number, day: number): string | undefined {
  if (year < 1900 || year > 2200 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month))
    return undefined;
  return `${year}-${pad(month)}-${pad(day)}`;
}

/** The next `weekday` (1–7) strictly after `today`, 1–7 days ahead. */
function upcoming(today: string, weekday: number): string {
  const ahead = (weekday - isoWeekday(today) + 7) % 7;
  return addDays(today, ahead === 0 ? 7 : ahead);
}

/** `weekday` (1–7) of the ISO week `weeks` after today's (0 this week, 1 next week). */
function inWeek(today: string, weekday: number, weeks: number): string {
  return addDays(today, weeks * 7 + weekday - isoWeekday(today));
}

// A sentence reads as past when it has one of these; a date without a year that has already gone
// by this year then stays in this year, and otherwise ("we launch on June 12" in November) means
// next year's. Verbs in -ed count, but not the -eed words (need, proceed, exceed).
const EN_PAST = new RegExp(
  [
    String.raw`\b(?:was|were|did|had|ago|last|yesterday|earlier|previously|used to)\b`,
    String.raw`\b(?:went|came|got|took|made|gave|said|told|met|saw|ran|bought|brought|thought|felt|left|lost|found|won|wrote|spoke|began|ate|drank|flew|drove|sent|spent|paid|sold|kept|held|heard|knew|became|broke|chose|forgot|sat|stood|swam|sang|threw|wore)\b`,
    String.raw`\b[a-z]{2,}(?<!e)ed\b`,
  ].join('|'),
);
const ZH_PAST = /了|过|去年|昨天|前天|上周|上个?月|之前|以前|那时/u;

/** A month and day without a year: this year's, or next year's when it has gone by and the sentence does not read as past. */
function yearOf(month: number, day: number, today: string, past: boolean): string | undefined {
  const year = Number(today.slice(0, 4));
  const thisYear = calendar(year, month, day);
  return thisYear !== undefined && thisYear < today && !past ? calendar(year + 1, month, day) : thisYear;
}

/** The last day of today's year or month. */
function endOf(today: string, year: boolean): string {
  const y = Number(today.slice(0, 4));
  return year ? `${y}-12-31` : format(Date.UTC(y, Number(today.slice(5, 7)), 0));
}

function chineseNumber(text: string): number {
  if (/^\d+$/.test(text)) return Number(text);
  const digits = '零一二三四五六七八九';
  if (text === '两') return 2;
  const ten = text.indexOf('十');
  if (ten === -1) return digits.indexOf(text);
  const tens = ten === 0 ? 1 : digits.indexOf(text.slice(0, ten));
  const ones = ten === text.length - 1 ? 0 : digits.indexOf(text.slice(ten + 1));
  return tens * 10 + Math.max(ones, 0);
}

function monthDay(
  year: string | undefined,
  month: number,
  day: number,
  today: string,
  past: boolean,
): { date: string | undefined; relative: boolean } {
  return year === undefined
    ? { date: yearOf(month, day, today, past), relative: true }
    : { date: calendar(Number(year), month, day), relative: false };
}

/** A day of a month named by its ordinal alone ("the 28th"): this month's, or next month's once it has gone by. */
function ordinalDay(day: number, today: string, past: boolean): { date: string | undefined; relative: boolean } {
  const year = Number(today.slice(0, 4));
  const month = Number(today.slice(5, 7));
  if (past || day >= Number(today.slice(8, 10))) return { date: calendar(year, month, day), relative: true };
  return { date: month === 12 ? calendar(year + 1, 1, day) : calendar(year, month + 1, day), relative: true };
}

function english(
  g: Readonly<Record<string, string | undefined>>,
  today: string,
  past: boolean,
): { date: string | undefined; relative: boolean } {
  const month = (name: string) => MONTHS[name.slice(0, 3)]!;
  if (g['rangeDay'] !== undefined)
    return monthDay(g['rangeYear'], month(g['rangeMonth']!), Number(g['rangeDay']), today, past);
  if (g['ordinal'] !== undefined) return ordinalDay(Number(g['ordinal']), today, past);
  if (g['isoYear'] !== undefined)
    return { date: calendar(Number(g['isoYear']), Number(g['isoMonth']), Number(g['isoDay'])), relative: false };
  if (g['day'] !== undefined) return monthDay(g['dayYear'], month(g['dayMonth']!), Number(g['day']), today, past);
  if (g['firstDay'] !== undefined)
    return monthDay(undefined, month(g['firstMonth']!), Number(g['firstDay']), today, past);
  if (g['month'] !== undefined) return monthDay(g['monthYear'], month(g['month']), Number(g['monthDay']), today, past);
  if (g['named'] !== undefined) return { date: addDays(today, EN_NAMED_DAYS[g['named']]!), relative: true };
  if (g['weekday'] !== undefined) {
    const weekday = WEEKDAYS.indexOf(g['weekday']) + 1;
    return { date: g['which'] === 'next' ? inWeek(today, weekday, 1) : upcoming(today, weekday), relative: true };
  }
  if (g['end'] !== undefined) return { date: endOf(today, g['end'] === 'year'), relative: true };
  if (g['endMonth'] !== undefined) {
    const last = endOf(`${today.slice(0, 5)}${String(month(g['endMonth'])).padStart(2, '0')}-01`, false);
    return monthDay(undefined, month(g['endMonth']), Number(last.slice(8, 10)), today, past);
  }
  if (g['count'] === undefined) return { date: undefined, relative: true };
  const count = SMALL_NUMBERS[g['count']] ?? Number(g['count']);
  return { date: addDays(today, g['unit']!.startsWith('week') ? count * 7 : count), relative: true };
}

function chinese(
  g: readonly (string | undefined)[],
  today: string,
  past: boolean,
): { date: string | undefined; relative: boolean } {
  if (g[1] !== undefined) return { date: calendar(Number(g[1]), Number(g[2]), Number(g[3])), relative: false };
  if (g[4] !== undefined) return monthDay(undefined, Number(g[4]), Number(g[5]), today, past);
  if (g[6] !== undefined) return { date: addDays(today, ZH_NAMED_DAYS[g[6]]!), relative: true };
  if (g[8] !== undefined) {
    const index = ZH_WEEKDAYS.indexOf(g[8]);
    const weekday = index >= 6 ? 7 : index + 1;
    const weeks = g[7] === '下下' ? 2 : g[7] === '下' ? 1 : g[7] === '上' ? -1 : 0;
    return { date: g[7] === undefined ? upcoming(today, weekday) : inWeek(today, weekday, weeks), relative: true };
  }
  if (g[11] !== undefined) return { date: endOf(today, g[11].startsWith('年')), relative: true };
  if (g[12] !== undefined) return monthDay(undefined, ZH_HOLIDAYS[g[12]]![0], ZH_HOLIDAYS[g[12]]![1], today, past);
  const count = chineseNumber(g[9]!);
  return { date: addDays(today, g[10] === '天' ? count : count * 7), relative: true };
}

/**
 * The first date named in a sentence, resolved against `today` (the event's date). "next Friday"
 * is the Friday of next week; a bare weekday is the next one after today; a date without a year is
 * this year's, or next year's when that has gone by and the sentence does not read as past ("we
 * launch on June 12" said in November is next June; "we met on June 12" is this June).
 *
 * @example
 * findDate('ship it by next friday', 'en', '2026-02-18')?.date // '2026-02-27'
 * findDate('2026年12月1日发布', 'zh', '2026-02-18')?.date // '2026-12-01'
 */
export function findDate(lower: string, language: Language, today: string): DateMention | undefined {
  return findDates(lower, language, today, 1)[0];
}

/**
 * Every date named in a sentence, in order (at most `max`), read as findDate reads the first.
 *
 * @example
 * findDates('moved it from 2 may to 9 may', 'en', '2026-02-18').map((mention) => mention.date) // ['2026-05-02', '2026-05-09']
 */
export function findDates(lower: string, language: Language, today: string, max = Infinity): DateMention[] {
  const pattern = language === 'zh' ? ZH_DATE : EN_DATE;
  if (!(language === 'zh' ? ZH_DATE_CUE : EN_DATE_CUE).test(lower)) return [];
  pattern.lastIndex = 0;
  const past = (language === 'zh' ? ZH_PAST : EN_PAST).test(lower);
  const out: DateMention[] = [];
  for (let found = pattern.exec(lower); found !== null && out.length < max; found = pattern.exec(lower)) {
    // A weekday before a date only steps aside for the date that follows it.
    if (
      found[0] === '' ||
      (language === 'en' &&
        found.groups !== undefined &&
        Object.values(found.groups).every((group) => group === undefined))
    ) {
      if (found[0] === '') pattern.lastIndex += 1;
      continue;
    }
    const { date, relative } =
      language === 'zh' ? chinese(found, today, past) : english(found.groups ?? {}, today, past);
    const calendar =
      language === 'zh'
        ? found[1] !== undefined || found[4] !== undefined
        : ['rangeDay', 'isoYear', 'day', 'month', 'firstDay'].some((group) => found.groups?.[group] !== undefined);
    if (date !== undefined) out.push({ date, index: found.index, length: found[0].length, relative, calendar });
  }
  return out;
}

/**
 * The calendar date of an event time: its own date as written (so a local time keeps its local
 * day), or the UTC date of anything else Date can parse.
 *
 * @example
 * eventDate('2026-02-20T23:30:00-05:00') // '2026-02-20'
 */
export function eventDate(ts: string): string {
  if (
    /^\d{4}-\d{2}-\d{2}/.test(ts) &&
    calendar(Number(ts.slice(0, 4)), Number(ts.slice(5, 7)), Number(ts.slice(8, 10))) !== undefined
  )
    return ts.slice(0, 10);
  const ms = Date.parse(ts);
  return Number.isNaN(ms) ? '1970-01-01' : format(ms);
}
