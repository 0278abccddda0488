import { describe, expect, it } from 'vitest';

import { evidenceTurn, haystackOf, historyOf, HAYSTACK_CONVERSATIONS, questionTime } from './haystack.js';
import type { CorpusConversation, CorpusTurn } from './memory-corpus.js';

const turn = (user: string, expect: CorpusTurn['expect'] = []): CorpusTurn => ({
  user,
  assistant: 'ok',
  expect,
  stale: [],
  advice: [],
});

function conversation(id: string, language: 'en' | 'zh', starts: string[]): CorpusConversation {
  return {
    id,
    language,
    kinds: ['location'],
    sessions: starts.map((start, index) => ({ start, turns: [turn(`${id} session ${index + 1}`), turn('thanks')] })),
    questions: [{ ask: 'Where do I live?', show: ['Milan'], not_current: [] }],
  };
}

const english = Array.from({ length: 30 }, (_, index) =>
  conversation(`en-${index}`, 'en', ['2026-03-01T09:00:00.000Z', '2026-04-01T09:00:00.000Z']),
);
const chinese = Array.from({ length: 5 }, (_, index) =>
  conversation(`zh-${index}`, 'zh', ['2026-03-01T09:00:00.000Z']),
);
const corpus = [...english, ...chinese];

describe('haystackOf', () => {
  it('takes other conversations of the same language, each once, a different choice for each conversation', () => {
    const hay = haystackOf(corpus, 3);
    expect(hay).toHaveLength(HAYSTACK_CONVERSATIONS);
    expect(new Set(hay).size).toBe(HAYSTACK_CONVERSATIONS);
    expect(hay.every((other) => other.language === 'en' && other.id !== 'en-3')).toBe(true);
    expect(haystackOf(corpus, 4).map((other) => other.id)).not.toEqual(hay.map((other) => other.id));
  });

  it('takes every other conversation of a language that has fewer than the haystack needs', () => {
    expect(
      haystackOf(corpus, english.length)
        .map((other) => other.id)
        .sort(),
    ).toEqual(['zh-1', 'zh-2', 'zh-3', 'zh-4']);
  });
});

describe('historyOf', () => {
  it("interleaves the haystack's sessions with the conversation's in time, from 90 days before it to half a day after", () => {
    const own = english[0]!;
    const history = historyOf(own, haystackOf(corpus, 0));
    expect(history).toHaveLength(2 * 2 + HAYSTACK_CONVERSATIONS * 2 * 2);
    expect(history.map((entry) => entry.ts)).toEqual([...history.map((entry) => entry.ts)].sort((a, b) => a - b));
    const ownTurns = history.filter((entry) => entry.own !== null);
    expect(ownTurns.map((entry) => entry.own)).toEqual(['0:0', '0:1', '1:0', '1:1']);
    expect(ownTurns[0]).toMatchObject({
      session_id: 's1',
      turn_id: 't1-1',
      ts: Date.parse('2026-03-01T09:00:00.000Z'),
    });
    const hay = history.filter((entry) => entry.own === null);
    expect(hay[0]!.ts).toBe(Date.parse('2026-03-01T09:00:00.000Z') - 90 * 86_400_000);
    expect(Math.max(...hay.map((entry) => entry.ts))).toBeLessThanOrEqual(
      Date.parse('2026-04-01T09:00:00.000Z') + 86_400_000 / 2 + 60_000,
    );
    // Haystack turns sit between the conversation's sessions, not all before or after them.
    const between = hay.filter(
      (entry) => entry.ts > Date.parse('2026-03-01T10:00:00.000Z') && entry.ts < Date.parse('2026-04-01T09:00:00.000Z'),
    );
    expect(between.length).toBeGreaterThan(0);
    expect(new Set(history.map((entry) => `${entry.session_id}/${entry.turn_id}`)).size).toBe(history.length);
    // The questions come after every turn of the history.
    expect(Date.parse(questionTime(own))).toBeGreaterThan(Math.max(...history.map((entry) => entry.ts)));
    expect(questionTime(own)).toBe('2026-04-02T09:00:00.000Z');
  });
});

describe('evidenceTurn', () => {
  const moved: CorpusConversation = {
    ...english[0]!,
    sessions: [
      {
        start: '2026-03-01T09:00:00.000Z',
        turns: [turn('our flat in Pune is tiny', [{ kind: 'location', value: 'Pune' }]), turn('we might go to milan')],
      },
      {
        start: '2026-04-01T09:00:00.000Z',
        turns: [turn('we moved to Milan!', [{ kind: 'location', value: 'Milan' }])],
      },
    ],
  };

  it('is the last turn whose expected facts hold the value, before a turn that only mentions it', () => {
    expect(evidenceTurn(moved, 'milan')).toBe('1:0');
    expect(evidenceTurn(moved, 'Pune')).toBe('0:0');
  });

  it('falls back to the last user message that says it, and is null when none does', () => {
    expect(evidenceTurn(moved, 'go to Milan')).toBe('0:1');
    expect(evidenceTurn(moved, 'Lisbon')).toBeNull();
  });
});
