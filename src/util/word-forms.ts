// The forms of an English word that stemming cannot join: the tenses of irregular verbs ("buy",
// "bought"; "feel", "felt"; "go", "went", "gone") and irregular plurals ("child", "children";
// "person", "people"). A question asks in the present ("What did Melanie buy?") what a turn told in
// the past ("I bought a figurine"): the Porter stem of "bought" is "bought", so without its other
// forms the words signal never finds the turn. The lists come from english-verbs-irregular (569
// verbs) and irregular-plurals.

import { createRequire } from 'node:module';

import irregularPlurals from 'irregular-plurals';

import { queryTerms } from './segment.js';
import { contentTerms, STOPWORDS } from './stopwords.js';

/** Each irregular verb's past forms by its infinitive: `{ buy: [['bought', 'bought']] }`. */
type IrregularVerbs = Record<string, string[][]>;

/** The words of one family by each of its words; a word in two families joins both. */
function wordFamilies(): ReadonlyMap<string, readonly string[]> {
  const verbs = createRequire(import.meta.url)('english-verbs-irregular/dist/verbs.json') as IrregularVerbs;
  const families: string[][] = Object.entries(verbs).map(([infinitive, pasts]) => [infinitive, ...pasts.flat()]);
  for (const [singular, plural] of irregularPlurals) families.push([singular, plural]);
  const byWord = new Map<string, Set<string>>();
  for (const family of families) {
    const words = family.map((word) => word.toLowerCase()).filter((word) => /^[a-z]+$/u.test(word));
    for (const word of words) {
      const joined = byWord.get(word) ?? new Set<string>();
      for (const other of words) if (other !== word) joined.add(other);
      byWord.set(word, joined);
    }
  }
  return new Map([...byWord].map(([word, others]) => [word, [...others]]));
}

let families: ReadonlyMap<string, readonly string[]> | undefined;

/**
 * The other forms of an English word that its stem does not share (none for most words).
 *
 * @example
 * otherForms('buy') // ['bought']
 * otherForms('went') // ['go', 'gone']
 * otherForms('table') // []
 */
export function otherForms(word: string): readonly string[] {
  families ??= wordFamilies();
  return families.get(word) ?? [];
}

/**
 * The words a text is searched by: its content words in order (`contentTerms`), then the other
 * forms of each that are not function words. Stores rank by the first `MAX_SEARCH_TERMS`, so a
 * long query's own words always come before the forms added to them.
 *
 * @example
 * searchTerms('What did Melanie buy?') // ['melanie', 'buy', 'bought']
 * searchTerms('How did I feel') // ['feel', 'felt']
 */
export function searchTerms(text: string): string[] {
  const terms = contentTerms(queryTerms(text));
  const seen = new Set(terms);
  const forms: string[] = [];
  for (const term of terms) {
    for (const form of otherForms(term)) {
      if (seen.has(form) || STOPWORDS.has(form)) continue;
      seen.add(form);
      forms.push(form);
    }
  }
  return [...terms, ...forms];
}
