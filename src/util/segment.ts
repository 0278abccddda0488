// Text segmentation, so Chinese (and other scripts written without spaces) is indexed and searched
// by words. Runs of those scripts go through Intl.Segmenter's dictionary; everything else is split
// by a Unicode regular expression, which is an order of magnitude faster. The rule depends only on
// the characters themselves, so index and query always segment the same text the same way.

const wordSegmenter = new Intl.Segmenter('und', { granularity: 'word' });
const sentenceSegmenter = new Intl.Segmenter('und', { granularity: 'sentence' });

// Scripts written without spaces between words: they need a dictionary to find word boundaries.
const DICTIONARY_SCRIPTS =
  '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Thai}\\p{Script=Lao}\\p{Script=Khmer}\\p{Script=Myanmar}';
const HAS_DICTIONARY_SCRIPT = new RegExp(`[${DICTIONARY_SCRIPTS}]`, 'u');
const DICTIONARY_RUN = new RegExp(`[${DICTIONARY_SCRIPTS}\\u30FC\\u3005]+`, 'gu');
// A word: letters, marks, digits and underscores, with inner apostrophes (don't, l'été). words()
// then drops a final 's (see withoutS).
const WORD = /[\p{L}\p{M}\p{N}_]+(?:['\u2019][\p{L}\p{M}\p{N}_]+)*/gu;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/gu;
const SENTENCE_END = /[.!?。！？\n]/u;
// Outside dictionary scripts a sentence ends at . ! ? (or …) before a space and a capital letter,
// digit or opening quote, or at a line break. Intl.Segmenter does the rest.
const SENTENCE_BREAK = /(?<=[.!?\u2026]["'\u2019\u201D)\]]*)\s+(?=[\p{Lu}\p{N}"'\u2018\u201C([\u00BF\u00A1])|\s*\n\s*/u;

/** Lone surrogates cannot be encoded as UTF-8; replace them so text round-trips through storage. */
export function wellFormed(text: string): string {
  // The native check (ES2024, in Node 20) is far cheaper than the regular expression.
  const native = (text as { isWellFormed?: () => boolean }).isWellFormed;
  if (native !== undefined && native.call(text)) return text;
  return text.replace(LONE_SURROGATE, '\uFFFD');
}

/**
 * The words without an English possessive or contracted "is" ('s), so "Caroline's" is found by
 * "Caroline" and the other way round; "it's" and "that's" become the stop words "it" and "that".
 * "let's" (let us) stays whole. Only for text that has "'s" somewhere (callers check once).
 */
function withoutS(found: string[]): string[] {
  for (let index = 0; index < found.length; index += 1) {
    const word = found[index]!;
    if (word.endsWith("'s") && word !== "let's") found[index] = word.slice(0, -2);
  }
  return found;
}

function pushRegexWords(text: string, out: string[], possessive: boolean): void {
  const found = text.match(WORD);
  if (found === null) return;
  if (possessive) withoutS(found);
  for (const word of found) out.push(word);
}

function pushDictionaryWords(text: string, out: string[]): void {
  for (const part of wordSegmenter.segment(text)) {
    if (part.isWordLike === true) out.push(part.segment);
  }
}

/**
 * A text with each run of a script written without spaces (Chinese, Japanese, Thai…) replaced by a
 * space, and how many characters those runs held: what is left splits into words at spaces.
 *
 * @example
 * withoutUnspacedScripts('我在Google上班') // { text: ' Google ', characters: 4 }
 */
export function withoutUnspacedScripts(text: string): { text: string; characters: number } {
  let characters = 0;
  const rest = text.replace(DICTIONARY_RUN, (run) => {
    characters += [...run].length;
    return ' ';
  });
  return { text: rest, characters };
}

/**
 * The share of a text's words written with spaces, each character of a script written without them
 * counting as one word: how much of it a model whose vocabulary holds words of the first kind only
 * can read. 1 for a text with no word at all.
 *
 * @example
 * spacedShare('Which city do I live in?') // 1
 * spacedShare('我在Google上班') // 0.2
 */
export function spacedShare(text: string): number {
  const { text: spaced, characters } = withoutUnspacedScripts(text);
  const count = spaced.match(/[\p{L}\p{N}]+/gu)?.length ?? 0;
  return count + characters === 0 ? 1 : count / (count + characters);
}

/**
 * The normalised words of `text` (NFKC, lower case), in order. Inner apostrophes stay ("don't",
 * "l'été", "o'clock"); a final possessive or contracted "is" goes ("Caroline's" → "caroline",
 * "it's" → "it"), except in "let's".
 *
 * @example
 * words('我更喜欢用中文') // ['我', '更', '喜欢', '用', '中文']
 * words("Caroline’s phone's fine, don't worry") // ['caroline', 'phone', 'fine', "don't", 'worry']
 */
export function words(text: string): string[] {
  // Typographic apostrophes become ASCII ones, so "don’t" and "don't" are one word.
  const normal = wellFormed(text)
    .normalize('NFKC')
    .toLowerCase()
    .replace(/\u2019/g, "'");
  const possessive = normal.includes("'s");
  if (!HAS_DICTIONARY_SCRIPT.test(normal)) {
    const found = normal.match(WORD);
    if (found === null) return [];
    return possessive ? withoutS(found) : found;
  }
  const out: string[] = [];
  let last = 0;
  for (const match of normal.matchAll(DICTIONARY_RUN)) {
    pushRegexWords(normal.slice(last, match.index), out, possessive);
    pushDictionaryWords(match[0], out);
    last = match.index + match[0].length;
  }
  pushRegexWords(normal.slice(last), out, possessive);
  return out;
}

/**
 * The sentences of `text`, trimmed, without empty ones.
 *
 * @example
 * sentences('Hi. I prefer tea!') // ['Hi.', 'I prefer tea!']
 */
export function sentences(text: string): string[] {
  const clean = wellFormed(text);
  if (!SENTENCE_END.test(clean)) {
    const only = clean.trim();
    return only === '' ? [] : [only];
  }
  const out: string[] = [];
  if (!HAS_DICTIONARY_SCRIPT.test(clean)) {
    for (const part of clean.split(SENTENCE_BREAK)) {
      const sentence = part.trim();
      if (sentence !== '') out.push(sentence);
    }
    return out;
  }
  for (const part of sentenceSegmenter.segment(clean)) {
    const sentence = part.segment.trim();
    if (sentence !== '') out.push(sentence);
  }
  return out;
}

/**
 * The text a full-text index stores for `text`: its words separated by spaces.
 *
 * @example
 * searchText('我更喜欢用中文') // '我 更 喜欢 用 中文'
 */
export function searchText(text: string): string {
  return words(text).join(' ');
}

/**
 * The distinct words of a query, in order, at most `limit` of them.
 *
 * @example
 * queryTerms('Tea? tea, TEA and coffee') // ['tea', 'and', 'coffee']
 */
export function queryTerms(text: string, limit = 64): string[] {
  return [...new Set(words(text))].slice(0, limit);
}
