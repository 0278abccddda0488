// Text helpers the rules share: where a clause ends, how a captured phrase is cleaned, and which
// words of it carry content, so every rule turns the same words into the same key segment.

import { words } from '../../util/segment.js';
import { STOPWORDS } from '../../util/stopwords.js';

// A clause ends at sentence punctuation, a Chinese comma, a dash between spaces ("run for office
// again - even though…"), or a conjunction that starts a new thought ("…at a conference in 3 weeks
// and I'm terrified").
// A period ends it only before space or the end, so "Next.js", "docs/x.md" and "2.0" stay whole.
const CLAUSE_END =
  /[;!?。；！？，\n]|\.(?=\s|$)|,\s*(?:but|because|since|so|and then|though|although|which|who|as|not)\b|\s(?:but|because|since|although|though|whereas|so that)\s|\s[-–—]\s|,\s+(?=[Ii]['’]?(?:m|ve|ll|d)?\s)|\sand\s+(?=(?:[Ii]['’]m|[Ii] am|it['’]s|that['’]s|[Ii] feel)\s)|但是|因为|所以|不过/g;

/** Where the clause that starts at `from` ends (exclusive). */
export function clauseEnd(text: string, from: number): number {
  CLAUSE_END.lastIndex = from;
  const found = CLAUSE_END.exec(text);
  return found === null ? text.length : found.index;
}

const LEADING = /^(?:(?:a|an|the|to|my|our|some|that|just|really|also|then|now|actually|please|always|only)\s+)+/i;
const TRAILING_WORDS =
  /(?:\s+(?:please|now|instead|anymore|any more|too|as well|again|from now on|going forward|for now|thanks|thank you|if possible|then|though))+$/i;
const TRAILING_MARKS = /[\s,.;:!?'"“”‘’。，；：！？、）)*_`]+$/u;
const LEADING_MARKS = /^[\s,.;:!?'"“”‘’。，；：！？、（(*_`-]+/u;
const ZH_TRAILING = /(?:吧|呢|啊|了|的|哦|呀|嘛)+$/u;
const ZH_LEADING = /^(?:都|就|还是|一直|总是|始终|以后|今后|也)+/u;

/**
 * A captured phrase without leading articles and fillers or trailing punctuation and softeners.
 *
 * @example
 * cleanPhrase('a casual tone, please.') // 'casual tone'
 */
export function cleanPhrase(phrase: string): string {
  let out = phrase.replace(LEADING_MARKS, '').replace(TRAILING_MARKS, '');
  for (let pass = 0; pass < 2; pass += 1) {
    out = out.replace(LEADING, '').replace(TRAILING_WORDS, '').replace(TRAILING_MARKS, '');
    out = out.replace(ZH_LEADING, '').replace(ZH_TRAILING, '').replace(TRAILING_MARKS, '');
  }
  return out.replace(/\s+/g, ' ').trim();
}

// Fillers that carry no topic of a task, goal or decision, beyond the shared stop words.
const FILLERS: ReadonlySet<string> = new Set(
  (
    "please let's lets now actually finally still already really get got gonna need needs want going i'm we're it's that's " +
    "i'll we'll i've we've i'd we'd today tomorrow yesterday tonight by before until due asap soon later " +
    '我 把 要 需要 请 一下 吧 先 再 给 得 还 已经 今天 明天 后天 之前 以前 前'
  ).split(' '),
);

/**
 * The content words of a phrase in order: lower case, no stop words or fillers, no stemming.
 *
 * @example
 * contentWords('Update the docs please') // ['update', 'docs']
 */
export function contentWords(phrase: string): string[] {
  return words(phrase).filter((word) => !STOPWORDS.has(word) && !FILLERS.has(word));
}

/**
 * True when the text ends with a question mark, as `/[?？]\s*$/u` tests (trimEnd drops exactly
 * what `\s` matches) without trying the expression at every position.
 *
 * @example
 * endsWithQuestionMark('Could you use a formal tone? ') // true
 */
export function endsWithQuestionMark(text: string): boolean {
  const trimmed = text.trimEnd();
  const last = trimmed.charCodeAt(trimmed.length - 1);
  return last === 0x3f || last === 0xff1f;
}

// Node 20 has String.prototype.isWellFormed (ES2024, not in this lib): a native check, so that the
// lone-surrogate regexp of wellFormed runs only on text that needs it.
const nativeWellFormed = (String.prototype as { isWellFormed?: (this: string) => boolean }).isWellFormed;

/** True when the text has no lone surrogate, so wellFormed would return it unchanged. */
export function isWellFormed(text: string): boolean {
  return nativeWellFormed?.call(text) === true;
}

const HAN = /\p{Script=Han}/u;

/** True when the text has Chinese characters. */
export function hasHan(text: string): boolean {
  return HAN.test(text);
}

/**
 * An id segment from a phrase: its first `max` content words joined by `_` (Chinese runs kept whole).
 *
 * @example
 * idFrom('the docs update for Atlas') // 'docs_update_atlas'
 */
export function idFrom(phrase: string, max = 4): string {
  if (hasHan(phrase)) {
    const compact = cleanPhrase(phrase).replace(/[\s\p{P}]+/gu, '_');
    return compact.slice(0, 24);
  }
  const content = contentWords(phrase);
  return content.slice(0, max).join('_');
}

/**
 * The tokens two titles are compared by: English content words, or Chinese character pairs (the
 * segmenter's dictionary is too coarse for short titles).
 *
 * @example
 * matchTokens('更新文档') // ['更新', '新文', '文档']
 */
export function matchTokens(phrase: string): string[] {
  if (!hasHan(phrase)) return contentWords(phrase.replace(/_/g, ' '));
  const out: string[] = [];
  for (const run of phrase.match(/[\p{Script=Han}]+|[a-z0-9]+/giu) ?? []) {
    if (!HAN.test(run)) {
      out.push(run.toLowerCase());
      continue;
    }
    if (run.length === 1) out.push(run);
    for (let index = 0; index + 1 < run.length; index += 1) out.push(run.slice(index, index + 2));
  }
  return out;
}

/** Shortens a title to `max` characters at a word boundary. */
export function shorten(text: string, max = 140): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${space > max / 2 ? cut.slice(0, space) : cut}…`;
}

/** Replaces `[start, end)` of `text` with spaces, keeping every other offset. */
export function blank(text: string, start: number, end: number): string {
  return text.slice(0, start) + ' '.repeat(Math.max(0, end - start)) + text.slice(end);
}
