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
  ])('%s', (text, k, v) => {
    expect(occasions(text)).toEqual([{ k, v }]);
  });

  it.each(['Does my son turn 5 on June 3?', 'I turn the oven on at 5.', 'Happy birthday to my sister!', 'The anniversary sale starts on 3 May.'])('is no occasion: %s', (text) => {
    expect(occasions(text)).toEqual([]);
  });
});
