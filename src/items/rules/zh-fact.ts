// What a Chinese profile fact pattern is, and the pieces of phrase the patterns share. Fact keys are
// the English rules' keys (location, employer, family:wife, taste:<thing>), so a user who switches
// language updates the same fact; the values keep the user's own words.

import { slug } from '../keys.js';
import { cleanPhrase } from './text.js';

export interface ZhFact {
  k: string | ((value: string, found: RegExpExecArray) => string | undefined);
  pattern: RegExp;
  /** The group holding the value (default 1). */
  group?: number;
  /** Checks or rewrites the captured value; undefined rejects the match. */
  accept?: (value: string, found: RegExpExecArray) => string | undefined;
  withSince?: boolean;
  /** Read on the whole sentence: the pattern itself says whose fact it is (我女儿, 我家的猫). */
  sentence?: boolean;
  /** Read from the clause to the end of the sentence, starting in the clause: "去青柚互娱，一家做游戏的". */
  spans?: boolean;
  /** The clause says the fact no longer holds (卖掉了, 辞职了): the fact is cleared. */
  ends?: boolean;
}

/** A fact key segment from a Chinese or mixed phrase. */
export function keyPart(phrase: string): string {
  return slug(phrase, 40);
}

// Particles and softeners a captured phrase ends with in chat ("火锅啦", "宫崎骏的", "两百了哈哈").
const TRAILING = /(?:哈+|嘿+|呀|啊|啦|了|的|吧|呢|哦|嘛|噢|诶|～|~|😂|😭|[\p{Extended_Pictographic}\uFE0F])+$/u;
const LEADING = /^(?:一个|一家|一所|一只|一辆|一台|那个|这个|那家|这家|那只|这只)/u;

/** A captured Chinese phrase without chat particles at its end or a measure phrase at its start. */
export function zhPhrase(phrase: string): string {
  let out = cleanPhrase(phrase);
  for (let pass = 0; pass < 2; pass += 1) out = cleanPhrase(out.replace(TRAILING, '').replace(LEADING, ''));
  return out;
}

/** Adverbs of degree and time between the subject and the verb: 我(超级|一直|现在)喜欢. */
export const ZH_ADVERBS = String.raw`(?:也|还|都|就|又|才|真的|真|其实|一直|从来|平时|平常|向来|现在|目前|已经|最近|本来|特别|非常|超级|超|很|挺|巨|贼|最|比较|蛮|相当|十分|尤其|完全|实在|基本上?|一般|确实|自己|本人|从小|打小)*`;

// Durations and degrees a phrase of work or study ends before: "做审计快两年了", "当护士三年".
export const ZH_DURATION = String.raw`(?=$|(?:已经|快|都|有|差不多|大概)?[一二两三四五六七八九十几半\d]+(?:多)?(?:年|个月|个多月|周|天)|了|啦|呢|，|,)`;
