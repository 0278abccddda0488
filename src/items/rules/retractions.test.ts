import { describe, expect, it } from 'vitest';

import type { ItemCandidate } from '../../spec/items.js';
import { createRuleExtractor } from './index.js';

const TS = '2026-02-18T10:00:00Z';

function extract(texts: readonly string[], knownKeys: readonly string[] = []): string[] {
  const events = texts.map((text, index) => ({
    event_id: `evt_${index + 1}`,
    kind: 'message' as const,
    role: 'user' as const,
    text,
    ts: TS,
  }));
  const out = createRuleExtractor().extract({ events, known_keys: knownKeys }) as ItemCandidate[];
  return out.map((candidate) => `${candidate.action} ${candidate.key}`);
}

describe('retractions', () => {
  it('re-runs the positive rules on the denied statement', () => {
    expect(extract(['I no longer prefer tea.'], ['pref:other:drink'])).toEqual(['retract pref:other:drink']);
    expect(extract(["I don't drink coffee anymore."], ['pref:other:drink'])).toEqual(['retract pref:other:drink']);
    expect(extract(['I no longer need to update the docs.'], ['task:general:update_docs'])).toEqual([
      'retract task:general:update_docs',
    ]);
    expect(extract(['我不再喜欢喝茶了。'], ['pref:other:drink'])).toEqual(['retract pref:other:drink']);
  });

  it('does not read the denied clause as a new statement, but reads the correction after it', () => {
    expect(extract(['I no longer prefer tea, I prefer coffee now.'], ['pref:other:drink'])).toEqual([
      'retract pref:other:drink',
      'upsert pref:other:drink',
    ]);
  });

  it('falls back to the words of a known key', () => {
    expect(
      extract(['Forget about the Atlas launch.'], ['event:atlas:2026-12-01:launch', 'decision:atlas:storage']),
    ).toEqual(['retract event:atlas:2026-12-01:launch']);
    expect(extract(['忘掉Atlas发布的事。'], ['event:atlas:2026-12-01:发布'])).toEqual([
      'retract event:atlas:2026-12-01:发布',
    ]);
  });

  it('names nothing when two keys match equally', () => {
    expect(
      extract(['Forget about the launch.'], ['event:atlas:2026-12-01:launch', 'event:zeus:2026-10-01:launch']),
    ).toEqual([]);
  });

  it('denies what the previous sentence of the input said ("scratch that", "不对")', () => {
    expect(extract(['I prefer tea.', 'Scratch that.'])).toEqual([
      'upsert pref:other:drink',
      'retract pref:other:drink',
    ]);
    expect(extract(['I prefer tea. Scratch that, I prefer coffee.'])).toEqual([
      'upsert pref:other:drink',
      'retract pref:other:drink',
      'upsert pref:other:drink',
    ]);
    expect(extract(['我更喜欢喝茶。', '不对。'])).toEqual(['upsert pref:other:drink', 'retract pref:other:drink']);
  });

  it('clears one profile fact instead of retracting the whole profile', () => {
    const out = createRuleExtractor().extract({
      events: [{ event_id: 'evt_1', kind: 'message', role: 'user', text: "I don't live in Lisbon anymore.", ts: TS }],
      known_keys: ['profile:user'],
    }) as ItemCandidate[];
    expect(out).toEqual([
      expect.objectContaining({
        action: 'upsert',
        key: 'profile:user',
        rule: 'en.retraction',
        value: { subject: 'user', facts: [{ k: 'location', v: null, was: 'Lisbon', until: '2026-02-18' }] },
      }),
    ]);
  });

  it('never retracts blindly', () => {
    expect(extract(["That's no longer true."], ['pref:other:drink'])).toEqual([]);
    expect(extract(['I no longer prefer tea.'])).toEqual([]);
    expect(extract(['Forget about the weather.'], ['pref:other:drink'])).toEqual([]);
  });

  it('ignores denials by the assistant', () => {
    const out = createRuleExtractor().extract({
      events: [{ event_id: 'evt_1', kind: 'message', role: 'assistant', text: 'I no longer prefer tea.', ts: TS }],
      known_keys: ['pref:other:drink'],
    });
    expect(out).toEqual([]);
  });
});
