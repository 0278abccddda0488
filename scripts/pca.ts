// Principal axes of a set of rows, for scripts/distill-embeddings.ts: the covariance of the
// centred rows and its eigenvectors by cyclic Jacobi rotations. Small (a 512×512 matrix), exact
// enough, and deterministic: the same rows give the same axes, byte for byte.

/**
 * The mean row and the `keep` leading principal axes (unit rows of `dimensions` numbers, largest
 * variance first; each axis's sign is chosen so that its largest component is positive).
 *
 * @example
 * const { mean, axes } = principalAxes(rows, 8000, 512, 256);
 */
export function principalAxes(
  rows: Float32Array,
  count: number,
  dimensions: number,
  keep: number,
): { mean: Float64Array; axes: Float64Array } {
  const mean = new Float64Array(dimensions);
  for (let row = 0; row < count; row += 1)
    for (let k = 0; k < dimensions; k += 1) mean[k]! += rows[row * dimensions + k]! / count;
  const covariance = new Float64Array(dimensions * dimensions);
  const centred = new Float64Array(dimensions);
  for (let row = 0; row < count; row += 1) {
    for (let k = 0; k < dimensions; k += 1) centred[k] = rows[row * dimensions + k]! - mean[k]!;
    for (let a = 0; a < dimensions; a += 1) {
      const value = centred[a]!;
      for (let b = a; b < dimensions; b += 1) covariance[a * dimensions + b]! += value * centred[b]!;
    }
  }
  for (let a = 0; a < dimensions; a += 1) {
    for (let b = a; b < dimensions; b += 1) {
      covariance[a * dimensions + b]! /= count;
      covariance[b * dimensions + a] = covariance[a * dimensions + b]!;
    }
  }
  const { values, vectors } = jacobiEigen(covariance, dimensions);
  const order = Array.from({ length: dimensions }, (_, index) => index).sort(
    (a, b) => values[b]! - values[a]! || a - b,
  );
  const axes = new Float64Array(keep * dimensions);
  order.slice(0, keep).forEach((column, axis) => {
    let largest = 0;
    for (let k = 0; k < dimensions; k += 1)
      if (Math.abs(vectors[k * dimensions + column]!) > Math.abs(largest)) largest = vectors[k * dimensions + column]!;
    const sign = largest < 0 ? -1 : 1;
    for (let k = 0; k < dimensions; k += 1) axes[axis * dimensions + k] = sign * vectors[k * dimensions + column]!;
  });
  return { mean, axes };
}

/** Eigenvalues (the diagonal left) and eigenvectors (as columns) of a symmetric matrix. */
function jacobiEigen(matrix: Float64Array, n: number): { values: Float64Array; vectors: Float64Array } {
  const a = Float64Array.from(matrix);
  const v = new Float64Array(n * n);
  for (let index = 0; index < n; index += 1) v[index * n + index] = 1;
  for (let sweep = 0; sweep < 50 && offDiagonal(a, n) > 1e-22; sweep += 1) {
    for (let p = 0; p < n - 1; p += 1) for (let q = p + 1; q < n; q += 1) rotate(a, v, n, p, q);
  }
  return { values: Float64Array.from({ length: n }, (_, index) => a[index * n + index]!), vectors: v };
}

function offDiagonal(a: Float64Array, n: number): number {
  let sum = 0;
  for (let p = 0; p < n; p += 1) for (let q = p + 1; q < n; q += 1) sum += a[p * n + q]! ** 2;
  return sum;
}

/** One Jacobi rotation that zeroes a[p][q] (and a[q][p]), applied to the matrix and the vectors. */
function rotate(a: Float64Array, v: Float64Array, n: number, p: number, q: number): void {
  const apq = a[p * n + q]!;
  if (apq === 0) return;
  const theta = (a[q * n + q]! - a[p * n + p]!) / (2 * apq);
  const t = (theta >= 0 ? 1 : -1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
  const c = 1 / Math.sqrt(t * t + 1);
  const s = t * c;
  for (let k = 0; k < n; k += 1) {
    const akp = a[k * n + p]!;
    const akq = a[k * n + q]!;
    a[k * n + p] = c * akp - s * akq;
    a[k * n + q] = s * akp + c * akq;
  }
  for (let k = 0; k < n; k += 1) {
    const apk = a[p * n + k]!;
    const aqk = a[q * n + k]!;
    a[p * n + k] = c * apk - s * aqk;
    a[q * n + k] = s * apk + c * aqk;
  }
  for (let k = 0; k < n; k += 1) {
    const vkp = v[k * n + p]!;
    const vkq = v[k * n + q]!;
    v[k * n + p] = c * vkp - s * vkq;
    v[k * n + q] = s * vkp + c * vkq;
  }
}
