import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';

import { EngramError } from '../spec/errors.js';
import { DEFAULT_MAX_LINE_BYTES, importLinesOf, lineCapOf } from './import-lines.js';

async function all(lines: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const line of lines) out.push(line);
  return out;
}

async function failure(lines: AsyncIterable<string>): Promise<EngramError> {
  try {
    await all(lines);
  } catch (error) {
    expect(EngramError.isInstance(error)).toBe(true);
    return error as EngramError;
  }
  throw new Error('expected the lines to fail');
}

describe('importLinesOf', () => {
  it('cuts bytes at newlines wherever the chunks end, CRLF too, multi-byte characters whole', async () => {
    const text = 'first\r\n{"word":"中文"}\n\nlast without newline';
    const bytes = Buffer.from(text, 'utf8');
    // One byte a chunk: every line and every character is split across chunks.
    const chunks = [...bytes].map((byte) => Buffer.from([byte]));
    expect(await all(importLinesOf(Readable.from(chunks), 64))).toEqual([
      'first',
      '{"word":"中文"}',
      '',
      'last without newline',
    ]);
    expect(await all(importLinesOf(Readable.from([bytes]), 64))).toEqual([
      'first',
      '{"word":"中文"}',
      '',
      'last without newline',
    ]);
  });

  it('takes strings as lines already cut, from arrays and async iterables', async () => {
    expect(await all(importLinesOf(['a', 'b'], 8))).toEqual(['a', 'b']);
    expect(await all(importLinesOf(Readable.from(['a', 'b'], { objectMode: true }), 8))).toEqual(['a', 'b']);
  });

  it('stops at the first line longer than the cap, naming it, without holding more than the cap', async () => {
    let read = 0;
    // An endless line: 1 KiB chunks, never a newline. The cut must come once the cap is passed.
    const endless = (async function* () {
      yield Buffer.from('ok\n');
      for (;;) {
        read += 1024;
        yield Buffer.alloc(1024, 0x61);
      }
    })();
    const error = await failure(importLinesOf(endless, 10_000));
    expect(error.field).toBe('line 2');
    expect(error.details['rule']).toBe('maxLength');
    expect(error.message).toContain('10000 bytes');
    // It read one chunk past the cap and no more.
    expect(read).toBe(10_240);
  });

  it('measures a line in UTF-8 bytes, not characters, for strings as for bytes', async () => {
    const wide = '中'.repeat(4); // 12 bytes
    expect((await failure(importLinesOf(['x', wide], 11))).field).toBe('line 2');
    expect((await failure(importLinesOf(Readable.from([Buffer.from(`${wide}\n`)]), 11))).field).toBe('line 1');
    expect(await all(importLinesOf(Readable.from([Buffer.from(`${wide}\n`)]), 12))).toEqual([wide]);
  });
});

describe('lineCapOf', () => {
  it('defaults to 16 MiB and refuses what is not a whole number of bytes from 1 to 1 GiB', () => {
    expect(lineCapOf(undefined)).toBe(DEFAULT_MAX_LINE_BYTES);
    expect(DEFAULT_MAX_LINE_BYTES).toBe(16 * 1024 * 1024);
    for (const bad of [0, -1, 1.5, '10', 2 ** 31, Number.NaN])
      expect(() => lineCapOf(bad)).toThrowError(
        expect.objectContaining({ code: 'VALIDATION_FAILED', field: 'maxLineBytes' }),
      );
  });
});
