// Chinese time expressions: 今天/昨天/前天, 三天前/两周前/三个月前, 上周五/这周/上个月, 去年/今年,
// 五月/5月8日/2023年5月, 去年夏天, 过去两周, 五一/国庆/元旦 and the other holidays of a fixed day,
// 月底/年底/月初. Numbers may be written in digits (also full width) or in
// Chinese numerals, read by the small parser below.

import type { DaySpan, Found, RuleContext, Season, Tense, Unit } from './time-calendar.js';
import {
  around,
  civil,
  dayNumber,
  monthSpan,
  oneDay,
  seasonFor,
  seasonSpan,
  shiftDay,
  span,
  weekdayNear,
  weekendBefore,
  weekendSpan,
  weekSpan,
  weekStart,
  yearOfMonth,
  yearSpan,
} from './time-calendar.js';

const DIGIT: Record<string, number> = {
  零: 0,
  〇: 0,
  一: 1,
  二: 2,
  两: 2,
  三: 3,
  四: 4,
  五: 5,
  六: 6,
  七: 7,
  八: 8,
  九: 9,
};
const MULTIPLIER: Record<string, number> = { 十: 10, 百: 100, 千: 1000 };

/**
 * A number written in digits (ASCII or full width) or in Chinese numerals: 十二 → 12, 二十三 → 23,
 * 两 → 2, 一百零五 → 105; digit by digit for years (二〇二三 → 2023). Undefined for anything else.
 *
 * @example
 * parseChineseNumber('二十三') // 23
 */
export function parseChineseNumber(text: string): number | undefined {
  const ascii = text.replace(/[０-９]/g, (digit) => String.fromCharCode(digit.charCodeAt(0) - 0xfee0));
  if (/^\d+$/.test(ascii)) return Number(ascii);
  const chars = [...ascii];
  if (chars.length === 0 || !chars.every((char) => char in DIGIT || char in MULTIPLIER)) return undefined;
  if (chars.length > 1 && chars.every((char) => char in DIGIT))
    return Number(chars.map((char) => DIGIT[char]).join(''));
  let total = 0;
  let current = 0;
  for (const char of chars) {
    const multiplier = MULTIPLIER[char];
    if (multiplier === undefined) current = DIGIT[char] ?? 0;
    else {
      total += (current === 0 ? 1 : current) * multiplier;
      current = 0;
    }
  }
  return total + current;
}

const NUM = '[0-9０-９零〇一二两三四五六七八九十百]+';
const COUNT = `(${NUM}|半|几|好几)`;
const SHIFT: Record<string, number> = { 上上: -2, 上: -1, 这: 0, 本: 0, 今: 0, 下: 1, 下下: 2 };
const WEEKDAY: Record<string, number> = {
  一: 1,
  二: 2,
  三: 3,
  四: 4,
  五: 5,
  六: 6,
  日: 7,
  天: 7,
  '1': 1,
  '2': 2,
  '3': 3,
  '4': 4,
  '5': 5,
  '6': 6,
  '7': 7,
};
const CASUAL: Record<string, number> = {
  大前天: -3,
  前天: -2,
  昨天: -1,
  昨日: -1,
  昨晚: -1,
  今天: 0,
  今日: 0,
  今晚: 0,
  今早: 0,
  明天: 1,
  明日: 1,
  明晚: 1,
  后天: 2,
  大后天: 3,
};
const YEAR_WORD: Record<string, number> = { 大前年: -3, 前年: -2, 去年: -1, 今年: 0, 明年: 1, 后年: 2 };
const SEASON: Record<string, Season> = { 春: 'spring', 夏: 'summer', 秋: 'autumn', 冬: 'winter' };

/** A length of time in Chinese: a count and a unit after 了/有/已经 or before 了/多/来/以来 ("养了三年了", "2016年以来"). */
const DURATION =
  /(?:[了有要]|已经)\s*[一二两三四五六七八九十几半\d]+\s*(?:年|个月|周|个星期|天|个小时|小时|分钟)|[一二两三四五六七八九十几半\d]+\s*(?:年|个月|周|个星期|天|个小时|小时|分钟)(?:了|多|来|以来|左右)/;

/**
 * Whether a Chinese text says how long something has lasted or took.
 *
 * @example
 * namesChineseDuration('我养了它们三年了。') // true
 */
export function namesChineseDuration(text: string): boolean {
  return DURATION.test(text);
}

/** The question's tense: 了/过/曾 mark the past, 会/将/打算/计划/准备 the future. */
export function chineseTense(text: string): Tense {
  if (/[了过曾]/.test(text)) return 'past';
  if (/会|将|打算|计划|准备|即将/.test(text)) return 'future';
  return 'unmarked';
}

/** A count and its unit as days, weeks, months or years; 半 is a half, 几 a vague few. */
function countOf(words: string, unitWord: string): { amount: number; unit: Unit; vague: boolean } | undefined {
  const unit: Unit = /[天日]/.test(unitWord)
    ? 'day'
    : /[周星礼]/.test(unitWord)
      ? 'week'
      : unitWord.includes('月')
        ? 'month'
        : 'year';
  if (words === '半')
    return unit === 'month'
      ? { amount: 15, unit: 'day', vague: false }
      : unit === 'year'
        ? { amount: 6, unit: 'month', vague: false }
        : undefined;
  if (words.includes('几')) return { amount: 3, unit, vague: true };
  const amount = parseChineseNumber(words);
  return amount === undefined ? undefined : { amount, unit, vague: false };
}

/** A month, or a day of it, by numbers; undefined when out of the calendar (13月, 2月30日). */
function monthOrDay(year: number, month: number, dayWords: string | undefined): DaySpan | undefined {
  if (month < 1 || month > 12) return undefined;
  if (dayWords === undefined) return monthSpan(year, month);
  const dayOfMonth = parseChineseNumber(dayWords);
  if (dayOfMonth === undefined || dayOfMonth < 1) return undefined;
  const day = dayNumber(year, month, dayOfMonth);
  return civil(day).day === dayOfMonth ? oneDay(day) : undefined;
}

interface Rule {
  pattern: RegExp;
  resolve: (match: RegExpMatchArray, ctx: RuleContext) => DaySpan | undefined;
}

/** Holidays of a fixed day: month, day, and how many days the holiday runs. */
const HOLIDAYS: Readonly<Record<string, readonly [number, number, number]>> = {
  五一: [5, 1, 5],
  劳动: [5, 1, 5],
  国庆: [10, 1, 7],
  元旦: [1, 1, 1],
  圣诞: [12, 25, 1],
  平安夜: [12, 24, 1],
  情人: [2, 14, 1],
  儿童: [6, 1, 1],
  教师: [9, 10, 1],
};

const UNIT = '(天|日|周|个?多?星期|个?多?礼拜|个多?月|年)';

const RULES: Rule[] = [
  {
    pattern: /大前天|大后天|前天|昨天|昨日|昨晚|今天|今日|今晚|今早|明天|明日|明晚|后天/g,
    resolve: ([word], { today }) => oneDay(today + (CASUAL[word] ?? 0)),
  },
  {
    pattern: new RegExp(`${COUNT}多?${UNIT}(以前|之前|前|以后|之后|后)`, 'g'),
    resolve: ([whole, count = '', unitWord = '', direction = ''], { today }) => {
      const parsed = countOf(count, unitWord);
      if (parsed === undefined) return undefined;
      const centre = shiftDay(today, (direction.includes('前') ? -1 : 1) * parsed.amount, parsed.unit);
      // 十多天前 is "more than ten days ago": as vague as 几天前.
      return around(centre, centre - today, parsed.vague || whole.includes('多'));
    },
  },
  {
    pattern: new RegExp(`(过去|最近|近|未来|接下来)的?${COUNT}多?${UNIT}`, 'g'),
    resolve: ([, side = '', count = '', unitWord = ''], { today }) => {
      const parsed = countOf(count, unitWord);
      if (parsed === undefined) return undefined;
      const ahead = side === '未来' || side === '接下来';
      const far = shiftDay(today, (ahead ? 1 : -1) * parsed.amount, parsed.unit);
      return ahead ? span(today, far, 'range') : span(far, today, 'range');
    },
  },
  {
    // 这周一起 is "together this week", not Monday.
    pattern: /(上上|上|这|本|下下|下)?个?(?:周|星期|礼拜)(一(?![起下直样些次点定般共个])|[二三四五六日天1-7])/g,
    resolve: ([, shift, day = ''], { today, tense }) => {
      const weekday = WEEKDAY[day] ?? 1;
      if (shift === undefined) return oneDay(weekdayNear(today, weekday, tense === 'future' ? 'after' : 'before'));
      return oneDay(weekStart(today) + 7 * (SHIFT[shift] ?? 0) + weekday - 1);
    },
  },
  {
    pattern: /(上上|上|这|本|下下|下)?个?(?:周|星期|礼拜)末/g,
    resolve: ([, shift], { today, tense }) => {
      if (shift !== undefined) return shift === '上' ? weekendBefore(today) : weekendSpan(today, SHIFT[shift] ?? 0);
      const current = weekendSpan(today, 0);
      return today >= current.first || tense === 'future' ? current : weekendBefore(today);
    },
  },
  {
    pattern: /(上上|上|这|本|下下|下)个?(?:周|星期|礼拜)(?!一(?![起下直样些次点定般共个])|[二三四五六日天1-7末年])/g,
    resolve: ([, shift = ''], { today }) => weekSpan(today, SHIFT[shift] ?? 0),
  },
  {
    // 下个月18号: a day of the month before or after this one.
    pattern: new RegExp(`(上上|上|这|本|下下|下)个?月(${NUM})[日号]`, 'g'),
    resolve: ([, shift = '', dayWords = ''], { today }) => {
      const { year, month } = civil(today);
      const shifted = civil(monthSpan(year, month + (SHIFT[shift] ?? 0)).first);
      return monthOrDay(shifted.year, shifted.month, dayWords);
    },
  },
  {
    pattern: /(上上|上|这|本|下下|下)个?月/g,
    resolve: ([, shift = ''], { today }) => {
      const { year, month } = civil(today);
      return monthSpan(year, month + (SHIFT[shift] ?? 0));
    },
  },
  {
    pattern: new RegExp(
      `(大前年|前年|去年|今年|明年|后年)(?:(${NUM})月份?(?:(${NUM})[日号])?|([春夏秋冬])[天季])?`,
      'g',
    ),
    resolve: ([, word = '', month, day, season], { today }) => {
      const year = civil(today).year + (YEAR_WORD[word] ?? 0);
      if (season !== undefined) return seasonSpan(SEASON[season] ?? 'summer', year);
      return month === undefined ? yearSpan(year) : monthOrDay(year, parseChineseNumber(month) ?? 0, day);
    },
  },
  {
    pattern: new RegExp(`(\\d{4}|[０-９]{4}|[零〇一二三四五六七八九]{4})年(?:(${NUM})月份?(?:(${NUM})[日号])?)?`, 'g'),
    resolve: ([, yearWords = '', month, day]) => {
      const year = parseChineseNumber(yearWords);
      if (year === undefined) return undefined;
      return month === undefined ? yearSpan(year) : monthOrDay(year, parseChineseNumber(month) ?? 0, day);
    },
  },
  {
    // A month (or a day of it) without a year: the latest not after today, or the next when the question looks ahead.
    pattern: new RegExp(`(?<![0-9０-９零〇一二两三四五六七八九十百年个])(${NUM})月份?(?:(${NUM})[日号])?`, 'g'),
    resolve: ([, monthWords = '', day], { today, tense }) => {
      const month = parseChineseNumber(monthWords) ?? 0;
      const dayOfMonth = day === undefined ? undefined : parseChineseNumber(day);
      if (month < 1 || month > 12 || dayOfMonth === 0) return undefined;
      return monthOrDay(yearOfMonth(month, dayOfMonth, today, tense), month, day);
    },
  },
  {
    // A day of the month alone (8号): in this month or the one before, or after when looking ahead.
    pattern: new RegExp(`(?<![0-9０-９零〇一二两三四五六七八九十百月])(${NUM})号`, 'g'),
    resolve: ([, dayWords = ''], { today, tense }) => {
      const dayOfMonth = parseChineseNumber(dayWords) ?? 0;
      if (dayOfMonth < 1 || dayOfMonth > 31) return undefined;
      const { year, month } = civil(today);
      const step = tense === 'future' ? 1 : -1;
      for (let offset = 0; Math.abs(offset) <= 2; offset += step) {
        const shifted = civil(monthSpan(year, month + offset).first);
        const window = monthOrDay(shifted.year, shifted.month, dayWords);
        if (window !== undefined && (tense === 'future' ? window.first >= today : window.first <= today)) return window;
      }
      return undefined;
    },
  },
  {
    // Holidays of a fixed day, with the days off around them: the next one when looking ahead, else the latest.
    pattern:
      /(?<![一二三四五六七八九十])(五一|劳动节|国庆节?|元旦|圣诞节?|平安夜|情人节|儿童节|教师节)(?![一二三四五六七八九十路])/g,
    resolve: ([, word = ''], { today, tense }) => {
      const holiday = HOLIDAYS[word.replace(/节$/u, '')];
      if (holiday === undefined) return undefined;
      const [month, dayOfMonth, length] = holiday;
      const first = dayNumber(yearOfMonth(month, dayOfMonth, today, tense), month, dayOfMonth);
      return length === 1 ? oneDay(first) : span(first, first + length - 1, 'range');
    },
  },
  {
    // 月底 is the last week of the month, 月初 the first; 年底 is December. 下个月底: of next month.
    pattern: /(上个|这个|下个|本)?(月底|月末|月初|年底|年末|年初)/g,
    resolve: ([, shift = '', part = ''], { today }) => {
      const { year, month } = civil(today);
      if (part.startsWith('年')) return part === '年初' ? monthSpan(year, 1) : monthSpan(year, 12);
      const whole = monthSpan(year, month + (shift === '上个' ? -1 : shift === '下个' ? 1 : 0));
      return part === '月初' ? span(whole.first, whole.first + 6, 'range') : span(whole.last - 6, whole.last, 'range');
    },
  },
  {
    pattern: /(这个|上个|下个|今|去|明)?([春夏秋冬])[天季]/g,
    resolve: ([, which, season = ''], { today, tense }) => {
      const choice =
        which === undefined
          ? tense
          : which === '上个' || which === '去'
            ? 'last'
            : which === '下个' || which === '明'
              ? 'next'
              : 'this';
      return seasonFor(SEASON[season] ?? 'summer', today, choice);
    },
  },
];

/**
 * Every Chinese time expression in the text, each with its window; overlapping readings are left
 * for the caller to choose between (the longest wins: 大前天 over 前天, 去年五月 over 五月).
 *
 * @example
 * chineseExpressions({ text: '上周五我们聊了什么', today, tense: 'past' }) // [{ index: 0, end: 3, span: { … 'day' } }]
 */
export function chineseExpressions(ctx: RuleContext): Found[] {
  const found: Found[] = [];
  for (const rule of RULES) {
    for (const match of ctx.text.matchAll(rule.pattern)) {
      const window = rule.resolve(match, ctx);
      if (window !== undefined) found.push({ index: match.index, end: match.index + match[0].length, span: window });
    }
  }
  return found;
}
