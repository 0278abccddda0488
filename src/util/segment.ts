// Text segmentation with Intl.Segmenter, so Chinese (and other scripts written without spaces) is
// indexed and searched by words. Index and query use the same function, so they always agree.

const wordSegmenter = new Intl.Segmenter('und', { granularity: 'word' });
const sentenceSegmenter = new Intl.Segmenter('und', { granularity: 'sentence' });

/** Lone surrogates cannot be encoded as UTF-8; replace them so text round-trips through storage. */
export function wellFormed(text: string): string {
  return text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/gu, '\uFFFD');
}

/**
 * The normalised words of `text` (NFKC, lower case), in order.
 *
 * @example
 * words('我更喜欢用中文') // ['我', '更', '喜欢', '用', '中文']
 */
export function words(text: string): string[] {
  const out: string[] = [];
  for (const part of wordSegmenter.segment(wellFormed(text).normalize('NFKC').toLowerCase())) {
    if (part.isWordLike === true) out.push(part.segment);
  }
  return out;
}

/**
 * The sentences of `text`, trimmed, without empty ones.
 *
 * @example
 * sentences('Hi. I prefer tea!') // ['Hi.', 'I prefer tea!']
 */
export function sentences(text: string): string[] {
  const out: string[] = [];
  for (const part of sentenceSegmenter.segment(wellFormed(text))) {
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
