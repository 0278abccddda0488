import { describe, expect, it } from 'vitest';

import { queryTerms } from './segment.js';
import { contentTerms } from './stopwords.js';
import { otherForms, searchTerms } from './word-forms.js';

describe('the forms of a word its stem does not share', () => {
  it('joins the tenses of an irregular verb, from any of them', () => {
    expect(otherForms('buy')).toEqual(['bought']);
    expect([...otherForms('went')].sort()).toEqual(['go', 'gone']);
    expect([...otherForms('felt')]).toContain('feel');
    expect(otherForms('taught')).toContain('teach');
    // By stem: the -ing form finds the past as the infinitive does.
    expect(otherForms('running')).toEqual(['ran']);
  });

  it('joins an irregular plural and its singular, and leaves other words alone', () => {
    expect(otherForms('children')).toContain('child');
    expect(otherForms('person')).toContain('people');
    expect(otherForms('table')).toEqual([]);
    expect(otherForms('walked')).toEqual([]);
    // A form its stem already matches is no other form: "tripped" is found by "trip" as it is.
    expect(otherForms('trip')).toEqual([]);
    expect(searchTerms('trip to Porto')).toEqual(['trip', 'porto']);
  });

  it('searches by the content words first, then by their other forms that are not function words', () => {
    expect(searchTerms('What did Melanie buy?')).toEqual(['melanie', 'buy', 'bought']);
    expect(searchTerms('Where did she go on Friday?')).toEqual(['go', 'friday', 'went', 'gone']);
    // "were" and "been" are function words: the forms of "be" add nothing.
    expect(searchTerms('Where was it?')).toEqual(['where', 'was', 'it']);
    // Chinese is searched by its own words.
    expect(searchTerms('我上周五买了什么')).toEqual(contentTerms(queryTerms('我上周五买了什么')));
  });
});
