// The facts one rule of personal facts gives for one message: what the rules' tests compare.

import type { ItemCandidate } from '../../spec/items.js';
import { createRuleExtractor } from './index.js';

/** Wednesday 2026-02-18: the date relative dates and `since` resolve against. */
export const TEST_TS = '2026-02-18T10:00:00Z';

/**
 * The facts of `rule`'s candidates for one message of `role`, with the profile already known.
 *
 * @example
 * factsFrom('en.profile.taste', 'I love jazz.') // [{ k: 'taste:jazz', v: 'likes jazz' }]
 */
export function factsFrom(
  rule: string,
  text: string,
  role: 'user' | 'assistant' = 'user',
): Array<Record<string, unknown>> {
  const out = createRuleExtractor().extract({
    events: [{ event_id: 'evt_1', kind: 'message', role, text, ts: TEST_TS }],
    known_keys: ['profile:user'],
  }) as ItemCandidate[];
  return out
    .filter((candidate) => candidate.rule === rule)
    .flatMap((candidate) => candidate.value['facts'] as Array<Record<string, unknown>>);
}
