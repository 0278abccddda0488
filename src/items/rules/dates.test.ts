import { describe, expect, it } from 'vitest';

import { addDays, eventDate, findDate } from './dates.js';

// 2026-02-18 is a Wednesday.
const TODAY = '2026-02-18';
const en = (text: string) => findDate(text.toLowerCase(), 'en', TODAY);
const zh = (text: string) => findDate(text, 'zh', TODAY);

describe('findDate (English)', () => {
  it.each([
    ['the launch is on 2026-12-01', '2026-12-01', false],
    ['we met on 8 May 2023', '2023-05-08', false],
    ['it shipped May 8th, 2023', '2023-05-08', false],
    ['the review is on March 3', '2026-03-03', true],
    ['call her tomorrow', '2026-02-19', true],
    ['it happened yesterday', '2026-02-17', true],
    ['the demo is on Friday', '2026-02-20', true],
    ['the demo is next Friday', '2026-02-27', true],
    ['the sync is next Monday', '2026-02-23', true],
    ['ship it in 3 days', '2026-02-21', true],
    ['ship it in two weeks', '2026-03-04', true],
    ['by the end of the month', '2026-02-28', true],
    ['so we moved it to November, 12 to 19', '2026-11-12', true],
    ['file it by end of October', '2026-10-31', true],
    ['due at the end of february', '2026-02-28', true],
  ])('%s → %s', (text, date, relative) => {
    expect(en(text)).toMatchObject({ date, relative });
  });

  it('takes next year for a day of this year gone by, unless the sentence reads as past', () => {
    expect(en('We launch Atlas on January 12')).toMatchObject({ date: '2027-01-12', relative: true });
    expect(en('my birthday is 3 February')).toMatchObject({ date: '2027-02-03' });
    expect(en('we met on January 12')).toMatchObject({ date: '2026-01-12' });
    expect(en('I visited Paris on Jan 12')).toMatchObject({ date: '2026-01-12' });
    expect(en('it was cold on January 12')).toMatchObject({ date: '2026-01-12' });
    // A day still ahead this year stays in this year, whatever the tense; -eed words are no past.
    expect(en('it was planned for March 3')).toMatchObject({ date: '2026-03-03' });
    expect(en('we need it by January 12')).toMatchObject({ date: '2027-01-12' });
    // 29 February without a leap year next year names no date.
    expect(findDate('ship it on february 29', 'en', '2027-03-01')).toBeUndefined();
  });

  it('gives the span of the expression', () => {
    expect(en('due by next Friday!')).toMatchObject({ index: 7, length: 11 });
  });

  it('ignores impossible dates, plural weekdays and "may" the verb', () => {
    expect(en('on 2026-02-30 maybe')).toBeUndefined();
    expect(en('I hate Mondays')).toBeUndefined();
    expect(en('every friday we have lunch at my parents')).toBeUndefined();
    expect(en('we swim each other sunday')).toBeUndefined();
    expect(en('we may ship')).toBeUndefined();
  });
});

describe('findDate (Chinese)', () => {
  it.each([
    ['2026年12月1日发布', '2026-12-01', false],
    ['12月1日发布', '2026-12-01', true],
    ['明天开会', '2026-02-19', true],
    ['后天出差', '2026-02-20', true],
    ['下周五之前', '2026-02-27', true],
    ['这周五演示', '2026-02-20', true],
    ['周一评审', '2026-02-23', true],
    ['三天后上线', '2026-02-21', true],
    ['年底前发布', '2026-12-31', true],
  ])('%s → %s', (text, date, relative) => {
    expect(zh(text)).toMatchObject({ date, relative });
  });

  it('takes next year for a day gone by, unless the sentence reads as past (了, 过, 去年…)', () => {
    expect(zh('1月12日发布')).toMatchObject({ date: '2027-01-12' });
    expect(zh('1月12日发布了')).toMatchObject({ date: '2026-01-12' });
  });

  it('does not read 每周一 as a date', () => {
    expect(zh('每周一次')).toBeUndefined();
  });
});

describe('date arithmetic', () => {
  it('crosses months and leap days', () => {
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
  });

  it('takes the local date of an event time as written', () => {
    expect(eventDate('2026-02-20T23:30:00-05:00')).toBe('2026-02-20');
    expect(eventDate('not a date')).toBe('1970-01-01');
  });
});
