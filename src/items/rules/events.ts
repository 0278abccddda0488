// Dated events (MemoryTypes v0.1 §3.7): a launch, a meeting, a deadline on a date the sentence
// names — 2026-12-01, "on 8 May 2023", "next Friday", "2026年12月1日", "明天". Relative dates count
// only beside an event word, so "talk to you tomorrow" is not an event. A task or goal made from
// the same sentence keeps its date there (as `due`) instead.

import type { ItemCandidate } from '../../spec/items.js';
import { makeKey } from '../keys.js';
import { EN_DATE_CUE, findDates, ZH_DATE_CUE, type DateMention } from './dates.js';
import { projectOf } from './project.js';
import { CONVERSATION, emit, type Language, type Rule, type SentenceContext } from './rule.js';
import { contentWords, idFrom, matchTokens, shorten } from './text.js';

const EN_EVENT =
  /\b(launch(?:es|ed)?|release[sd]?|ship(?:s|ped)?|meeting|meet|demo|deadline|due date|interview|trip|flight|birthday|wedding|married|anniversary|conference|summit|review|deploy(?:ment|ed)?|migration|offsite|standup|call|appointment|presentation|kickoff|kick-off|retro|retrospective|workshop|hackathon|vacation|holiday|party|housewarming|baptism|christening|festival|concert|gig|dinner|lunch|table|booking|reservation|exam|course|class|lesson|training|refresher|seminar|lecture|recital|audition|check-?up|surgery|tournament|marathon|ceremony|go-live|cutover|outage|incident|milestone|beta|webinar|visit(?:ing)?|coming (?:to|from|over)|moving|moved|started|joined|graduat\w+)\b/i;
const ZH_EVENT =
  /(发布|上线|会议|开会|面试|出差|生日|婚礼|纪念日|周年|大寿|寿宴|演示|评审|截止|交付|部署|迁移|旅行|旅游|出发|出国|回老家|机票|车票|门票|航班|改签|聚餐|聚会|派对|约会|考试|科目[一二三四]|复查|体检|预约|洗牙|补牙|手术|音乐节|演唱会|里程碑|故障|事故|启动|复盘|培训|路演|入职|离职|开学|入学|毕业|搬家|假期|玩)/u;
// Words that name the event are better slugs than the sentence's first words.
const EN_CANONICAL: Readonly<Record<string, string>> = {
  launches: 'launch',
  launched: 'launch',
  released: 'release',
  releases: 'release',
  shipped: 'ship',
  ships: 'ship',
  deployed: 'deploy',
  deployment: 'deploy',
  'kick-off': 'kickoff',
  retrospective: 'retro',
  meet: 'meeting',
  married: 'wedding',
  visiting: 'visit',
  'coming to': 'visit',
  'coming from': 'visit',
  'coming over': 'visit',
  booking: 'table',
  reservation: 'table',
  christening: 'baptism',
};
// Plans of one's own life are told apart by where they are or whom they are with: "trip_coimbra".
const PERSONAL = new Set([
  'trip',
  'flight',
  'wedding',
  'conference',
  'visit',
  'vacation',
  'holiday',
  'party',
  'housewarming',
  'baptism',
  'festival',
  'concert',
  'gig',
  'dinner',
  'lunch',
  'table',
  'appointment',
  'moving',
  'exam',
]);
// A name that is no place or person of a plan: the speaker, days, months, greetings.
const NOT_NAME =
  /^(?:I|I'm|I'll|I've|I'd|OK|Ok|Hi|Hey|Hello|Mum|Mom|Dad|(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)s?|Mon|Tue|Tues|Wed|Thu|Thur|Thurs|Fri|Sat|Sun|January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec|Please|Can|Could|Also|So|And|But|The|My|Our)$/u;
const CAPITALISED =
  /(?<![\p{L}\p{N}'’])\p{Lu}[\p{L}'’-]+(?:\s+(?:de|da|del|la|dos|von|van)\s+\p{Lu}[\p{L}-]+|\s+\p{Lu}[\p{L}-]+)*/gu;
// What the assistant says becomes an event only when it records something done: a booking made, a
// meeting it put in the calendar. Repeating the user's plan back ("Got it: workshop, 15 December")
// or suggesting a date is the user's plan, not a second one.
// A record may also open with what was done, as a confirmation does ("Registered: first aid
// refresher, Sat 9 May", "Done: moved to 16 May").
const EN_RECORDED =
  /\b(?:i(?:'ve| have)?\s+(?:just\s+)?(?:booked|scheduled|rescheduled|reserved|registered|signed you up|added (?:it |that )?to|put (?:it |that )?(?:in|on)|moved)|(?:is|are|has been|have been|was|were)\s+(?:now\s+)?(?:booked|scheduled|rescheduled|reserved|confirmed)|(?:booking|reservation|appointment) (?:is )?confirmed|(?:registered|signed) you up|registered you|you're (?:all\s+)?(?:booked|registered|signed up))\b|^(?:done|all set|booked|registered|reserved|scheduled|rescheduled|confirmed|moved)\s*[:—–-]/u;
const ZH_RECORDED =
  /(?:已(?:经)?(?:帮你|为你|给你)?(?:预订|预约|订好|订了|安排好|安排了|加入|加到|改签|改到|登记)|(?:订好|约好|改好)了|已确认|预订成功|预约成功)/u;
// The user's own doing still to come: "we fly out…", "I'm off to…", "I start…", "我们…出发".
const OWN_PLAN: Readonly<Record<Language, RegExp>> = {
  en: /\b(?:I|we)(?:'re|'ll|\s+are|\s+am|'m|\s+will)?\s+(?:(?:finally|also|then|both|all)\s+)?(?:fly|flying|leave|leaving|head|heading|go|going|drive|driving|travel|travelling|traveling|start|starting|move|moving|arrive|arriving|land|landing|get\s+married|marry|off\s+to|due|back)\b/iu,
  zh: /我们?(?:要|会|打算|准备|计划)?(?:去|飞|出发|回|搬|开始|结婚|入职|到)/u,
};
// A request to book or note a plan is a plan said as a question: "can you book a table for Saturday?"
const BOOKING_REQUEST =
  /\b(?:can|could|would)\s+you\s+(?:please\s+)?(?:book|reserve|schedule|set up|sign me up|register me|add|put|remind me|make a reservation|get us|get me)\b/u;

const EN_EVENT_ALL = new RegExp(EN_EVENT.source, 'gi');
const ZH_EVENT_ALL = new RegExp(ZH_EVENT.source, 'gu');

/**
 * The word naming a sentence's event: the event word nearest its day when the day's place `at` is
 * known ("纪念日过得超开心～另外我儿子乐乐6月1号生日" is the 生日), else its first, passing over a
 * move itself ("moved to the first aid refresher on 16 May" is the refresher) when another follows.
 */
function eventCue(text: string, language: Language, at?: number): RegExpExecArray | null {
  if (at !== undefined) {
    const all = language === 'zh' ? ZH_EVENT_ALL : EN_EVENT_ALL;
    all.lastIndex = 0;
    let best: RegExpExecArray | null = null;
    for (let found = all.exec(text); found !== null; found = all.exec(text)) {
      if (/^mov(?:ed|ing)$/iu.test(found[1]!) && best !== null) continue;
      if (best === null || /^mov(?:ed|ing)$/iu.test(best[1]!) || Math.abs(found.index - at) < Math.abs(best.index - at))
        best = found;
    }
    return best;
  }
  const first = (language === 'zh' ? ZH_EVENT : EN_EVENT).exec(text);
  if (first === null || language === 'zh' || !/^mov(?:ed|ing)$/iu.test(first[1]!)) return first;
  const rest = text.slice(first.index + first[0].length);
  const next = EN_EVENT.exec(rest);
  if (next === null) return first;
  next.index += first.index + first[0].length;
  return next;
}

/** The name nearest to `at` in the sentence that is not its first word, if any. */
export function nameNear(text: string, at: number): string | undefined {
  let best: { name: string; distance: number } | undefined;
  CAPITALISED.lastIndex = 0;
  for (let found = CAPITALISED.exec(text); found !== null; found = CAPITALISED.exec(text)) {
    const words = found[0].split(/\s+/u).filter((word) => !NOT_NAME.test(word));
    if (words.length === 0 || /^\s*$|[.!?]\s*$/u.test(text.slice(0, found.index))) continue;
    const distance = Math.abs(found.index - at);
    if (best === undefined || distance < best.distance) best = { name: words.join(' '), distance };
  }
  return best?.name;
}

/**
 * The slug of the event a sentence names, from its event word (the one nearest the day at `at`, when
 * given; for a plan of one's own life with the nearest name: "trip_coimbra"), else its first content
 * words without the date; '' when none.
 */
export function eventSlug(text: string, withoutDate: string, language: Language, at?: number): string {
  const cue = eventCue(text, language, at);
  const cueWord = cue?.[1]?.toLowerCase();
  if (cue === null || cueWord === undefined)
    return contentWords(withoutDate).length === 0 ? '' : idFrom(withoutDate, 3);
  if (language === 'zh') return cueWord;
  const canonical = EN_CANONICAL[cueWord] ?? cueWord;
  const name = PERSONAL.has(canonical) ? nameNear(text, cue.index) : undefined;
  return name === undefined ? canonical : `${canonical} ${name}`;
}

/** Whether the only event word of a sentence is a move ("our sauna night moved to Thursday"): no occasion of its own. */
export function namesOnlyAMove(text: string, language: Language): boolean {
  const cue = eventCue(text, language);
  return cue !== null && /^mov(?:ed|ing)$/iu.test(cue[1]!);
}

/** Whether a sentence names an event at all (a relative date needs an event word beside it). */
export function hasEventWord(text: string, language: Language): boolean {
  return (language === 'zh' ? ZH_EVENT : EN_EVENT).test(text);
}

// Where a sentence's thoughts part: the clause a plan is told in is its title, not the news around it
// ("we're moving to Stuttgart in two weeks | because I accepted a job at Porsche, | so goodbye BMW").
const EN_CLAUSE_BREAK =
  /[;!?]\s|:\s|\s[—–-]\s|,\s+(?=(?:and|but|so|because|since|which|though|although|plus|also|then|I|we|my|it|that's)\b)|\s(?=(?:but|because|since|although|though|whereas)\s|so\s+(?:we|I|that|the|my|it|now)\b)/giu;
const ZH_CLAUSE_BREAK = /[，；：！？,;～~]/gu;
const CLOSING = /^[\s.;:!?,，。；：！？～~—–-]+|[\s.;:!?,，。；：！？～~—–-]+$/gu;

/**
 * An event's title: the clauses of its sentence from the one naming the event to the one naming its
 * day (the whole sentence when neither is found or what is left says too little), shortened, without
 * closing punctuation.
 *
 * @example
 * eventTitle("ugh. we're moving to Stuttgart on 2 June because I took a job at Porsche, so goodbye Munich", 'en', '2026-05-01') // "we're moving to Stuttgart on 2 June"
 */
export function eventTitle(text: string, language: Language, today: string): string {
  const day = findDates(text.toLowerCase(), language, today, 1)[0];
  const cue = eventCue(text, language, day?.index);
  return titleAround(text, language, [
    cue?.index,
    day?.index,
    day === undefined ? undefined : day.index + day.length - 1,
  ]);
}

/**
 * The clauses of a sentence that hold the given places (an event word, the ends of its day), as a
 * plan's title; the whole sentence when no place is given or what is left says too little.
 *
 * @example
 * titleAround('so excited!! booked Marrakech 24-27 April, need a new bag', 'en', [21, 39]) // 'booked Marrakech 24-27 April'
 */
export function titleAround(text: string, language: Language, places: ReadonlyArray<number | undefined>): string {
  const whole = shorten(text.trim().replace(CLOSING, ''));
  const marks = places.filter((at): at is number => at !== undefined);
  if (marks.length === 0) return whole;
  const breaks = [...text.matchAll(language === 'zh' ? ZH_CLAUSE_BREAK : EN_CLAUSE_BREAK)].map((found) => found.index);
  const from = Math.max(0, ...breaks.filter((at) => at < Math.min(...marks)));
  const to = Math.min(text.length, ...breaks.filter((at) => at > Math.max(...marks)));
  // What the plan no longer is stays out of its title ("不在巴厘岛办了", "not in Bali any more").
  const kept = text
    .slice(from, to)
    .split(language === 'zh' ? /(?<=[，,；;])/u : /(?<=[,;])\s+/u)
    .filter((part) => !(language === 'zh' ? /^\s*(?:不在|不是|不去|不办)/u : /^\s*(?:not|no longer)\b/iu).test(part))
    .join(language === 'zh' ? '' : ' ');
  const clause = kept.replace(CLOSING, '').replace(/^(?:and|but|so|because|since|also|plus|then)\s+/iu, '');
  const enough = language === 'zh' ? clause.length >= 4 : contentWords(clause).length >= 2;
  return enough ? shorten(clause) : whole;
}

/** The date nearest the event word when a sentence names several ("turns 70 on the 4th, party on Saturday 2 May"). */
function nearestDate(context: SentenceContext, language: Language): DateMention | undefined {
  const mentions = findDates(context.lower, language, context.date);
  const cue = eventCue(context.text, language);
  if (cue === null || mentions.length < 2) return mentions[0];
  return mentions.reduce((best, mention) =>
    Math.abs(mention.index - cue.index) < Math.abs(best.index - cue.index) ? mention : best,
  );
}

/** Whether an assistant's sentence records something done (a booking made, a plan moved), not a suggestion. */
export function recordsDone(context: Pick<SentenceContext, 'language' | 'lower'>): boolean {
  return (context.language === 'zh' ? ZH_RECORDED : EN_RECORDED).test(context.lower);
}

/**
 * The plan already held on the same day that the sentence tells again, named by every word of its
 * key ("Steirereck im Stadtpark, Sat 28 March, table for 4" after "book a table at Steirereck for the
 * 28th"): the same booking, not a second one. Only when exactly one plan of that day fits.
 */
function sameDayPlan(context: SentenceContext, scope: string, date: string): string | undefined {
  const said = new Set(matchTokens(context.lower));
  const fits = context.memory.keysWith(`event:${scope}:${date}:`).filter((key) => {
    const words = key.slice(key.lastIndexOf(':') + 1).split('_');
    return words.length > 1 && words.every((word) => said.has(word));
  });
  return fits.length === 1 ? fits[0] : undefined;
}

// What the assistant did, before the plan it did it to: "moved to the first aid refresher on 16 May".
const RECORD_OPENING =
  /^(?:(?:I've|I have)\s+)?(?:moved|rescheduled|changed|booked|registered|reserved|signed)\s+(?:you\s+)?(?:up\s+)?(?:it\s+)?(?:to|for|into|onto|on)\s+(?:the\s+)?/iu;

/** An assistant's record as a plan's title: the plan, without the doing that opens it. */
function recordedTitle(title: string): string {
  const plan = title.replace(RECORD_OPENING, '');
  return contentWords(plan).length >= 2 ? plan : title;
}

/**
 * How sure a dated event is: a day named by weekday or offset ("Friday", "in two weeks") less than
 * a calendar day whose year is only inferred ("9 May"); a booking the assistant records as made is
 * surer than a plan said in passing (its discount as the assistant's words still applies).
 */
function dateConfidence(context: SentenceContext, mention: DateMention): number {
  if (context.event.role === 'assistant') return 0.75;
  return mention.relative && !mention.calendar ? 0.6 : 0.7;
}

// What the user tells as done today ("we had dinner and … so we're tired today"): a day's diary,
// not an occasion still to come, which a dated event of today would be shown as. Only plain past
// verbs, and only without a word that looks ahead ("we had booked it for tonight, I'll go").
const EN_DONE = /\b(?:had|went|met|saw|ate|did|finished|got back|came back|(?:was|were) today|today (?:was|were))\b/u;
const EN_LOOKS_AHEAD = /\b(?:will|'ll|going to|gonna|tonight|later|planning|plan|booked|want to|can't wait)\b/u;

/** Whether a sentence dated today by a relative word tells what was already done on it. */
function doneToday(context: SentenceContext, mention: DateMention, language: Language): boolean {
  return (
    language === 'en' &&
    mention.relative &&
    mention.date === context.date &&
    EN_DONE.test(context.lower) &&
    !EN_LOOKS_AHEAD.test(context.lower)
  );
}

function eventOf(context: SentenceContext, rule: Rule, language: Language): ItemCandidate[] {
  if (context.event.role === 'assistant' && !recordsDone(context)) return [];
  if (context.question && !BOOKING_REQUEST.test(context.lower)) return [];
  // A plan moved or called off in this sentence is the plan rules' (plans.ts).
  if (context.here.some((candidate) => candidate.type === 'events')) return [];
  const mention = nearestDate(context, language);
  if (mention === undefined || doneToday(context, mention, language)) return [];
  if (
    context.here.some(
      (candidate) =>
        (candidate.type === 'tasks' || candidate.type === 'goals') && candidate.value['due'] === mention.date,
    )
  )
    return [];
  // "tomorrow" or "Friday" needs an occasion beside it; a day named by its month is one when the user
  // tells what they will do on it ("we fly out 14 May for ten days").
  if (
    mention.relative &&
    !hasEventWord(context.text, language) &&
    !(mention.calendar && OWN_PLAN[language].test(context.text))
  )
    return [];
  // A weekday beside a move alone is a habit moved ("sauna night moved from Wednesday to Thursday"), not an occasion.
  if (mention.relative && !mention.calendar && namesOnlyAMove(context.text, language)) return [];
  const withoutDate = `${context.text.slice(0, mention.index)} ${context.text.slice(mention.index + mention.length)}`;
  const slugText = eventSlug(context.text, withoutDate, language, mention.index);
  if (slugText === '') return [];
  const scope = projectOf(context).name;
  const key = sameDayPlan(context, scope, mention.date) ?? makeKey('events', [scope, mention.date, slugText]);
  const title = eventTitle(context.text, language, context.date);
  return [
    emit(context, rule, {
      key,
      value: { scope, date: mention.date, title: context.event.role === 'assistant' ? recordedTitle(title) : title },
      confidence: dateConfidence(context, mention),
    }),
  ];
}

export const EVENT_RULES: readonly Rule[] = [
  {
    name: 'en.event.dated',
    languages: ['en'],
    roles: CONVERSATION,
    type: 'events',
    confidence: 0.7,
    gate: 'may',
    trigger: EN_DATE_CUE,
    questions: true,
    match: (context, rule) => eventOf(context, rule, 'en'),
  },
  {
    name: 'zh.event.dated',
    languages: ['zh'],
    roles: CONVERSATION,
    type: 'events',
    confidence: 0.7,
    gate: 'may',
    trigger: ZH_DATE_CUE,
    match: (context, rule) => eventOf(context, rule, 'zh'),
  },
];
