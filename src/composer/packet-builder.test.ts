import { describe, expect, it } from 'vitest';

import { o200kTokenizer } from '../util/tokenizer.js';
import { explainId, PacketBuilder, type Offer } from './packet-builder.js';
import { LineCosts } from './text-tokens.js';

const EVENT = 'evt_01M7Z6NCYD9SGR8TDYBFVKY2P2';
const ITEM = 'mem_01M7Z6NCYD9SGR8TDYBFVKY2P3';
const INSIGHT = 'ins_01M7Z6NCYD9SGR8TDYBFVKY2P4';

function builder(maxTokens = 1000): PacketBuilder {
  const sections = {
    working_state: 200,
    short_term_summary: 200,
    facts: 200,
    procedures: 0,
    episodes: 0,
    insights: 200,
  };
  return new PacketBuilder(new LineCosts(o200kTokenizer), maxTokens, sections, {
    purpose: 'responder',
    generatedAt: '2026-06-01T12:00:00.000Z',
    tokenizer: o200kTokenizer,
  });
}

function textOffer(ref: Offer<string>['ref'], forms: string[], extra: Partial<Offer<string>> = {}): Offer<string> {
  return {
    ref,
    section: ref.part === 'insights' ? 'insights' : ref.part === 'facts' ? 'facts' : 'short_term_summary',
    rule: 'test.rule',
    forms: forms.map((value, index) => ({ level: (['raw', 'quote', 'summary'] as const)[index]!, value })),
    text: (value) => value,
    ...(ref.part === 'insights' ? { block: 'patterns' as const } : {}),
    ...extra,
  };
}

describe('explainId', () => {
  it('writes each kind of ref as explain shows it', () => {
    expect(explainId({ part: 'working_state', field: 'goal' })).toBe('working_state.goal');
    expect(explainId({ part: 'working_state', field: 'decisions', index: 1 })).toBe('working_state.decisions[1]');
    expect(explainId({ part: 'open_loops', index: 0 })).toBe('open_loops[0]');
    expect(explainId({ part: 'open_loops', label: 'Which venue?' })).toBe('open_loops:Which venue?');
    expect(explainId({ part: 'key_quotes', id: EVENT })).toBe(`key_quotes:${EVENT}`);
    expect(explainId({ part: 'key_quotes', id: EVENT, sentence: 2 })).toBe(`key_quotes:${EVENT}#2`);
    expect(explainId({ part: 'conversation_window' })).toBe('conversation_window');
  });
});

describe('PacketBuilder', () => {
  it('places entries in order and records them once, in one report', () => {
    const packet = builder();
    const placed = packet.place<string>([
      { omit: { part: 'facts', id: ITEM }, reason: 'expired', section: 'facts', detail: 'valid until then' },
      {
        charge: 12,
        section: 'short_term_summary',
        select: { ref: { part: 'rolling_summary' }, rule: 'stm.extractive_summary(2 sentences, 12 tokens)' },
        cites: [{ id: EVENT, type: 'message' }],
      },
      textOffer({ part: 'key_quotes', id: EVENT }, ['a quote']),
      textOffer({ part: 'facts', id: ITEM }, ['a fact']),
      textOffer({ part: 'insights', id: INSIGHT }, ['an insight']),
    ]);
    expect(placed.map((form) => form?.value)).toEqual([undefined, undefined, 'a quote', 'a fact', 'an insight']);
    const record = packet.finish();
    expect(record.selected).toEqual([
      'rolling_summary: stm.extractive_summary(2 sentences, 12 tokens)',
      `key_quotes:${EVENT}: test.rule`,
      `facts:${ITEM}: test.rule`,
      `insights:${INSIGHT}: test.rule`,
    ]);
    expect(record.omitted).toEqual([
      { item: `facts:${ITEM}`, reason: 'expired', section: 'facts', detail: 'valid until then' },
    ]);
    expect(record.budget_report.omissions).toEqual([{ item: `facts:${ITEM}`, reason: 'expired' }]);
    // Events and item versions a build selected, each once; insights are not among them.
    expect(record.records).toEqual([EVENT, ITEM]);
    expect(record.citations).toEqual([{ id: EVENT, type: 'message' }]);
    const usage = record.budget_report.section_usage;
    expect(record.budget_report.used_tokens_est).toBe(Object.values(usage).reduce((sum, tokens) => sum + tokens, 0));
    expect(usage['short_term_summary']).toBeGreaterThan(12);
  });

  it('steps down to the first form that fits and records the degradation', () => {
    const packet = builder();
    const long = 'word '.repeat(400).trim();
    const [taken] = packet.place([textOffer({ part: 'key_quotes', id: EVENT }, [long, 'short'])]);
    expect(taken).toEqual({ level: 'quote', value: 'short' });
    const record = packet.finish();
    expect(record.selected).toEqual([`key_quotes:${EVENT}: test.rule [quote]`]);
    expect(record.budget_report.degradations).toEqual([
      {
        section: 'short_term_summary',
        action: `key_quotes:${EVENT}: raw→quote`,
        reason: expect.stringMatching(/^over_budget: \d+ tokens left in short_term_summary$/),
      },
    ]);
  });

  it('leaves out an offer without costing its forms when less than its minimum room is left', () => {
    const packet = builder();
    let costed = 0;
    const [taken] = packet.place([
      textOffer({ part: 'key_quotes', id: EVENT }, ['a passage'], {
        minRoom: 1000,
        text: (value) => {
          costed += 1;
          return value;
        },
      }),
    ]);
    expect(taken).toBeUndefined();
    expect(costed).toBe(0);
    expect(packet.finish().omitted).toEqual([
      {
        item: `key_quotes:${EVENT}`,
        reason: 'over_budget',
        section: 'short_term_summary',
        detail: expect.stringMatching(/^needs more than the \d+ tokens left$/),
      },
    ]);
  });

  it('charges a group heading (a key quote day) to the first item of its group only', () => {
    const packet = builder();
    const quote = (id: string, group: string) => textOffer({ part: 'key_quotes', id }, ['a short quote'], { group });
    const cost = () => packet.finish().budget_report.section_usage['short_term_summary']!;
    packet.place([quote(EVENT, '2026-06-01:')]);
    const first = cost();
    packet.place([quote(`${EVENT.slice(0, -1)}3`, '2026-06-01:')]);
    const sameDay = cost() - first;
    packet.place([quote(`${EVENT.slice(0, -1)}4`, '2026-06-02:')]);
    const otherDay = cost() - first - sameDay;
    const heading = Math.max(o200kTokenizer.count('2026-06-02:\n'), o200kTokenizer.count('    2026-06-02:\n'));
    expect(otherDay - sameDay).toBe(heading);
    expect(packet.overhead({ part: 'key_quotes', id: EVENT }, undefined, '2026-06-01:')).toBe(
      packet.overhead({ part: 'key_quotes', id: EVENT }),
    );
  });
});
