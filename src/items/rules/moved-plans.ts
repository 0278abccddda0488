// Plans moved (MemoryTypes v0.1 §3.7): a dated plan moved to another day ("we moved mum's party
// from 2 May to 9 May", "机票改成了5月9号出发") ends the old day's event and holds the new one under
// the same slug; moved to another hour, it keeps its day with the new time; told again on another
// day in a sentence that says it changed, the event of the old day ends.

import type { ItemCandidate } from '../../spec/items.js';
import { makeKey } from '../keys.js';
import { findDates, type DateMention } from './dates.js';
import { eventSlug, eventTitle, namesOnlyAMove, recordsDone } from './events.js';
import { knownPlan } from './known-plans.js';
import { projectOf } from './project.js';
import { emit, type Language, type Rule, type SentenceContext } from './rule.js';

// Words that say a plan moved; in English they also say a plan told again on another day changed.
export const EN_MOVED =
  /\b(?:actually|mov(?:e|ed|es|ing)|postpon\w+|push(?:ed|ing)?|reschedul\w+|chang(?:e|ed|ing)|shift(?:ed)?|bump(?:ed)?|delay(?:ed)?|brought forward|pulled forward)\b|\binstead of\b/u;
// Asked of the assistant, a move is one: "can you move the booking to 20:00?"
const MOVE_REQUEST =
  /\b(?:can|could|would)\s+you\s+(?:please\s+)?(?:move|push|reschedule|change|shift|postpone|bump)\b/u;
const ZH_CORRECTED = /记错|搞错|弄错|说错|写错|打错/u;
// Words that say a plan moved, or a day was said wrong, in Chinese.
export const ZH_MOVED = /改成|改到|改为|改期|推迟|延期|延后|挪到|提前到|换到|推到|改签|记错|搞错|弄错|说错|写错|打错/u;
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

/** The plan a sentence moves to another day or hour: the old day's event ends, the new one is held. */
export function movedPlan(context: SentenceContext, rule: Rule): ItemCandidate[] {
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
export function redatedPlan(context: SentenceContext, rule: Rule): ItemCandidate[] {
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
export const ZH_REDATED = new RegExp(`${ZH_MOVED.source}|换了|变了|调整`, 'u');
