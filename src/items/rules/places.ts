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

let lines: string[] | undefined;

/**
 * A name as it is looked up: lower case, without diacritics, single spaces.
 *
 * @example
 * foldName('Kraków') // 'krakow'
 */
export function foldName(text: string): string {
  // Most names are plain ASCII: only the others pay for the decomposition.
  const plain = /^[\x20-\x7e]*$/u.test(text) ? text : text.normalize('NFD').replace(/\p{M}/gu, '');
  return plain.toLowerCase().replace(/\s+/gu, ' ').trim();
}

/** The list's lines, sorted by the name as it is looked up; read once, with nothing built from them. */
function placeLines(): string[] {
  lines ??= readFileSync(PLACES_FILE, 'utf8')
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'));
  return lines;
}

/** The line of a folded name, by binary search over the sorted lines. */
function lineOf(key: string): string | undefined {
  const sorted = placeLines();
  let low = 0;
  let high = sorted.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const line = sorted[middle]!;
    const known = line.slice(0, line.indexOf('\t'));
    if (known === key) return line;
    if (known < key) low = middle + 1;
    else high = middle - 1;
  }
  return undefined;
}

/**
 * The place a run of words names exactly (case and diacritics aside), if any.
 *
 * @example
 * placeNamed('Ballarat') // { name: 'Ballarat', kind: 'city', population: 97937 }
 */
export function placeNamed(words: string): Place | undefined {
  const line = lineOf(foldName(words));
  if (line === undefined) return undefined;
  const [, name = '', kind, population = '0'] = line.split('\t');
  return { name, kind: kind === 'country' || kind === 'region' ? kind : 'city', population: Number(population) };
}
