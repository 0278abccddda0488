// Token counting behind a small interface, so budgets use the model's real tokenizer and a caller
// can plug in another one. Budgets are never estimated from character counts.

/**
 * Counts and cuts text in model tokens.
 *
 * @example
 * const tokenizer: Tokenizer = createTokenizer('o200k_base');
 * tokenizer.count('hello world'); // 2
 */
export interface Tokenizer {
  readonly specificationVersion: 'v1';
  /** The encoding name, recorded in explain.determinism so a replay uses the same one. */
  readonly name: string;
  count(text: string): number;
  /** The longest prefix of `text` that fits in `maxTokens` tokens. */
  truncate(text: string, maxTokens: number): string;
  /**
   * Optional: a key that texts of the same count share, so a cache of counts can count one of them
   * for all (o200k_base: the text with every ASCII digit written as `0`, since a run of digits is
   * cut into groups of three whatever the digits are, and each group is one token). Without it, a
   * text is its own key.
   */
  countKey?(text: string): string;
}
