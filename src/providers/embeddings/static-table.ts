// The file format of a static embedding table: a SentencePiece vocabulary (pieces and scores, for
// the tokenizer) and one int8 row per piece with its float32 scale. scripts/distill-embeddings.ts
// writes it; the local static model (local-static.ts) reads and checks it before any use.

import { EngramError } from '../../spec/errors.js';

/**
 * A static embedding table: a text's vector is the normalised sum of its pieces' rows, each row
 * `rows[id * dimensions + k] * scales[id]`.
 *
 * @example
 * { modelId: 'use-lite-static-v3', dimensions: 256, pieces, scores, scales, rows }
 */
export interface StaticTable {
  /** What the vectors are; a vector is compared only with vectors of the same id. */
  modelId: string;
  dimensions: number;
  /** The vocabulary in id order; `pieces[id]` is what `rows` row `id` stands for. */
  pieces: string[];
  /** Each piece's log-probability, which the tokenizer maximises over a word. */
  scores: Float64Array;
  /** Each row's scale; 0 for a piece that adds nothing (unknown, reserved). */
  scales: Float32Array;
  /** `pieces.length × dimensions` signed bytes, row by row. */
  rows: Int8Array;
}

const MAGIC = 'ENGRSTAT';
const VERSION = 1;
/** magic (8) + version, pieces, dimensions, id bytes, piece bytes, reserved (6 × 4). */
const HEADER_BYTES = 32;

function padded(length: number): number {
  return Math.ceil(length / 8) * 8;
}

function corrupt(source: string, problem: string): EngramError {
  return new EngramError(
    'CONFIG_INVALID',
    `the static embedding table ${source} is not usable: ${problem}; reinstall the package or rebuild the table (npm run distill:embeddings)`,
    {
      field: 'embeddings',
    },
  );
}

/**
 * The bytes of a table (little-endian), as {@link readStaticTable} reads them back.
 *
 * @example
 * writeFileSync('models/use-lite-static-v3.bin', writeStaticTable(table));
 */
export function writeStaticTable(table: StaticTable): Uint8Array {
  const encoder = new TextEncoder();
  const id = encoder.encode(table.modelId);
  const pieces = encoder.encode(table.pieces.join('\n'));
  const count = table.pieces.length;
  const textBytes = padded(id.length + pieces.length);
  const bytes = new Uint8Array(HEADER_BYTES + textBytes + count * 8 + count * 4 + count * table.dimensions);
  const view = new DataView(bytes.buffer);
  bytes.set(encoder.encode(MAGIC), 0);
  [VERSION, count, table.dimensions, id.length, pieces.length, 0].forEach((value, index) =>
    view.setUint32(8 + index * 4, value, true),
  );
  bytes.set(id, HEADER_BYTES);
  bytes.set(pieces, HEADER_BYTES + id.length);
  let offset = HEADER_BYTES + textBytes;
  for (const score of table.scores) {
    view.setFloat64(offset, score, true);
    offset += 8;
  }
  for (const scale of table.scales) {
    view.setFloat32(offset, scale, true);
    offset += 4;
  }
  bytes.set(new Uint8Array(table.rows.buffer, table.rows.byteOffset, table.rows.byteLength), offset);
  return bytes;
}

/**
 * Rows (`count × dimensions`, row by row) as a table stores them: each row as int8 scaled by its
 * largest magnitude (`scales`); an all-zero row has scale 0.
 *
 * @example
 * const { scales, bytes } = quantiseRows(rows, pieces.length, 256);
 */
export function quantiseRows(
  rows: ArrayLike<number>,
  count: number,
  dimensions: number,
): { scales: Float32Array; bytes: Int8Array } {
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

/** The header's counts, checked against the file's length. */
function readHeader(
  bytes: Uint8Array,
  source: string,
): { count: number; dimensions: number; idBytes: number; pieceBytes: number } {
  if (bytes.length < HEADER_BYTES || new TextDecoder().decode(bytes.subarray(0, 8)) !== MAGIC)
    throw corrupt(source, 'it does not start with the table header');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const [version, count, dimensions, idBytes, pieceBytes] = [0, 1, 2, 3, 4].map((index) =>
    view.getUint32(8 + index * 4, true),
  ) as [number, number, number, number, number];
  if (version !== VERSION) throw corrupt(source, `format version ${version}, this Engram reads ${VERSION}`);
  if (count < 1 || dimensions < 1) throw corrupt(source, `${count} pieces of ${dimensions} dimensions`);
  const expected = HEADER_BYTES + padded(idBytes + pieceBytes) + count * (8 + 4 + dimensions);
  if (bytes.length !== expected) throw corrupt(source, `${bytes.length} bytes where its header announces ${expected}`);
  return { count, dimensions, idBytes, pieceBytes };
}

/**
 * Reads and checks a table: the header, the length it announces, one piece per row, finite scores
 * and scales. `source` names the file in errors.
 *
 * @example
 * const table = readStaticTable(readFileSync(path), path);
 */
export function readStaticTable(bytes: Uint8Array, source: string): StaticTable {
  const { count, dimensions, idBytes, pieceBytes } = readHeader(bytes, source);
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let modelId: string;
  let pieces: string[];
  try {
    modelId = decoder.decode(bytes.subarray(HEADER_BYTES, HEADER_BYTES + idBytes));
    pieces = decoder.decode(bytes.subarray(HEADER_BYTES + idBytes, HEADER_BYTES + idBytes + pieceBytes)).split('\n');
  } catch {
    throw corrupt(source, 'its text is not UTF-8');
  }
  if (pieces.length !== count) throw corrupt(source, `${pieces.length} pieces for ${count} rows`);
  // Copies, so the numbers are aligned whatever the Buffer's offset in its pool.
  let offset = HEADER_BYTES + padded(idBytes + pieceBytes);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const scores = Float64Array.from({ length: count }, (_, index) => view.getFloat64(offset + index * 8, true));
  offset += count * 8;
  const scales = Float32Array.from({ length: count }, (_, index) => view.getFloat32(offset + index * 4, true));
  offset += count * 4;
  const rows = new Int8Array(bytes.buffer, bytes.byteOffset + offset, count * dimensions).slice();
  if (!scores.every(Number.isFinite) || !scales.every((scale) => Number.isFinite(scale) && scale >= 0))
    throw corrupt(source, 'a score or scale is not a finite number');
  return { modelId, dimensions, pieces, scores, scales, rows };
}
