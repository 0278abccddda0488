import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { caught } from '../../testing/expect-code.js';
import { dot } from '../../util/vectors.js';
import { embedTexts } from './embed.js';
import {
  createLocalStaticEmbeddings,
  LOCAL_STATIC_DIMENSIONS,
  LOCAL_STATIC_MODEL_ID,
  STATIC_MAX_CHARS,
  USE_LITE_STATIC_DIMENSIONS,
  USE_LITE_STATIC_MODEL_ID,
  USE_LITE_STATIC_TABLE,
} from './local-static.js';
import { PieceTokenizer } from './piece-tokenizer.js';
import { readStaticTable, writeStaticTable } from './static-table.js';
import { WORD_VECTORS_DIMENSIONS, WORD_VECTORS_ID, WORD_VECTORS_TABLE } from './word-vectors.js';

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function folder(): string {
  const path = mkdtempSync(join(tmpdir(), 'engram-static-table-'));
  folders.push(path);
  return path;
}

describe('the shipped table', () => {
  const bytes = readFileSync(USE_LITE_STATIC_TABLE);
  const table = readStaticTable(bytes, 'models/use-lite-static-v3.bin');

  it("holds the model it names: the model's 8,000 pieces and 20,000 whole words, 256 int8 dimensions, reserved pieces empty", () => {
    expect(table).toMatchObject({ modelId: USE_LITE_STATIC_MODEL_ID, dimensions: USE_LITE_STATIC_DIMENSIONS });
    expect(table.pieces).toHaveLength(28_000);
    // A word the model's vocabulary splits ("pottery" is ▁pot + tery) has a row of its own.
    expect(table.pieces.slice(8_000)).toContain('\u2581pottery');
    // No word repeats a piece or another word (the model's own vocabulary lists one piece three times).
    expect(new Set(table.pieces.slice(8_000)).size).toBe(20_000);
    expect(new Set(table.pieces).size).toBe(table.pieces.length - 2);
    // The tokenizer reads it whole.
    const words = new PieceTokenizer(table.pieces, table.scores).encode('a pottery class');
    expect(words).toContain(table.pieces.indexOf('\u2581pottery'));
    expect(words).toHaveLength(3);
    expect(table.pieces.slice(0, 3)).toEqual(['\uFFFD', '<s>', '</s>']);
    expect(Array.from(table.scales.subarray(0, 6))).toEqual([0, 0, 0, 0, 0, 0]);
    expect(table.scales.subarray(6).every((scale) => scale > 0)).toBe(true);
  });

  it('reads back what it writes, from a Buffer at any offset of its pool', () => {
    const copy = writeStaticTable(table);
    expect(Buffer.compare(Buffer.from(copy), bytes)).toBe(0);
    const shifted = Buffer.alloc(copy.length + 3);
    shifted.set(copy, 3);
    const again = readStaticTable(shifted.subarray(3), 'shifted');
    expect(Buffer.compare(Buffer.from(writeStaticTable(again)), bytes)).toBe(0);
    expect(again.rows[6 * 256]).toBe(table.rows[6 * 256]);
  });

  it('refuses a truncated or foreign file, naming it', () => {
    expect(() => readStaticTable(bytes.subarray(0, bytes.length - 1), 'short.bin')).toThrow(
      new RegExp(
        `short\\.bin is not usable: ${bytes.length - 1} bytes where its header announces ${bytes.length}`,
        'u',
      ),
    );
    expect(() => readStaticTable(Buffer.from('PK\u0003\u0004 not a table at all, but long enough'), 'zip.bin')).toThrow(
      /zip\.bin is not usable: it does not start with the table header/,
    );
  });
});

describe('the shipped word table', () => {
  const table = readStaticTable(readFileSync(WORD_VECTORS_TABLE), 'models/glove-words-v1.bin');

  it('holds the 50,000 commonest GloVe words, commonest first, each with a row and a probability that falls with its rank', () => {
    expect(table).toMatchObject({ modelId: WORD_VECTORS_ID, dimensions: WORD_VECTORS_DIMENSIONS });
    expect(table.pieces).toHaveLength(50_000);
    expect(new Set(table.pieces).size).toBe(50_000);
    expect(table.pieces.slice(0, 3)).toEqual(['the', 'of', 'to']);
    expect(table.pieces).toContain('taekwondo');
    // Words only: punctuation and the tokens of contractions ("n't") are left out.
    expect(table.pieces.every((word) => /^[\p{L}\p{N}]+$/u.test(word))).toBe(true);
    expect(table.scores.every((score, index) => score < 0 && (index === 0 || score <= table.scores[index - 1]!))).toBe(
      true,
    );
    expect(table.scales.every((scale) => scale > 0)).toBe(true);
  });
});

describe('createLocalStaticEmbeddings', () => {
  const model = createLocalStaticEmbeddings();

  it('describes itself with an id of its own, so no vector of the transformer or of the piece table alone is compared with its vectors', () => {
    expect([LOCAL_STATIC_MODEL_ID, LOCAL_STATIC_DIMENSIONS]).toEqual(['use-lite-glove-static-v4', 356]);
    expect(model).toMatchObject({
      specificationVersion: 'v1',
      provider: 'local',
      modelId: LOCAL_STATIC_MODEL_ID,
      dimensions: LOCAL_STATIC_DIMENSIONS,
      maxBatchSize: 32,
      remote: false,
    });
    expect(createLocalStaticEmbeddings({ model: 'use-lite-static-v3' })).toMatchObject({
      modelId: USE_LITE_STATIC_MODEL_ID,
      dimensions: USE_LITE_STATIC_DIMENSIONS,
    });
  });

  it('reads as much of a text as it holds words written with spaces: none of a Chinese question', () => {
    for (const local of [model, createLocalStaticEmbeddings({ model: 'use-lite-static-v3' })]) {
      expect(local.coverage?.('Which city do I live in?')).toBe(1);
      expect(local.coverage?.('我在Google上班')).toBeCloseTo(0.2, 10);
      expect(local.coverage?.('我住在哪个城市？')).toBe(0);
    }
  });

  it("joins the piece table's vector and the words' vector, each counting half in English; Chinese keeps the piece table's, alone or mostly", async () => {
    const pieces = createLocalStaticEmbeddings({ model: 'use-lite-static-v3' });
    const texts = ['I ran a charity race last Saturday', '我昨天跑了一个慈善比赛'];
    const joined = await embedTexts(model, texts);
    const alone = await embedTexts(pieces, texts);
    const head = (vector: Float32Array) => vector.subarray(0, USE_LITE_STATIC_DIMENSIONS);
    const tail = (vector: Float32Array) => vector.subarray(USE_LITE_STATIC_DIMENSIONS);
    // English: half of the length in each part, the first the piece table's own direction.
    expect(dot(head(joined[0]!), head(joined[0]!))).toBeCloseTo(0.5, 5);
    expect(dot(tail(joined[0]!), tail(joined[0]!))).toBeCloseTo(0.5, 5);
    expect(dot(head(joined[0]!), alone[0]!) / Math.SQRT1_2).toBeCloseTo(1, 5);
    // Chinese: no word of the table, so the words add nothing and the vector is the piece table's.
    expect(Array.from(tail(joined[1]!)).every((value) => value === 0)).toBe(true);
    expect(dot(head(joined[1]!), alone[1]!)).toBeCloseTo(1, 5);
    // Chinese naming a brand: one English word of ten, so the words count a tenth of the pieces.
    const [mixed] = await embedTexts(model, ['我在Google上班，每天都很忙']);
    expect(dot(tail(mixed!), tail(mixed!))).toBeCloseTo(0.01 / 1.01, 5);
  });

  it('places a kind of thing near what is of that kind, with no word in common', async () => {
    const pairs = [
      [
        'Which martial arts has he done?',
        "I'm off to do some taekwondo tonight!",
        "I'm off to do some grocery shopping tonight!",
      ],
      [
        'What instruments does she play?',
        'I play the violin every evening to relax.',
        'I read a novel every evening to relax.',
      ],
      [
        'How many doctors did I visit?',
        'The dermatologist said the rash is nothing serious.',
        'The plumber said the leak is nothing serious.',
      ],
    ] as const;
    for (const [question, kind, other] of pairs) {
      const [asked, near, far] = await embedTexts(model, [question, kind, other]);
      expect(dot(asked!, near!), question).toBeGreaterThan(dot(asked!, far!));
    }
  });

  it('gives unit vectors, in order, the same for the same text whatever the batch', async () => {
    const texts = [
      'I prefer green tea in the morning',
      'Our flight to Lisbon leaves on Friday',
      'I prefer green tea in the morning',
    ];
    const vectors = await embedTexts(model, texts);
    expect(vectors).toHaveLength(3);
    for (const vector of vectors) {
      expect(vector).toHaveLength(LOCAL_STATIC_DIMENSIONS);
      expect(dot(vector, vector)).toBeCloseTo(1, 5);
    }
    expect(vectors[2]).toEqual(vectors[0]);
    const [alone] = await embedTexts(model, [texts[1]!]);
    expect(alone).toEqual(vectors[1]);
  });

  it('ranks a text about the same thing above an unrelated one', async () => {
    const [query, tea, coffee, flight] = await embedTexts(model, [
      'What does she like to drink at breakfast?',
      'She drinks green tea every morning',
      'Coffee with milk is my usual breakfast drink',
      'The flight to Lisbon was delayed by two hours',
    ]);
    expect(dot(query!, tea!)).toBeGreaterThan(dot(query!, flight!));
    expect(dot(query!, coffee!)).toBeGreaterThan(dot(query!, flight!));
  });

  it('reads line breaks and runs of spaces as one space, and no more than 8,192 characters', async () => {
    const [spaced, plain] = await embedTexts(model, [
      'I adopted\n\na   puppy\t last week ',
      'I adopted a puppy last week',
    ]);
    expect(spaced).toEqual(plain);
    const long = 'word '.repeat(STATIC_MAX_CHARS / 4);
    const [cut, longer] = await embedTexts(model, [long, `${long}camping in the mountains with my family`]);
    expect(longer).toEqual(cut);
  });

  it('gives a zero vector, similar to nothing, for a text with no known piece', async () => {
    const [empty, unknown] = await embedTexts(model, ['', '中文']);
    expect(Array.from(empty!).every((value) => value === 0)).toBe(true);
    // '▁' alone is a piece: the unknown characters add nothing, the word start a little.
    expect(unknown).toHaveLength(LOCAL_STATIC_DIMENSIONS);
  });

  it('checks each call as the other local models do', async () => {
    const tooMany = await caught(model.doEmbed({ values: Array.from({ length: 33 }, () => 'x') }));
    expect(tooMany).toMatchObject({ code: 'VALIDATION_FAILED', field: 'values' });
    expect(tooMany.message).toMatch(/holds 33 texts; this model takes at most 32/);
    expect(await caught(model.doEmbed({ values: [1 as unknown as string] }))).toMatchObject({
      code: 'VALIDATION_FAILED',
      field: 'values[0]',
    });
    expect(await caught(model.doEmbed({ values: ['x'], priority: 'urgent' as never }))).toMatchObject({
      code: 'VALIDATION_FAILED',
      field: 'priority',
    });
    const aborted = new AbortController();
    aborted.abort(new Error('caller gave up'));
    await expect(model.doEmbed({ values: ['x'], signal: aborted.signal })).rejects.toThrow('caller gave up');
    expect(() => createLocalStaticEmbeddings({ maxBatchSize: 0 })).toThrow(
      /embeddings.maxBatchSize must be a positive integer/,
    );
    expect(() => createLocalStaticEmbeddings({ model: 'use-lite-static-v2' as never })).toThrow(
      /embeddings\.model must be "use-lite-glove-static-v4" or "use-lite-static-v3", got "use-lite-static-v2"/,
    );
  });

  it('refuses calls after close(), while other models keep the shared table', async () => {
    const closing = createLocalStaticEmbeddings();
    await closing.doEmbed({ values: ['before'] });
    await closing.close();
    expect(await caught(closing.doEmbed({ values: ['after'] }))).toMatchObject({
      code: 'CONFIG_INVALID',
      field: 'embeddings',
      message: 'this embedding model is closed',
    });
    await expect(model.doEmbed({ values: ['still open'] })).resolves.toMatchObject({
      embeddings: [expect.any(Float32Array)],
    });
  });

  it('names the table and what to do when it is missing, damaged, or holds another model', async () => {
    const dir = folder();
    const missing = await caught(
      createLocalStaticEmbeddings({ table: join(dir, 'absent.bin') }).doEmbed({ values: ['x'] }),
    );
    expect(missing).toMatchObject({ code: 'CONFIG_INVALID', field: 'embeddings' });
    expect(missing.message).toMatch(
      /absent\.bin cannot be read; reinstall the package or rebuild the table \(npm run distill:embeddings\)/,
    );

    const damaged = join(dir, 'damaged.bin');
    writeFileSync(damaged, readFileSync(USE_LITE_STATIC_TABLE).subarray(0, 1_000));
    expect((await caught(createLocalStaticEmbeddings({ table: damaged }).doEmbed({ values: ['x'] }))).message).toMatch(
      /damaged\.bin is not usable/,
    );

    const table = readStaticTable(readFileSync(USE_LITE_STATIC_TABLE), 'shipped');
    const other = join(dir, 'other.bin');
    writeFileSync(other, writeStaticTable({ ...table, modelId: 'use-lite-static-v1' }));
    expect((await caught(createLocalStaticEmbeddings({ table: other }).doEmbed({ values: ['x'] }))).message).toMatch(
      /holds use-lite-static-v1 \(256-d\), not use-lite-static-v3/,
    );

    // The word table likewise, with the command that rebuilds it; the piece table alone does not read it.
    const noWords = await caught(
      createLocalStaticEmbeddings({ words: join(dir, 'no-words.bin') }).doEmbed({ values: ['x'] }),
    );
    expect(noWords).toMatchObject({ code: 'CONFIG_INVALID', field: 'embeddings' });
    expect(noWords.message).toMatch(
      /no-words\.bin cannot be read; reinstall the package or rebuild the table \(npm run build:word-vectors\)/,
    );
    expect((await caught(createLocalStaticEmbeddings({ words: other }).doEmbed({ values: ['x'] }))).message).toMatch(
      /holds use-lite-static-v1 \(256-d\), not glove-6b-100d-words-v1 \(100-d\)/,
    );
    await expect(
      createLocalStaticEmbeddings({ model: 'use-lite-static-v3', words: join(dir, 'no-words.bin') }).doEmbed({
        values: ['x'],
      }),
    ).resolves.toMatchObject({ embeddings: [expect.any(Float32Array)] });
  });
});
