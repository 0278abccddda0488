// The lines of an import, cut from its bytes as they arrive with a cap on each line: no string
// longer than the cap is ever built, and a longer line stops the import with an error naming it
// (the bytes held for it are dropped, so memory goes back down). Used by the library, the CLI and
// the HTTP route alike.

import { ValidationError } from '../spec/errors.js';

/**
 * The longest line an import reads by default: 16 MiB. The largest record an export writes is an
 * event with a 1 MiB body (the HTTP body limit) whose characters JSON escapes to up to 6 bytes each,
 * or a context build with its packet; 16 MiB holds either with room to spare.
 */
export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;

/** The largest line cap an import accepts: 1 GiB, the largest import the HTTP route takes. */
const MAX_LINE_BYTES_CEILING = 1024 * 1024 * 1024;

/**
 * What an import reads: bytes (a file or request stream, cut into lines here) or lines already
 * cut (strings, one line each, as `readline` yields them).
 */
export type ImportInput = AsyncIterable<Uint8Array | string> | Iterable<string>;

const NEWLINE = 0x0a;
const RETURN = 0x0d;

/**
 * The line cap of an import's options, checked: a whole number of bytes from 1 to 1 GiB.
 *
 * @example
 * lineCapOf(undefined) // 16777216
 */
export function lineCapOf(value: unknown): number {
  if (value === undefined) return DEFAULT_MAX_LINE_BYTES;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1 || value > MAX_LINE_BYTES_CEILING) {
    throw ValidationError.of(
      'maxLineBytes',
      'range',
      `must be a whole number of bytes from 1 to ${MAX_LINE_BYTES_CEILING}`,
    );
  }
  return value;
}

function tooLong(number: number, cap: number): ValidationError {
  return ValidationError.of(
    `line ${number}`,
    'maxLength',
    `is longer than ${cap} bytes, the import line limit (maxLineBytes); the import stopped there`,
  );
}

/** One line's bytes as text, without the carriage return of a CRLF ending. */
function decode(parts: readonly Buffer[], length: number): string {
  const bytes = parts.length === 1 ? parts[0]! : Buffer.concat(parts, length);
  const end = bytes.length > 0 && bytes[bytes.length - 1] === RETURN ? bytes.length - 1 : bytes.length;
  return bytes.toString('utf8', 0, end);
}

/** A string line, checked: its UTF-8 length is counted only when it could pass the cap. */
function checked(line: string, number: number, cap: number): string {
  if (line.length * 3 > cap && Buffer.byteLength(line, 'utf8') > cap) throw tooLong(number, cap);
  return line;
}

/**
 * The lines of an import, each at most `cap` bytes. Byte chunks (a file or request stream) are cut
 * at newlines, a CRLF ending too; strings are taken as lines already cut (as `readline` yields them).
 * A longer line is VALIDATION_FAILED on `line N` (rule `maxLength`), raised as soon as its bytes pass
 * the cap; the input is not read further (a stream is destroyed).
 *
 * @example
 * for await (const line of importLinesOf(createReadStream('acme.jsonl'), DEFAULT_MAX_LINE_BYTES)) handle(line);
 */
export async function* importLinesOf(input: ImportInput, cap: number): AsyncGenerator<string> {
  let parts: Buffer[] = [];
  let held = 0;
  let number = 0;
  for await (const chunk of input) {
    if (typeof chunk === 'string') {
      number += 1;
      yield checked(chunk, number, cap);
      continue;
    }
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let start = 0;
    for (let end = bytes.indexOf(NEWLINE, start); end !== -1; end = bytes.indexOf(NEWLINE, start)) {
      if (held + end - start > cap) throw tooLong(number + 1, cap);
      parts.push(bytes.subarray(start, end));
      number += 1;
      yield decode(parts, held + end - start);
      parts = [];
      held = 0;
      start = end + 1;
    }
    const rest = bytes.length - start;
    // Checked before the bytes are kept: at most `cap` bytes of a line are ever held.
    if (held + rest > cap) throw tooLong(number + 1, cap);
    if (rest > 0) {
      parts.push(bytes.subarray(start));
      held += rest;
    }
  }
  if (held > 0) yield decode(parts, held);
}
