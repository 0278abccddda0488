// Function words of English and Chinese that carry no topic: left out of query terms (when a
// query has other words) and not counted as content when scoring sentences.

export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a an the and or but if then so of to in on at by for with from as is are was were be been being am do does did ' +
    'have has had i me my we our you your he him his she her it its they them their this that these those there here ' +
    'what which who whom when where why how not no yes can could would should will shall may might must just also very ' +
    'too really about into over than out up down all any some more most much many such only own same again once ' +
    '的 了 是 在 和 也 就 都 而 及 与 着 或 一个 没有 我们 你们 他们 她们 它们 这 那 这个 那个 吗 呢 吧 啊 嗯'
  ).split(' '),
);

/**
 * The words of a query worth matching: its terms without function words, or all of its terms when
 * it has nothing else.
 *
 * @example
 * contentTerms(['when', 'is', 'the', 'launch']) // ['launch']
 */
export function contentTerms(terms: readonly string[]): string[] {
  const content = terms.filter((term) => !STOPWORDS.has(term));
  return content.length > 0 ? content : [...terms];
}
