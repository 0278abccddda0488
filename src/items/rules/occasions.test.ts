import { describe, expect, it } from 'vitest';

import { factsFrom } from './fact-test-kit.js';

const occasions = (text: string) => factsFrom('en.profile.occasion', text);

describe('occasions', () => {
  it.each([
    ['my birthday is on 12 November, any ideas?', 'birthday', 'birthday 12 November'],
    ['My son Theo turns five on June 2nd.', 'birthday:son', 'son Theo birthday June 2nd'],
    ['our granddaughter turns 18 on the 9th of April', 'birthday:granddaughter', 'granddaughter birthday 9th of April'],
    ['Oh and Priya turns 30 on 5 May.', 'birthday:priya', 'Priya birthday 5 May'],
    ['Our 10th anniversary is on September 21.', 'anniversary', '10th anniversary September 21'],
    [
      "my boyfriend Tyler's birthday is 8 April and I'm stuck on a gift.",
      'birthday:boyfriend',
      'boyfriend Tyler birthday 8 April',
    ],
    ["My mum's birthday is on the 3rd of May.", 'birthday:mum', 'mum birthday 3rd of May'],
    ["So Priya's birthday is on 5 May.", 'birthday:priya', 'Priya birthday 5 May'],
    ['We got married on 22 August in Kumasi!', 'anniversary', 'wedding 22 August'],
    ['Our wedding is on 3 October, still so much to plan.', 'anniversary', 'wedding 3 October'],
  ])('%s', (text, k, v) => {
    expect(occasions(text)).toEqual([{ k, v }]);
  });

  it("reads the user's wedding day told a sentence after the marriage, and nobody else's", () => {
    expect(occasions('also before we left, Ama and I got married! wedding was on 22 August in Kumasi')).toEqual([
      { k: 'anniversary', v: 'wedding 22 August' },
    ]);
    expect(occasions('my cousin got married last year. wedding was on 22 August in Kumasi')).toEqual([]);
    expect(occasions("My sister's wedding is on 3 October.")).toEqual([]);
  });

  it.each([
    'Does my son turn 5 on June 3?',
    'I turn the oven on at 5.',
    'Happy birthday to my sister!',
    'The anniversary sale starts on 3 May.',
  ])('is no occasion: %s', (text) => {
    expect(occasions(text)).toEqual([]);
  });
});
