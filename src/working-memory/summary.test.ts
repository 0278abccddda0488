import { describe, expect, it } from 'vitest';

import type { EventRecord } from '../spec/event.js';
import { emptySummary } from '../spec/summary.js';
import { o200kTokenizer as tokenizer } from '../util/tokenizer.js';
import { eventRecord } from '../../test/helpers/event-record.js';
import { cutSummary, foldEvents, scoreSentence } from './summary.js';

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
    expect(scoreSentence('I prefer concise answers for the Atlas launch.', 'user')).toBeGreaterThan(scoreSentence('ok thanks', 'user'));
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
    expect(summary.key_quotes.map((quote) => quote.text)).toContain('I prefer concise answers, and our launch deadline for Atlas is 2026-12-01.');
  });

  it('gives the same summary whether events are folded one by one or at once', () => {
    const atOnce = foldEvents(emptySummary(), conversation, tokenizer, 't');
    let oneByOne = emptySummary();
    for (const event of conversation) oneByOne = foldEvents(oneByOne, [event], tokenizer, 't');
    expect(oneByOne.sentences).toEqual(atOnce.sentences);
    expect(oneByOne.key_quotes).toEqual(atOnce.key_quotes);
  });

  it('keeps the pool bounded on long sessions', () => {
    const many = Array.from({ length: 300 }, (_, index) => message(`Note ${index}: the invoice for customer ${index} is due on day ${index % 28}.`));
    const summary = foldEvents(emptySummary(), many, tokenizer, 't');
    expect(summary.sentences.length).toBeLessThanOrEqual(64);
    expect(summary.key_quotes.length).toBeLessThanOrEqual(12);
    expect(summary.events_folded).toBe(300);
  });
});
