// The run reflection and insight tests start from: Mira's session s1 of run r1 with the assistant,
// two turns (the Atlas launch date, a preference for concise writing).

import type { Engram } from '../../src/index.js';

export const atlasScope = { user_id: 'mira', agent_id: 'assistant', session_id: 's1', run_id: 'r1' };
export const atlasRun = { user_id: 'mira', agent_id: 'assistant', run_id: 'r1' };

/**
 * Commits the run's two turns.
 *
 * @example
 * await commitAtlasRun(t.engram);
 */
export async function commitAtlasRun(engram: Engram): Promise<void> {
  await engram.commitTurn({
    scope: atlasScope,
    turn_id: 't1',
    messages: [
      { role: 'user', content: 'We launch Atlas on June 12.' },
      { role: 'assistant', content: 'Noted the Atlas launch.' },
    ],
  });
  await engram.commitTurn({
    scope: atlasScope,
    turn_id: 't2',
    messages: [
      { role: 'user', content: 'Keep answers short, I prefer concise writing.' },
      { role: 'assistant', content: 'Will do.' },
    ],
  });
}
