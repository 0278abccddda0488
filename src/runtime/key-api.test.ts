import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { tempEngram, type TempEngram } from '../../test/helpers/temp-engram.js';

describe('API keys', () => {
  let t: TempEngram;
  beforeEach(async () => {
    t = await tempEngram('2026-06-01T12:00:00.000Z', { embeddings: { provider: 'none' } });
  });
  afterEach(() => t.cleanup());

  it('shows a secret once, stores only its hash, verifies it to its tenant and role, and revokes it', async () => {
    const { info, key } = await t.engram.keys.create({ tenant_id: 'acme', role: 'write', label: 'ci' });
    expect(key).toMatch(/^egk_[A-Za-z0-9_-]{43}$/);
    expect(info).toMatchObject({
      tenant_id: 'acme',
      role: 'write',
      label: 'ci',
      last4: key.slice(-4),
      revoked_at: null,
    });
    expect(JSON.stringify(await t.storage.service.listApiKeys(undefined))).not.toContain(key);
    expect(await t.engram.keys.verify(key)).toEqual({ key_id: info.id, tenant_id: 'acme', role: 'write' });
    expect(await t.engram.keys.verify(`${key}x`)).toBeNull();
    expect(await t.engram.keys.verify('not a key')).toBeNull();
    expect(await t.engram.keys.list('other')).toEqual([]);
    await expect(t.engram.keys.revoke(info.id, 'other')).rejects.toMatchObject({ code: 'NOT_FOUND', field: 'key_id' });
    await t.engram.keys.revoke(info.id, 'acme');
    expect(await t.engram.keys.verify(key)).toBeNull();
    expect((await t.engram.keys.list('acme'))[0]!.revoked_at).not.toBeNull();
    await expect(t.engram.keys.create({ role: 'root' as never })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      field: 'role',
    });
  });

  it('creates the first-start admin key once, however many servers start at once, and never once a key exists', async () => {
    const results = await Promise.all(Array.from({ length: 5 }, () => t.engram.keys.bootstrap()));
    const created = results.filter((result) => result !== null);
    expect(created).toHaveLength(1);
    expect(created[0]!.info).toMatchObject({ tenant_id: 'default', role: 'admin', revoked_at: null });
    expect(await t.engram.keys.verify(created[0]!.key)).toMatchObject({ tenant_id: 'default', role: 'admin' });
    expect(await t.engram.keys.list()).toHaveLength(1);
    expect(await t.engram.keys.bootstrap()).toBeNull();
    // Revoking it does not make the store "new" again: a revoked key is still a key.
    await t.engram.keys.revoke(created[0]!.info.id);
    expect(await t.engram.keys.bootstrap()).toBeNull();
  });

  it('patches a working state at its version through a state_patch event', async () => {
    const scope = { user_id: 'u', agent_id: 'a', session_id: 's', run_id: 'r' };
    const state = await t.engram.sessions.updateWorkingState({
      scope,
      expected_version: 0,
      set: { goal: 'Ship Atlas' },
      append: { open_loops: [{ question: 'When?', status: 'open' }] },
    });
    expect(state).toMatchObject({
      goal: 'Ship Atlas',
      state_version: 1,
      open_loops: [{ question: 'When?', status: 'open' }],
    });
    await expect(
      t.engram.sessions.updateWorkingState({ scope, expected_version: 0, set: { goal: 'x' } }),
    ).rejects.toMatchObject({ code: 'STATE_VERSION_CONFLICT' });
    const events = await t.engram.events.list({ scope, limit: 10 });
    expect(events.map((event) => event.kind)).toEqual(['state_patch']);
    // Checked as a request of its own: unknown fields, no change, and errors named by its fields.
    await expect(
      t.engram.sessions.updateWorkingState({ scope, expected_version: 1, set: { goal: 'x' }, mood: 'happy' } as never),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED', field: 'mood' });
    await expect(t.engram.sessions.updateWorkingState({ scope, expected_version: 1 })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      field: 'set',
    });
    await expect(
      t.engram.sessions.updateWorkingState({ scope, expected_version: 0, set: { goal: 'x' } }),
    ).rejects.toMatchObject({ code: 'STATE_VERSION_CONFLICT', field: 'expected_version' });
    await expect(
      t.engram.sessions.updateWorkingState({
        scope,
        expected_version: 1,
        set: JSON.parse('{"mood":"x"}') as Record<string, unknown>,
      }),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED', field: expect.stringMatching(/^set/) });
    expect((await t.engram.events.list({ scope, limit: 10 })).length).toBe(1);
  });
});
