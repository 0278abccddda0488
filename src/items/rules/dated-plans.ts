// Plans told by their time (MemoryTypes v0.1 §3.7): whatever the user says they will do, have booked
// or are planning at a time still to come is an upcoming event, with no list of event words —
// "got tickets for Sigur Rós on 9 April", "Planning Zanzibar for July with my cousins", "we're getting
// two guinea pigs next weekend", "五一想和闺蜜去大理玩五天", "下个月要去重庆出差". The time is read by
// the same grammar that reads the time of a question (util/time), looking ahead: a day without a
// year is its next occurrence. The sentence must be the user's own doing (a first person, or a chat
// sentence without a subject), not a habit ("every Friday"), not the past ("last May", "was born"),
// not a pleasantry ("talk to you tomorrow"); a sentence another rule already dated is left to it.

import { resolveTimeWindows, type TimeWindow } from '../../util/time/time-expressions.js';
import { makeKey } from '../keys.js';
import { eventSlug, hasEventWord, titleAround } from './events.js';
import { projectOf } from './project.js';
import { emit, USER_ONLY, type Language, type Rule, type SentenceContext } from './rule.js';
import { contentWords } from './text.js';

const DAY_MS = 86_400_000;
/** How far ahead a plan's time may lie. */
const HORIZON_DAYS = 330;
/** A plan this close needs its occasion named. */
const SOON_DAYS = 7;

const EN_TRIGGER =
  /\d|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec|january|february|march|april|june|july|august|september|october|november|december|monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|tonight|weekend|week|month|fortnight|next|summer|winter|spring|autumn)\b/;
const ZH_TRIGGER =
  /\d|[一二三四五六七八九十]月|下周|下个|下星期|下礼拜|明天|后天|周末|月底|月末|月初|年底|年末|五一|劳动节|国庆|元旦|圣诞|平安夜|情人节|儿童节|教师节|夏天|暑假|寒假|明年/u;

const EN_FIRST_PERSON = /\b(?:i|i'm|i'll|i've|i'd|we|we're|we'll|we've|me|us|my|our|mine|ours)\b/u;
// A chat sentence that starts with the doing itself: "booked the train for 14 August", "heading to…".
const EN_SUBJECTLESS =
  /^(?:(?:so|and|also|just|finally|ok|okay|update|btw|oh|yay|omg)[,:!]?\s+)*(?:\p{Ll}+(?:ed|ing)|got|off|back|gonna|going|flying|off to|signed up)\b/u;
// What was ("hurt my back … in March", said in February, was last March): never a plan. Only verbs
// whose past form is no plan's ("booked", "signed up" are plans made for a time ahead).
const EN_PAST =
  /\b(?:last|ago|yesterday|earlier|was born|were born|born on|used to|back in|this morning|went|happened|had|hasn't|haven't|hadn't|since|hurt my|broke|injured|sprained|tore|got (?:married|engaged|divorced)|met|saw|lost|won|graduated|visited|celebrated|passed away|died|spent)\b/u;
const EN_HABIT =
  /\b(?:every|each|usually|always|normally|weekly|daily|per week|a week|keeps?|on (?:mon|tues|wednes|thurs|fri|satur|sun)days)\b/u;
// A plan called off, put off or ending is the plan rules' (plans.ts), never a new plan; a thing that expires is no doing.
const EN_CHANGE =
  /\b(?:cancel\w*|call(?:ed|ing)? off|scrap\w*|postpon\w*|push(?:ed)? back|no longer|any ?more|not happening|expir\w*)\b/u;
// A question without its question mark: "where do I keep the battery in winter".
const EN_ASKING = /^(?:where|what|how|when|why|who|which|is|are|do|does|did|can|could|should|would|will|any)\b/u;
// A weekday alone ("on saturday") is the next one only when the sentence looks ahead; "broke my ankle on saturday" was the last.
const EN_WEEKDAY_ONLY = /^(?:on\s+)?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)$/u;
// What looks ahead: a future tense, a plan's verb, a progressive with its subject ("we're flying…").
const EN_AHEAD =
  /\b(?:will|'ll|going to|gonna|next|coming|(?:i'm|i am|we're|we are|he's|she's|they're)\s+(?:\w+\s+)?\w+ing|planning|plan|booked|signed up|want to|wanna|hoping|thinking of|getting|starting|starts|due|until|till)\b/u;
const EN_PLEASANTRY =
  /\b(?:(?:talk|speak|see|catch|chat)\s+(?:to\s+|with\s+)?(?:you|ya|u)\b|have a (?:good|great|nice|lovely)|happy (?:new year|holidays|easter|christmas)|merry christmas|enjoy (?:your|the))/u;
// Speaking to the assistant about its own doing, or asking for a forecast, is no plan of the user's.
const EN_YOU_SUBJECT = /\b(?:you|you'll|you're|your)\b/u;
const EN_BOOKING =
  /\b(?:can|could|would)\s+you\s+(?:please\s+)?(?:book|reserve|schedule|set up|sign me up|register me|add|put|remind me|make a reservation|get us|get me)\b/u;
// Hypotheticals and wishes are not plans: "if we go in May", "I wish I could go in June", "should I go in July?".
// A plan still being weighed is one ("thinking of getting a second one next month", "might go in May").
const EN_MAYBE = /\b(?:if|whether|wish|would love|should i|should we|can i|could i|what if)\b/u;

const ZH_FIRST_PERSON = /我|咱/u;
const ZH_PAST = /去年|上个|上周|上星期|昨天|前天|以前|之前|那时|当时|出生|生于/u;
const ZH_HABIT = /每|一般|通常|平时|总是/u;
const ZH_PLEASANTRY = /再聊|再说|回聊|见$|拜拜/u;
const ZH_MAYBE = /如果|要是|假如|想不想|要不要|是否/u;
const ZH_CHANGE = /取消|不去了|去不成|不成了|去不了|黄了|泡汤|推迟|推到|改到|延期|改期|到期|过期|记错|记岔/u;
// 周末 alone is any weekend ("周末早茶吃到扶墙"); it is the coming one only beside a plan's word.
const ZH_BARE_WEEKEND = /^周末$/u;
const ZH_AHEAD = /要|打算|准备|计划|想|会|将|去|约了|订了|订好|报名|抢到/u;
const ZH_YOU_SUBJECT = /^(?:你|您)/u;

/** The day a window stands for: its first day, or the middle of a span around a point ("in a fortnight"). */
function dayOf(window: TimeWindow): string {
  const first = Date.parse(window.start);
  if (window.kind !== 'around') return window.start.slice(0, 10);
  const last = Date.parse(window.end);
  return new Date(first + Math.floor((last - first) / DAY_MS / 2) * DAY_MS).toISOString().slice(0, 10);
}

/**
 * The first time of the sentence still to come, read looking ahead when the sentence does (`ahead`:
 * "will", "next", "we're flying…", 要/打算), else at whichever occurrence is nearer: "I hurt my back
 * in March", said in May, is the March just past, "Planning Zanzibar for July", said in January, the
 * July to come. Never further off than the horizon, never a whole year.
 */
function upcoming(text: string, today: string, ahead: boolean): TimeWindow | undefined {
  const now = Date.parse(`${today}T00:00:00Z`);
  const reference = `${today}T12:00:00Z`;
  const behind = ahead ? [] : resolveTimeWindows(text, reference, { tense: 'past' });
  for (const window of resolveTimeWindows(text, reference, { tense: 'future' })) {
    // A year is no plan's time, nor a season named alone ("inspired by autumn"): "next summer", "this winter" are.
    if (window.kind === 'year') continue;
    const lead = text.slice(Math.max(0, text.indexOf(window.text) - 8), text.indexOf(window.text));
    if (
      window.kind === 'season' &&
      !/\b(?:this|next|coming)\b|明年|今年|这个|下个/u.test(window.text) &&
      !/\b(?:in|over|during|for|this)\s+(?:the\s+)?$/iu.test(lead)
    )
      continue;
    const start = Date.parse(window.start);
    if (start <= now || start - now > HORIZON_DAYS * DAY_MS) continue;
    const past = behind.find((other) => other.text === window.text);
    if (past !== undefined && past.start !== window.start && now - Date.parse(past.end) < start - now) continue;
    return window;
  }
  return undefined;
}

/** Whether the sentence is the user's own plan, by its language's marks. */
function ownPlan(context: SentenceContext, language: Language): boolean {
  const lower = context.lower;
  if (language === 'zh') {
    if (
      ZH_PAST.test(lower) ||
      ZH_HABIT.test(lower) ||
      ZH_MAYBE.test(lower) ||
      ZH_CHANGE.test(lower) ||
      ZH_PLEASANTRY.test(lower) ||
      ZH_YOU_SUBJECT.test(lower.trim())
    )
      return false;
    // Someone's doing must be told: a plan's word, the first person, or an occasion ("3月12号天气不错" tells none).
    if (!ZH_AHEAD.test(lower) && !ZH_FIRST_PERSON.test(lower) && !hasEventWord(context.text, 'zh')) return false;
    return !context.question || ZH_FIRST_PERSON.test(lower);
  }
  const booking = EN_BOOKING.test(lower);
  if (context.question && !booking) return false;
  if (
    EN_PAST.test(lower) ||
    EN_HABIT.test(lower) ||
    EN_PLEASANTRY.test(lower) ||
    EN_MAYBE.test(lower) ||
    EN_CHANGE.test(lower) ||
    EN_ASKING.test(lower.trim())
  )
    return false;
  if (EN_YOU_SUBJECT.test(lower) && !booking) return false;
  return booking || EN_FIRST_PERSON.test(lower) || EN_SUBJECTLESS.test(lower.trim());
}

function datedPlan(context: SentenceContext, rule: Rule, language: Language) {
  if (
    context.here.some(
      (candidate) => candidate.type === 'events' || candidate.type === 'tasks' || candidate.type === 'goals',
    )
  )
    return [];
  if (!ownPlan(context, language)) return [];
  const ahead = (language === 'zh' ? ZH_AHEAD : EN_AHEAD).test(context.lower);
  const window = upcoming(context.text, context.date, ahead);
  if (window === undefined) return [];
  if (
    !ahead &&
    (language === 'zh' ? ZH_BARE_WEEKEND.test(window.text) : EN_WEEKDAY_ONLY.test(window.text.toLowerCase()))
  )
    return [];
  const at = context.text.indexOf(window.text);
  const clause = titleAround(context.text, language, at < 0 ? [] : [at, at + window.text.length - 1]);
  // A clause that is little more than its time ("11月1号到5号") leans on the sentence around it.
  const rest = clause.replace(window.text, '');
  const says = language === 'zh' ? (rest.match(/\p{Script=Han}/gu) ?? []).length >= 4 : contentWords(rest).length >= 2;
  // A day this week is a plan only when it names its occasion ("I'll look at it tomorrow" is none).
  const soon =
    window.kind === 'day' && Date.parse(window.start) - Date.parse(`${context.date}T00:00:00Z`) <= SOON_DAYS * DAY_MS;
  const little = language === 'zh' ? (rest.match(/\p{Script=Han}/gu) ?? []).length < 5 : contentWords(rest).length < 3;
  if (soon && little && !hasEventWord(context.text, language)) return [];
  const title = says ? clause : titleAround(context.text, language, []);
  // The slug is read from the title: a Chinese sentence's other clauses would make it a sentence.
  const slugText = language === 'zh' ? title : context.text;
  const where = slugText.indexOf(window.text);
  const withoutDate =
    where < 0 ? slugText : `${slugText.slice(0, where)} ${slugText.slice(where + window.text.length)}`;
  const slug =
    language === 'zh'
      ? eventSlug(slugText, withoutDate, language).slice(0, 12)
      : eventSlug(slugText, withoutDate, language);
  if (slug === '') return [];
  const date = dayOf(window);
  const scope = projectOf(context).name;
  return [emit(context, rule, { key: makeKey('events', [scope, date, slug]), value: { scope, date, title } })];
}

export const DATED_PLAN_RULES: readonly Rule[] = [
  {
    name: 'en.plan.dated',
    languages: ['en'],
    roles: USER_ONLY,
    type: 'events',
    confidence: 0.6,
    gate: 'may',
    trigger: EN_TRIGGER,
    questions: true,
    match: (context, rule) => datedPlan(context, rule, 'en'),
  },
  {
    name: 'zh.plan.dated',
    languages: ['zh'],
    roles: USER_ONLY,
    type: 'events',
    confidence: 0.6,
    gate: 'may',
    trigger: ZH_TRIGGER,
    questions: true,
    match: (context, rule) => datedPlan(context, rule, 'zh'),
  },
];
