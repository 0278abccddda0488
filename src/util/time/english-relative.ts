// English expressions relative to the day the question is asked ("yesterday", "four weeks ago",
// "last Friday", "the past two weeks") or to a date it names ("two weeks before August 11, 2023",
// "last weekend before April 10"). Relative to anything else ("the week before my trip"): no window.

import type { DaySpan, Found, RuleContext, Tense, Unit } from './time-calendar.js';
import {
  around,
  civil,
  monthSpan,
  oneDay,
  shiftDay,
  span,
  weekdayNear,
  weekendAfter,
  weekendBefore,
  weekendSpan,
  weekSpan,
  weekStart,
  yearSpan,
} from './time-calendar.js';

const SMALL = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
];
const TENS = ['twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
const COUNT = `(\\d{1,3}|an?|a\\s+couple(?:\\s+of)?|couple\\s+of|a\\s+few|few|several|a\\s+dozen|(?:${TENS.join('|')})(?:[-\\s](?:${SMALL.slice(1, 10).join('|')}))?|${SMALL.join('|')})`;
const UNIT = '(days?|weeks?|fortnights?|months?|years?|decades?)';
const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

/** A length of time said in English ("three years", "a couple of months", "45 minutes", "since 2016", "since I was 17"). */
const DURATION = new RegExp(
  `\\b${COUNT}\\s+(?:days?|weeks?|fortnights?|months?|years?|decades?|hours?|minutes?)\\b|\\bsince\\s+(?:\\d{4}|i\\s+was|we\\s+were|childhood|high\\s+school|college)\\b`,
  'i',
);

/**
 * Whether an English text says how long something has lasted or took ("I've had them for three
 * years", "Seven years now", "since 2016").
 *
 * @example
 * namesEnglishDuration("I've had them for 3 years now!") // true
 */
export function namesEnglishDuration(text: string): boolean {
  return DURATION.test(text);
}

/** A count in words or digits; "a few", "several" and "a couple" are vague and widen the window. */
export function parseCount(words: string): { count: number; vague: boolean } | undefined {
  const text = words.toLowerCase().replace(/\s+/g, ' ');
  if (/^\d+$/.test(text)) return { count: Number(text), vague: false };
  if (text === 'a' || text === 'an') return { count: 1, vague: false };
  if (text.includes('couple')) return { count: 2, vague: true };
  if (text.includes('few') || text === 'several') return { count: 3, vague: true };
  if (text.includes('dozen')) return { count: 12, vague: false };
  const [tens = '', ones] = text.split(/[-\s]/);
  const small = SMALL.indexOf(tens);
  if (small >= 0) return { count: small, vague: false };
  const ten = TENS.indexOf(tens);
  if (ten < 0) return undefined;
  return { count: (ten + 2) * 10 + (ones === undefined ? 0 : SMALL.indexOf(ones)), vague: false };
}

/** A unit word as days, weeks, months or years, with the count it multiplies (a fortnight is two weeks). */
function unitOf(word: string, count: number): { unit: Unit; amount: number } {
  const stem = word.toLowerCase().replace(/s$/, '');
  if (stem === 'fortnight') return { unit: 'week', amount: 2 * count };
  if (stem === 'decade') return { unit: 'year', amount: 10 * count };
  return { unit: stem as Unit, amount: count };
}

/** The window `count unit` away from `from` (negative: back), as wide as the distance asks. */
function distant(from: number, countWords: string, unitWord: string, sign: 1 | -1): DaySpan | null {
  const parsed = parseCount(countWords);
  if (parsed === undefined) return null;
  const { unit, amount } = unitOf(unitWord, parsed.count);
  const centre = shiftDay(from, sign * amount, unit);
  return around(centre, centre - from, parsed.vague);
}

const PAST_WORDS = /\b(?:did|didn't|was|wasn't|were|weren't|had|hadn't|went|ago|yesterday|used to|happened)\b/i;
const FUTURE_WORDS = /\b(?:won't|shall|going to|gonna|plan|plans|planning|intends?|upcoming|tomorrow|next)\b|'ll\b/i;

/**
 * The English question's tense: a past word wins over a future one. "will" counts in lower case
 * or opening the question; elsewhere "Will" is a name.
 */
export function englishTense(text: string): Tense {
  if (PAST_WORDS.test(text)) return 'past';
  if (FUTURE_WORDS.test(text) || /\bwill\b/.test(text) || /^\s*Will\b/.test(text)) return 'future';
  return 'unmarked';
}

interface Rule {
  pattern: RegExp;
  /** The window for a match, counted from `today` (the question's day, or an anchor's). */
  resolve: (match: RegExpMatchArray, today: number, tense: Tense) => DaySpan | null;
  /**
   * How a date right after the match changes it: "deictic" reads the match from that date ("last
   * Friday on 23 January"), "apposition" takes the date itself ("Friday, May 5").
   */
  anchoring?: (match: RegExpMatchArray) => 'deictic' | 'apposition' | undefined;
}

const CASUAL: Record<string, number> = {
  'the day before yesterday': -2,
  yesterday: -1,
  'last night': -1,
  today: 0,
  tonight: 0,
  tomorrow: 1,
  'the day after tomorrow': 2,
};

const RULES: Rule[] = [
  {
    pattern:
      /\b(the\s+day\s+before\s+yesterday|the\s+day\s+after\s+tomorrow|yesterday|today|tonight|tomorrow|last\s+night|this\s+(?:morning|afternoon|evening))\b/gi,
    resolve: (match, today) => oneDay(today + (CASUAL[(match[1] ?? '').toLowerCase().replace(/\s+/g, ' ')] ?? 0)),
  },
  {
    pattern: new RegExp(`\\b${COUNT}\\s+${UNIT}\\s+(ago|back|from\\s+now|hence)\\b`, 'gi'),
    resolve: (match, today) =>
      distant(today, match[1] ?? '', match[2] ?? '', /ago|back/i.test(match[3] ?? '') ? -1 : 1),
  },
  {
    // "in two weeks" looks ahead; in a question about the past it is a duration ("finished in two weeks").
    pattern: new RegExp(`\\bin\\s+${COUNT}\\s+${UNIT}\\b`, 'gi'),
    resolve: (match, today, tense) => (tense === 'past' ? null : distant(today, match[1] ?? '', match[2] ?? '', 1)),
  },
  {
    // "two days later" and "the week after" count from something the question does not date.
    pattern: new RegExp(
      `\\b(?:${COUNT}\\s+${UNIT}|the\\s+(?:day|week|weekend|month|year))\\s+(?:later|earlier|afterwards?|before|after)\\b`,
      'gi',
    ),
    resolve: () => null,
  },
  {
    pattern: new RegExp(
      `\\b(?:the\\s+)?(?:last|past|previous)\\s+${COUNT}\\s+${UNIT}\\b|\\b(?:the\\s+(?:last|past)|past)\\s+()(day|week|fortnight|month|year)\\b`,
      'gi',
    ),
    resolve: (match, today) => {
      const parsed = parseCount(match[1] || '1');
      if (parsed === undefined) return null;
      const { unit, amount } = unitOf(match[2] ?? match[4] ?? 'day', parsed.count);
      return span(shiftDay(today, -amount, unit), today, 'range');
    },
  },
  {
    pattern: new RegExp(`\\bthe\\s+(?:next|coming)\\s+${COUNT}\\s+${UNIT}\\b`, 'gi'),
    resolve: (match, today) => {
      const parsed = parseCount(match[1] ?? '');
      if (parsed === undefined) return null;
      const { unit, amount } = unitOf(match[2] ?? 'day', parsed.count);
      return span(today, shiftDay(today, amount, unit), 'range');
    },
  },
  {
    pattern:
      /\b(?:(this\s+past|this\s+coming|last|past|previous|this|next|coming)\s+(week|weekend|month|year)|the\s+(week|weekend|month|year)\s+(before\s+last|after\s+next))\b/gi,
    resolve: (match, today) =>
      calendarUnit((match[2] ?? match[3] ?? '').toLowerCase(), offsetOf(match[1] ?? match[4] ?? ''), today),
    anchoring: () => 'deictic',
  },
  {
    pattern: /\b(?:(?:on|over|during|at)\s+)?the\s+weekend\b/gi,
    resolve: (_match, today, tense) => bareWeekend(today, tense),
  },
  {
    pattern: new RegExp(
      `\\b(?:(this\\s+past|this\\s+coming|last|past|next|coming|this|on)\\s+)?(${WEEKDAYS.join('|')})(?![a-z])`,
      'gi',
    ),
    resolve: (match, today, tense) =>
      oneDay(
        weekday(
          (match[1] ?? '').toLowerCase().replace(/\s+/g, ' '),
          WEEKDAYS.indexOf((match[2] ?? '').toLowerCase()) + 1,
          today,
          tense,
        ),
      ),
    anchoring: (match) => (match[1] === undefined || /^on$/i.test(match[1]) ? 'apposition' : 'deictic'),
  },
];

function offsetOf(words: string): number {
  const word = words.toLowerCase().replace(/\s+/g, ' ');
  if (word === 'before last') return -2;
  if (word === 'after next') return 2;
  if (word === 'last' || word === 'past' || word === 'previous' || word === 'this past') return -1;
  if (word === 'next' || word === 'coming' || word === 'this coming') return 1;
  return 0;
}

/** The calendar week, weekend, month or year `offset` units from today's; "last weekend" is the last one over. */
function calendarUnit(unit: string, offset: number, today: number): DaySpan {
  const { year, month } = civil(today);
  if (unit === 'week') return weekSpan(today, offset);
  if (unit === 'weekend') {
    if (offset === -1) return weekendBefore(today);
    return offset === -2 ? weekendBefore(weekendBefore(today).first) : weekendSpan(today, offset);
  }
  if (unit === 'month') return monthSpan(year, month + offset);
  return yearSpan(year + offset);
}

/** "the weekend" with no other word: the one under way or just over, or the coming one. */
function bareWeekend(today: number, tense: Tense): DaySpan {
  const current = weekendSpan(today, 0);
  if (today >= current.first) return current;
  return tense === 'future' ? current : weekendBefore(today);
}

/** A weekday: "last" and "next" are the nearest before and after, "this" is in today's week. */
function weekday(modifier: string, day: number, today: number, tense: Tense): number {
  if (modifier === 'last' || modifier === 'past' || modifier === 'this past') return weekdayNear(today, day, 'before');
  if (modifier === 'next' || modifier === 'coming' || modifier === 'this coming')
    return weekdayNear(today, day, 'after');
  if (modifier === 'this') return weekStart(today) + day - 1;
  return weekdayNear(today, day, tense === 'future' ? 'after' : 'before');
}

/** How a count or a "the week" before or after a dated anchor resolves. */
function fromAnchor(match: RegExpMatchArray, anchor: DaySpan): DaySpan | null {
  const [, count, unitWord, unitPhrase, direction = ''] = match;
  const sign = /^(?:after|later|following)/i.test(direction) ? 1 : -1;
  const from = sign === 1 ? anchor.last : anchor.first;
  if (count !== undefined && unitWord !== undefined) return distant(from, count, unitWord, sign);
  const unit = (unitPhrase ?? '').toLowerCase();
  if (unit === 'day') return oneDay(from + sign);
  if (unit === 'weekend') return sign === 1 ? weekendAfter(from) : weekendBefore(from);
  // The week, month or year right next to the date: counted from it, not the calendar unit holding it.
  if (sign === 1) return span(from + 1, shiftDay(from + 1, 1, unit as Unit) - 1, 'range');
  return span(shiftDay(from, -1, unit as Unit), from - 1, 'range');
}

const OFFSET_BEFORE_ANCHOR = new RegExp(
  `\\b(?:${COUNT}\\s+${UNIT}|the\\s+(day|week|weekend|month|year))\\s+(before|after|prior\\s+to|earlier\\s+than|later\\s+than|following)\\s+(?:the\\s+)?`,
  'gi',
);
/** "last week, as mentioned on November 6": the words between a deictic phrase and the date it is read from. */
const DEICTIC_LINK =
  /^\s*,?\s*(?:as\s+(?:mentioned|said|noted|stated)\s+)?(on|before|as\s+of|prior\s+to)\s+(?:the\s+)?/i;
/** "the Sunday before October 25": a weekday counted from a date. */
const WEEKDAY_LINK = /^\s+(before|after|prior\s+to|following)\s+(?:the\s+)?/i;
const APPOSITION = /^\s*,?\s*(?:the\s+)?/;

/**
 * Every relative expression in the text. `calendar` holds the dates found on their own: a count
 * before or after one of them counts from it, and "last Friday on 23 January" reads "last Friday"
 * from that day.
 */
export function relativeExpressions(ctx: RuleContext, calendar: readonly Found[]): Found[] {
  const anchorAt = (position: number) => calendar.find((found) => found.index === position && found.span !== null);
  const found: Found[] = [];
  for (const match of ctx.text.matchAll(OFFSET_BEFORE_ANCHOR)) {
    const anchor = anchorAt(match.index + match[0].length);
    if (anchor?.span != null) found.push({ index: match.index, end: anchor.end, span: fromAnchor(match, anchor.span) });
  }
  for (const rule of RULES) {
    for (const match of ctx.text.matchAll(rule.pattern)) {
      const end = match.index + match[0].length;
      found.push(
        anchoredOrPlain(ctx, rule, match, end, anchorAt) ?? {
          index: match.index,
          end,
          span: rule.resolve(match, ctx.today, ctx.tense),
        },
      );
    }
  }
  return found;
}

/** A deictic match read from a date after it, or a weekday in apposition to a date ("Friday, May 5"). */
function anchoredOrPlain(
  ctx: RuleContext,
  rule: Rule,
  match: RegExpExecArray,
  end: number,
  anchorAt: (position: number) => Found | undefined,
): Found | undefined {
  const anchoring = rule.anchoring?.(match);
  if (anchoring === undefined) return undefined;
  const rest = ctx.text.slice(end);
  if (anchoring === 'apposition') {
    const counted = WEEKDAY_LINK.exec(rest);
    if (counted !== null) {
      const anchor = anchorAt(end + counted[0].length);
      if (anchor?.span == null) return { index: match.index, end: end + counted[0].trimEnd().length, span: null };
      const after = /after|following/i.test(counted[1] ?? '');
      return {
        index: match.index,
        end: anchor.end,
        span: rule.resolve(match, after ? anchor.span.last : anchor.span.first, after ? 'future' : 'past'),
      };
    }
    const apposed = anchorAt(end + (APPOSITION.exec(rest)?.[0].length ?? 0));
    return apposed?.span?.kind === 'day' ? { index: match.index, end: apposed.end, span: apposed.span } : undefined;
  }
  const link = DEICTIC_LINK.exec(rest);
  if (link === null) return undefined;
  const anchor = anchorAt(end + link[0].length);
  if (anchor?.span != null)
    return { index: match.index, end: anchor.end, span: rule.resolve(match, anchor.span.first, ctx.tense) };
  // "last weekend before my trip": before something undated, so no window at all.
  return /before|prior/i.test(link[1] ?? '')
    ? { index: match.index, end: end + link[0].trimEnd().length, span: null }
    : undefined;
}
