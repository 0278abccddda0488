// Tenant B's records for the isolation tests (HTTP routes and MCP tools): a user with events,
// items, candidates, an insight, a snapshot, context builds and a key, and a fingerprint of all of it
// read through the library, which must be the same after tenant A's keys have tried everything.

import type { Engram } from '../../src/index.js';
import { TENANT_B } from './harness.js';
import type { RecordIds } from './requests.js';

export const B_USER = 'bea';
export const scope = { tenant_id: TENANT_B, user_id: B_USER, agent_id: 'assistant', session_id: 's1', run_id: 'r1' };
const run = { tenant_id: TENANT_B, user_id: B_USER, agent_id: 'assistant', run_id: 'r1' };
const markers = ['PLAN_DONE', 'ACT_DONE', 'OBSERVE_DONE', 'STEP_DONE'] as const;

/** Tenant B's records, written through the library: events, items, candidates, an insight, a snapshot, builds, a key. */
export async function seedTenantB(engram: Engram): Promise<RecordIds> {
  const first = await engram.commitTurn({
    scope,
    turn_id: 'b1',
    messages: [{ role: 'user', content: 'I prefer concise answers in writing.' }],
  });
  await engram.commitTurns([
    {
      scope,
      turn_id: 'b2',
      messages: [{ role: 'user', content: 'Deploy billing.' }],
      tool_results: [
        { tool_name: 'build_image', content: { ok: true } },
        { tool_name: 'push_image', content: { ok: true } },
      ],
    },
    {
      scope,
      turn_id: 'b3',
      messages: [{ role: 'user', content: 'Now deploy auth.' }],
      tool_results: [
        { tool_name: 'build_image', content: { ok: true } },
        { tool_name: 'push_image', content: { ok: true } },
      ],
    },
    {
      scope,
      turn_id: 'b4',
      messages: [{ role: 'user', content: 'Again: I prefer concise answers in writing.' }],
      run: { objective: 'Ship billing', done_definition: 'deployed' },
    },
  ]);
  await engram.commitTurn({ scope, turn_id: 'b5', markers: [...markers] });
  const snapshotTurn = await engram.commitTurn({ scope, turn_id: 'b6', markers: [...markers] });
  const [item] = await engram.items.remember({
    scope,
    type: 'preferences',
    key: 'pref:writing:tone',
    value: { scope: 'writing', name: 'tone', value: 'concise' },
  });
  const { candidates } = await engram.reflect({ scope: run });
  const insight = await engram.insights.add({
    scope: run,
    type: 'strategy',
    statement: 'Canary first',
    expires_at: null,
  });
  await engram.insights.update({ tenant_id: TENANT_B, insight_id: insight.id, state: 'validated' });
  const build = await engram.compose({ scope, purpose: 'responder' });
  const build2 = await engram.compose({ scope, purpose: 'planner' });
  const key = await engram.keys.create({ tenant_id: TENANT_B, role: 'read', label: 'b' });
  return {
    event: first.events[0]!.event_id,
    item: item!.item_id,
    candidate: candidates[0]!.id,
    candidate2: candidates[1]!.id,
    insight: insight.id,
    snapshot: snapshotTurn.compaction!.snapshot_id,
    build: String(build.explain.determinism!['context_build_id']),
    build2: String(build2.explain.determinism!['context_build_id']),
    key: key.info.id,
  };
}

/** Everything tenant B has, read through the library: it must read the same after the matrix. */
export async function fingerprint(engram: Engram): Promise<string> {
  const user = { tenant_id: TENANT_B, user_id: B_USER };
  return JSON.stringify([
    await engram.events.list({ scope: user, limit: 1000 }),
    await engram.items.list({
      scope: { ...user, agent_id: 'assistant' },
      status: ['active', 'superseded', 'retracted'],
      limit: 1000,
    }),
    await engram.sessions.workingState(scope),
    await engram.review.list({ scope: user, limit: 1000 }),
    await engram.insights.list({ scope: user, include_expired: true, limit: 1000 }),
    await engram.runs.get(run),
    await engram.runs.snapshots({ scope: user }),
    await engram.builds.list({ tenant_id: TENANT_B, limit: 1000 }),
    await engram.keys.list(TENANT_B),
  ]);
}
