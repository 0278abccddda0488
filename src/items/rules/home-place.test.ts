import { describe, expect, it } from 'vitest';

import { factsFrom } from './fact-test-kit.js';
import { foldName, placeNamed } from './places.js';

const home = (text: string) => factsFrom('en.profile.home_place', text);

describe('place names', () => {
  it('knows towns and countries, whatever the case and the diacritics', () => {
    expect(placeNamed('Ballarat')).toMatchObject({ name: 'Ballarat', kind: 'city' });
    expect(placeNamed('krakow')).toMatchObject({ name: 'Kraków' });
    expect(placeNamed('Nigeria')).toMatchObject({ kind: 'country' });
    expect(placeNamed('Blorptown')).toBeUndefined();
    expect(foldName('  São   Paulo ')).toBe('sao paulo');
  });
});

describe('a home town said in passing', () => {
  it.each([
    ['GP here, my practice in Cork is tiny', 'Cork'],
    ["me and Noor split up. I'm keeping the flat in Rotterdam, she's moving back to Utrecht", 'Rotterdam'],
    ["g'day. we're out at Toowoomba on a half-acre", 'Toowoomba'],
    ["I'm a staff nurse at UCH Ibadan, on nights", 'Ibadan'],
    ['3 weeks in abuja now. found a 2-bed flat', 'Abuja'],
    ['still at Weir but based in the Edinburgh office now', 'Edinburgh'],
    ['I have been a firefighter in Glasgow for 30 years', 'Glasgow'],
  ])('%s', (text, place) => {
    expect(home(text)).toEqual([{ k: 'location', v: place }]);
  });

  it('is no home: travel, plans, the past, where a move starts, someone else, a question, a word that is also a town', () => {
    for (const text of [
      "I'm in Hanoi for a mining conference this week",
      "we're heading to Lisbon next month",
      'I grew up in El Paso',
      'I was in Leeds for years',
      'my sister lives in Porto and loves it',
      'parents back in Madurai keep calling to check I am eating',
      "I'm staying in such a nice place while I'm there",
      'what can we do in Harrogate when it rains?',
      "I'm a med student at University of Abuja",
      "I'm buzzing to perform in Boston",
    ])
      expect(home(text), text).toEqual([]);
  });

  it('leaves a sentence another rule read a home from to that rule', () => {
    expect(home('I live in Lisbon now, in a flat near Porto')).toEqual([]);
  });
});

describe('a home town said in passing, in Chinese', () => {
  const zhHome = (text: string) => factsFrom('zh.profile.home_place', text);

  it.each([
    ['来长沙报到一个礼拜了，终于不用上夜班了', '长沙'],
    ['在Shopee做data analyst，base新加坡，每天SQL写到吐', '新加坡'],
    ['老家湖南岳阳的，在上海浦东住了六年，房租越涨越离谱', '上海浦东'],
    ['在广州住快一个月了，骑车十分钟到公司', '广州'],
  ])('%s', (text, place) => {
    expect(zhHome(text)).toEqual([{ k: 'location', v: place }]);
  });

  it('is no home: a trip, a plan, the hometown, someone else, a question', () => {
    for (const text of [
      '下个月去重庆出差一周',
      '打算在成都住几天',
      '老家在岳阳',
      '我妈在成都住了三十年',
      '在深圳哪里能飞无人机啊',
    ])
      expect(zhHome(text), text).toEqual([]);
  });
});
