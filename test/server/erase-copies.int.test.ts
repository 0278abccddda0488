// Erasure reaches the copies other users and sessions keep, over real loopback HTTP: a packet of
// user bob quoting a procedure user ann taught the agent, and a packet of ann's second session
// quoting her first, are redacted by POST /v1/erase (the build says when and why, /v1/export holds
// nothing of what was erased, and a replay says the build was redacted).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { BuildRedaction, ContextBuild, MemoryPacket, ReplayResult } from '../../src/index.js';
import { startHarness, type Harness } from './harness.js';

const CANARY = 'quokkastep';
const scope = (user: string, session: string) => ({
  user_id: user,
  agent_id: 'assistant',
  session_id: session,
  run_id: `r-${session}`,
});

describe('erase reaches the builds of other users and sessions, over HTTP', () => {
  let h: Harness;
  let write: string;
  let admin: string;
  const compose = async (body: Record<string, unknown>) => {
    const response = await h.call<{ packet: MemoryPacket }>('POST', '/v1/compose', { key: write, body });
    expect(response.status).toBe(200);
    return String(response.body.packet.explain.determinism?.['context_build_id']);
  };
  const exported = async () => (await h.call('GET', '/v1/export', { key: admin })).text;

  beforeAll(async () => {
    h = await startHarness();
    write = h.keys.a.write;
    admin = h.keys.a.admin;
  });
  afterAll(() => h.close());

  it("redacts bob's packet that quoted the procedure ann taught the agent when ann is erased", async () => {
    const taught = await h.call('POST', '/v1/items', {
      key: write,
      body: {
        scope: scope('ann', 's1'),
        type: 'procedure',
        key: 'procedure:deploy:canary',
        value: { task_type: 'deploy', name: 'canary', steps: [`run ${CANARY} first`] },
        scope_level: 'agent',
      },
    });
    expect(taught.status).toBe(200);
    const bobBuild = await compose({ scope: scope('bob', 's9'), purpose: 'planner', task_type: 'deploy' });
    expect((await h.call('GET', '/v1/export', { key: admin })).text).toContain(CANARY);

    const erased = await h.call<{ erased: Record<string, number> }>('POST', '/v1/erase', {
      key: admin,
      body: { user_id: 'ann' },
    });
    expect(erased.body.erased).toMatchObject({ memory_items: 1, context_builds_redacted: 1 });
    const build = (await h.call<ContextBuild>('GET', `/v1/builds/${bobBuild}`, { key: write })).body;
    expect(build.redactions).toEqual([
      { at: expect.any(String), erased: 'user', removed_entries: 2, removed_ids: 1 } satisfies BuildRedaction,
    ]);
    expect(build.packet.long_term.procedures).toEqual([]);
    const file = await exported();
    expect(file).not.toContain(CANARY);
    // The redaction travels with the build to another store (here: another tenant).
    const imported = await h.call('POST', '/v1/import', {
      key: h.keys.b.admin,
      raw: file,
      contentType: 'application/x-ndjson',
    });
    expect(imported.status).toBe(200);
    expect(
      (await h.call<ContextBuild>('GET', `/v1/builds/${bobBuild}`, { key: h.keys.b.read })).body.redactions,
    ).toEqual(build.redactions);

    const replayed = (await h.call<ReplayResult>('POST', `/v1/builds/${bobBuild}/replay`, { key: write, body: {} }))
      .body;
    expect(replayed).toMatchObject({ build_id: bobBuild, redactions: build.redactions });
    expect(JSON.stringify(replayed.packet)).not.toContain(CANARY);
  });

  it('redacts the packet of a second session that quoted the session a user erases', async () => {
    await h.call('POST', '/v1/turns', {
      key: write,
      body: {
        scope: scope('cleo', 's1'),
        turn_id: 't1',
        messages: [{ role: 'user', content: `My locker code word is ${CANARY}lock.` }],
      },
    });
    await h.call('POST', '/v1/turns', {
      key: write,
      body: {
        scope: scope('cleo', 's2'),
        turn_id: 't2',
        messages: [{ role: 'user', content: 'What was my locker code word again?' }],
      },
    });
    const second = await compose({
      scope: scope('cleo', 's2'),
      purpose: 'responder',
      cues: { query: 'locker code word' },
    });
    const before = (await h.call<ContextBuild>('GET', `/v1/builds/${second}`, { key: write })).body;
    expect(JSON.stringify(before.packet.short_term.key_quotes)).toContain(`${CANARY}lock`);

    const erased = await h.call<{ erased: Record<string, number> }>('POST', '/v1/erase', {
      key: admin,
      body: { user_id: 'cleo', session_id: 's1' },
    });
    expect(erased.body.erased).toMatchObject({ events: 1, context_builds_redacted: 1 });
    const after = (await h.call<ContextBuild>('GET', `/v1/builds/${second}`, { key: write })).body;
    expect(after.redactions).toMatchObject([{ erased: 'session' }]);
    expect(JSON.stringify(after)).not.toContain(`${CANARY}lock`);
    expect(JSON.stringify(after.packet.short_term.key_quotes)).toContain('What was my locker code word again?');
    expect(await exported()).not.toContain(`${CANARY}lock`);
  });
});
