// What must produce nothing (MemoryTypes v0.1 §5, "never write"): small talk (greetings, thanks,
// acknowledgements) silences a whole sentence, venting the clause it is in (the whole sentence when
// every clause vents); a hedge silences what it governs — its own
// clause ("maybe twice a month"), or from "I think" on — and leaves the rest of the sentence to the
// rules. The checks run on every sentence before any rule, so each is one precompiled expression.

import type { Language } from './rule.js';

export type Silence = 'speculation' | 'small_talk' | 'venting';

// "may" is a hedge, but "8 May 2023", "May 8", "the 4th of May", "in May" and "early May." are
// dates: the month is told by the digits, prepositions and time words around it.
const MONTH_BEFORE = String.raw`(?<!\d(?:st|nd|rd|th)?\s|\b(?:of|in|on|by|since|until|till|from|to|through|early|late|mid|this|next|last|each|every)\s)`;
const MONTH_AFTER = String.raw`(?!\s+\d|\s*[,.;:!?)]|\s*$|\s+(?:and|or|to|through|until|till|when|before|after|next|this|last)\b)`;
const SPECULATION_EN = new RegExp(
  String.raw`\b(?:maybe|perhaps|probably|possibly|presumably|might|mightn't|${MONTH_BEFORE}may${MONTH_AFTER}(?:\s+be)?|i think|i guess|i suppose|i believe|i wonder|i reckon|i'm not sure|not sure|not certain|unsure|could be|would be nice|i feel like|hopefully)\b`,
);
// 尽可能 is "as much as possible", not a hedge.
const SPECULATION_ZH = /也许|(?<!尽)可能|大概|我觉得|我感觉|好像|说不定|或许|不确定|不一定|估计|似乎|应该是|我猜|恐怕/u;

// Hedges that take a clause ("I think we'll move"): leading their clause, they govern the rest of
// the sentence up to a contrast ("…, but I live in Leeds"). Elsewhere a hedge governs its clause.
const GOVERNING =
  /^(?:i think|i guess|i suppose|i believe|i wonder|i reckon|i'm not sure|not sure|not certain|unsure|i feel like|我觉得|我感觉|我猜|估计|恐怕|不确定)$/u;
// Said after a statement, these only soften it ("so pescatarian I guess"): the words go, the statement stays.
const SOFTENER = /^(?:i guess|i suppose)$/;
// Words that may come before a governing hedge and still leave it leading its clause.
const LEAD_FILLERS =
  /^(?:[\s'"“‘(-]|so|and|but|ok|okay|well|honestly|tbh|also|though|like|um|uh|hmm+|yeah|actually|really|just|now|still|其实|说实话|说真的|嗯+|哈+|不过|但是?|而且|所以|然后|就|也|还)*$/u;
// Where a hedge's clause starts: after punctuation, a dash, or a conjunction ("…and maybe a third").
const CLAUSE_START = /[,;:!?.。，；：！？\n()…]|\s[—–-]+\s|[—–]|\s(?:and|but|or|so|then)\s/gu;
// Where it ends; a governing hedge runs on to the end of the sentence or a contrast.
const CLAUSE_STOP = /[,;:!?。，；：！？\n()…]|\.(?=\s|$)|\s[—–-]+\s|[—–]|\sbut\s|但是|不过|可是/gu;
const CONTRAST_STOP = /[;!?。；！？\n]|\.(?=\s|$)|\s[—–]\s|\bbut\b|但是|不过|可是/gu;
const NOTHING_SAID = /^[^\p{L}\p{N}]*$/u;
const HEDGES_EN = new RegExp(SPECULATION_EN.source, 'g');
const HEDGES_ZH = new RegExp(SPECULATION_ZH.source, 'gu');

/** Where the clause around `[from, to)` starts and ends. */
function clauseAround(lower: string, from: number, to: number, stop: RegExp): [number, number] {
  let start = 0;
  CLAUSE_START.lastIndex = 0;
  for (let found = CLAUSE_START.exec(lower); found !== null && found.index < from; found = CLAUSE_START.exec(lower)) {
    start = Math.min(from, found.index + found[0].length);
  }
  stop.lastIndex = to;
  const end = stop.exec(lower)?.index ?? lower.length;
  return [start, end];
}

/** The span one hedge governs. */
function governed(lower: string, hedge: RegExpExecArray): [number, number] {
  const from = hedge.index;
  const to = from + hedge[0].length;
  const words = hedge[0].trim();
  const [start, end] = clauseAround(lower, from, to, CLAUSE_STOP);
  if (SOFTENER.test(words) && NOTHING_SAID.test(lower.slice(to, end)) && !NOTHING_SAID.test(lower.slice(start, from)))
    return [from, to];
  if (GOVERNING.test(words) && LEAD_FILLERS.test(lower.slice(start, from)))
    return [start, clauseAround(lower, from, to, CONTRAST_STOP)[1]];
  return [start, end];
}

function spansOf(lower: string, hedges: RegExp, out: Array<[number, number]>): void {
  hedges.lastIndex = 0;
  for (let found = hedges.exec(lower); found !== null; found = hedges.exec(lower)) {
    if (found[0] === '') {
      hedges.lastIndex += 1;
      continue;
    }
    out.push(governed(lower, found));
  }
}

/**
 * The spans of a lower-cased sentence its hedges govern, in order (none when it has no hedge);
 * bit 4 (and 8 in Chinese) of `may` clear says the hedge patterns cannot match.
 *
 * @example
 * hedgedSpans('i get migraines, maybe twice a month', false) // [[16, 36]]
 */
export function hedgedSpans(lower: string, chinese: boolean, may = -1): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  if (chinese && (may & 4) !== 0) spansOf(lower, HEDGES_ZH, out);
  if ((may & (chinese ? 8 : 4)) !== 0) spansOf(lower, HEDGES_EN, out);
  return out.sort((a, b) => a[0] - b[0]);
}

const GREETING =
  "hi|hello|hey|yo|hiya|howdy|greetings|good (?:morning|afternoon|evening|night|day)|morning|thanks|thank you|thx|ty|cheers|bye|goodbye|see you|see ya|later|ok|okay|k|cool|nice|great|awesome|perfect|sounds good|got it|no problem|no worries|you're welcome|np|lol|haha+|hah|hmm+|yes|yeah|yep|no|nope|sure|alright|all right|wow|oh|ah|welcome back|that's great|that's all|appreciate it|well done|good job|nice one|talk to you|talk soon|speak soon";
const FILLER =
  'there|everyone|all|guys|folks|so much|a lot|again|man|buddy|friend|mate|very much|for (?:that|this|the help|your help)|then|and|you|too|for now|tomorrow|later|soon';
const SMALL_TALK_EN = new RegExp(
  `^(?:${GREETING})(?:[\\s,!.?~:)(]+|$)(?:(?:${GREETING}|${FILLER})(?:[\\s,!.?~:)(]+|$)){0,6}$|^(?:how are you(?: doing)?|how's it going|how is it going|what's up|sup|how have you been|how was your (?:day|weekend)|have a (?:good|nice|great) (?:day|weekend|one)|nice (?:weather|day) today)\\b[^.]{0,20}$`,
  'iu',
);
const SMALL_TALK_ZH =
  /^(?:(?:你好|您好|大家好|嗨|哈喽|早上好|早安|晚上好|晚安|下午好|谢谢|谢啦|多谢|感谢|辛苦了|好的|好|嗯+|哦+|啊+|哈+|行|可以|没问题|不客气|再见|拜拜|明白了?|收到|知道了|OK|ok|太好了|厉害)[\s，,。.！!？?~～]*){1,3}(?:你|您|啦|呀|了|哈)?[\s，,。.！!？?~～]*$|^(?:你好吗|最近怎么样|吃了吗|今天天气(?:真|不错|很好)|在吗)/u;

// "I hate X" is a preference only when X is a known preference topic; these objects are venting.
const VENTING_EN =
  /\b(?:ugh+|argh+|gah|grr+|damn(?:it)?|dammit|wtf|ffs|fml|sigh|meh|this sucks|that sucks|it sucks|so annoying|so frustrat\w*|i'm so (?:tired|done|over it|sick of|fed up)|sick of|fed up|kill me|i can't (?:even|take it)|i hate (?:mondays?|this|it|that|everything|my life|my job|when|how|people|traffic|waiting|meetings|being|myself|today|the weather|rain))\b/;
// 受不了 with an object is a dislike ("受不了香菜"), not venting.
// A sigh opening a sentence ("唉，4月18号是走不成了") is no venting of what follows it.
const VENTING_ZH =
  /烦死了?|累死了?|气死了?|郁闷|崩溃|无语|好烦|真烦|烦人|受不了(?=了|啦|$|[，,。！!…~～])|讨厌死了|(?:唉|哎呀)+(?=[\s。！!…~～]*$)|心累|太难了|要疯了/u;

/**
 * The expressions silenceOf tries, in order, per language: a caller that knows some cannot match
 * (see LiteralIndex) passes that as `may`. The hedges come last (bit 4, and 8 in Chinese).
 */
export const SILENCE_PATTERNS: Readonly<Record<Language, readonly RegExp[]>> = {
  en: [SMALL_TALK_EN, VENTING_EN, SPECULATION_EN],
  zh: [SMALL_TALK_ZH, VENTING_ZH, SPECULATION_ZH, SPECULATION_EN],
};

const VENTS_EN = new RegExp(VENTING_EN.source, 'g');
const VENTS_ZH = new RegExp(VENTING_ZH.source, 'gu');

/** The clauses a sentence's venting is in ("laptop is back, 180 euros ugh": the second), in order of the venting. */
function ventingSpans(lower: string, chinese: boolean, may: number): Array<[number, number]> {
  if ((may & 2) === 0) return [];
  const vents = chinese ? VENTS_ZH : VENTS_EN;
  const out: Array<[number, number]> = [];
  vents.lastIndex = 0;
  for (let found = vents.exec(lower); found !== null; found = vents.exec(lower)) {
    if (found[0] === '') {
      vents.lastIndex += 1;
      continue;
    }
    const to = found.index + found[0].length;
    const [start, end] = clauseAround(lower, found.index, to, CLAUSE_STOP);
    // Leading the sentence ("Ugh, this is broken again"), it vents up to a contrast, as a governing hedge does.
    out.push(
      LEAD_FILLERS.test(lower.slice(0, found.index))
        ? [0, clauseAround(lower, found.index, to, CONTRAST_STOP)[1]]
        : [start, end],
    );
  }
  return out;
}

/** Whether `spans` leave nothing of the sentence said. */
function covers(lower: string, spans: ReadonlyArray<readonly [number, number]>): boolean {
  let rest = '';
  let at = 0;
  for (const [start, end] of [...spans].sort((a, b) => a[0] - b[0])) {
    if (start > at) rest += lower.slice(at, start);
    at = Math.max(at, end);
  }
  return NOTHING_SAID.test(rest + lower.slice(at));
}

/** Small talk, or venting in every clause: the sentence as a whole says nothing to keep. */
function quietOf(lower: string, chinese: boolean, may: number): Silence | undefined {
  if (chinese) {
    if ((may & 1) !== 0 && SMALL_TALK_ZH.test(lower)) return 'small_talk';
  } else if ((may & 1) !== 0 && lower.length <= 60 && SMALL_TALK_EN.test(lower)) return 'small_talk';
  const vented = ventingSpans(lower, chinese, may);
  return vented.length > 0 && covers(lower, vented) ? 'venting' : undefined;
}

/**
 * Why a sentence must produce nothing, or undefined when rules may read it; a sentence with a hedge
 * anywhere is 'speculation' (the retention gate's reason). Takes the lower-cased sentence and
 * whether it has Chinese characters; bit i of `may` clear says the language's SILENCE_PATTERNS[i]
 * cannot match, so it is not tried.
 *
 * @example
 * silenceOf('maybe we should use postgres', false) // 'speculation'
 * silenceOf('thanks so much!', false)              // 'small_talk'
 * silenceOf('烦死了', true)                        // 'venting'
 */
export function silenceOf(lower: string, chinese: boolean, may = -1): Silence | undefined {
  return quietOf(lower, chinese, may) ?? (hedgedSpans(lower, chinese, may).length > 0 ? 'speculation' : undefined);
}

/** What the rules may read of a sentence: nothing (small talk, venting), or the parts no hedge governs. */
export type Reading = { silence: Silence } | { silence?: undefined; hedged: ReadonlyArray<readonly [number, number]> };

/**
 * How the rules read a sentence: not at all when it is small talk or venting throughout, else with
 * the spans its hedges and venting govern blanked (an empty list when it has none).
 *
 * @example
 * readingOf('i get migraines, maybe twice a month', false) // { hedged: [[15, 36]] }
 */
export function readingOf(lower: string, chinese: boolean, may = -1): Reading {
  const silence = quietOf(lower, chinese, may);
  if (silence !== undefined) return { silence };
  return {
    hedged: [...hedgedSpans(lower, chinese, may), ...ventingSpans(lower, chinese, may)].sort((a, b) => a[0] - b[0]),
  };
}
