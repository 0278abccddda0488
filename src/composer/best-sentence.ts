// Which sentence of a passage a packet shows when the passage does not fit whole: the one that
// matches the cues best. A cue term matches any word that starts with its stem ("research" finds
// "researching"), and terms found in few of the passages count for more than terms found in most
// of them (in a conversation with Caroline, "Caroline" tells little; "research" tells a lot).

import { stemmer } from 'stemmer';

import { sentences } from '../util/segment.js';

// Scripts written without spaces: a term is found anywhere in the text, not at a word start.
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const NOT_WORD = /[^\p{L}\p{M}\p{N}_]+/gu;

interface Needle {
  text: string;
  anywhere: boolean;
}

/** The cue terms as they are looked for, with a weight each; build once per packet. */
export interface CueMatcher {
  needles: readonly Needle[];
  weights: readonly number[];
}

/** The text lower-cased with every run of non-word characters as one space, framed by spaces. */
function spaced(text: string): string {
  return ` ${text.toLowerCase().replace(NOT_WORD, ' ')} `;
}

function has(haystack: string, needle: Needle): boolean {
  return haystack.includes(needle.anywhere ? needle.text : ` ${needle.text}`);
}

/**
 * The matcher for some cue terms (already normalised words) over a pool of passages: each term
 * weighs log(1 + passages / passages holding it).
 *
 * @example
 * const matcher = cueMatcher(['caroline', 'research'], passages.map(contentText));
 */
export function cueMatcher(terms: readonly string[], passages: readonly string[]): CueMatcher {
  const needles = [...new Set(terms)].map((term) => (UNSPACED.test(term) ? { text: term, anywhere: true } : { text: stemmer(term), anywhere: false }));
  const texts = passages.map(spaced);
  const weights = needles.map((needle) => {
    const holding = texts.filter((text) => has(text, needle)).length;
    return Math.log(1 + texts.length / Math.max(1, holding));
  });
  return { needles, weights };
}

/**
 * The sentence of `text` with the greatest weight of cue terms (the first on a tie), or undefined
 * when no sentence holds any.
 *
 * @example
 * bestSentence('Thanks, Caroline. Doing research helps.', cueMatcher(['caroline', 'research'], pool)) // 'Doing research helps.'
 */
export function bestSentence(text: string, matcher: CueMatcher): string | undefined {
  if (matcher.needles.length === 0) return undefined;
  let best: string | undefined;
  let bestScore = 0;
  for (const sentence of sentences(text)) {
    const score = matchScore(sentence, matcher);
    if (score > bestScore) {
      best = sentence;
      bestScore = score;
    }
  }
  return best;
}

/**
 * The weight of the cue terms a text holds (0 when it holds none).
 *
 * @example
 * matchScore('pet:bolt: dog Bolt', cueMatcher(['dog'], pool)) // > 0
 */
export function matchScore(text: string, matcher: CueMatcher): number {
  const haystack = spaced(text);
  let score = 0;
  for (const [index, needle] of matcher.needles.entries()) if (has(haystack, needle)) score += matcher.weights[index]!;
  return score;
}
