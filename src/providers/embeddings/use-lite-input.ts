// What the Universal Sentence Encoder lite reads of a text, and the cut that keeps the rest away
// from it. The model uses a text's first 128 SentencePiece tokens and ignores the others, but its
// tokenizer's time grows with the square of the text's length (0.7 s for 20,000 characters), so a
// long text is cut to a prefix that still holds those 128 tokens before it reaches the model.

/** Tokens the model reads of one text (measured: a text and any prefix holding its first 128 tokens embed identically). */
export const USE_LITE_MAX_TOKENS = 128;

/** Code points of the vocabulary's longest piece: 128 tokens never span more than 128 × 16 of them. */
const LONGEST_PIECE = 16;

/** The cut's bound on code points, for texts with few spaces (code, identifiers, scripts without spaces). */
export const USE_LITE_MAX_CODE_POINTS = USE_LITE_MAX_TOKENS * LONGEST_PIECE;

/**
 * The prefix of `text` the model reads: its first 128 space-separated words, and at most 2,048
 * code points. No piece of the vocabulary holds a space inside it, so every word gives the tokenizer
 * at least one token of its own and a word's tokens do not depend on the words after it: a prefix
 * of 128 whole words gives the model the same 128 tokens, and the same vector, as the whole text.
 * A run of 2,048 code points without a space is cut there (a piece is at most 16 code points, so it
 * still holds 128 tokens; only the last piece before the cut may be split differently).
 *
 * @example
 * cutForModel('word '.repeat(5000)).length // 639: 128 words
 */
export function cutForModel(text: string): string {
  let words = 1;
  let codePoints = 0;
  for (let index = 0; index < text.length; index += 1) {
    const unit = text.charCodeAt(index);
    if (unit === 0x20) {
      if (words === USE_LITE_MAX_TOKENS) return text.slice(0, index);
      words += 1;
    }
    if (codePoints === USE_LITE_MAX_CODE_POINTS) return text.slice(0, index);
    codePoints += 1;
    // A high surrogate and its low surrogate are one code point: step over the pair.
    if (unit >= 0xd800 && unit <= 0xdbff && index + 1 < text.length) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) index += 1;
    }
  }
  return text;
}
