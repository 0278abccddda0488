// Tenant isolation and roles, for every route of the table: keys of tenant A sent against tenant
// B's records and users find nothing and change nothing; a request naming tenant B is 403; a read
// key cannot write and a write key cannot manage keys.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { ApiKeyInfo, Engram, MemoryPacket } from '../../src/index.js';
import { API_ROUTES } from '../../src/server/index.js';
import { startHarness, TENANT_A, TENANT_B, type Harness, type Page } from './harness.js';
import { samples, type RecordIds } from './requests.js';

const B_USER = 'bea';
const scope = { tenant_id: TENANT_B, user_id: B_USER, agent_id: 'assistant', session_id: 's1', run_id: 'r1' };
const run = { tenant_id: TENANT_B, user_id: B_USER, agent_id: 'assistant', run_id: 'r1' };
const markers = ['PLAN_DONE', 'ACT_DONE', 'OBSERVE_DONE', 'STEP_DONE'] as const;

/** Tenant B's records, written through the library: events, items, candidates, an insight, a snapshot, builds, a key. */
async function seedTenantB(engram: Engram): Promise<RecordIds> {
  const first = await engram.commitTurn({ scope, turn_id: 'b1', messages: [{ role: 'user', content: 'I prefer concise answers in writing.' }] });
  await engram.commitTurns([
    { scope, turn_id: 'b2', messages: [{ role: 'user', content: 'Deploy billing.' }], tool_results: [{ tool_name: 'build_image', content: { ok: true } }, { tool_name: 'push_image', content: { ok: true } }] },
    { scope, turn_id: 'b3', messages: [{ role: 'user', content: 'Now deploy auth.' }], tool_results: [{ tool_name: 'build_image', content: { ok: true } }, { tool_name: 'push_image', content: { ok: true } }] },
    { scope, turn_id: 'b4', messages: [{ role: 'user', content: 'Again: I prefer concise answers in writing.' }], run: { objective: 'Ship billing', done_definition: 'deployed' } },
  ]);
  await engram.commitTurn({ scope, turn_id: 'b5', markers: [...markers] });
  const snapshotTurn = await engram.commitTurn({ scope, turn_id: 'b6', markers: [...markers] });
  const [item] = await engram.remember({ scope, type: 'preferences', key: 'pref:writing:tone', value: { scope: 'writing', name: 'tone', value: 'concise' } });
  const { candidates } = await engram.reflect({ scope: run });
  const insight = await engram.insights.add({ scope: run, type: 'strategy', statement: 'Canary first', expires_at: null });
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
async function fingerprint(engram: Engram): Promise<string> {
  const user = { tenant_id: TENANT_B, user_id: B_USER };
  return JSON.stringify([
    await engram.listEvents({ scope: user, limit: 1000 }),
    await engram.listItems({ scope: { ...user, agent_id: 'assistant' }, status: ['active', 'superseded', 'retracted'], limit: 1000 }),
    await engram.getWorkingState(scope),
    await engram.review.list({ scope: user, limit: 1000 }),
    await engram.insights.list({ scope: user, include_expired: true, limit: 1000 }),
    await engram.runs.get(run),
    await engram.runs.snapshots({ scope: user }),
    await engram.listBuilds({ tenant_id: TENANT_B, limit: 1000 }),
    await engram.keys.list(TENANT_B),
  ]);
}

const writeRoutes = API_ROUTES.filter((spec) => spec.role !== 'read');
const adminRoutes = API_ROUTES.filter((spec) => spec.role === 'admin');

/** The sample body naming tenant B where a scope (or the request) carries a tenant. */
function namingTenantB(body: Record<string, unknown>): Record<string, unknown> {
  if (Array.isArray(body['turns'])) return { turns: (body['turns'] as Array<Record<string, unknown>>).map(namingTenantB) };
  const inner = body['scope'];
  return typeof inner === 'object' && inner !== null ? { ...body, scope: { ...inner, tenant_id: TENANT_B } } : { ...body, tenant_id: TENANT_B };
}

describe('tenant isolation and roles on every route', () => {
  let h: Harness;
  let ids: RecordIds;
  let before: string;

  beforeAll(async () => {
    h = await startHarness();
    ids = await seedTenantB(h.t.engram);
    before = await fingerprint(h.t.engram);
  });
  afterAll(() => h.close());

  it('keys of tenant A, sent against B’s ids and users, find nothing of B and change nothing of B', async () => {
    const requests = samples(B_USER, ids);
    const secretsOfB = [TENANT_B, ...Object.values(ids)];
    for (const spec of API_ROUTES) {
      const sample = requests[spec.operationId]!;
      const response = await h.call(spec.method, sample.path, { key: h.keys.a.admin, body: sample.body });
      const context = `${spec.method} ${spec.url}: ${response.status} ${response.text.slice(0, 300)}`;
      expect(response.status, context).not.toBe(500);
      // An error may echo the id the request named; nothing else of B may appear.
      const asked = `${sample.path} ${JSON.stringify(sample.body ?? {})}`;
      for (const secret of secretsOfB.filter((value) => !asked.includes(value))) expect(response.text, context).not.toContain(secret);
      if (spec.url.includes(':id') || spec.operationId === 'diffBuilds') expect([404], context).toContain(response.status);
      const listed = response.body?.['items'];
      if (Array.isArray(listed)) {
        expect(listed.every((record: { tenant_id?: string }) => record.tenant_id === undefined || record.tenant_id === TENANT_A), context).toBe(true);
      }
    }
    expect(await fingerprint(h.t.engram)).toBe(before);
  });

  it('reading B’s user under tenant A lists nothing (lists are empty, the run is 404)', async () => {
    const requests = samples(B_USER, ids);
    for (const operationId of ['listEvents', 'listItems', 'listCandidates', 'listInsights', 'listSnapshots']) {
      const response = await h.call<Page<unknown>>('GET', requests[operationId]!.path.replace(B_USER, 'bea-elsewhere'), { key: h.keys.a.read });
      expect(response.body, operationId).toEqual({ items: [], next_cursor: null });
    }
    const scopes = await h.call<{ sessions: Array<{ user_id: string }>; users: Array<{ user_id: string }> }>('GET', '/v1/scopes', { key: h.keys.a.read });
    expect(scopes.status).toBe(200);
    expect(scopes.body).toEqual(await h.t.engram.scopes({ tenant_id: TENANT_A }));
    const fresh = await h.call('GET', '/v1/runs?user_id=bea-elsewhere&agent_id=assistant&run_id=r1', { key: h.keys.a.read });
    expect(fresh.status).toBe(404);
    const keys = await h.call<Page<ApiKeyInfo>>('GET', '/v1/keys', { key: h.keys.a.admin });
    expect(keys.body.items.length).toBeGreaterThanOrEqual(3);
    expect(keys.body.items.every((key) => key.tenant_id === TENANT_A)).toBe(true);
  });

  it('a request naming tenant B (query or body) is 403 FORBIDDEN on every route; naming A is accepted', async () => {
    const requests = samples(B_USER, ids);
    for (const spec of API_ROUTES) {
      const sample = requests[spec.operationId]!;
      const join = sample.path.includes('?') ? '&' : '?';
      const byQuery = await h.call(spec.method, `${sample.path}${join}tenant_id=${TENANT_B}`, { key: h.keys.a.admin, body: sample.body });
      expect(byQuery.body, `${spec.operationId} query`).toMatchObject({ status: 403, code: 'FORBIDDEN', field: 'tenant_id' });
      if (sample.body === undefined) continue;
      const byBody = await h.call(spec.method, sample.path, { key: h.keys.a.admin, body: namingTenantB(sample.body) });
      expect(byBody.body, `${spec.operationId} body`).toMatchObject({ status: 403, code: 'FORBIDDEN', field: expect.stringMatching(/tenant_id$/) });
    }
    const own = await h.call<{ packet: MemoryPacket }>('POST', `/v1/compose?tenant_id=${TENANT_A}`, { key: h.keys.a.read, body: { scope: { ...scope, tenant_id: TENANT_A }, purpose: 'responder' } });
    expect(own.status).toBe(200);
    expect(own.body.packet.meta.scope.tenant_id).toBe(TENANT_A);
    expect(await fingerprint(h.t.engram)).toBe(before);
  });

  it('a read key is 403 on every write route; a write key is 403 on every key route', async () => {
    const requests = samples('mira', ids);
    for (const spec of writeRoutes) {
      const sample = requests[spec.operationId]!;
      const response = await h.call(spec.method, sample.path, { key: h.keys.a.read, body: sample.body });
      expect(response.body, spec.operationId).toMatchObject({ status: 403, code: 'FORBIDDEN' });
    }
    for (const spec of adminRoutes) {
      const sample = requests[spec.operationId]!;
      const response = await h.call(spec.method, sample.path, { key: h.keys.a.write, body: sample.body });
      expect(response.body, spec.operationId).toMatchObject({ status: 403, code: 'FORBIDDEN' });
    }
    expect(writeRoutes.map((spec) => spec.operationId)).toEqual(expect.arrayContaining(['commitTurn', 'remember', 'forget', 'patchWorkingState', 'reflect', 'approveCandidate', 'rejectCandidate', 'addInsight', 'updateInsight', 'promoteInsight', 'resumeRun']));
    const events = await h.t.engram.listEvents({ scope: { tenant_id: TENANT_A, user_id: 'mira' } });
    expect(events).toEqual([]);
  });
});
