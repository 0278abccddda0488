import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import type { EventRecord } from '../spec/event.js';
import { emptySummary, type SummarySentence } from '../spec/summary.js';
import { o200kTokenizer as tokenizer } from '../util/tokenizer.js';
import { eventRecord } from '../testing/event-record.js';
import { cutSummary, foldEvents, keptSummaryTokens, renderSummary, scoreSentence, spacedTokens } from './summary.js';

function message(content: string, overrides: Partial<EventRecord> = {}): EventRecord {
  return eventRecord({ content, ...overrides });
}

const conversation = [
  message('Hi!'),
  message('Hello, how can I help?', { role: 'agent' }),
  message('I prefer concise answers, and our launch deadline for Atlas is 2026-12-01.'),
  message('ok thanks'),
  message('Please keep the design doc at docs/atlas-design.md up to date.'),
  message('我更喜欢用中文写技术文档。'),
  message('my bank password is canary-4711', { sensitivity: 'secret' }),
];

describe('extractive summary', () => {
  it('scores statements above small talk', () => {
    expect(scoreSentence('I prefer concise answers for the Atlas launch.', 'user')).toBeGreaterThan(
      scoreSentence('ok thanks', 'user'),
    );
    expect(scoreSentence('ok', 'user')).toBe(0);
  });

  it('keeps the summary within any budget and never folds secret events', () => {
    const summary = foldEvents(emptySummary(), conversation, tokenizer, '2026-01-01T00:00:00.000Z');
    expect(JSON.stringify(summary)).not.toContain('canary-4711');
    for (const budget of [5, 20, 40, 80, 500]) {
      const cut = cutSummary(summary.sentences, budget, tokenizer);
      expect(cut.tokens).toBeLessThanOrEqual(budget);
      expect(tokenizer.count(cut.text)).toBe(cut.tokens);
    }
    const full = cutSummary(summary.sentences, 500, tokenizer);
    expect(full.text).toContain('2026-12-01');
    expect(full.text).toContain('中文');
    expect(full.text).not.toMatch(/ok thanks/);
    expect(summary.key_quotes.map((quote) => quote.text)).toContain(
      'I prefer concise answers, and our launch deadline for Atlas is 2026-12-01.',
    );
  });

  it('gives the same summary whether events are folded one by one or at once', () => {
    const atOnce = foldEvents(emptySummary(), conversation, tokenizer, 't');
    let oneByOne = emptySummary();
    for (const event of conversation) oneByOne = foldEvents(oneByOne, [event], tokenizer, 't');
    expect(oneByOne.sentences).toEqual(atOnce.sentences);
    expect(oneByOne.key_quotes).toEqual(atOnce.key_quotes);
  });

  it('keeps the pool bounded on long sessions', () => {
    const many = Array.from({ length: 300 }, (_, index) =>
      message(`Note ${index}: the invoice for customer ${index} is due on day ${index % 28}.`),
    );
    const summary = foldEvents(emptySummary(), many, tokenizer, 't');
    expect(summary.sentences.length).toBeLessThanOrEqual(64);
    expect(summary.key_quotes.length).toBeLessThanOrEqual(12);
    expect(summary.events_folded).toBe(300);
  });

  it("keeps each pooled sentence's count after a space with the built-in tokenizer, and none with another", () => {
    const summary = foldEvents(emptySummary(), conversation, tokenizer, 't');
    for (const sentence of [...summary.sentences, ...summary.key_quotes])
      expect(sentence.spaced_tokens).toBe(tokenizer.count(` ${sentence.text}`));
    const other = { ...tokenizer, name: 'other', count: (text: string) => text.length };
    for (const sentence of foldEvents(emptySummary(), conversation, other, 't').sentences)
      expect(sentence.spaced_tokens).toBeUndefined();
  });
});

describe('summary tokens from the counts sentences keep', () => {
  const count = (text: string) => tokenizer.count(text);
  // Words, punctuation runs and characters where the pieces of the o200k pre-tokenizer turn: digits,
  // apostrophes and contractions, a combining mark, CJK, an emoji, slashes, XML's specials, spaces of
  // other kinds (those last three make a sentence fall back to counting the text).
  const WORDS = [
    'deadline',
    'Atlas',
    'is',
    "it's",
    "'s",
    'Hall',
    'B',
    '2026-12-01',
    '770',
    'x1',
    'e\u0301',
    '中文',
    '😀',
    'docs/a.md',
    '/tmp/',
    'ok',
    'we',
  ];
  const PUNCT = fc.oneof(
    { weight: 20, arbitrary: fc.constantFrom('.', '!', '?', ',', ':)', '…', '"', "'", ')', '(', '.)', '--', '/', '') },
    { weight: 1, arbitrary: fc.constantFrom('&', '<b>', '\u00a0', '\t', ' ') },
  );
  const sentenceText = fc
    .array(fc.tuple(fc.constantFrom(...WORDS), PUNCT), { minLength: 1, maxLength: 8 })
    .map((parts) => parts.map(([word, punct]) => `${word}${punct}`).join(' '));
  const sentence = fc.record(
    {
      text: fc.oneof({ weight: 9, arbitrary: sentenceText }, { weight: 1, arbitrary: fc.string({ maxLength: 40 }) }),
      role: fc.constantFrom('user' as const, 'assistant' as const, 'tool' as const),
      // Names as events give them, and as an import may: spaces, marks the XML rendering escapes, long ones.
      speaker: fc.oneof(
        {
          weight: 8,
          arbitrary: fc.constantFrom('Caroline', 'Melanie', 'Dr. Ana Souza', '李雷', ' Mary\n Ann ', 'x'.repeat(50)),
        },
        { weight: 1, arbitrary: fc.constantFrom('Q&A bot', '(Ana)', 'Ana:', '') },
      ),
    },
    { requiredKeys: ['text', 'role'] },
  );

  it("property: a text's count after a space, from its count alone, is what counting it after a space gives", () => {
    const CHARS = [
      'a',
      'B',
      'é',
      'e\u0301',
      ' ',
      ' ',
      '\n',
      '\t',
      '\u00a0',
      '&',
      "'",
      's',
      '.',
      ',',
      ':',
      '/',
      '1',
      '9',
      '中',
      '😀',
      '"',
      '(',
      ')',
      '…',
      '-',
    ];
    const texts = fc.oneof(
      fc.string({ unit: fc.constantFrom(...CHARS), maxLength: 60 }),
      sentenceText,
      fc.string({ maxLength: 300 }),
    );
    fc.assert(
      fc.property(texts, (text) => {
        expect(spacedTokens(text, count(text))).toBe(count(` ${text}`));
      }),
      { numRuns: 1000 },
    );
  });

  it('property: the sum of the kept counts is the count of the rendered summary, whenever it is given', () => {
    let summed = 0;
    fc.assert(
      fc.property(fc.array(sentence, { maxLength: 12 }), (drawn) => {
        const used: SummarySentence[] = drawn.map((entry, position) => ({
          event_id: 'evt_01KAAAAAAAAAAAAAAAAAAAAAAA',
          position,
          role: entry.role,
          ...(entry.speaker === undefined ? {} : { speaker: entry.speaker }),
          ts: 't',
          text: entry.text,
          tokens: count(entry.text),
          score: 1,
          expires_at: null,
          spaced_tokens: count(` ${entry.text}`),
        }));
        const kept = keptSummaryTokens(used, count);
        if (kept !== undefined) {
          summed += 1;
          expect(kept).toBe(count(renderSummary(used)));
        }
      }),
      { numRuns: 600 },
    );
    // Most drawn summaries are summed, so the property is tested, not skipped.
    expect(summed).toBeGreaterThan(200);
  });

  it('labels each run of one speaker with the name, and a run of an event without one with its role', () => {
    const said = (text: string, role: 'user' | 'assistant', speaker?: string): SummarySentence => ({
      event_id: 'evt_01KAAAAAAAAAAAAAAAAAAAAAAA',
      position: 0,
      role,
      ...(speaker === undefined ? {} : { speaker }),
      ts: 't',
      text,
      tokens: count(text),
      score: 1,
      expires_at: null,
      spaced_tokens: count(` ${text}`),
    });
    const used = [
      said('I signed up for a pottery class.', 'user', 'Caroline'),
      // Two people on one role are two runs; one person's sentences in a row are one.
      said('I went camping with my kids.', 'user', 'Melanie'),
      said('They loved the lake.', 'user', 'Melanie'),
      said('Noted.', 'assistant'),
      said('The teacher glazed every bowl.', 'user', `Dr. ${'B'.repeat(60)}`),
    ];
    expect(renderSummary(used)).toBe(
      [
        'Caroline: I signed up for a pottery class.',
        'Melanie: I went camping with my kids. They loved the lake.',
        'Assistant: Noted.',
        `Dr. ${'B'.repeat(36)}: The teacher glazed every bowl.`,
      ].join('\n'),
    );
    expect(keptSummaryTokens(used, count)).toBe(count(renderSummary(used)));
    // A name the XML rendering escapes is counted with the text.
    expect(keptSummaryTokens([said('Fine.', 'user', 'Q&A bot')], count)).toBeUndefined();
  });

  it('falls back to counting when a sentence keeps no count or its text is not plain', () => {
    const used = (text: string, spaced?: number): SummarySentence[] => [
      {
        event_id: 'evt_01KAAAAAAAAAAAAAAAAAAAAAAA',
        position: 0,
        role: 'user',
        ts: 't',
        text,
        tokens: count(text),
        score: 1,
        expires_at: null,
        ...(spaced === undefined ? {} : { spaced_tokens: spaced }),
      },
    ];
    expect(keptSummaryTokens(used('The venue is Hall B.', count(' The venue is Hall B.')), count)).toBe(
      count('User: The venue is Hall B.'),
    );
    expect(keptSummaryTokens(used('The venue is Hall B.'), count)).toBeUndefined();
    expect(keptSummaryTokens(used('Q&A at noon.', count(' Q&A at noon.')), count)).toBeUndefined();
    expect(keptSummaryTokens(used('two  spaces', count(' two  spaces')), count)).toBeUndefined();
    expect(keptSummaryTokens([], count)).toBe(0);
  });
});
