import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { RULES } from './index.js';
import { LiteralIndex, literalsOf } from './literals.js';
import { SILENCE_PATTERNS } from './speculation.js';

// Every expression the extractor prefilters: the rules' triggers and the silence patterns.
const PATTERNS: readonly RegExp[] = [
  ...new Set([...RULES.map((rule) => rule.trigger), ...SILENCE_PATTERNS.en, ...SILENCE_PATTERNS.zh]),
];

describe('literalsOf', () => {
  it('reads the words of plain alternations and groups', () => {
    expect(literalsOf(/\b(?:need|have|got) to\b|\bmust\b/)).toEqual(['need', 'have', 'got', 'must']);
    expect(literalsOf(/我叫|名字|名叫/u)).toEqual(['我叫', '名字', '名叫']);
    expect(literalsOf(/\d|\b(?:today|days?)\b/)).toEqual([
      '0',
      '1',
      '2',
      '3',
      '4',
      '5',
      '6',
      '7',
      '8',
      '9',
      'today',
      'day',
    ]);
  });

  it('keeps only the characters a match must have', () => {
    expect(literalsOf(/favou?rite/)).toEqual(['favo']);
    expect(literalsOf(/ugh+/)).toEqual(['ugh']);
    expect(literalsOf(/never ?mind/)).toEqual(['never']);
    expect(literalsOf(/\bi'm an?\b/)).toEqual(["i'm a"]);
    expect(literalsOf(/(?<!尽)可能/u)).toEqual(['可能']);
    // The most selective part of an alternative stands for it.
    expect(literalsOf(/\bwe(?:'ll| will) use\b/)).toEqual([' use']);
  });

  it('gives up where a literal cannot be told', () => {
    expect(literalsOf(/prefer/i)).toBeUndefined();
    expect(literalsOf(/prefer/g)).toBeUndefined();
    expect(literalsOf(/ab|.*/)).toBeUndefined();
    expect(literalsOf(/(?:ab|)/)).toBeUndefined();
    expect(literalsOf(/x(?<name>y)/)).toBeUndefined();
    expect(literalsOf(/\u0041b/)).toBeUndefined();
    expect(literalsOf(/a{2,/)).toBeUndefined();
  });
});

describe('LiteralIndex', () => {
  // In groups of 32, the most one index tells apart.
  const groups = Array.from({ length: Math.ceil(PATTERNS.length / 32) }, (_, at) =>
    PATTERNS.slice(at * 32, at * 32 + 32),
  ).map((patterns) => ({
    patterns,
    index: new LiteralIndex(patterns),
    literals: patterns.map((pattern) => literalsOf(pattern)),
  }));
  // Pieces of the literals, so that texts hold literals, near misses and overlaps.
  const pieces = groups
    .flatMap((group) => group.literals.flatMap((list) => list ?? []))
    .flatMap((literal) => [literal, literal.slice(1), literal.slice(0, -1)]);
  const text = fc
    .array(
      fc.oneof(
        fc.constantFrom(...pieces.filter((piece) => piece !== '')),
        fc.string({ maxLength: 6 }),
        fc.constantFrom(' ', 'I ', '我', '.'),
      ),
      { maxLength: 10 },
    )
    .map((parts) => parts.join(''));

  it('marks exactly the patterns one of whose literals the text holds', () => {
    fc.assert(
      fc.property(text, (sample) => {
        for (const { index, literals } of groups) {
          const mask = index.scan(sample);
          for (const [at, list] of literals.entries()) {
            expect(LiteralIndex.may(mask, at)).toBe(
              list === undefined || list.some((literal) => sample.includes(literal)),
            );
          }
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('never rules out a pattern that matches', () => {
    fc.assert(
      fc.property(text, (sample) => {
        for (const { index, patterns } of groups) {
          const mask = index.scan(sample);
          for (const [at, pattern] of patterns.entries())
            if (pattern.test(sample)) expect(LiteralIndex.may(mask, at)).toBe(true);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('lets every pattern past the 32nd through', () => {
    const many = new LiteralIndex(Array.from({ length: 34 }, (_, at) => new RegExp(`word${at}`)));
    expect(LiteralIndex.may(many.scan('word0'), 0)).toBe(true);
    expect(LiteralIndex.may(many.scan('word0'), 1)).toBe(false);
    expect(LiteralIndex.may(many.scan(''), 33)).toBe(true);
  });
});
