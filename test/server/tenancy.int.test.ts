// Tenant isolation and roles, for every route of the table: keys of tenant A sent against tenant
// B's records and users find nothing and change nothing; a request naming tenant B is 403; a read
// key cannot write and a write key cannot manage keys.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { ApiKeyInfo, MemoryPacket } from '../../src/index.js';
import { API_ROUTES } from '../../src/server/index.js';
import { startHarness, TENANT_A, TENANT_B, type Harness, type Page } from './harness.js';
import { samples, type RecordIds } from './requests.js';
import { recordOutcome } from '../reliability/results.js';
import { B_USER, fingerprint, scope, seedTenantB } from './tenant-b.js';

const writeRoutes = API_ROUTES.filter((spec) => spec.role !== 'read');
const adminRoutes = API_ROUTES.filter((spec) => spec.role === 'admin');

/** The sample body naming tenant B where a scope (or the request) carries a tenant. */
function namingTenantB(body: Record<string, unknown>): Record<string, unknown> {
  if (Array.isArray(body['turns']))
    return { turns: (body['turns'] as Array<Record<string, unknown>>).map(namingTenantB) };
  const inner = body['scope'];
  return typeof inner === 'object' && inner !== null
    ? { ...body, scope: { ...inner, tenant_id: TENANT_B } }
    : { ...body, tenant_id: TENANT_B };
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
      for (const secret of secretsOfB.filter((value) => !asked.includes(value)))
        expect(response.text, context).not.toContain(secret);
      if (spec.url.includes(':id') || spec.operationId === 'diffBuilds')
        expect([404], context).toContain(response.status);
      const listed = response.body?.['items'];
      if (Array.isArray(listed)) {
        expect(
          listed.every(
            (record: { tenant_id?: string }) => record.tenant_id === undefined || record.tenant_id === TENANT_A,
          ),
          context,
        ).toBe(true);
      }
    }
    expect(await fingerprint(h.t.engram)).toBe(before);
    recordOutcome('tenancy-http', {
      routes: API_ROUTES.length,
      requests_with_other_tenants_ids: API_ROUTES.length,
      records_of_b_seen: 0,
      records_of_b_changed: 0,
    });
  });

  it('reading B’s user under tenant A lists nothing (lists are empty, the run is 404)', async () => {
    const requests = samples(B_USER, ids);
    for (const operationId of ['listEvents', 'listItems', 'listCandidates', 'listInsights', 'listSnapshots']) {
      const response = await h.call<Page<unknown>>(
        'GET',
        requests[operationId]!.path.replace(B_USER, 'bea-elsewhere'),
        { key: h.keys.a.read },
      );
      expect(response.body, operationId).toEqual({ items: [], next_cursor: null });
    }
    const scopes = await h.call<{ sessions: Array<{ user_id: string }>; users: Array<{ user_id: string }> }>(
      'GET',
      '/v1/scopes',
      { key: h.keys.a.read },
    );
    expect(scopes.status).toBe(200);
    expect(scopes.body).toEqual(await h.t.engram.sessions.scopes({ tenant_id: TENANT_A }));
    const fresh = await h.call('GET', '/v1/runs?user_id=bea-elsewhere&agent_id=assistant&run_id=r1', {
      key: h.keys.a.read,
    });
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
      const byQuery = await h.call(spec.method, `${sample.path}${join}tenant_id=${TENANT_B}`, {
        key: h.keys.a.admin,
        body: sample.body,
      });
      expect(byQuery.body, `${spec.operationId} query`).toMatchObject({
        status: 403,
        code: 'FORBIDDEN',
        field: 'tenant_id',
      });
      if (sample.body === undefined) continue;
      const byBody = await h.call(spec.method, sample.path, { key: h.keys.a.admin, body: namingTenantB(sample.body) });
      expect(byBody.body, `${spec.operationId} body`).toMatchObject({
        status: 403,
        code: 'FORBIDDEN',
        field: expect.stringMatching(/tenant_id$/),
      });
    }
    const own = await h.call<{ packet: MemoryPacket }>('POST', `/v1/compose?tenant_id=${TENANT_A}`, {
      key: h.keys.a.read,
      body: { scope: { ...scope, tenant_id: TENANT_A }, purpose: 'responder' },
    });
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
    expect(writeRoutes.map((spec) => spec.operationId)).toEqual(
      expect.arrayContaining([
        'commitTurn',
        'remember',
        'forget',
        'patchWorkingState',
        'reflect',
        'approveCandidate',
        'rejectCandidate',
        'addInsight',
        'updateInsight',
        'promoteInsight',
        'resumeRun',
      ]),
    );
    const events = await h.t.engram.events.list({ scope: { tenant_id: TENANT_A, user_id: 'mira' } });
    expect(events).toEqual([]);
  });
});
