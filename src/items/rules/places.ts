// Place names: what tells a town from any other word in "I'm a GP in Cork", "3 weeks in abuja now" or
// "在思明区租了房". The list (models/places-v1.tsv: every place of at least 15,000 inhabitants and the
// countries they are in, from GeoNames, and China's provinces, cities and districts by their Chinese
// names, built by scripts/build-places.ts) is read once, on first use.

import { readFileSync } from 'node:fs';

/** The list, shipped in the package beside the embedding table. */
export const PLACES_FILE = new URL('../../../models/places-v1.tsv', import.meta.url);

export interface Place {
  name: string;
  kind: 'city' | 'country' | 'region';
  population: number;
}

let index: Map<string, Place> | undefined;

/**
 * A name as it is looked up: lower case, without diacritics, single spaces.
 *
 * @example
 * foldName('Kraków') // 'krakow'
 */
export function foldName(text: string): string {
  // Most names are plain ASCII: only the others pay for the decomposition (the list is folded once, on first use).
  const plain = /^[\x20-\x7e]*$/u.test(text) ? text : text.normalize('NFD').replace(/\p{M}/gu, '');
  return plain.toLowerCase().replace(/\s+/gu, ' ').trim();
}

function places(): Map<string, Place> {
  if (index !== undefined) return index;
  const found = new Map<string, Place>();
  for (const line of readFileSync(PLACES_FILE, 'utf8').split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    // Folded when the list was built, so reading it costs no normalisation.
    const [key = '', name = '', kind, population = '0'] = line.split('\t');
    const place: Place = { name, kind: kind === 'country' || kind === 'region' ? kind : 'city', population: Number(population) };
    const known = found.get(key);
    if (known === undefined || known.population < place.population) found.set(key, place);
  }
  index = found;
  return found;
}

/**
 * The place a run of words names exactly (case and diacritics aside), if any.
 *
 * @example
 * placeNamed('Ballarat') // { name: 'Ballarat', kind: 'city', population: 97937 }
 */
export function placeNamed(words: string): Place | undefined {
  return places().get(foldName(words));
}
