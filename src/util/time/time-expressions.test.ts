import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { asksWhen, formatPassageDate, namesDuration, namesTime, resolveTimeWindows } from './time-expressions.js';
import type { TimeWindow } from './time-expressions.js';

/** Saturday 20 May 2023, noon UTC: the week runs Monday 15 to Sunday 21. */
const REFERENCE = '2023-05-20T12:00:00Z';

/** A window as `text | first day .. last day | kind`, which keeps the tables readable. */
const brief = (window: TimeWindow) =>
  `${window.text} | ${window.start.slice(0, 10)}..${window.end.slice(0, 10)} | ${window.kind}`;
const resolve = (query: string, reference: Date | string = REFERENCE) =>
  resolveTimeWindows(query, reference).map(brief);

describe('resolveTimeWindows: English, counted from the reference day', () => {
  it.each([
    ['What did Caroline do four weeks ago?', 'four weeks ago | 2023-04-18..2023-04-26 | around'],
    ['Where was I two days ago?', 'two days ago | 2023-05-18..2023-05-18 | day'],
    ['What did I say a week ago?', 'a week ago | 2023-05-12..2023-05-14 | around'],
    ['What did I say a month ago?', 'a month ago | 2023-04-15..2023-04-25 | around'],
    ['What did I do a few days ago?', 'a few days ago | 2023-05-16..2023-05-18 | around'],
    ['What did I eat yesterday?', 'yesterday | 2023-05-19..2023-05-19 | day'],
    ['What happened the day before yesterday?', 'the day before yesterday | 2023-05-18..2023-05-18 | day'],
    ['What is on today?', 'today | 2023-05-20..2023-05-20 | day'],
    ['What will I do tomorrow?', 'tomorrow | 2023-05-21..2023-05-21 | day'],
    ['What did I do last Friday?', 'last Friday | 2023-05-19..2023-05-19 | day'],
    ['What did I eat on Monday?', 'on Monday | 2023-05-15..2023-05-15 | day'],
    ['What happened this Friday?', 'this Friday | 2023-05-19..2023-05-19 | day'],
    ['What did we talk about last week?', 'last week | 2023-05-08..2023-05-14 | week'],
    ['What happened this week?', 'this week | 2023-05-15..2023-05-21 | week'],
    ['What happened the week before last?', 'the week before last | 2023-05-01..2023-05-07 | week'],
    ['What did I do last weekend?', 'last weekend | 2023-05-13..2023-05-14 | weekend'],
    ['What did I do over the weekend?', 'over the weekend | 2023-05-20..2023-05-21 | weekend'],
    ['What did I buy last month?', 'last month | 2023-04-01..2023-04-30 | month'],
    ['What did I do this year?', 'this year | 2023-01-01..2023-12-31 | year'],
    ['Where did I travel last year?', 'last year | 2022-01-01..2022-12-31 | year'],
    ['What did I do in the past two weeks?', 'the past two weeks | 2023-05-06..2023-05-20 | range'],
    ['What did I do the past weekend?', 'past weekend | 2023-05-13..2023-05-14 | weekend'],
  ])('%s', (query, expected) => {
    expect(resolve(query)).toEqual([expected]);
  });

  it('covers whole UTC days, both ends included', () => {
    expect(resolveTimeWindows('What did I eat yesterday?', REFERENCE)).toEqual([
      { start: '2023-05-19T00:00:00.000Z', end: '2023-05-19T23:59:59.999Z', text: 'yesterday', kind: 'day' },
    ]);
  });
});

describe('resolveTimeWindows: English looking ahead', () => {
  it.each([
    ['What am I doing next Friday?', 'next Friday | 2023-05-26..2023-05-26 | day'],
    ['What is happening in two weeks?', 'in two weeks | 2023-06-01..2023-06-05 | around'],
    ['What will I do on Monday?', 'on Monday | 2023-05-22..2023-05-22 | day'],
    ['What is planned for next week?', 'next week | 2023-05-22..2023-05-28 | week'],
    ['What is planned for next weekend?', 'next weekend | 2023-05-27..2023-05-28 | weekend'],
    ['What will I do next month?', 'next month | 2023-06-01..2023-06-30 | month'],
    ['What are my goals for next year?', 'next year | 2024-01-01..2024-12-31 | year'],
    ['What will I do in June?', 'June | 2023-06-01..2023-06-30 | month'],
    ['What am I planning for January?', 'January | 2024-01-01..2024-01-31 | month'],
    ['What will we do in the summer?', 'summer | 2023-06-01..2023-08-31 | season'],
    ['What will happen on May 25th?', 'May 25th | 2023-05-25..2023-05-25 | day'],
  ])('%s', (query, expected) => {
    expect(resolve(query)).toEqual([expected]);
  });

  it('reads "in two weeks" in a question about the past as a duration, not a time', () => {
    expect(resolve('What did I finish in two weeks?')).toEqual([]);
  });
});

describe('resolveTimeWindows: English calendar names', () => {
  it.each([
    ['What happened in May?', 'May | 2023-05-01..2023-05-31 | month'],
    ['What did I do in June?', 'June | 2022-06-01..2022-06-30 | month'],
    ['What did I do last May?', 'last May | 2022-05-01..2022-05-31 | month'],
    ['What is planned for next May?', 'next May | 2024-05-01..2024-05-31 | month'],
    ['What happened in early May?', 'early May | 2023-05-01..2023-05-10 | range'],
    ['What happened in the first week of May 2023?', 'the first week of May 2023 | 2023-05-01..2023-05-07 | range'],
    [
      'Was the second half of September 2022 good?',
      'the second half of September 2022 | 2022-09-16..2022-09-30 | range',
    ],
    [
      'Where did Andrew go during the first weekend of August 2023?',
      'the first weekend of August 2023 | 2023-08-05..2023-08-06 | weekend',
    ],
    ['Where did we go last summer?', 'last summer | 2022-06-01..2022-08-31 | season'],
    ['What did we do in the summer?', 'summer | 2022-06-01..2022-08-31 | season'],
    ['What happened this summer?', 'this summer | 2023-06-01..2023-08-31 | season'],
    ['What did I do last winter?', 'last winter | 2022-12-01..2023-02-28 | season'],
    ['What state did Joanna visit in summer 2021?', 'summer 2021 | 2021-06-01..2021-08-31 | season'],
    ['What did we do in the fall?', 'fall | 2022-09-01..2022-11-30 | season'],
    ['What did I buy in 2023?', '2023 | 2023-01-01..2023-12-31 | year'],
    ['What did she do in early 2022?', 'early 2022 | 2022-01-01..2022-04-30 | range'],
    ['What have I done since 2020?', 'since 2020 | 2020-01-01..2023-05-20 | range'],
    ['What happened on 8 May 2023?', '8 May 2023 | 2023-05-08..2023-05-08 | day'],
    ['What happened on May 7th?', 'May 7th | 2023-05-07..2023-05-07 | day'],
    ['What happened on May 25th?', 'May 25th | 2022-05-25..2022-05-25 | day'],
    ['What did Gina find on 1 February, 2023?', '1 February, 2023 | 2023-02-01..2023-02-01 | day'],
    ['What happened on 2023-05-08?', '2023-05-08 | 2023-05-08..2023-05-08 | day'],
    ['What happened on Friday, May 5?', 'on Friday, May 5 | 2023-05-05..2023-05-05 | day'],
    ['What happened from May 1 to May 5?', 'May 1 to May 5 | 2023-05-01..2023-05-05 | range'],
    ['What happened between March and May?', 'between March and May | 2023-03-01..2023-05-31 | range'],
  ])('%s', (query, expected) => {
    expect(resolve(query)).toEqual([expected]);
  });
});

describe('resolveTimeWindows: counted from a date the question names', () => {
  it.each([
    [
      'What puppy did she get two weeks before August 11, 2023?',
      'two weeks before August 11, 2023 | 2023-07-26..2023-07-30 | around',
    ],
    [
      'What did John do the week before August 3, 2023?',
      'the week before August 3, 2023 | 2023-07-27..2023-08-02 | range',
    ],
    [
      'What did Maria do last weekend before April 10, 2023?',
      'last weekend before April 10, 2023 | 2023-04-08..2023-04-09 | weekend',
    ],
    [
      'What did Joanna finish last Friday on 23 January, 2022?',
      'last Friday on 23 January, 2022 | 2022-01-21..2022-01-21 | day',
    ],
    [
      'What was shown on the Sunday before October 25, 2022?',
      'Sunday before October 25, 2022 | 2022-10-23..2022-10-23 | day',
    ],
    [
      'What issue came up last week, as mentioned on November 6, 2023?',
      'last week, as mentioned on November 6, 2023 | 2023-10-30..2023-11-05 | week',
    ],
    ['What did I do the day after May 5?', 'the day after May 5 | 2023-05-06..2023-05-06 | day'],
    [
      'What did they plan for the Saturday after October 28, 2023?',
      'Saturday after October 28, 2023 | 2023-11-04..2023-11-04 | day',
    ],
    ['What changed the month after June 2022?', 'the month after June 2022 | 2022-07-01..2022-07-31 | range'],
    [
      'Where was Dave in the last two weeks of August 2023?',
      'the last two weeks of August 2023 | 2023-08-18..2023-08-31 | range',
    ],
  ])('%s', (query, expected) => {
    expect(resolve(query)).toEqual([expected]);
  });

  it('gives nothing for what is relative to something undated, and still resolves the rest', () => {
    expect(resolve('What did I do the week before my trip?')).toEqual([]);
    expect(resolve('What did I do last weekend before my trip?')).toEqual([]);
    expect(resolve('What happened two days later?')).toEqual([]);
    expect(resolve('What did I do the week before my trip last summer?')).toEqual([
      'last summer | 2022-06-01..2022-08-31 | season',
    ]);
  });
});

describe('resolveTimeWindows: words that are not times', () => {
  it.each([
    'May I ask you something?',
    'I may go to the party',
    'March on, and keep going',
    'Can I get a second opinion?',
    'Will you help me with this?',
    'What did Will say about the project?',
    'I sat down in the sun',
    'Give me 1/2 of the cake',
    "What is the name of John's one-year-old child?",
    'He went to summer camp',
    'Tell me about the spring water',
    'I have 3 kids and 2 dogs',
    'It starts at 5pm',
    'What a mayhem',
    'When did Melanie paint a sunrise?',
  ])('%s', (query) => {
    expect(resolve(query)).toEqual([]);
  });

  it('takes "fall" as a season only where it names one', () => {
    expect(resolve('I will fall in love in the fall')).toEqual(['fall | 2023-09-01..2023-11-30 | season']);
  });
});

describe('resolveTimeWindows: the time-word screen in front of the grammar', () => {
  // Text without a time word is not parsed; every family of expression the grammar reads holds one,
  // in any case, at the start of a word (a new rule with a word of its own must add it to the screen).
  it.each([
    ['THE DAY BEFORE YESTERDAY', 1],
    ['this Morning', 1],
    ['a fortnight ago', 1],
    ['a couple of decades back', 1],
    ['Saturday', 1],
    ['on Sept 3', 1],
    ['in Dec', 1],
    ['since 2016', 1],
    ['on 2023-05-08', 1],
    ['the fifth of May', 1],
    ['over the Weekend', 1],
    ['in late Autumn', 1],
    ['昨晚', 1],
    ['今早', 1],
    ['上个礼拜三', 1],
    ['下星期', 1],
    ['五一', 1],
    ['平安夜', 1],
    ['教师节', 1],
    ['去年冬天', 1],
    ['2022年', 1],
    ['8号', 1],
  ])('%s → %i windows', (query, count) => {
    expect(resolveTimeWindows(query, REFERENCE)).toHaveLength(count);
  });
});

describe('resolveTimeWindows: several expressions, references and odd input', () => {
  it('returns every window in text order, each window once', () => {
    expect(resolve('What did I do yesterday and last summer?')).toEqual([
      'yesterday | 2023-05-19..2023-05-19 | day',
      'last summer | 2022-06-01..2022-08-31 | season',
    ]);
    expect(resolve('What did I eat yesterday, on May 19?')).toEqual(['yesterday | 2023-05-19..2023-05-19 | day']);
    expect(resolve('上周五 and last summer')).toEqual([
      '上周五 | 2023-05-12..2023-05-12 | day',
      'last summer | 2022-06-01..2022-08-31 | season',
    ]);
  });

  it('reads the reference as a UTC instant, from a string with an offset or a Date', () => {
    expect(resolve('today', '2023-05-20T01:00:00+02:00')).toEqual(['today | 2023-05-19..2023-05-19 | day']);
    expect(resolve('four weeks ago', new Date(REFERENCE))).toEqual(resolve('four weeks ago'));
  });

  it('crosses year and month ends', () => {
    expect(resolve('last week', '2023-01-02T09:00:00Z')).toEqual(['last week | 2022-12-26..2023-01-01 | week']);
    expect(resolve('last month', '2023-01-15T09:00:00Z')).toEqual(['last month | 2022-12-01..2022-12-31 | month']);
    expect(resolve('What did I do a year ago?', '2024-02-29T09:00:00Z')).toEqual([
      'a year ago | 2023-01-04..2023-04-24 | around',
    ]);
  });

  it('gives no window for an invalid reference', () => {
    expect(resolveTimeWindows('yesterday', 'last Tuesday')).toEqual([]);
    expect(resolveTimeWindows('yesterday', new Date(Number.NaN))).toEqual([]);
  });

  it('is deterministic', () => {
    const query = 'What did I do two weeks before August 11, 2023, last summer and 上周五?';
    expect(resolveTimeWindows(query, REFERENCE)).toEqual(resolveTimeWindows(query, REFERENCE));
  });

  it('never throws, and every window is well formed and quotes the query', () => {
    const words = fc.constantFrom(
      'last',
      'next',
      'May',
      'Friday',
      'week',
      'ago',
      'two',
      'before',
      'the',
      '2023',
      '8',
      '上周',
      '五',
      '月',
      '天前',
      ',',
      ' ',
    );
    const text = fc.oneof(
      fc.string(),
      fc.array(words, { maxLength: 12 }).map((parts) => parts.join(' ')),
    );
    fc.assert(
      fc.property(text, fc.integer({ min: -2_000, max: 40_000 }), (query, offset) => {
        const windows = resolveTimeWindows(query, new Date(Date.UTC(2000, 0, 1) + offset * 86_400_000));
        for (const window of windows) {
          expect(window.start <= window.end).toBe(true);
          expect(window.start).toMatch(/^\d{4}-\d{2}-\d{2}T00:00:00\.000Z$/);
          expect(window.end).toMatch(/^\d{4}-\d{2}-\d{2}T23:59:59\.999Z$/);
          expect(query).toContain(window.text);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('reads only the start of a very long query', () => {
    expect(resolve(`${'word '.repeat(1_000)}yesterday`)).toEqual([]);
    expect(resolve(`yesterday ${'word '.repeat(1_000)}`)).toEqual(['yesterday | 2023-05-19..2023-05-19 | day']);
  });

  it('costs well under 0.2 ms for a typical question (median)', () => {
    const questions = [
      'When did Caroline go to the LGBTQ support group?',
      'What did Maria participate in last weekend before April 10, 2023?',
      'What is the name of the puppy she got two weeks before August 11, 2023?',
      'What did Caroline do four weeks ago?',
      '上周五我们聊了什么？',
    ];
    for (const question of questions) resolveTimeWindows(question, REFERENCE);
    const costs = questions.flatMap((question) =>
      Array.from({ length: 50 }, () => {
        const started = performance.now();
        resolveTimeWindows(question, REFERENCE);
        return performance.now() - started;
      }),
    );
    costs.sort((a, b) => a - b);
    // Five times the target: the suite shares two cores, the median stays far below either.
    expect(costs[Math.floor(costs.length / 2)]).toBeLessThan(1);
  });
});

describe('formatPassageDate', () => {
  it.each([
    ['2023-05-08T13:56:00.000Z', '2023-05-08 (Mon)'],
    ['2023-05-07T00:00:00Z', '2023-05-07 (Sun)'],
    ['2023-05-08T23:30:00-05:00', '2023-05-09 (Tue)'],
    ['2024-02-29T12:00:00Z', '2024-02-29 (Thu)'],
    ['2023-05-08', '2023-05-08 (Mon)'],
    ['not a date', 'not a date'],
    ['2023-02-30', '2023-02-30'],
  ])('%s → %s', (iso, expected) => {
    expect(formatPassageDate(iso)).toBe(expected);
  });
});

describe('questions that ask when, and texts that say when', () => {
  it.each([
    ['When did Melanie run a charity race?', true],
    ['  when was the last time I saw Dr. Lee?', true],
    ['Since when have I been vegetarian?', true],
    ['How long ago did we move to Lisbon?', true],
    ['What year did Nate get his turtles?', true],
    ['Which day is the dentist appointment?', true],
    ['我们什么时候去的杭州？', true],
    ['你哪天回来？', true],
    ['What did Melanie run last Saturday?', false],
    ['Where did I go when it rained?', false],
    ['I moved last spring. When did I start the new job?', true],
    ['I mentioned an investment — when did I buy it?', true],
    ['How long have you had them?', true],
    ['For how long has Nate had his turtles?', true],
    ['你学画画多久了？', true],
    ['How long is my commute?', true],
    ['How many days ago did I attend the baking class?', true],
    ['How many weeks passed between adopting Coco and Shadow?', true],
    ['我们去杭州几天了？', true],
    ['这几天你在忙什么？', false],
    ['How many dogs does Audrey have?', false],
    ['How many turtles does Nate have?', false],
    ['我们去了哪里？', false],
  ])('%s → %s', (question, expected) => {
    expect(asksWhen(question)).toBe(expected);
  });

  it('tells a turn that places a time from when it was said from one that does not', () => {
    const said = '2023-05-25T13:56:00Z';
    expect(namesTime('I ran a charity race for mental health last Saturday.', said)).toBe(true);
    expect(namesTime('We got a puppy two weeks ago!', said)).toBe(true);
    expect(namesTime('我昨天跑了一个慈善赛跑。', said)).toBe(true);
    expect(namesTime('It was really rewarding, and it made me think.', said)).toBe(false);
    // A duration is not a time.
    expect(namesTime("I've had them for three years now.", said)).toBe(false);
  });

  it('tells a turn that says how long from one that does not', () => {
    for (const text of [
      "I've had them for 3 years now and they bring me tons of joy!",
      'Seven years now, and I have finally found my real muses.',
      'Married a couple of months, and it still feels new.',
      "I've been painting since 2016.",
      '我养了它们三年了。',
      '我学画画已经七年。',
      '2016年以来一直在画。',
      'My commute takes about 45 minutes each way.',
      'The drive is half an hour.',
      '通勤要四十分钟。',
    ])
      expect(namesDuration(text), text).toBe(true);
    for (const text of [
      'They bring me tons of joy!',
      'Since you asked, I love turtles.',
      '我很喜欢乌龟。',
      '三年级的课本',
    ])
      expect(namesDuration(text), text).toBe(false);
  });
});
