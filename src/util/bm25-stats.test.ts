import { describe, expect, it } from 'vitest';

import { readTermStats, termKey, termStats } from './bm25-stats.js';
import { searchText } from './segment.js';

describe('termStats', () => {
  it('keeps the length in words and the indexed forms said twice or more, in a fixed order', () => {
    expect(termStats(searchText('Tea and more tea, and teas. Zebra zebras!'))).toBe('8 tea 3 zebra 2');
    expect(termStats('plum')).toBe('1');
    // Function words count toward the length, never as repeated words (queries leave them out).
    expect(termStats('the the the plum')).toBe('4');
  });

  it('counts words by the form the index matches them by', () => {
    expect(termKey('releases')).toBe(termKey('release'));
    expect(termKey('café')).toBe('cafe');
    // Short words are stemmed as they stand after a scope prefix, as the index tokenizer sees them.
    expect(termKey('as')).toBe('a');
    expect(termKey('中文')).toBe('中文');
    // A word too long to stem inside its scoped token is kept whole.
    expect(termKey(`${'x'.repeat(48)}ing`)).toBe(`${'x'.repeat(48)}ing`);
  });
});

describe('readTermStats', () => {
  it('reads what termStats wrote', () => {
    const read = readTermStats('8 tea 3 zebra 2', 5);
    expect(read.length).toBe(8);
    expect([
      read.repeated?.get('tea'),
      read.repeated?.get('zebra'),
      read.repeated?.get('plum'),
      read.repeated?.get('te'),
    ]).toEqual([3, 2, undefined, undefined]);
    expect(readTermStats('1', null)).toEqual({ length: 1, repeated: null });
    // Words that are numbers are told from counts by their place.
    const numbers = readTermStats(termStats('3 3 3 2 2 7'), null);
    expect([
      numbers.length,
      numbers.repeated?.get('2'),
      numbers.repeated?.get('3'),
      numbers.repeated?.get('7'),
      numbers.repeated?.get('6'),
    ]).toEqual([6, 2, 3, undefined, undefined]);
  });

  it('falls back to the token count for rows written before counts were kept, or a length of another shape', () => {
    expect(readTermStats(null, 42)).toEqual({ length: 42, repeated: null });
    expect(readTermStats(null, '42')).toEqual({ length: 42, repeated: null });
    expect(readTermStats(null, null)).toEqual({ length: null, repeated: null });
    for (const odd of ['', '0', '-3', 'x', ' 3', '3x tea 2', 12])
      expect(readTermStats(odd, 7)).toEqual({ length: 7, repeated: null });
  });

  it('reads a count of another shape as a word said once', () => {
    for (const odd of ['3 tea', '3 tea two', '3 tea 0', '3  2']) {
      const read = readTermStats(odd, 7);
      expect(read.length).toBe(3);
      expect(read.repeated?.get('tea')).toBeUndefined();
    }
  });
});
