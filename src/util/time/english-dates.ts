// English calendar expressions that name a time on their own: written dates (read by chrono-node),
// months, seasons and years ("in May", "early 2022", "last summer"), and ranges between them ("from
// March to May", "since 2020"). These are also the anchors of "two weeks before August 11, 2023".

import type { ParsedComponents } from 'chrono-node';
import { strict } from 'chrono-node/en';
import type { Chrono, ParsedResult } from 'chrono-node/en';

import type { DaySpan, Found, RuleContext, Season } from './time-calendar.js';
import { parseCount } from './english-relative.js';
import {
  civil,
  dayNumber,
  isoWeekday,
  monthSpan,
  oneDay,
  seasonFor,
  seasonSpan,
  selectLongest,
  span,
  yearOfMonth,
  yearSpan,
} from './time-calendar.js';

/**
 * chrono's parsers for written dates only, by class name (the tests of "two weeks before August
 * 11, 2023" fail if a relative parser slips back in). Its readings of relative phrases give a point
 * without the unit it came from, so those ("last week", "two weeks before X") are the relative rules'.
 */
const DATE_PARSERS = new Set([
  'ISOFormatParser',
  'SlashDateFormatParser',
  'ENMonthNameLittleEndianParser',
  'ENMonthNameMiddleEndianParser',
  'ENSlashMonthFormatParser',
  'ENYearMonthDayParser',
  'ENYearMonthNameParser',
]);

let dateParser: Chrono | undefined;

/** chrono's strict English parser, trimmed to written dates once, on first use. */
function writtenDateParser(): Chrono {
  if (dateParser === undefined) {
    const parser = strict.clone();
    parser.parsers = parser.parsers.filter((candidate) => DATE_PARSERS.has(candidate.constructor.name));
    dateParser = parser;
  }
  return dateParser;
}

const MONTH_NAMES = 'january|february|march|april|may|june|july|august|september|october|november|december';
const MONTH = `(?:(?:${MONTH_NAMES})|(?:jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)\\.?)(?![a-z])`;
const MONTH_INDEX = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const RELATIVE = '(this past|this coming|last|this|next|past|coming)';
/** Words before a month or season that make it a time rather than a name ("in May", not "May I"). */
const LEAD = '(in|during|since|until|till|by|of|from|through|throughout|over|around|before|after|between|for|and|to)';
/** Leads that only start or end a range: "from May" alone is more often a person. */
const RANGE_ONLY = new Set(['from', 'between', 'and', 'to']);

/** The parts of a month a question can name before it: "early May", "the second week of May". */
const MONTH_PART =
  '(early|mid|late|the\\s+(?:beginning|start|end|middle)\\s+of|the\\s+(?:first|second)\\s+half\\s+of|' +
  'the\\s+(?:first|second|third|fourth|last)\\s+(?:week|weekend)\\s+of|the\\s+(?:first|last)\\s+(?:[a-z0-9]+\\s+)?(?:days|weeks)\\s+of)';
/** The parts of a season or a year: a third of it. */
const THIRD_WORDS = 'early|mid|late|the\\s+(?:beginning|start|end|middle)\\s+of';
const THIRD = `(${THIRD_WORDS})`;

const MONTH_RULE = new RegExp(
  `\\b(?:${LEAD}\\s+)?((?:${MONTH_PART}[\\s-]+)?(?:${RELATIVE}\\s+)?(${MONTH})(?:,?\\s+((?:19|20)\\d\\d)\\b)?)(?!\\s*\\d{1,2}(?:st|nd|rd|th)?\\b)`,
  'gi',
);

const SEASON_RULE = new RegExp(
  `\\b(?:${LEAD}\\s+)?(?:(the)\\s+)?((?:${THIRD}[\\s-]+)?(?:${RELATIVE}\\s+)?(spring|summer|autumn|fall|winter)(?![a-z])(?:\\s+(?:of\\s+)?((?:19|20)\\d\\d)\\b)?)`,
  'gi',
);

const YEAR_RULE = new RegExp(
  `\\b(?:${LEAD}\\s+)?((?:(${THIRD_WORDS}|the\\s+year)[\\s-]+)?((?:19|20)\\d\\d))\\b(?![-/.:]\\d|s\\b|'s\\b)`,
  'gi',
);

type Choice = 'last' | 'this' | 'next';

function choiceOf(relative: string | undefined): Choice | undefined {
  if (relative === undefined) return undefined;
  const word = relative.toLowerCase();
  if (word === 'last' || word === 'past' || word === 'this past') return 'last';
  if (word === 'next' || word === 'coming' || word === 'this coming') return 'next';
  return 'this';
}

const ORDINAL: Record<string, number> = { first: 0, second: 1, third: 2, fourth: 3 };

/** A stretch of a month, as the words before it name it ("early May" is the 1st to the 10th). */
function partOfMonth(whole: DaySpan, modifier: string): DaySpan {
  const words = modifier.toLowerCase().replace(/\s+/g, ' ');
  const { first, last } = whole;
  const nth = /^the (first|second|third|fourth|last) (week|weekend) of$/.exec(words);
  if (nth !== null) {
    const order = nth[1] === 'last' ? undefined : (ORDINAL[nth[1] ?? 'first'] ?? 0);
    if (nth[2] === 'week')
      return order === undefined
        ? span(last - 6, last, 'range')
        : span(first + 7 * order, first + 7 * order + 6, 'range');
    const saturday =
      order === undefined ? last - ((isoWeekday(last) + 1) % 7) : first + ((6 - isoWeekday(first) + 7) % 7) + 7 * order;
    return span(saturday, saturday + 1, 'weekend');
  }
  const counted = /^the (first|last) (?:(\S+) )?(days|weeks) of$/.exec(words);
  if (counted !== null) {
    const length = (parseCount(counted[2] ?? 'few')?.count ?? 3) * (counted[3] === 'weeks' ? 7 : 1);
    return counted[1] === 'first' ? span(first, first + length - 1, 'range') : span(last - length + 1, last, 'range');
  }
  if (words.includes('first half')) return span(first, first + 14, 'range');
  if (words.includes('second half')) return span(first + 15, last, 'range');
  return thirdOf(whole, words);
}

/** Months named with a lead, a modifier, "last/next/this" or a year: "in May", "mid-March 2022". */
function months(ctx: RuleContext): Found[] {
  const found: Found[] = [];
  for (const match of ctx.text.matchAll(MONTH_RULE)) {
    const [, lead, phrase = '', modifier, relative, name = '', year] = match;
    if (lead === undefined && modifier === undefined && relative === undefined && year === undefined) continue;
    const month = MONTH_INDEX.indexOf(name.slice(0, 3).toLowerCase()) + 1;
    const choice = choiceOf(relative) ?? ctx.tense;
    const whole = monthSpan(
      year === undefined ? yearOfMonth(month, undefined, ctx.today, choice) : Number(year),
      month,
    );
    const index = match.index + match[0].length - phrase.length;
    const weak =
      lead !== undefined &&
      RANGE_ONLY.has(lead.toLowerCase()) &&
      modifier === undefined &&
      relative === undefined &&
      year === undefined;
    found.push({
      index,
      end: match.index + match[0].length,
      span: modifier === undefined ? whole : partOfMonth(whole, modifier),
      weak,
    });
  }
  return found;
}

/** Seasons: "last summer", "in the fall", "summer 2021"; the verbs "fall" and "spring" need a lead. */
function seasons(ctx: RuleContext): Found[] {
  const found: Found[] = [];
  for (const match of ctx.text.matchAll(SEASON_RULE)) {
    const [, lead, article, phrase = '', modifier, relative, name = '', year] = match;
    const word = name.toLowerCase();
    const season: Season = word === 'fall' ? 'autumn' : (word as Season);
    const verbLike = word === 'fall' || word === 'spring';
    if (relative === undefined && year === undefined && lead === undefined && (verbLike || article === undefined))
      continue;
    const whole =
      year === undefined
        ? seasonFor(season, ctx.today, choiceOf(relative) ?? ctx.tense)
        : seasonSpan(season, Number(year));
    const index = match.index + match[0].length - phrase.length;
    const weak =
      lead !== undefined &&
      RANGE_ONLY.has(lead.toLowerCase()) &&
      relative === undefined &&
      year === undefined &&
      article === undefined;
    found.push({
      index,
      end: match.index + match[0].length,
      span: modifier === undefined ? whole : thirdOf(whole, modifier),
      weak,
    });
  }
  return found;
}

/**
 * Early, mid or late in a month, a season (its first, middle or last month) or a year (January–April,
 * May–August, September–December); "the beginning of", "the middle of" and "the end of" alike.
 */
function thirdOf(whole: DaySpan, modifier: string): DaySpan {
  const { year, month } = civil(whole.first);
  const words = modifier.toLowerCase();
  const which = /early|beginning|start/.test(words) ? 0 : /mid/.test(words) ? 1 : 2;
  if (whole.kind === 'month')
    return span(whole.first + 10 * which, which === 2 ? whole.last : whole.first + 10 * which + 9, 'range');
  const months = whole.kind === 'year' ? 4 : 1;
  return span(
    monthSpan(year, month + which * months).first,
    monthSpan(year, month + (which + 1) * months - 1).last,
    'range',
  );
}

/** Years after a lead or a modifier: "in 2023", "early 2022", "since 2020"; a bare number is not taken. */
function years(ctx: RuleContext): Found[] {
  const found: Found[] = [];
  for (const match of ctx.text.matchAll(YEAR_RULE)) {
    const [, lead, phrase = '', modifier, year = ''] = match;
    if (lead === undefined && modifier === undefined) continue;
    const whole = yearSpan(Number(year));
    const third = modifier === undefined || /year/i.test(modifier) ? whole : thirdOf(whole, modifier);
    const index = match.index + match[0].length - phrase.length;
    const weak = lead !== undefined && RANGE_ONLY.has(lead.toLowerCase()) && modifier === undefined;
    found.push({ index, end: match.index + match[0].length, span: third, weak });
  }
  return found;
}

/** A day chrono read, with the year chosen by the question's tense when the text gives none. */
function dayOfComponents(components: ParsedComponents, ctx: RuleContext, after?: number): number | undefined {
  const month = components.get('month');
  const day = components.get('day');
  if (month === null || day === null) return undefined;
  let year = components.isCertain('year') ? components.get('year') : yearOfMonth(month, day, ctx.today, ctx.tense);
  if (year === null) return undefined;
  if (after !== undefined && !components.isCertain('year') && dayNumber(year, month, day) < after) year += 1;
  const result = dayNumber(year, month, day);
  return civil(result).day === day ? result : undefined;
}

/** The window of one chrono result, or undefined for what is not a whole date (a fraction like 1/2). */
function chronoSpan(result: ParsedResult, ctx: RuleContext): DaySpan | undefined {
  const { start, end } = result;
  if (!start.isCertain('month')) return undefined;
  if (!start.isCertain('day')) {
    const year = start.get('year');
    return start.isCertain('year') && year !== null ? monthSpan(year, start.get('month') ?? 1) : undefined;
  }
  if (!start.isCertain('year') && /^\d{1,2}\s*[/.]\s*\d{1,2}$/.test(result.text.trim())) return undefined;
  const first = dayOfComponents(start, ctx);
  if (first === undefined) return undefined;
  if (end === undefined || end === null) return oneDay(first);
  const last = dayOfComponents(end, ctx, first);
  return last === undefined || last < first ? oneDay(first) : span(first, last, 'range');
}

/** Written dates, read by chrono when the text has a digit or an ordinal ("the fifth of May"). */
function writtenDates(ctx: RuleContext): Found[] {
  if (!/\d|[a-z](?:st|nd|rd|th)\s+of\b/i.test(ctx.text)) return [];
  const reference = { instant: new Date(ctx.today * 86_400_000 + 43_200_000), timezone: 0 };
  let results: ParsedResult[];
  try {
    results = writtenDateParser().parse(ctx.text, reference);
  } catch {
    // A fault inside the third-party reader costs this question its written dates, not its answer.
    return [];
  }
  const found: Found[] = [];
  for (const result of results) {
    const window = chronoSpan(result, ctx);
    if (window === undefined) continue;
    // chrono keeps a leading "on" or "the"; an anchor ("before August 11") must start at the date.
    const lead = /^(?:(?:on|the)\s+)*/i.exec(result.text)?.[0].length ?? 0;
    found.push({ index: result.index + lead, end: result.index + result.text.length, span: window });
  }
  return found;
}

/**
 * Every calendar expression in the text that stands on its own, after joining ranges: "from March
 * to May" and "between March and May" become one window, "since 2020" runs to today, and a month
 * read only as a range end ("and May") is dropped when it ends no range.
 */
export function calendarExpressions(ctx: RuleContext): Found[] {
  const chosen = selectLongest([...writtenDates(ctx), ...months(ctx), ...seasons(ctx), ...years(ctx)]);
  const joined: Found[] = [];
  for (let i = 0; i < chosen.length; i += 1) {
    const current = chosen[i]!;
    const next = chosen[i + 1];
    const before = ctx.text.slice(Math.max(0, current.index - 9), current.index);
    const starter = /\b(?:from|between|since)\s+$/i.exec(before);
    const from = starter === null ? current.index : current.index - before.length + starter.index;
    const range = next === undefined ? undefined : joinRange(ctx.text, current, next, starter?.[0]);
    if (range !== undefined) {
      joined.push({ ...range, index: from });
      i += 1;
    } else if (current.span !== null && /^since/i.test(starter?.[0] ?? '') && current.span.first <= ctx.today) {
      joined.push({
        index: from,
        end: current.end,
        span: span(current.span.first, Math.max(current.span.last, ctx.today), 'range'),
      });
    } else if (current.weak !== true) {
      joined.push(current);
    }
  }
  return joined;
}

/** "from A to B", "between A and B", "A to B", "A - B": one range when B does not end before A. */
function joinRange(text: string, a: Found, b: Found, starter: string | undefined): Found | undefined {
  if (a.span === null || b.span === null || b.span.last < a.span.first) return undefined;
  const between = text.slice(a.end, b.index);
  const started = /^(?:from|between)/i.test(starter ?? '');
  const linked = started ? /^\s*(?:to|and|until|till|through|-|–)\s*$/i : /^\s*(?:to|until|till|through|-|–)\s*$/i;
  if (!linked.test(between)) return undefined;
  return { index: a.index, end: b.end, span: span(a.span.first, b.span.last, 'range') };
}
