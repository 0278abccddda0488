import { describe, expect, it } from 'vitest';

import { scope, tempEngramEach } from '../../test/helpers/temp-engram.js';
import { seedSession } from '../../test/helpers/compose-packets.js';

const t = tempEngramEach();

const seed = () => seedSession(t.engram);

describe('named policies', () => {
  it('applies a registered policy to its purpose, records it for replay, and refuses unknown ids', async () => {
    await seed();
    t.engram.registerPolicy({
      policy_id: 'tight',
      purposes: { responder: { budget: { max_tokens: 600 }, key_quotes: 1, query_quotes: 1 } },
    });
    const packet = await t.engram.compose({
      scope,
      purpose: 'responder',
      policy_id: 'tight',
      cues: { query: 'Atlas' },
    });
    expect(packet.meta.policy_id).toBe('tight');
    expect(packet.budget_report.max_tokens).toBe(600);
    expect(packet.explain.filters['key_quotes_top_k']).toBe(1);
    // The planner has no overrides in this policy: its defaults apply.
    expect((await t.engram.compose({ scope, purpose: 'planner', policy_id: 'tight' })).budget_report.max_tokens).toBe(
      4000,
    );
    // Replay uses the policy the build recorded, even after the policy changes.
    t.engram.registerPolicy({ policy_id: 'tight', purposes: { responder: { budget: { max_tokens: 300 } } } });
    expect((await t.engram.builds.replay(packet.explain.determinism!['context_build_id'] as string)).identical).toBe(
      true,
    );
    await expect(t.engram.compose({ scope, purpose: 'responder', policy_id: 'nope' })).rejects.toMatchObject({
      field: 'policy_id',
      rule: 'registered',
    });
    expect(() =>
      t.engram.registerPolicy({ policy_id: 'bad', purposes: { responder: { budget: { max_tokens: 10 } } } }),
    ).toThrow(/purposes.responder.budget.max_tokens/);
    expect(() => t.engram.registerPolicy({ policy_id: 'default', purposes: {} })).toThrow(/reserved|built-in/);
  });
});
