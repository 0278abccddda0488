import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { RULES } from './index.js';
import { LiteralIndex, literalsOf } from './literals.js';
import { FAMILY_FACTS, NAMED_PET, NAMED_RELATIVE } from './profile-family.js';
import { HEALTH_DIET_FACTS } from './profile-health-diet.js';
import { HOME_FACTS } from './profile-home.js';
import { JOB_CHANGE_FACTS, WORK_FACTS } from './profile-work.js';
import { SILENCE_PATTERNS } from './speculation.js';

// Expressions the extractor prefilters: the rules' triggers, the silence patterns and the profile
// facts' patterns, which are written for the text as it was ("\bI work as", "[Mm]y") and ignore case.
const PATTERNS: readonly RegExp[] = [
  ...new Set([
    ...RULES.map((rule) => rule.trigger),
    ...SILENCE_PATTERNS.en,
    ...SILENCE_PATTERNS.zh,
    ...[...WORK_FACTS, ...HOME_FACTS, ...FAMILY_FACTS, ...JOB_CHANGE_FACTS, ...HEALTH_DIET_FACTS].map(
      (fact) => fact.pattern,
    ),
    NAMED_RELATIVE.pattern,
    NAMED_PET.pattern,
  ]),
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

  it('reads literals as the lower-cased text holds them', () => {
    expect(literalsOf(/prefer/i)).toEqual(['prefer']);
    expect(literalsOf(/\bI work as\b/u)).toEqual(['i work as']);
    // A letter in either case is that letter; a Unicode property is one character of no literal.
    expect(literalsOf(/\b[Mm]y name is\s+\p{Lu}[\p{L}'-]*/u)).toEqual(['my name is']);
    expect(literalsOf(/\b(?:[Ww]e'd|I'd)\s/u)).toEqual(["we'd", "i'd"]);
    // A letter of another script with case ends the run: "Σ" lower-cases to "σ" or "ς".
    expect(literalsOf(/ΣΟΦΙΑ moved/u)).toEqual([' moved']);
  });

  it('gives up where a literal cannot be told', () => {
    expect(literalsOf(/prefer/g)).toBeUndefined();
    expect(literalsOf(/prefer/y)).toBeUndefined();
    expect(literalsOf(/ab|.*/)).toBeUndefined();
    expect(literalsOf(/(?:ab|)/)).toBeUndefined();
    expect(literalsOf(/x(?<name>y)/)).toBeUndefined();
    expect(literalsOf(/\u0041b/)).toBeUndefined();
    expect(literalsOf(/a{2,/)).toBeUndefined();
  });
});

describe('LiteralIndex', () => {
  const index = new LiteralIndex(PATTERNS);
  const literals = PATTERNS.map((pattern) => literalsOf(pattern));
  // Pieces of the literals as written and capitalised, so that texts hold literals, near misses,
  // overlaps and the upper case the patterns of facts are written for.
  const pieces = literals
    .flatMap((list) => list ?? [])
    .flatMap((literal) => [literal, literal.slice(1), literal.slice(0, -1)])
    .flatMap((piece) => [piece, piece.toUpperCase(), piece.charAt(0).toUpperCase() + piece.slice(1)]);
  const text = fc
    .array(
      fc.oneof(
        fc.constantFrom(...pieces.filter((piece) => piece !== '')),
        fc.string({ maxLength: 6 }),
        // "ſ" (long s) and "K" (Kelvin) match "s" and "k" where case is ignored.
        fc.constantFrom(' ', 'I ', '我', '.', 'ſ', '\u212a', 'Σ', 'İ'),
      ),
      { maxLength: 10 },
    )
    .map((parts) => parts.join(''));

  it('marks exactly the patterns one of whose literals the lower-cased text holds', () => {
    fc.assert(
      fc.property(text, (sample) => {
        const lower = sample.toLowerCase();
        const mask = index.scan(lower);
        for (const [at, list] of literals.entries()) {
          expect(LiteralIndex.may(mask, at)).toBe(
            list === undefined || list.some((literal) => lower.replaceAll('ſ', 's').includes(literal)),
          );
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('never rules out a pattern that matches', () => {
    fc.assert(
      fc.property(text, (sample) => {
        const mask = index.scan(sample.toLowerCase());
        for (const [at, pattern] of PATTERNS.entries())
          if (pattern.test(sample)) expect(LiteralIndex.may(mask, at)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it('tells any number of patterns apart', () => {
    const many = new LiteralIndex(Array.from({ length: 70 }, (_, at) => new RegExp(`word${at}x`)));
    const mask = many.scan('word0x word65x');
    expect([0, 1, 32, 65, 69].map((at) => LiteralIndex.may(mask, at))).toEqual([true, false, false, true, false]);
    expect([0, 1, 64, 66].map((from) => LiteralIndex.anyFrom(mask, from))).toEqual([true, true, true, false]);
    expect(LiteralIndex.anyFrom(many.scan('nothing here'), 0)).toBe(false);
  });
});
