// Which part of a passage a packet shows when the passage does not fit whole: the sentence that
// matches the cues best, with the sentences around it up to a few dozen words. A cue term matches
// any word that starts with its stem ("research" finds "researching"), and terms found in few of
// the passages count for more than terms found in most of them.

import { stemmer } from 'stemmer';

import { sentences, words } from '../util/segment.js';

// Scripts written without spaces: a term is found anywhere in the text, not at a word start.
const UNSPACED =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
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
  const needles = [...new Set(terms)].map((term) =>
    UNSPACED.test(term) ? { text: term, anywhere: true } : { text: stemmer(term), anywhere: false },
  );
  const texts = passages.map(spaced);
  const weights = needles.map((needle) => {
    const holding = texts.filter((text) => has(text, needle)).length;
    return Math.log(1 + texts.length / Math.max(1, holding));
  });
  return { needles, weights };
}

/** How many words a sentence has: its spaced runs, or its segmented words in a script written without spaces. */
function wordCount(sentence: string): number {
  return UNSPACED.test(sentence) ? words(sentence).length : sentence.split(/\s+/u).filter((part) => part !== '').length;
}

/** The index of the sentence with the greatest weight of cue terms (the first on a tie); -1 when none holds any. */
function bestIndex(parts: readonly string[], matcher: CueMatcher): number {
  let best = -1;
  let bestScore = 0;
  for (const [index, sentence] of parts.entries()) {
    const score = matchScore(sentence, matcher);
    if (score > bestScore) {
      best = index;
      bestScore = score;
    }
  }
  return best;
}

/**
 * The sentence of `text` with the greatest weight of cue terms (the first on a tie); undefined when
 * no sentence holds a cue term.
 *
 * @example
 * bestSentence('I love my dog. Do you have a dog too?', cueMatcher(['dog'], pool)) // 'I love my dog.'
 */
export function bestSentence(text: string, matcher: CueMatcher): string | undefined {
  if (matcher.needles.length === 0) return undefined;
  const parts = sentences(text);
  const best = bestIndex(parts, matcher);
  return best < 0 ? undefined : parts[best];
}

/**
 * The sentence of `text` with the greatest weight of cue terms (the first on a tie), with the
 * sentences after it, then those before it, as long as the whole stays within `maxWords` words (0:
 * the sentence alone): the sentence that matches the question
 * often only names its topic ("What concert was it?", "Thanks, Caroline!"), and the answer follows
 * or leads up to it. Undefined when no sentence holds a cue term.
 *
 * @example
 * bestSnippet('Hi! The concert was great. It was Matt Patterson. Bye.', cueMatcher(['concert'], pool), 9) // 'The concert was great. It was Matt Patterson.'
 */
export function bestSnippet(text: string, matcher: CueMatcher, maxWords: number): string | undefined {
  if (matcher.needles.length === 0) return undefined;
  const parts = sentences(text);
  const best = bestIndex(parts, matcher);
  if (best < 0) return undefined;
  let size = wordCount(parts[best]!);
  let last = best;
  while (last + 1 < parts.length) {
    const more = wordCount(parts[last + 1]!);
    if (size + more > maxWords) break;
    size += more;
    last += 1;
  }
  let first = best;
  while (first > 0) {
    const more = wordCount(parts[first - 1]!);
    if (size + more > maxWords) break;
    size += more;
    first -= 1;
  }
  // The text as written between them (Chinese sentences have no space between them).
  const start = text.indexOf(parts[first]!);
  const end = start < 0 ? -1 : text.indexOf(parts[last]!, start);
  return start < 0 || end < 0 ? parts.slice(first, last + 1).join(' ') : text.slice(start, end + parts[last]!.length);
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
