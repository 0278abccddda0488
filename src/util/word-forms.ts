// The forms of an English word that stemming cannot join: the tenses of irregular verbs ("buy",
// "bought"; "feel", "felt"; "go", "went", "gone") and irregular plurals ("child", "children";
// "person", "people"). A question asks in the present ("What did Melanie buy?") what a turn told in
// the past ("I bought a figurine"): the Porter stem of "bought" is "bought", so without its other
// forms the words signal never finds the turn. The lists come from english-verbs-irregular (569
// verbs) and irregular-plurals.

import { createRequire } from 'node:module';

import irregularPlurals from 'irregular-plurals';

import { termKey } from './bm25-stats.js';
import { queryTerms } from './segment.js';
import { contentTerms, STOPWORDS } from './stopwords.js';

/** Each irregular verb's past forms by its infinitive: `{ buy: [['bought', 'bought']] }`. */
type IrregularVerbs = Record<string, string[][]>;

/**
 * The words of one family by the key (`termKey`, the stem) of each of its words, without those of
 * the same key; a word in two families joins both. Keyed by stem, "running" finds "ran" as "run" does.
 */
function wordFamilies(): ReadonlyMap<string, readonly string[]> {
  const verbs = createRequire(import.meta.url)('english-verbs-irregular/dist/verbs.json') as IrregularVerbs;
  const families: string[][] = Object.entries(verbs).map(([infinitive, pasts]) => [infinitive, ...pasts.flat()]);
  for (const [singular, plural] of irregularPlurals) families.push([singular, plural]);
  const byKey = new Map<string, Set<string>>();
  for (const family of families) {
    const words = family.map((word) => word.toLowerCase()).filter((word) => /^[a-z]+$/u.test(word));
    for (const word of words) {
      const key = termKey(word);
      const joined = byKey.get(key) ?? new Set<string>();
      // Only forms its stem does not already match ("trip" matches "tripped" as it is).
      for (const other of words) if (termKey(other) !== key) joined.add(other);
      if (joined.size > 0) byKey.set(key, joined);
    }
  }
  return new Map([...byKey].map(([key, others]) => [key, [...others]]));
}

let families: ReadonlyMap<string, readonly string[]> | undefined;

/**
 * The other forms of an English word that its stem does not match (none for most words).
 *
 * @example
 * otherForms('buy') // ['bought']
 * otherForms('went') // ['go', 'gone']
 * otherForms('running') // ['ran']
 * otherForms('table') // []
 */
export function otherForms(word: string): readonly string[] {
  families ??= wordFamilies();
  return families.get(termKey(word)) ?? [];
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
  // By the keys stores match words by: a form that adds nothing to the words already searched is left out.
  const seen = new Set(terms.map(termKey));
  const forms: string[] = [];
  for (const term of terms) {
    for (const form of otherForms(term)) {
      if (STOPWORDS.has(form) || seen.has(termKey(form))) continue;
      seen.add(termKey(form));
      forms.push(form);
    }
  }
  return [...terms, ...forms];
}
