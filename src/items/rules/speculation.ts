// Sentences that must produce nothing (MemoryTypes v0.1 §5, "never write"): speculation and hedges,
// small talk (greetings, thanks, acknowledgements) and venting. They stay in the episodic log only.
// The checks run on every sentence before any rule, so each is one precompiled expression.

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

const GREETING =
  "hi|hello|hey|yo|hiya|howdy|greetings|good (?:morning|afternoon|evening|night|day)|morning|thanks|thank you|thx|ty|cheers|bye|goodbye|see you|see ya|later|ok|okay|k|cool|nice|great|awesome|perfect|sounds good|got it|no problem|no worries|you're welcome|np|lol|haha+|hah|hmm+|yes|yeah|yep|no|nope|sure|alright|all right|wow|oh|ah|welcome back|that's great|that's all|appreciate it|well done|good job|nice one|talk to you|talk soon|speak soon";
const FILLER = "there|everyone|all|guys|folks|so much|a lot|again|man|buddy|friend|mate|very much|for (?:that|this|the help|your help)|then|and|you|too|for now|tomorrow|later|soon";
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
const VENTING_ZH = /烦死了?|累死了?|气死了?|郁闷|崩溃|无语|好烦|真烦|烦人|受不了(?=了|啦|$|[，,。！!…~～])|讨厌死了|唉|哎呀|心累|太难了|要疯了/u;

/**
 * The expressions silenceOf tries, in order, per language: a caller that knows some cannot match
 * (see LiteralIndex) passes that as `may`.
 */
export const SILENCE_PATTERNS: Readonly<Record<Language, readonly RegExp[]>> = {
  en: [SMALL_TALK_EN, VENTING_EN, SPECULATION_EN],
  zh: [SMALL_TALK_ZH, VENTING_ZH, SPECULATION_ZH, SPECULATION_EN],
};

/**
 * Why a sentence must produce nothing, or undefined when rules may read it. Takes the lower-cased
 * sentence and whether it has Chinese characters; bit i of `may` clear says the language's
 * SILENCE_PATTERNS[i] cannot match, so it is not tried.
 *
 * @example
 * silenceOf('maybe we should use postgres', false) // 'speculation'
 * silenceOf('thanks so much!', false)              // 'small_talk'
 * silenceOf('烦死了', true)                        // 'venting'
 */
export function silenceOf(lower: string, chinese: boolean, may = -1): Silence | undefined {
  if (chinese) {
    if ((may & 1) !== 0 && SMALL_TALK_ZH.test(lower)) return 'small_talk';
    if ((may & 2) !== 0 && VENTING_ZH.test(lower)) return 'venting';
    if ((may & 4) !== 0 && SPECULATION_ZH.test(lower)) return 'speculation';
    // English hedges inside a Chinese sentence still count.
    return (may & 8) !== 0 && SPECULATION_EN.test(lower) ? 'speculation' : undefined;
  }
  if ((may & 1) !== 0 && lower.length <= 60 && SMALL_TALK_EN.test(lower)) return 'small_talk';
  if ((may & 2) !== 0 && VENTING_EN.test(lower)) return 'venting';
  if ((may & 4) !== 0 && SPECULATION_EN.test(lower)) return 'speculation';
  return undefined;
}
