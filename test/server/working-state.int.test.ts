// PATCH /v1/working-state over real loopback: an update sent again with its turn_id is a replay
// (200, `replayed: true`, the state it recorded, even with a now stale version) and another update
// under that turn_id is 409 DUPLICATE_TURN, the same from the library and the MCP tool; a state
// patch citing an event that is not its user's own (another tenant's, another user's, none) is 400.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { WorkingStateUpdate } from '../../src/index.js';
import { startHarness, TENANT_A, TENANT_B, type Harness } from './harness.js';

const scope = { user_id: 'mira', agent_id: 'assistant', session_id: 's1', run_id: 'r1' };

describe('PATCH /v1/working-state with a turn_id used before', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  const patch = (body: Record<string, unknown>) =>
    h.call<WorkingStateUpdate & { code?: string; field?: string }>('PATCH', '/v1/working-state', {
      key: h.keys.a.write,
      body,
    });

  it('replays the same update with the state it recorded, and refuses another update under that turn_id', async () => {
    const update = {
      scope,
      expected_version: 0,
      set: { goal: 'Ship Atlas' },
      append: { decisions: [{ statement: 'Use SQLite' }] },
      turn_id: 'w1',
    };
    const first = await patch(update);
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({ goal: 'Ship Atlas', state_version: 1, replayed: false });

    // The same update again (its expected_version is stale now): nothing written, the state it recorded.
    const again = await patch(update);
    expect(again.status, again.text).toBe(200);
    expect(again.body).toEqual({ ...first.body, replayed: true });

    // After another writer moved the state on, the replay still answers with the state as recorded.
    const next = await patch({ scope, expected_version: 1, set: { goal: 'Ship Atlas 2' }, turn_id: 'w2' });
    expect(next.body).toMatchObject({ state_version: 2, replayed: false });
    expect((await patch(update)).body).toEqual({ ...first.body, replayed: true });

    // Another update under a used turn_id: 409, nothing written.
    for (const changed of [
      { ...update, set: { goal: 'Something else' } },
      { ...update, expected_version: 1 },
      { ...update, scope: { ...scope, run_id: 'r2' } },
    ]) {
      const refused = await patch(changed);
      expect(refused.status, refused.text).toBe(409);
      expect(refused.body).toMatchObject({ code: 'DUPLICATE_TURN', field: 'turn_id' });
    }
    // A turn_id of a turn that was not a working-state update: 409 too.
    await h.call('POST', '/v1/turns', {
      key: h.keys.a.write,
      body: { scope, turn_id: 'm1', messages: [{ role: 'user', content: 'hello' }] },
    });
    expect((await patch({ ...update, turn_id: 'm1' })).body).toMatchObject({
      status: 409,
      code: 'DUPLICATE_TURN',
      field: 'turn_id',
    });

    const state = await h.call<Record<string, unknown>>(
      'GET',
      '/v1/working-state?user_id=mira&agent_id=assistant&session_id=s1',
      { key: h.keys.a.read },
    );
    expect(state.body).toMatchObject({ goal: 'Ship Atlas 2', state_version: 2 });
    const patches = await h.call<{ items: unknown[] }>(
      'GET',
      '/v1/events?user_id=mira&session_id=s1&kinds=state_patch',
      { key: h.keys.a.read },
    );
    expect(patches.body.items).toHaveLength(2);
  });

  it('answers the same from the library and the MCP tool', async () => {
    const library = {
      scope: { ...scope, tenant_id: TENANT_A, session_id: 's2' },
      expected_version: 0,
      set: { goal: 'Plan' },
      turn_id: 'l1',
    };
    const written = await h.t.engram.sessions.updateWorkingState(library);
    expect(written.replayed).toBe(false);
    expect(await h.t.engram.sessions.updateWorkingState(library)).toEqual({ ...written, replayed: true });
    await expect(h.t.engram.sessions.updateWorkingState({ ...library, set: { goal: 'Other' } })).rejects.toMatchObject({
      code: 'DUPLICATE_TURN',
      field: 'turn_id',
    });

    const client = new Client({ name: 'working-state', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${h.url}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${h.keys.a.write}` } },
      }),
    );
    try {
      const args = { scope: { ...scope, session_id: 's3' }, expected_version: 0, set: { goal: 'Tool' }, turn_id: 'c1' };
      const first = await client.callTool({ name: 'update_working_state', arguments: args });
      expect(first.structuredContent).toMatchObject({ goal: 'Tool', state_version: 1, replayed: false });
      const again = await client.callTool({ name: 'update_working_state', arguments: args });
      expect(again.isError).not.toBe(true);
      expect(again.structuredContent).toEqual({ ...(first.structuredContent as object), replayed: true });
      const other = await client.callTool({
        name: 'update_working_state',
        arguments: { ...args, set: { goal: 'Else' } },
      });
      expect(other.isError).toBe(true);
      expect(JSON.stringify(other.content)).toContain('DUPLICATE_TURN');
    } finally {
      await client.close();
    }
  });
});

describe('a state patch cites only its user’s own events', () => {
  let h: Harness;
  let otherTenant: string;
  let otherUser: string;
  let own: string;

  beforeAll(async () => {
    h = await startHarness();
    const message = (user: string, tenant: string) => ({
      scope: { tenant_id: tenant, user_id: user, agent_id: 'assistant', session_id: 'x', run_id: 'x' },
      turn_id: 'e1',
      messages: [{ role: 'user' as const, content: `I am ${user}` }],
    });
    otherTenant = (await h.t.engram.commitTurn(message('bea', TENANT_B))).events[0]!.event_id;
    otherUser = (await h.t.engram.commitTurn(message('noor', TENANT_A))).events[0]!.event_id;
    own = (await h.t.engram.commitTurn(message('mira', TENANT_A))).events[0]!.event_id;
  });
  afterAll(() => h.close());

  it('refuses an event of another tenant or user, or none, naming the field; nothing is written', async () => {
    for (const evidence of [otherTenant, otherUser, 'evt_01J00000000000000000000000']) {
      const patched = await h.call('PATCH', '/v1/working-state', {
        key: h.keys.a.write,
        body: { scope, expected_version: 0, append: { decisions: [{ statement: 'Ship it', evidence_id: evidence }] } },
      });
      expect(patched.status, patched.text).toBe(400);
      expect(patched.body).toMatchObject({ code: 'VALIDATION_FAILED', field: 'append.decisions[0].evidence_id' });
      const committed = await h.call('POST', '/v1/turns', {
        key: h.keys.a.write,
        body: {
          scope,
          turn_id: `t-${evidence}`,
          messages: [{ role: 'user', content: 'ship it' }],
          state_patch: {
            expected_version: 0,
            set: { open_loops: [{ question: 'When?', status: 'open', evidence_id: evidence }] },
          },
        },
      });
      expect(committed.status, committed.text).toBe(400);
      expect(committed.body).toMatchObject({
        code: 'VALIDATION_FAILED',
        field: 'state_patch.set.open_loops[0].evidence_id',
      });
      // The same answer whether the event exists elsewhere or not at all.
      expect(String(committed.body['detail'] ?? committed.body['message'])).not.toMatch(/bea|noor|tenant-b/);
    }
    const state = await h.call('GET', '/v1/working-state?user_id=mira&agent_id=assistant&session_id=s1', {
      key: h.keys.a.read,
    });
    expect(state.body).toMatchObject({ state_version: 0, decisions: [], open_loops: [] });
  });

  it('cites the user’s own event, and keeps a cited id when the state is written back', async () => {
    const patched = await h.call<WorkingStateUpdate>('PATCH', '/v1/working-state', {
      key: h.keys.a.write,
      body: {
        scope,
        expected_version: 0,
        append: {
          decisions: [
            { statement: 'Ship it', evidence_id: own },
            { statement: 'Ask legal', evidence_id: 'ticket-42' },
          ],
        },
      },
    });
    expect(patched.status, patched.text).toBe(200);
    const packet = await h.call<{ packet: { citations: Array<{ id: string; type: string }> } }>('POST', '/v1/compose', {
      key: h.keys.a.read,
      body: { scope, purpose: 'planner' },
    });
    expect(packet.body.packet.citations).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: own, type: 'message' }),
        { id: 'ticket-42', type: 'reference' },
      ]),
    );
    const rewritten = await h.call('PATCH', '/v1/working-state', {
      key: h.keys.a.write,
      body: { scope, expected_version: 1, set: { decisions: patched.body.decisions.slice(0, 1) } },
    });
    expect(rewritten.status, rewritten.text).toBe(200);
  });
});
