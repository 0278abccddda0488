// engram/client against a real server on loopback: the typed calls reach the routes, pages and
// results come back as the library's types, an export and an import travel as JSON Lines, and a
// problem document becomes an EngramHttpError.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createClient, EngramHttpError } from '../../src/client/index.js';
import { startHarness, TENANT_A, type Harness } from './harness.js';

const scope = { user_id: 'mira', agent_id: 'assistant', session_id: 's1', run_id: 'r1' };

describe('engram/client', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it('commits, composes, searches, remembers and pages with the library types', async () => {
    const client = createClient({ baseUrl: h.url, apiKey: h.keys.a.write });
    const result = await client.commitTurn({
      scope,
      turn_id: 't1',
      messages: [{ role: 'user', content: 'I prefer concise answers in writing. We launch Atlas on June 12.' }],
    });
    expect(result).toMatchObject({ turn_id: 't1', scope: { tenant_id: TENANT_A }, replayed: false });
    const batch = await client.commitTurns([
      { scope, turn_id: 't2', messages: [{ role: 'user', content: 'The venue is Lisbon.' }] },
    ]);
    expect(batch.map((entry) => entry.turn_id)).toEqual(['t2']);
    const { packet, text } = await client.compose(
      { scope, purpose: 'responder', cues: { query: 'launch venue' } },
      'markdown',
    );
    expect(packet.meta.scope.tenant_id).toBe(TENANT_A);
    expect(text).toContain('# Memory for the responder');
    // Later writes carry a later time (the test clock stands still otherwise), so the replay sees the store as it was.
    h.t.clock.advance(1000);
    const diffs = await client.items.remember({
      scope: { user_id: 'mira', agent_id: 'assistant' },
      type: 'preferences',
      key: 'pref:writing:tone',
      value: { scope: 'writing', name: 'tone', value: 'friendly' },
    });
    expect(diffs[0]).toMatchObject({ action: 'created', key: 'pref:writing:tone' });
    const hits = await client.items.search({ scope: { user_id: 'mira', agent_id: 'assistant' }, query: 'tone' });
    expect(hits[0]!.item.key).toBe('pref:writing:tone');
    const events = await client.events.list({ user_id: 'mira', limit: 1 });
    expect(events.items).toHaveLength(1);
    expect(events.next_cursor).toBe(events.items[0]!.id);
    const next = await client.events.list({ user_id: 'mira', limit: 1, cursor: events.next_cursor! });
    expect(next.items[0]!.id > events.items[0]!.id).toBe(true);
    const state = await client.sessions.updateWorkingState({ scope, expected_version: 0, set: { goal: 'Ship Atlas' } });
    expect(state).toMatchObject({ goal: 'Ship Atlas', state_version: 1 });
    const build = await client.builds.get(String(packet.explain.determinism!['context_build_id']));
    expect(build.packet_hash).toBe(packet.explain.determinism!['packet_hash']);
    expect((await client.builds.replay(build.id)).identical).toBe(true);
  });

  it('moves a user out and back in as JSON Lines, erases, and calls any route by its operationId', async () => {
    const admin = createClient({ baseUrl: h.url, apiKey: h.keys.a.admin });
    await admin.commitTurn({
      scope: { ...scope, user_id: 'noor' },
      turn_id: 'n1',
      messages: [{ role: 'user', content: 'I live in Porto.' }],
    });
    const lines = await admin.maintenance.exportData({ user_id: 'noor' });
    expect(lines.split('\n').filter((line) => line !== '').length).toBeGreaterThan(2);
    // Sent again, every record is there already: the import skips them and writes nothing.
    const imported = await admin.maintenance.importData(lines);
    expect(imported).toMatchObject({ tenant_id: TENANT_A, counts: {} });
    expect(Object.values(imported.skipped).reduce((sum, count) => sum + (count ?? 0), 0)).toBeGreaterThan(0);
    const { erased } = await admin.maintenance.erase({ user_id: 'noor' });
    expect(erased['events']).toBeGreaterThan(0);
    expect((await admin.request('listEvents', { query: { user_id: 'noor' } })).items).toEqual([]);
    expect(await admin.request('whoami', {})).toMatchObject({ tenant_id: TENANT_A, role: 'admin' });
  });

  it('turns a problem document into an EngramHttpError with the code, field and request id', async () => {
    const reader = createClient({ baseUrl: h.url, apiKey: h.keys.a.read });
    const refused = await reader
      .commitTurn({ scope, turn_id: 'x', messages: [{ role: 'user', content: 'hi' }] })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(EngramHttpError);
    expect(refused).toMatchObject({ status: 403, code: 'FORBIDDEN' });
    const invalid = await createClient({ baseUrl: h.url, apiKey: h.keys.a.write })
      .commitTurn({ scope, turn_id: 'y', messages: [{ role: 'user', content: 'hi', mood: 'happy' }] } as never)
      .catch((error: unknown) => error as EngramHttpError);
    expect(invalid).toMatchObject({ status: 400, code: 'VALIDATION_FAILED', field: 'messages[0].mood' });
    expect((invalid as EngramHttpError).requestId).toBeTruthy();
    await expect(createClient({ baseUrl: h.url, apiKey: 'egk_nope' }).healthz()).resolves.toBeDefined();
    await expect(
      createClient({ baseUrl: h.url, apiKey: 'egk_nope' }).events.list({ user_id: 'mira' }),
    ).rejects.toMatchObject({ status: 401, code: 'UNAUTHENTICATED' });
  });
});
