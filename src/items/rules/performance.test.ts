import { describe, expect, it } from 'vitest';

import type { ExtractionEvent } from '../../spec/items.js';
import { createRuleExtractor } from './index.js';

// A micro-benchmark of the per-commit cost: short messages of a typical turn, one per extract call.
// It prints µs per message and asserts nothing about time, so a slow CI machine does not fail it.
const MESSAGES: readonly (readonly ['user' | 'assistant', string])[] = [
  ['user', 'Can you summarise the meeting notes from this morning?'],
  ['assistant', 'Sure, here is a short summary of the key points.'],
  ['user', 'I prefer a formal tone for client emails.'],
  ['assistant', 'We decided to use Postgres for storage.'],
  ['user', 'Thanks!'],
  ['assistant', 'The build failed again on CI; the logs point at a flaky test.'],
  ['user', 'I need to update the docs by Friday.'],
  ['user', 'What time is it in Lisbon right now?'],
  ['user', 'Maybe we should try a different approach.'],
  ['user', 'Please check docs/design.md and https://github.com/acme/atlas for details.'],
  ['user', '我更喜欢用中文写技术文档。'],
  ['user', '今天天气不错，我们下午再聊。'],
];

describe('rule extractor performance', () => {
  it('prints µs per short message', () => {
    const extractor = createRuleExtractor();
    const events: ExtractionEvent[] = MESSAGES.map(([role, text], index) => ({
      event_id: `evt_${index}`,
      kind: 'message',
      role,
      text,
      ts: '2026-02-18T10:00:00Z',
    }));
    const english = events.filter((event) => !/\p{Script=Han}/u.test(event.text));
    // Best of three rounds after a warm-up: other processes on the machine only ever add time.
    const measure = (list: readonly ExtractionEvent[], rounds: number): number => {
      for (let index = 0; index < 20_000; index += 1) extractor.extract({ events: [list[index % list.length]!] });
      let best = Infinity;
      for (let round = 0; round < 3; round += 1) {
        const started = process.hrtime.bigint();
        for (let index = 0; index < rounds; index += 1) extractor.extract({ events: [list[index % list.length]!] });
        best = Math.min(best, Number(process.hrtime.bigint() - started) / 1_000 / rounds);
      }
      return best;
    };
    const englishMicros = measure(english, 30_000);
    const allMicros = measure(events, 30_000);
    console.log(
      `rules@1: ${englishMicros.toFixed(2)} µs per short English message, ${allMicros.toFixed(2)} µs with Chinese mixed in (best of 3)`,
    );
    expect(englishMicros).toBeGreaterThan(0);
  });
});
