// Plans that change (MemoryTypes v0.1 §3.7, §3.3, §3.4). A dated plan moved to another day ("we
// moved mum's party from 2 May to 9 May", "机票改成了5月9号出发") ends the old day's event and
// holds the new one under the same slug; moved to another hour, it keeps its day with the new time.
// A plan called off ("the Coimbra trip is off", "音乐节取消了") keeps its event or goal with status
// cancelled, which the packet's Upcoming part leaves out. A task no longer needed is retracted: a
// task's status has no "cancelled". A change that names no known plan changes nothing. Moves are
// read in moved-plans.ts, the plan a phrase names in known-plans.ts; this file holds the rules.

import type { ItemCandidate } from '../../spec/items.js';
import { bestPlans, knownPlan, plansOf } from './known-plans.js';
import { EN_MOVED, movedPlan, redatedPlan, ZH_MOVED, ZH_REDATED } from './moved-plans.js';
import { projectOf } from './project.js';
import { CONVERSATION, emit, USER_ONLY, type Rule, type SentenceContext } from './rule.js';
import { findTask } from './tasks.js';
import { contentWords } from './text.js';

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
