// The rule extractor as an Extractor: its rules named once; what produces nothing (greetings, moods,
// hedges, an assistant's echo, code, a denial of nothing known) and what an assistant's message
// yields; odd input that must never make it throw. Whole conversations are in conversations.test.ts.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import type { ExtractionEvent, ItemCandidate } from '../../spec/items.js';
import { assertKey } from '../keys.js';
import { createRuleExtractor, RULES } from './index.js';

// Wednesday: "Friday" is 2026-02-20, "下周五" (Friday of next week) is 2026-02-27.
const TS = '2026-02-18T10:00:00Z';

describe('createRuleExtractor', () => {
  it('implements Extractor v1 as rules@1', () => {
    const extractor = createRuleExtractor();
    expect(extractor.specificationVersion).toBe('v1');
    expect(extractor.name).toBe('rules@1');
    expect(extractor.extract({ events: [] })).toEqual([]);
  });

  it('names every rule once, with a gate and a confidence', () => {
    const names = RULES.map((rule) => rule.name);
    expect(new Set(names).size).toBe(names.length);
    for (const rule of RULES) {
      expect(rule.name).toMatch(/^(?:en|zh|any|tool)\.[a-z_.-]+$/);
      expect(['must', 'may']).toContain(rule.gate);
      expect(rule.confidence).toBeGreaterThan(0);
    }
  });
});

describe('what produces nothing', () => {
  const extract = (text: string, role: 'user' | 'assistant' = 'user') =>
    createRuleExtractor().extract({
      events: [{ event_id: 'evt_1', kind: 'message', role, text, ts: TS }],
    }) as ItemCandidate[];

  it.each([
    'Hi there!',
    'Thanks so much!',
    'Good morning, how are you?',
    'Ugh, I hate Mondays.',
    'This sucks, I am so tired.',
    'Maybe we should use Redis.',
    'I think we might switch to Postgres.',
    'Probably the launch slips to next Friday.',
    "I'm not sure I prefer a formal tone.",
    'Talk to you tomorrow!',
    "I have to say, that was impressive. We'll use the following steps.",
    'I love this idea!',
    '你好！',
    '谢谢，辛苦了！',
    '烦死了，今天又加班。',
    '也许我们应该用Redis。',
    '我觉得我们可能要换数据库。',
    '大概下周五发布吧。',
  ])('%s', (text) => {
    expect(extract(text)).toEqual([]);
  });

  it('does not take an assistant echo as the user preference or profile', () => {
    expect(
      extract(
        'You prefer a formal tone, and I prefer short answers. My name is Claude. Please use English.',
        'assistant',
      ),
    ).toEqual([]);
    expect(extract('你更喜欢正式的语气，我更喜欢用中文。我叫小助手。', 'assistant')).toEqual([]);
  });

  it('takes decisions and tasks from the assistant, with less confidence', () => {
    const [decision] = extract('We decided to use Postgres for storage.', 'assistant');
    expect(decision).toMatchObject({ key: 'decision:general:storage', confidence: 0.77 });
  });

  it('does not read fenced code as statements', () => {
    expect(
      extract('Here is the fix:\n```ts\n// TODO: handle the errors\nconst decided = true;\n```', 'assistant'),
    ).toEqual([]);
  });

  it('does not retract when nothing it names exists', () => {
    expect(extract("That's no longer true.")).toEqual([]);
    expect(extract('I no longer prefer tea.')).toEqual([]);
    expect(extract('Forget about the Atlas launch.')).toEqual([]);
  });
});

describe('odd input', () => {
  // Fragments that trigger rules, mixed with arbitrary text, so every rule meets strange neighbours.
  const FRAGMENTS = [
    'I prefer ',
    'TODO: ',
    'we decided to use ',
    ' is done',
    'https://',
    'github.com/',
    'docs/',
    '.md',
    ' by Friday',
    ' on 2026-02-30',
    'I no longer ',
    'scratch that',
    '我更喜欢',
    '待办：',
    '完成了',
    '决定',
    '2026年13月1日',
    '忘掉',
    'Alice ',
    '**',
    ':',
    '/',
    '.',
    '\uD800',
    '\n',
  ];
  const text = fc
    .array(
      fc.oneof(
        fc.constantFrom(...FRAGMENTS),
        fc.string({ maxLength: 12 }),
        fc.string({ unit: 'grapheme', maxLength: 8 }),
      ),
      { maxLength: 14 },
    )
    .map((parts) => parts.join(''));

  it('never throws, and every candidate has a valid key and a span inside its event', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(fc.constantFrom('user', 'assistant', 'tool') as fc.Arbitrary<'user' | 'assistant' | 'tool'>, text),
          { maxLength: 4 },
        ),
        fc.array(fc.constantFrom('pref:other:drink', 'task:general:update_docs', 'profile:user'), { maxLength: 3 }),
        (messages, knownKeys) => {
          const events: ExtractionEvent[] = messages.map(([role, body], index) => ({
            event_id: `evt_${index}`,
            kind: role === 'tool' ? 'tool_result' : 'message',
            role,
            text: body,
            ts: TS,
            ...(role === 'tool' ? { tool_name: 'create_thing' } : {}),
          }));
          const out = createRuleExtractor().extract({ events, known_keys: knownKeys }) as ItemCandidate[];
          for (const candidate of out) {
            assertKey(candidate.type, candidate.key);
            for (const evidence of candidate.evidence_refs ?? []) {
              if (evidence.span === undefined) continue;
              const source = events.find((event) => event.event_id === evidence.ref)!;
              expect(evidence.span[0]).toBeGreaterThanOrEqual(0);
              expect(evidence.span[1]).toBeLessThanOrEqual(source.text.length);
            }
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it('is deterministic', () => {
    const events: ExtractionEvent[] = [
      {
        event_id: 'evt_1',
        kind: 'message',
        role: 'user',
        text: 'I prefer tea. TODO: ship v2 by next Friday. See docs/a.md.',
        ts: TS,
      },
    ];
    expect(createRuleExtractor().extract({ events })).toEqual(createRuleExtractor().extract({ events }));
  });
});
