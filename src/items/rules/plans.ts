// Plans that change (MemoryTypes v0.1 §3.7, §3.3, §3.4). A dated plan moved to another day ("we
// moved mum's party from 2 May to 9 May", "机票改成了5月9号出发") ends the old day's event and
// holds the new one under the same slug; moved to another hour, it keeps its day with the new time.
// A plan called off ("the Coimbra trip is off", "音乐节取消了") keeps its event or goal with status
// cancelled, which the packet's Upcoming part leaves out. A task no longer needed is retracted: a
// task's status has no "cancelled". A change that names no known plan changes nothing.

import { stemmer } from 'stemmer';

import type { ItemCandidate } from '../../spec/items.js';
import { makeKey } from '../keys.js';
import { findDates, type DateMention } from './dates.js';
import { eventSlug, eventTitle, namesOnlyAMove, recordsDone } from './events.js';
import { projectOf } from './project.js';
import { CONVERSATION, emit, USER_ONLY, type Language, type Rule, type SentenceContext } from './rule.js';
import { findTask } from './tasks.js';
import { contentWords, hasHan, matchTokens } from './text.js';

// Words of a plan's key that name its kind, not which plan it is.
const KIND_WORDS: ReadonlySet<string> = new Set([
  'trip',
  'plan',
  'thing',
  'booking',
  'table',
  'visit',
  'party',
  'dinner',
  'event',
  'one',
  'the',
  '事',
  '那事',
  '这事',
]);

function tokensOf(text: string): Set<string> {
  return new Set(matchTokens(text.replace(/_/gu, ' ')).map((token) => (hasHan(token) ? token : stemmer(token))));
}

/**
 * The known event or goal a phrase names, by the words of its key: the one sharing most words,
 * at least one of which names the plan rather than its kind, or, when the phrase names only a
 * kind, the one plan of that kind. A tie names none.
 */
function knownPlan(context: SentenceContext, phrase: string, keys: readonly string[]): string | undefined {
  const best = bestPlans(context, phrase, keys);
  return best.length === 1 ? best[0] : undefined;
}

/** The plans a phrase names best: one, none, or several tied ("the trip is off" with two trips planned). */
function bestPlans(context: SentenceContext, phrase: string, keys: readonly string[]): string[] {
  const wanted = tokensOf(phrase);
  const scored: Array<readonly [string, number]> = [];
  for (const key of keys) {
    const words = tokensOf(key.slice(key.lastIndexOf(':') + 1));
    const shared = [...words].filter((word) => wanted.has(word));
    if (shared.length === 0) continue;
    const named = shared.some((word) => !KIND_WORDS.has(word));
    scored.push([
      key,
      shared.length + (named ? 10 : 0) + (key.startsWith('event:') && key.split(':')[2]! >= context.date ? 0.5 : 0),
    ]);
  }
  const top = Math.max(0, ...scored.map(([, score]) => score));
  return scored.filter(([, score]) => score === top).map(([key]) => key);
}

function plansOf(context: SentenceContext): string[] {
  return [...context.memory.keysWith('event:'), ...context.memory.keysWith('goal:')];
}

// --- Called off -----------------------------------------------------------------------------------

const EN_CALLED_OFF = [
  /^(?:(?:so|and|also|but|well|ok|okay|update|sadly|unfortunately|btw)[:,]?\s+)*(?:the\s+|our\s+|my\s+)?([^,;:!?]{2,60}?)\s+(?:is|are|was|were|got|has been|have been|'s)\s+(?:now\s+|officially\s+|definitely\s+|all\s+|been\s+)?(?:cancelled|canceled|off|called off|scrapped|not happening|no longer (?:needed|happening|necessary|on)|not needed any ?more)\b/iu,
  /\b(?:I|we)(?:'ve| have)?\s+(?:just\s+|had to\s+|finally\s+)?(?:cancelled|canceled|called off|scrapped|pulled out of|dropped)\s+(?:the\s+|our\s+|my\s+)?([^,.;!?]{2,60}?)(?=\s+(?:because|since|as|so|after)\b|\s*[,.;!?(—–-]|\s*$)/iu,
  /(?:^|\b(?:I'm|I am|we're|we are)\s+)not\s+(\p{L}+ing\b[^,.;!?]{0,50}?)\s+any\s?more\b/iu,
  /\b(?:no\s+(?:need|point)\s+to|(?:I|we)\s+(?:don't|do not|no longer)\s+(?:need|have)\s+to)\s+([^,.;!?]{2,60}?)(?:\s+any\s?more)?(?=\s*[,.;!?]|\s*$)/iu,
  // Called off by someone else: "Sigur Rós cancelled the whole tour", "the airline cancelled my flight" (who and what both name the plan).
  /^(?:(?:so|and|also|but|well|ok|okay|update|sadly|unfortunately|btw|gutted|ugh)[:,.!]?\s+)*((?:the\s+)?(?!(?:I|we|you)\b)[\p{L}'’]+(?:\s+[\p{L}'’]+){0,3}?)\s+(?:has\s+|have\s+|just\s+)*(?:cancelled|canceled|called off|scrapped)\s+(?:the\s+|my\s+|our\s+|their\s+|his\s+|her\s+)?(?:whole\s+|entire\s+)?([^,.;!?]{2,40}?)(?=\s*[,.;!?]|\s+(?:so|and|but|because|since)\b|\s*$)/iu,
];
const ZH_CALLED_OFF =
  /^(?:我们?|哭了|唉|哎)?(?:把)?([^，,。！!？?]{1,20}?)(?:因为[^，,。]{0,20})?(?:我们?)?(?:被|给)?(?:取消了|推掉了|不去了|黄了|泡汤了|取消)/u;

/** What the sentence calls off, as written, or undefined. */
function calledOff(context: SentenceContext): string | undefined {
  if (context.language === 'zh') {
    for (const clause of context.text.split(/[，,。！!？?；;]/u)) {
      const found = ZH_CALLED_OFF.exec(clause.trim());
      if (found !== null) return found[1]!.replace(/那趟|这趟|那个|这个|的事|那事/gu, '');
    }
    return undefined;
  }
  for (const pattern of EN_CALLED_OFF) {
    const found = pattern.exec(context.text);
    const phrase = found === null ? undefined : [found[1], found[2]].filter((part) => part !== undefined).join(' ');
    if (phrase !== undefined && contentWords(phrase).length > 0) return phrase;
  }
  return undefined;
}

function cancelledPlan(context: SentenceContext, rule: Rule): ItemCandidate[] {
  const phrase = calledOff(context);
  if (phrase === undefined) return [];
  const known = bestPlans(context, phrase, plansOf(context));
  const cancel = (key: string) =>
    emit(context, rule, {
      key,
      type: key.startsWith('event:') ? 'events' : 'goals',
      value: { status: 'cancelled', cancelled_on: context.date },
    });
  if (known.length <= 1) return known.map(cancel);
  // Several plans fit as well ("the trip is off" with two trips planned): each reading waits for a person.
  const why = `"${phrase}" names ${known.length} plans equally: ${known.join(', ')}`;
  return known.map((key) => ({ ...cancel(key), review: why }));
}

// --- Done -----------------------------------------------------------------------------------------

// A plan that has taken place: "科目二过了！", "体检做完了", "the exam is over", "the interview went well".
const EN_PLAN_DONE =
  /^(?:(?:so|and|also|well|ok|okay|update|btw)[:,]?\s+)*(?:the\s+|my\s+|our\s+)?([^,;:!?]{2,40}?)\s+(?:is|was|'s|went)\s+(?:finally\s+|all\s+)?(?:done|over|finished|behind (?:me|us)|(?:really\s+)?(?:well|great|fine|ok|okay))\b/iu;
const ZH_PLAN_DONE =
  /^(?:我们?)?(?:终于|总算|已经)?([^，,。！!？?]{2,10}?)(?:也|都|已经|终于|总算|顺利)?(?:考|洗|做|办|弄|搞|开|比|面|拍|体检)?(?:过了|完了|结束了|搞定了|完成了|通过了)/u;

/** The known plan a sentence says has taken place, marked done; only a plan whose day has come. */
function donePlan(context: SentenceContext, rule: Rule): ItemCandidate[] {
  const found = (context.language === 'zh' ? ZH_PLAN_DONE : EN_PLAN_DONE).exec(context.text);
  if (found === null) return [];
  const due = plansOf(context).filter((key) => key.startsWith('event:') && key.split(':')[2]! <= context.date);
  const known = knownPlan(context, found[1]!, due);
  return known === undefined
    ? []
    : [emit(context, rule, { key: known, type: 'events', value: { status: 'done', done_on: context.date } })];
}

function cancelledTask(context: SentenceContext, rule: Rule): ItemCandidate[] {
  const phrase = calledOff(context);
  if (phrase === undefined || knownPlan(context, phrase, plansOf(context)) !== undefined) return [];
  const known = findTask(context.memory, projectOf(context).name, phrase, false);
  return known === undefined ? [] : [emit(context, rule, { key: known, action: 'retract', value: {} })];
}

// --- Moved ------------------------------------------------------------------------------------------

const EN_MOVED =
  /\b(?:actually|mov(?:e|ed|es|ing)|postpon\w+|push(?:ed|ing)?|reschedul\w+|chang(?:e|ed|ing)|shift(?:ed)?|bump(?:ed)?|delay(?:ed)?|brought forward|pulled forward)\b|\binstead of\b/u;
// Asked of the assistant, a move is one: "can you move the booking to 20:00?"
const MOVE_REQUEST =
  /\b(?:can|could|would)\s+you\s+(?:please\s+)?(?:move|push|reschedule|change|shift|postpone|bump)\b/u;
const ZH_CORRECTED = /记错|搞错|弄错|说错|写错|打错/u;
const ZH_MOVED = /改成|改到|改为|改期|推迟|延期|延后|挪到|提前到|换到|推到|改签|记错|搞错|弄错|说错|写错|打错/u;
const ZH_NEW_DAY = /(?:改成|改到|改为|改期到|推迟到|延期到|延后到|挪到|提前到|换到|推到|改签到)了?$/u;
const TIME =
  /\bfrom\s+(\d{1,2}(?::|\.|h)\d{2}|\d{1,2}\s?(?:am|pm))\s+to\s+(\d{1,2}(?::|\.|h)\d{2}|\d{1,2}\s?(?:am|pm))\b/du;

// A day corrected: "I told you 3 August, it's actually 13 August" (the old day said, the new one after "actually").
const SAID_DAY = /\b(?:told you|said|wrote|mentioned|gave you)\s+(?:it\s+was\s+|it's\s+|on\s+)?(?:the\s+)?$/u;
const ACTUAL_DAY = /\bactually\s+(?:on\s+)?(?:the\s+)?$/u;

/** The old day and the new one a move names; the old one may go unsaid ("moved it to 11 July"). */
function movedDays(
  lower: string,
  mentions: readonly DateMention[],
  language: Language,
): { from?: DateMention; to: DateMention; corrected?: true } | undefined {
  if (language === 'zh') {
    // A day corrected: "我把她生日记错了，是8月7号，不是7月8号".
    const wrong = mentions.find((mention) => /不是$/u.test(lower.slice(0, mention.index)));
    const right = mentions.find((mention) => mention !== wrong && mention.date !== wrong?.date);
    if (wrong !== undefined && right !== undefined && ZH_CORRECTED.test(lower))
      return { from: wrong, to: right, corrected: true };
    const to = mentions.find((mention) => ZH_NEW_DAY.test(lower.slice(0, mention.index)));
    if (to === undefined) return undefined;
    const from = mentions.find((mention) => mention !== to && mention.date !== to.date);
    return from === undefined ? { to } : { from, to };
  }
  for (const [index, mention] of mentions.entries()) {
    const before = lower.slice(0, mention.index);
    const other = mentions.find((candidate) => candidate !== mention && candidate.date !== mention.date);
    if (/\bfrom\s+(?:the\s+)?$/u.test(before) && mentions[index + 1] !== undefined)
      return { from: mention, to: mentions[index + 1]! };
    if (/\binstead\s+of\s+(?:the\s+)?$/u.test(before) && other !== undefined) return { from: mention, to: other };
    // "not 15 to 25 May anymore, now they're coming in June instead, 3rd to 13th".
    if (
      /\bnot\s+(?:on\s+)?(?:the\s+)?$/u.test(before) &&
      mentions[index + 1] !== undefined &&
      mentions[index + 1]!.date !== mention.date
    )
      return { from: mention, to: mentions[index + 1]! };
    const next = mentions[index + 1];
    if (
      SAID_DAY.test(before) &&
      next !== undefined &&
      next.date !== mention.date &&
      ACTUAL_DAY.test(lower.slice(0, next.index))
    )
      return { from: mention, to: next, corrected: true };
  }
  const last = mentions.at(-1);
  return mentions.length === 1 &&
    last !== undefined &&
    /\b(?:to|until|till)\s+(?:the\s+)?$/u.test(lower.slice(0, last.index))
    ? { to: last }
    : undefined;
}

/** The sentence without the words of the old day or hour: what the moved plan's title says. */
function withoutOld(text: string, from: { index: number; length: number }): string {
  const before = text.slice(0, from.index).replace(/\b(?:from|instead of)\s+(?:the\s+)?$/iu, '');
  return `${before}${text.slice(from.index + from.length)}`.replace(/\s{2,}/gu, ' ').replace(/\s+([,.;!?])/gu, '$1');
}

function movedPlan(context: SentenceContext, rule: Rule): ItemCandidate[] {
  if (
    !(context.language === 'zh' ? ZH_MOVED : EN_MOVED).test(context.lower) ||
    (context.question && !MOVE_REQUEST.test(context.lower))
  )
    return [];
  const events = context.memory.keysWith('event:');
  // The day a plan is no longer on may sit in a denied clause ("not 15 to 25 May anymore"): read the sentence as written.
  const lower = context.written?.toLowerCase() ?? context.lower;
  const mentions = findDates(lower, context.language, context.date);
  const days = movedDays(lower, mentions, context.language);
  if (days === undefined) return context.language === 'en' ? movedHour(context, rule, events) : [];
  const onOldDay = days.from === undefined ? [] : events.filter((key) => key.split(':')[2] === days.from!.date);
  const old =
    onOldDay.length === 1
      ? onOldDay[0]
      : knownPlan(context, context.text, onOldDay.length > 1 ? onOldDay : days.from === undefined ? events : []);
  const scope = old?.split(':')[1] ?? projectOf(context).name;
  // A correction's sentence says what was wrong, not what the plan is: its title is the plan's name.
  if (days.corrected === true && old === undefined) return [];
  // A corrected plan's title is its name and the day as now said: "生日 8月7号", "party ana 9 may".
  const newDay = context.text.slice(days.to.index, days.to.index + days.to.length);
  const title =
    days.corrected === true
      ? `${old!.slice(old!.lastIndexOf(':') + 1).replace(/_/gu, ' ')}${context.language === 'zh' ? ' ' : ' on '}${newDay}`
      : eventTitle(
          days.from === undefined ? context.text : withoutOld(context.text, days.from),
          context.language,
          context.date,
        );
  const slugText = old?.slice(old.lastIndexOf(':') + 1) ?? eventSlug(context.text, title, context.language);
  if (slugText === '' || (old === undefined && days.from === undefined)) return [];
  // A habit moved to another weekday ("our sauna night moved from Wednesday to Thursday") is a routine
  // (profile.ts), not a plan: with no plan held on the old day and no occasion named, no event.
  if (old === undefined && namesOnlyAMove(context.text, context.language)) return [];
  const moved = emit(context, rule, {
    key: makeKey('events', [scope, days.to.date, slugText]),
    value: { scope, date: days.to.date, title },
  });
  return old === undefined || old === moved.key
    ? [moved]
    : [emit(context, rule, { key: old, action: 'retract', value: {} }), moved];
}

/** A booking moved to another hour of its day: "can you move the Tantris booking from 19:00 to 20:00?" */
function movedHour(context: SentenceContext, rule: Rule, events: readonly string[]): ItemCandidate[] {
  const found = TIME.exec(context.lower);
  if (found?.indices === undefined) return [];
  const known = knownPlan(context, context.text, events);
  if (known === undefined) return [];
  const [fromStart, fromEnd] = found.indices[1]!;
  const [toStart, toEnd] = found.indices[2]!;
  const title = eventTitle(
    withoutOld(context.text, { index: fromStart, length: fromEnd - fromStart }),
    context.language,
    context.date,
  );
  return [emit(context, rule, { key: known, value: { time: context.text.slice(toStart, toEnd), title } })];
}

/**
 * A plan told again on another day in a sentence that says it changed ("闺蜜婚礼地点换了，改到隔壁的
 * 龙目岛，日子还是8月22号" after "八月我要去巴厘岛参加闺蜜婚礼"): the day it was held on before is no
 * longer it. The event the earlier rules of the sentence hold ends the one known by the same name on
 * another day, when exactly one is; the days need no "from … to".
 */
function redatedPlan(context: SentenceContext, rule: Rule): ItemCandidate[] {
  if (!(context.language === 'zh' ? ZH_REDATED : EN_MOVED).test(context.lower)) return [];
  // The assistant moves a plan only by doing it ("Done: moved to Sat 16 May"), never by suggesting it.
  if (context.event.role === 'assistant' && !recordsDone(context)) return [];
  const known = context.memory.keysWith('event:');
  const ended = new Set(
    context.here.filter((candidate) => candidate.action === 'retract').map((candidate) => candidate.key),
  );
  const out: ItemCandidate[] = [];
  for (const candidate of context.here) {
    if (candidate.type !== 'events' || candidate.action === 'retract') continue;
    const [, scope, date, slug] = candidate.key.split(':');
    const before = known.filter((key) => {
      const [, knownScope, knownDate, knownSlug] = key.split(':');
      return knownScope === scope && knownSlug === slug && knownDate !== date;
    });
    if (before.length !== 1 || ended.has(before[0]!)) continue;
    ended.add(before[0]!);
    out.push(emit(context, rule, { key: before[0]!, action: 'retract', value: {} }));
  }
  return out;
}

// A Chinese sentence saying a plan changed: moved, or its place or day changed (地点换了, 日子变了).
const ZH_REDATED = new RegExp(`${ZH_MOVED.source}|换了|变了|调整`, 'u');

/** Words without which a sentence moves or calls off no plan (the writer loads the current keys on them). */
export const PLAN_CUE =
  /\b(?:actually|cancel\w*|off|scrapped|not happening|no longer|any\s?more|no need|no point|pulled out|dropped|mov(?:e|ed|es|ing)|postpon\w+|push(?:ed|ing)?|reschedul\w+|chang(?:e|ed|ing)|shift(?:ed)?|bump(?:ed)?|delay(?:ed)?|instead|forward)\b|\b(?:is|was|'s)\s+over\b|\bwent\s+(?:really\s+)?(?:well|great|fine)\b|改成|改到|改为|改期|推迟|延期|延后|挪到|提前到|换到|换了|变了|调整|推到|改签|取消|推掉|不去了|黄了|泡汤|记错|搞错|弄错|说错|写错|打错|过了|完了|结束了|通过了/u;

/**
 * Plans moved and called off, and tasks no longer needed, in English and Chinese.
 *
 * @example
 * // known event:general:2026-05-02:party; "we moved the party from 2 May to 9 May"
 * // → retract event:general:2026-05-02:party, upsert event:general:2026-05-09:party
 */
export const PLAN_CHANGE_RULES: readonly Rule[] = [
  {
    name: 'en.plan.moved',
    languages: ['en'],
    roles: USER_ONLY,
    type: 'events',
    confidence: 0.75,
    gate: 'may',
    trigger: PLAN_CUE,
    questions: true,
    match: movedPlan,
  },
  {
    name: 'zh.plan.moved',
    languages: ['zh'],
    roles: USER_ONLY,
    type: 'events',
    confidence: 0.75,
    gate: 'may',
    trigger: ZH_MOVED,
    match: movedPlan,
  },
  {
    name: 'en.plan.cancelled',
    languages: ['en'],
    roles: USER_ONLY,
    type: 'events',
    confidence: 0.8,
    gate: 'may',
    trigger: PLAN_CUE,
    match: cancelledPlan,
  },
  {
    name: 'zh.plan.cancelled',
    languages: ['zh'],
    roles: USER_ONLY,
    type: 'events',
    confidence: 0.8,
    gate: 'may',
    trigger: /取消|推掉|不去了|黄了|泡汤/u,
    match: cancelledPlan,
  },
  {
    name: 'en.task.cancelled',
    languages: ['en'],
    roles: USER_ONLY,
    type: 'tasks',
    confidence: 0.8,
    gate: 'must',
    trigger: PLAN_CUE,
    match: cancelledTask,
  },
  {
    name: 'en.plan.done',
    languages: ['en'],
    roles: USER_ONLY,
    type: 'events',
    confidence: 0.75,
    gate: 'may',
    trigger: /\b(?:done|over|finished|behind|went)\b/,
    match: donePlan,
  },
  {
    name: 'zh.plan.done',
    languages: ['zh'],
    roles: USER_ONLY,
    type: 'events',
    confidence: 0.75,
    gate: 'may',
    trigger: /过了|完了|结束了|搞定了|完成了|通过了/u,
    match: donePlan,
  },
];

/**
 * Plans told again on another day, read after every rule that finds an event in a sentence.
 *
 * @example
 * // known event:general:2026-08-01:婚礼; "婚礼地点换了，改到龙目岛，日子还是8月22号"
 * // → upsert event:general:2026-08-22:婚礼 (an earlier rule), retract event:general:2026-08-01:婚礼
 */
export const PLAN_REDATED_RULES: readonly Rule[] = [
  {
    name: 'en.plan.redated',
    languages: ['en'],
    roles: CONVERSATION,
    type: 'events',
    confidence: 0.75,
    gate: 'may',
    trigger: EN_MOVED,
    match: redatedPlan,
  },
  {
    name: 'zh.plan.redated',
    languages: ['zh'],
    roles: CONVERSATION,
    type: 'events',
    confidence: 0.75,
    gate: 'may',
    trigger: ZH_REDATED,
    match: redatedPlan,
  },
];
