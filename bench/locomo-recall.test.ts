import { describe, expect, it } from 'vitest';

import {
  answerShown,
  citedEvents,
  citedTurns,
  evidenceRecall,
  normaliseEvidence,
  sharesContentWord,
  shownText,
  type CitingPacket,
} from './locomo-recall.js';
import { parseSessionTime } from './locomo-data.js';

function packet(parts: {
  citations?: string[];
  quotes?: Array<[string, string]>;
  facts?: Array<[string[], string]>;
  episodes?: string[][];
  window?: string[];
}): CitingPacket {
  return {
    citations: (parts.citations ?? []).map((id) => ({ id, type: 'message' })),
    short_term: {
      key_quotes: (parts.quotes ?? []).map(([evidence_id, quote]) => ({ evidence_id, quote })),
      conversation_window: (parts.window ?? []).map((evidence_id) => ({
        evidence_id,
        role: 'user' as const,
        content: 'hi',
      })),
    },
    long_term: {
      facts: (parts.facts ?? []).map(([sources, notes], index) => ({
        fact_id: `mem_${index}`,
        fact_key: `k${index}`,
        value: {},
        status: 'active' as const,
        sources,
        notes,
      })),
      procedures: [],
      episodes: (parts.episodes ?? []).map((sources, index) => ({
        episode_id: `mem_e${index}`,
        time_range: { start: '2023-05-08T00:00:00.000Z' },
        summary: 's',
        sources,
      })),
    },
  };
}

describe('normaliseEvidence', () => {
  it('keeps a well-formed id', () => {
    expect(normaliseEvidence('D1:3')).toEqual(['D1:3']);
  });

  it('splits lists, repairs stray colons and leading zeros, and drops what names no turn', () => {
    expect(normaliseEvidence('D8:6; D9:17')).toEqual(['D8:6', 'D9:17']);
    expect(normaliseEvidence('D9:1 D4:4 D4:6')).toEqual(['D9:1', 'D4:4', 'D4:6']);
    expect(normaliseEvidence('D:11:26')).toEqual(['D11:26']);
    expect(normaliseEvidence('D30:05')).toEqual(['D30:5']);
    expect(normaliseEvidence('D')).toEqual([]);
  });
});

describe('evidenceRecall', () => {
  it('is the share of evidence turns cited, each counted once', () => {
    expect(evidenceRecall(['D1:3', 'D2:7'], new Set(['D1:3', 'D5:1']))).toBe(0.5);
    expect(evidenceRecall(['D1:3', 'D1:3'], new Set(['D1:3']))).toBe(1);
    expect(evidenceRecall(['D1:3'], new Set())).toBe(0);
  });

  it('is null for a question without evidence', () => {
    expect(evidenceRecall([], new Set(['D1:3']))).toBeNull();
  });
});

describe('citedTurns', () => {
  const dia = new Map([
    ['evt_a', 'D1:1'],
    ['evt_b', 'D1:2'],
    ['evt_c', 'D2:1'],
    ['evt_d', 'D2:2'],
  ]);

  it('counts citations, key quotes, and the sources of facts and episodes', () => {
    const cited = citedTurns(
      packet({ citations: ['evt_a'], facts: [[['evt_b'], 'Task: x']], episodes: [['evt_c']] }),
      dia,
    );
    expect([...cited].sort()).toEqual(['D1:1', 'D1:2', 'D2:1']);
  });

  it('ignores ids that name no turn', () => {
    expect(citedTurns(packet({ citations: ['evt_z', 'mem_1'] }), dia)).toEqual(new Set());
  });

  it('leaves out, when asked, evidence cited only by a bare reference', () => {
    const refOnly = packet({
      citations: ['evt_a', 'evt_b', 'evt_d'],
      quotes: [
        ['evt_a', ''],
        ['evt_d', 'shown'],
      ],
      facts: [[['evt_b'], '']],
    });
    expect([...citedTurns(refOnly, dia)].sort()).toEqual(['D1:1', 'D1:2', 'D2:2']);
    expect([...citedTurns(refOnly, dia, { shownOnly: true })]).toEqual(['D2:2']);
  });

  it('keeps evidence shown by one entry even when another only references it', () => {
    const both = packet({ citations: ['evt_a'], quotes: [['evt_a', '']], facts: [[['evt_a'], 'Event: y']] });
    expect(citedEvents(both, { shownOnly: true })).toEqual(new Set(['evt_a']));
  });
});

describe('parseSessionTime', () => {
  it('reads the data set times as UTC, 12 am and 12 pm included', () => {
    expect(parseSessionTime('1:56 pm on 8 May, 2023')).toBe('2023-05-08T13:56:00.000Z');
    expect(parseSessionTime('12:06 am on 11 November, 2022')).toBe('2022-11-11T00:06:00.000Z');
    expect(parseSessionTime('12:52 pm on 19 August, 2023')).toBe('2023-08-19T12:52:00.000Z');
  });

  it('refuses a time it cannot read', () => {
    expect(() => parseSessionTime('yesterday')).toThrow(RangeError);
  });
});

describe('sharesContentWord', () => {
  it('matches words as the search does: by stem, without function words or possessives', () => {
    expect(sharesContentWord('What did Caroline research?', 'Researching adoption agencies')).toBe(true);
    expect(sharesContentWord("What is Caroline's job?", 'Caroline works as a counselor.')).toBe(true);
    expect(sharesContentWord('Which doctors did I see?', 'Saw the dermatologist, Dr. Lee, today.')).toBe(false);
    expect(sharesContentWord('When is the launch?', 'We ship Atlas on June 12.')).toBe(false);
    // A question of function words only matches them, as the search does.
    expect(sharesContentWord('What did she do?', 'She did it.')).toBe(true);
  });
});

describe('answerShown', () => {
  const evidence = ['Thanks, Caroline! The concert was amazing. It was Matt Patterson, he is so talented!'];

  it('counts the answer words the evidence holds that the shown text holds too, by stem', () => {
    expect(answerShown('Matt Patterson', evidence, evidence)).toBe(1);
    expect(answerShown('Matt Patterson', evidence, ['It was Matt, I think'])).toBe(0.5);
    // Cited by a sentence without the answer: cited, but none of it shown.
    expect(answerShown('Matt Patterson', evidence, ['Thanks, Caroline!'])).toBe(0);
    expect(answerShown('Matt Patterson', evidence, [])).toBe(0);
  });

  it('is null when the evidence holds no word of the answer, or the answer only function words', () => {
    expect(answerShown('7 May 2023', ['I went yesterday'], ['I went yesterday'])).toBeNull();
    expect(answerShown('Yes', evidence, evidence)).toBeNull();
  });
});

describe('shownText', () => {
  it('gives each cited event the text shown for it: quotes, fact keys and notes, episode summaries; nothing for a bare reference', () => {
    const shown = shownText(
      packet({
        quotes: [
          ['evt_a', 'It was Matt Patterson'],
          ['evt_b', ''],
        ],
        facts: [[['evt_a', 'evt_c'], 'plays violin']],
        episodes: [['evt_c']],
      }),
    );
    expect(shown.get('evt_a')).toContain('It was Matt Patterson');
    expect(shown.get('evt_a')).toContain('k0 plays violin');
    // The fact's text and the episode's summary ('s').
    expect(
      shown
        .get('evt_c')!
        .split('\n')
        .filter((line) => line !== ''),
    ).toEqual(['k0 plays violin', 's']);
    expect(shown.has('evt_b')).toBe(false);
  });
});
