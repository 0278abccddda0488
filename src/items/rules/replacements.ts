// Facts the user changes by naming the old value and the new one: a day a habit moves ("our sauna
// night moved from Wednesday to Thursday") and a date corrected ("I told you August 3rd — it's
// actually August 13th", "我把她生日记错了，是8月7号，不是7月8号"). Each is a profile fact `{ k: '*:<old>', v: null, was, now }`, which
// swaps the old words for the new in whatever current fact holds them, keeping its `k` (values.ts).

import { ANY_KIND } from '../values.js';
import { factRule, slug, type Fact } from './fact-patterns.js';
import type { Rule, SentenceContext } from './rule.js';

const DAY = String.raw`(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day`;
const MONTH = String.raw`(?:January|February|March|April|May|June|July|August|September|October|November|December)`;
const DATE = String.raw`(?:${MONTH}\s+\d{1,2}(?:st|nd|rd|th)?|\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?${MONTH})(?!\s*\d)`;

// A change of day needs a verb of change: "works from Monday to Friday" is a span, not a move.
const DAY_MOVED = new RegExp(
  String.raw`\b(?:moved|moving|changed|changing|switched|switching|shifted|rescheduled|pushed|bumped|swapped)\b[^.!?]{0,60}?\bfrom\s+(${DAY})s?\s+to\s+(${DAY})s?\b`,
  'iu',
);
// The date said before, then the one that corrects it, in either order of telling.
const DATE_SAID = new RegExp(
  String.raw`\b(?:told you|said|wrote|put down|gave you|mentioned)\s+(?:it\s+was\s+|it's\s+|on\s+)?(${DATE})`,
  'iu',
);
const DATE_ACTUALLY = new RegExp(String.raw`\b(?:it's|it\s+is|its|it\s+was)\s+actually\s+(?:on\s+)?(${DATE})`, 'iu');
const DATE_NOT = new RegExp(
  String.raw`\bnot\s+(?:on\s+)?(${DATE}),?\s+(?:it's|it\s+is)\s+(?:actually\s+)?(?:on\s+)?(${DATE})`,
  'iu',
);

// A question, a condition or a wish changes nothing: "should we move it from Friday to Sunday?".
const UNREAL =
  /\b(?:if|unless|whether|suppose|would|could|wish|should|might|maybe|thinking (?:of|about)|considering)\b/iu;

/** The facts a sentence changes from an old value it names to a new one. */
export function replacementsOf(context: Pick<SentenceContext, 'text' | 'date' | 'question'>): Fact[] {
  if (context.question || UNREAL.test(context.text)) return [];
  const facts: Fact[] = [];
  const replace = (was: string, now: string) => {
    if (was.toLowerCase() !== now.toLowerCase())
      facts.push({ k: `${ANY_KIND}${slug(was)}`, v: null, was, now, until: context.date });
  };
  const moved = DAY_MOVED.exec(context.text);
  if (moved !== null) replace(moved[1]!, moved[2]!);
  const not = DATE_NOT.exec(context.text);
  const said = DATE_SAID.exec(context.text);
  const actually = DATE_ACTUALLY.exec(context.text);
  if (not !== null) replace(not[1]!, not[2]!);
  else if (said !== null && actually !== null && said.index < actually.index) replace(said[1]!, actually[1]!);
  return facts;
}

// A Chinese date corrected: "记错了，是8月7号，不是7月8号", "不是7月8号，是8月7号".
const ZH_DAY = String.raw`(\d{1,2}月\d{1,2}[日号]?)`;
const ZH_WRONG = /记错|搞错|弄错|说错|写错|打错|记岔/u;
// The day may carry what it is the day of: "朵朵是8月16号生日，不是6月18号".
const ZH_RIGHT_THEN_WRONG = new RegExp(
  `(?:是|应该是|其实是)${ZH_DAY}[^，,。！!？?\\d]{0,4}[，,、]?(?:而)?不是${ZH_DAY}`,
  'u',
);
const ZH_WRONG_THEN_RIGHT = new RegExp(`不是${ZH_DAY}[^，,。！!？?\\d]{0,4}[，,、]?(?:而|应该|其实)?是${ZH_DAY}`, 'u');

/** The Chinese date a sentence corrects, as a swap of the old day for the new in whatever fact holds it. */
export function zhReplacementsOf(context: Pick<SentenceContext, 'text' | 'date' | 'question'>): Fact[] {
  if (context.question || !ZH_WRONG.test(context.text)) return [];
  const rightFirst = ZH_RIGHT_THEN_WRONG.exec(context.text);
  const wrongFirst = rightFirst === null ? ZH_WRONG_THEN_RIGHT.exec(context.text) : null;
  const [was, now] =
    rightFirst !== null
      ? [rightFirst[2]!, rightFirst[1]!]
      : wrongFirst !== null
        ? [wrongFirst[1]!, wrongFirst[2]!]
        : [];
  if (was === undefined || now === undefined || was === now) return [];
  return [{ k: `${ANY_KIND}${slug(was)}`, v: null, was, now, until: context.date }];
}

/** Words without which a sentence changes no fact by naming the old value and the new. */
export const REPLACEMENT_CUE =
  /days?\s+to\b|actually|\bnot\s+(?:on\s+)?(?:\d|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)/;

export const REPLACEMENT_RULES: readonly Rule[] = [
  factRule('en.profile.replace', 'en', REPLACEMENT_CUE, replacementsOf),
  factRule('zh.profile.replace', 'zh', ZH_WRONG, zhReplacementsOf),
];
