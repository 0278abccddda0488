// The second step of scripts/distill-embeddings.ts: rows of a static table fitted to what the
// model says of whole sentences. A static model embeds a text as the sum of its pieces' rows; rows
// taken from each piece alone know nothing of which pieces carry a sentence's meaning. Here the
// rows are solved so that each sentence's mean row is as close as least squares can make it to the
// model's own vector of the sentence, pulled towards the rows of step one (ridge), which also keep
// the pieces no sentence holds. Conjugate gradients, a fixed number of steps, float64 in a fixed
// order: the same inputs give the same rows, byte for byte.

/** One sentence as the tokenizer splits it: piece ids, repeats kept. */
export type PieceBag = readonly number[];

export interface SentenceFitInput {
  /** Rows of step one, `pieces × dimensions`, row by row; the fit starts here and is pulled back here. */
  start: Float64Array;
  dimensions: number;
  /** Each sentence's pieces (only pieces that have a row; an empty bag is left out). */
  sentences: readonly PieceBag[];
  /** The model's vector of each sentence in the table's space, `sentences × dimensions`. */
  targets: Float64Array;
  /** Weight of the pull towards `start` against the sentences' error (ridge). */
  lambda: number;
  /** Conjugate gradient steps. */
  iterations: number;
}

export interface SentenceFitResult {
  rows: Float64Array;
  /** The one factor that brought `start` to the sentences' scale before the fit (least squares). */
  scale: number;
  /** Root of the summed squared residual of the normal equations, after each step. */
  residuals: number[];
}

/** The sentences as a sparse matrix: row s holds each piece's share of sentence s (count / length). */
interface Shares {
  starts: Int32Array;
  ids: Int32Array;
  shares: Float64Array;
}

function sharesOf(sentences: readonly PieceBag[]): Shares {
  const starts = new Int32Array(sentences.length + 1);
  const ids: number[] = [];
  const shares: number[] = [];
  sentences.forEach((bag, sentence) => {
    const counts = new Map<number, number>();
    for (const id of bag) counts.set(id, (counts.get(id) ?? 0) + 1);
    for (const [id, count] of [...counts].sort((a, b) => a[0] - b[0])) {
      ids.push(id);
      shares.push(count / bag.length);
    }
    starts[sentence + 1] = ids.length;
  });
  return { starts, ids: Int32Array.from(ids), shares: Float64Array.from(shares) };
}

/**
 * out = A · input (input pieces × d, out sentences × d) or, `transposed`, out = Aᵀ · input (input
 * sentences × d, out pieces × d).
 */
function multiply(a: Shares, input: Float64Array, d: number, out: Float64Array, transposed: boolean): void {
  out.fill(0);
  for (let sentence = 0; sentence + 1 < a.starts.length; sentence += 1) {
    for (let at = a.starts[sentence]!; at < a.starts[sentence + 1]!; at += 1) {
      const share = a.shares[at]!;
      const from = transposed ? sentence * d : a.ids[at]! * d;
      const to = transposed ? a.ids[at]! * d : sentence * d;
      for (let k = 0; k < d; k += 1) out[to + k]! += share * input[from + k]!;
    }
  }
}

/** Per column k: Σ over rows of x[i, k] · y[i, k]. */
function columnDots(x: Float64Array, y: Float64Array, d: number): Float64Array {
  const sums = new Float64Array(d);
  for (let index = 0; index < x.length; index += 1) sums[index % d]! += x[index]! * y[index]!;
  return sums;
}

/**
 * Rows that make each sentence's mean row close to its target: min ‖A R − Y‖² + λ ‖R − c R₀‖²,
 * with c the least-squares factor from R₀ to Y. Each of the `dimensions` columns is its own
 * conjugate gradient problem over one shared matrix, stepped together.
 *
 * @example
 * const { rows } = fitSentenceRows({ start, dimensions: 256, sentences, targets, lambda: 0.1, iterations: 60 });
 */
export function fitSentenceRows(input: SentenceFitInput): SentenceFitResult {
  const { start, dimensions: d, targets, lambda, iterations } = input;
  const used = input.sentences.filter((bag) => bag.length > 0);
  const kept = input.sentences.flatMap((bag, index) => (bag.length > 0 ? [index] : []));
  const y = new Float64Array(kept.length * d);
  kept.forEach((sentence, at) => y.set(targets.subarray(sentence * d, (sentence + 1) * d), at * d));
  const a = sharesOf(used);
  const fitted = new Float64Array(y.length);
  multiply(a, start, d, fitted, false);
  let across = 0;
  let own = 0;
  for (let index = 0; index < y.length; index += 1) {
    across += fitted[index]! * y[index]!;
    own += fitted[index]! ** 2;
  }
  const scale = own > 0 ? across / own : 1;
  const prior = start.map((value) => value * scale);
  // (AᵀA + λI) R = AᵀY + λ c R₀, from R = c R₀.
  const normal = (p: Float64Array, out: Float64Array) => {
    multiply(a, p, d, fitted, false);
    multiply(a, fitted, d, out, true);
    for (let index = 0; index < out.length; index += 1) out[index]! += lambda * p[index]!;
  };
  const rows = Float64Array.from(prior);
  const right = new Float64Array(rows.length);
  multiply(a, y, d, right, true);
  const residual = new Float64Array(rows.length);
  normal(rows, residual);
  for (let index = 0; index < rows.length; index += 1)
    residual[index] = right[index]! + lambda * prior[index]! - residual[index]!;
  const direction = Float64Array.from(residual);
  const product = new Float64Array(rows.length);
  let squared = columnDots(residual, residual, d);
  const residuals: number[] = [];
  for (let step = 0; step < iterations; step += 1) {
    normal(direction, product);
    const curvature = columnDots(direction, product, d);
    const alpha = squared.map((value, k) => (curvature[k]! > 0 ? value / curvature[k]! : 0));
    for (let index = 0; index < rows.length; index += 1) {
      const k = index % d;
      rows[index]! += alpha[k]! * direction[index]!;
      residual[index]! -= alpha[k]! * product[index]!;
    }
    const next = columnDots(residual, residual, d);
    const beta = next.map((value, k) => (squared[k]! > 0 ? value / squared[k]! : 0));
    for (let index = 0; index < rows.length; index += 1)
      direction[index] = residual[index]! + beta[index % d]! * direction[index]!;
    squared = next;
    residuals.push(Math.sqrt(squared.reduce((sum, value) => sum + value, 0)));
  }
  return { rows, scale, residuals };
}
