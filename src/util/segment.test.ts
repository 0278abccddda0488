import { describe, expect, it } from 'vitest';

import {
  queryTerms,
  searchText,
  sentences,
  spacedShare,
  wellFormed,
  withoutUnspacedScripts,
  words,
} from './segment.js';

describe('segmentation', () => {
  it('splits Chinese into words, not one long token', () => {
    expect(words('我更喜欢用中文写技术文档')).toEqual(expect.arrayContaining(['喜欢', '中文', '技术']));
    expect(searchText('我更喜欢用中文')).toBe('我 更 喜欢 用 中文');
  });

  it('normalises case and width, and drops punctuation', () => {
    expect(words('Hello, ＷＯＲＬＤ!')).toEqual(['hello', 'world']);
    expect(queryTerms('Tea? tea, TEA and coffee')).toEqual(['tea', 'and', 'coffee']);
  });

  it('splits sentences in both languages', () => {
    expect(sentences('I prefer tea. 我更喜欢用中文。好的！')).toEqual(['I prefer tea.', '我更喜欢用中文。', '好的！']);
  });

  it('takes the runs of scripts written without spaces out of a text, counting their characters', () => {
    expect(withoutUnspacedScripts('我在Google上班')).toEqual({ text: ' Google ', characters: 4 });
    expect(withoutUnspacedScripts('東京タワー and 𠀀')).toEqual({ text: '  and  ', characters: 6 });
    expect(withoutUnspacedScripts('plain English')).toEqual({ text: 'plain English', characters: 0 });
  });

  it('tells the share of a text written in words with spaces, a character of Chinese or Japanese counting as a word', () => {
    expect(spacedShare('Which city do I live in?')).toBe(1);
    expect(spacedShare('我在Google上班')).toBeCloseTo(0.2, 10);
    expect(spacedShare('我住在哪个城市？')).toBe(0);
    expect(spacedShare('東京タワー and more')).toBeCloseTo(2 / 7, 10);
    expect(spacedShare('?!')).toBe(1);
  });

  it('replaces lone surrogates so text always encodes', () => {
    expect(wellFormed('a\uD800b\uDC00c')).toBe('a\uFFFDb\uFFFDc');
    expect(wellFormed('\u{1F600}')).toBe('\u{1F600}');
    expect(() => words('\uD800 lone')).not.toThrow();
  });
});

describe('word rules', () => {
  it('keeps inner apostrophes and underscores, splits on dots, slashes and hyphens', () => {
    expect(words("Don't touch db_query in docs/release.md v3.14 state-of-the-art")).toEqual([
      "don't",
      'touch',
      'db_query',
      'in',
      'docs',
      'release',
      'md',
      'v3',
      '14',
      'state',
      'of',
      'the',
      'art',
    ]);
  });

  it("drops a final 's, typographic or not, so a possessive is found by its name and the other way round", () => {
    expect(words("Caroline's phone’s battery died at LeBron's game")).toEqual([
      'caroline',
      'phone',
      'battery',
      'died',
      'at',
      'lebron',
      'game',
    ]);
    expect(queryTerms('Caroline')).toEqual(words("Caroline's"));
    expect(searchText("It’s Mel's, that's what he's saying")).toBe('it mel that what he saying');
    expect(words("the Smiths' house, the 1990's")).toEqual(['the', 'smiths', 'house', 'the', '1990']);
  });

  it("keeps other inner apostrophes, and let's, whole", () => {
    expect(words("Don’t be late: l'été starts at nine o'clock, let's go, rock'n'roll's back")).toEqual([
      "don't",
      'be',
      'late',
      "l'été",
      'starts',
      'at',
      'nine',
      "o'clock",
      "let's",
      'go',
      "rock'n'roll",
      'back',
    ]);
    expect(words("'s s' isn't")).toEqual(['s', 's', "isn't"]);
  });

  it("drops a final 's beside Chinese as well", () => {
    expect(words("Caroline's 中文文档")).toEqual(['caroline', ...words('中文文档')]);
  });

  it('keeps accented Latin words whole and segments mixed Chinese and English the same way everywhere', () => {
    expect(words('Café crème à Paris')).toEqual(['café', 'crème', 'à', 'paris']);
    expect(words('用Engram写中文文档')).toEqual(['用', 'engram', '写', ...words('中文文档')]);
    expect(words('中文')).toEqual(['中文']);
  });
});

describe('sentence rules', () => {
  it('splits Latin text at sentence ends before a capital, digit or quote, and at line breaks', () => {
    expect(sentences('It costs 3.14 euros. Really? "Yes!" 42 is the answer.\nNew line here')).toEqual([
      'It costs 3.14 euros.',
      'Really?',
      '"Yes!"',
      '42 is the answer.',
      'New line here',
    ]);
    expect(sentences('see docs/release.md for details. then continue')).toEqual([
      'see docs/release.md for details. then continue',
    ]);
    expect(sentences('   ')).toEqual([]);
  });
});
