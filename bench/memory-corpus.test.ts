import { describe, expect, it } from 'vitest';

import { corpusDir, loadCorpus } from './memory-corpus.js';

describe('the held-out sets by file', () => {
  it('loads only the files named, and names the ones it cannot find', () => {
    const untouched = loadCorpus(corpusDir('holdout'), ['en-3', 'zh-3']);
    expect(untouched.length).toBeGreaterThan(0);
    expect(untouched.every((conversation) => /^(?:hfe|hfz)-/u.test(conversation.id))).toBe(true);
    expect(new Set(untouched.map((conversation) => conversation.language))).toEqual(new Set(['en', 'zh']));
    expect(() => loadCorpus(corpusDir('holdout'), ['en-9'])).toThrow(/no en-9\.json in/u);
  });
});
