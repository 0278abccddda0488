import { describe, expect, it } from 'vitest';

import { caught } from '../../testing/expect-code.js';
import { resolveCall } from './call-scope.js';

const defaults = { scope: { user_id: 'mira', agent_id: 'chef' }, purpose: 'responder' as const };

describe('resolveCall', () => {
  it('lays providerOptions.engram over the defaults; the run is the session unless named', () => {
    expect(resolveCall(defaults, { providerOptions: { engram: { session_id: 's1' } } })).toEqual({
      scope: { user_id: 'mira', agent_id: 'chef', session_id: 's1', run_id: 's1' },
      purpose: 'responder',
      turnId: undefined,
    });
    expect(
      resolveCall(defaults, {
        providerOptions: {
          engram: { tenant_id: 'acme', user_id: 'li', session_id: 's1', run_id: 'r9', purpose: 'tool', turn_id: 't1' },
        },
      }),
    ).toEqual({
      scope: { tenant_id: 'acme', user_id: 'li', agent_id: 'chef', session_id: 's1', run_id: 'r9' },
      purpose: 'tool',
      turnId: 't1',
    });
  });

  it('refuses options it cannot use, naming them', async () => {
    const cases: Array<[unknown, string]> = [
      [undefined, 'providerOptions.engram.session_id'],
      ['s1', 'providerOptions.engram'],
      [{ session_id: 's1', purpose: 'chat' }, 'providerOptions.engram.purpose'],
      [{ session_id: 42 }, 'providerOptions.engram.session_id'],
      [{ session_id: '' }, 'providerOptions.engram.session_id'],
      [{ sessionId: 's1' }, 'providerOptions.engram.sessionId'],
    ];
    for (const [engram, field] of cases) {
      const params = { providerOptions: engram === undefined ? {} : { engram } } as Parameters<typeof resolveCall>[1];
      expect(await caught(Promise.resolve().then(() => resolveCall(defaults, params)))).toMatchObject({
        code: 'VALIDATION_FAILED',
        field,
      });
    }
  });
});
