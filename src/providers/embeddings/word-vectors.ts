// The word half of the default local embedding model: GloVe word vectors (Pennington, Socher and
// Manning, 2014; 6 billion tokens of Wikipedia and Gigaword, 100 dimensions), the 50,000 commonest
// words, shipped as models/glove-words-v1.bin in the static table format (scripts/build-word-vectors.ts).
// A text's word vector is the smooth-inverse-frequency average of its known content words with the
// direction common to all texts taken out (Arora, Liang and Ma, 2017): rare words weigh most, and
// two texts are alike by what they are about, not by being English. Words learnt from co-occurrence
// place "taekwondo" near "martial arts" and "violin" near "instrument", which the piece table
// distilled from a sentence encoder does less well (BENCHMARKS.md, "Local embedding models").

import { withoutUnspacedScripts } from '../../util/segment.js';
import { STOPWORDS } from '../../util/stopwords.js';
import type { StaticTable } from './static-table.js';

/** The id of the shipped word table; the model that adds it to the piece table has an id of its own. */
export const WORD_VECTORS_ID = 'glove-6b-100d-words-v1';

/** Dimensions of the word vectors. */
export const WORD_VECTORS_DIMENSIONS = 100;

/** The word table shipped in the package, at the same place relative to src/ and dist/. */
export const WORD_VECTORS_TABLE = new URL('../../../models/glove-words-v1.bin', import.meta.url);

/**
 * The weight of a word of probability p is SIF / (SIF + p): "the" counts for almost nothing and a
 * word seen once in a million tokens for almost one. The table stores each word's log-probability.
 */
const SIF = 1e-3;

/** A word as the table holds it: a run of letters and digits, lower case. */
const WORD = /[\p{L}\p{N}]+/gu;

/**
 * Word vectors loaded from a table whose pieces are words: each row's weight and the direction
 * common to texts (the weighted mean of the content words' rows, by how often they are said).
 */
export class WordVectors {
  private readonly ids = new Map<string, number>();
  private readonly weights: Float32Array;
  private readonly common: Float64Array;

  constructor(private readonly table: StaticTable) {
    const { dimensions, pieces, scores, scales, rows } = table;
    this.weights = Float32Array.from(scores, (score) => SIF / (SIF + Math.exp(score)));
    this.common = new Float64Array(dimensions);
    let total = 0;
    for (const [id, word] of pieces.entries()) {
      this.ids.set(word, id);
      if (STOPWORDS.has(word)) continue;
      // A text's vector is a weighted sum; the common direction is that sum over all of language.
      const share = Math.exp(scores[id]!) * this.weights[id]!;
      total += share;
      const scale = share * scales[id]!;
      for (let axis = 0; axis < dimensions; axis += 1) this.common[axis]! += rows[id * dimensions + axis]! * scale;
    }
    if (total > 0) for (let axis = 0; axis < dimensions; axis += 1) this.common[axis]! /= total;
  }

  /**
   * The word vector of a text, before normalising: the unit-length weighted mean of its content
   * words' rows less the common direction (null when it holds no word of the table), and the share
   * of its words written with spaces (each character of Chinese and other scripts written without
   * spaces counts as a word): what the vector can speak for. "我在Google上班" is a fifth English.
   */
  embed(text: string): { vector: Float64Array | null; share: number } {
    const { dimensions, scales, rows } = this.table;
    const { text: spaced, characters } = withoutUnspacedScripts(text.toLowerCase());
    const sum = new Float64Array(dimensions);
    let found = false;
    let content = 0;
    for (const word of spaced.match(WORD) ?? []) {
      if (STOPWORDS.has(word)) continue;
      content += 1;
      const id = this.ids.get(word);
      if (id === undefined) continue;
      found = true;
      const weight = this.weights[id]! * scales[id]!;
      const base = id * dimensions;
      for (let axis = 0; axis < dimensions; axis += 1) sum[axis]! += rows[base + axis]! * weight;
    }
    const share = content === 0 ? 0 : content / (content + characters);
    let squares = 0;
    for (const value of sum) squares += value * value;
    if (!found || squares === 0) return { vector: null, share };
    const length = Math.sqrt(squares);
    for (let axis = 0; axis < dimensions; axis += 1) sum[axis] = sum[axis]! / length - this.common[axis]!;
    return { vector: sum, share };
  }
}
