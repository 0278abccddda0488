// Every /v1 endpoint's happy path over real loopback HTTP, one request each, asserting the shape
// of the answer. The tests run in order and build on each other: turns, then what they produce.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type {
  ApiKeyInfo,
  CommitTurnResult,
  EventRecord,
  EventSearchHit,
  InsightRecord,
  ItemDiff,
  MemoryItem,
  MemoryPacket,
  ReflectResult,
  ReviewCandidate,
  SearchHit,
  SnapshotRecord,
  WorkingState,
  ContextBuild,
} from '../../src/index.js';
import { API_ROUTES } from '../../src/server/index.js';
import { startHarness, TENANT_A, type Harness, type Page } from './harness.js';

const scope = { user_id: 'mira', agent_id: 'assistant', session_id: 's1', run_id: 'r1' };
const user = 'user_id=mira&agent_id=assistant';
const covered = new Set<string>();

describe('every endpoint, happy path', () => {
  let h: Harness;
  let write: string;
  let read: string;
  const ids: Record<string, string> = {};

  /** Calls a route and records which table entry it covered. */
  const call = async <T = Record<string, unknown>>(
    method: string,
    path: string,
    options: Parameters<Harness['call']>[2] = {},
  ) => {
    const route = API_ROUTES.find(
      (spec) =>
        spec.method === method && new RegExp(`^${spec.url.replace(/:\w+/g, '[^/]+')}$`).test(path.split('?')[0]!),
    );
    if (route !== undefined) covered.add(route.operationId);
    return h.call<T>(method, path, options);
  };

  beforeAll(async () => {
    h = await startHarness();
    write = h.keys.a.write;
    read = h.keys.a.read;
  });
  afterAll(() => h.close());

  it('POST /v1/turns commits one turn, or a batch', async () => {
    const one = await call<CommitTurnResult>('POST', '/v1/turns', {
      key: write,
      body: { scope, turn_id: 't1', messages: [{ role: 'user', content: 'I prefer concise answers in writing.' }] },
    });
    expect(one.status).toBe(200);
    expect(one.headers.get('content-type')).toMatch(/^application\/json/);
    expect(one.body).toMatchObject({ turn_id: 't1', replayed: false, scope: { ...scope, tenant_id: TENANT_A } });
    ids['event'] = one.body.events[0]!.event_id;
    const batch = await call<{ results: CommitTurnResult[] }>('POST', '/v1/turns', {
      key: write,
      body: {
        turns: [
          {
            scope,
            turn_id: 't2',
            messages: [{ role: 'user', content: 'Deploy billing.' }],
            tool_results: [
              { tool_name: 'build_image', content: { ok: true } },
              { tool_name: 'push_image', content: { ok: true } },
            ],
          },
          {
            scope,
            turn_id: 't3',
            messages: [{ role: 'user', content: 'Now deploy auth.' }],
            tool_results: [
              { tool_name: 'build_image', content: { ok: true } },
              { tool_name: 'push_image', content: { ok: true } },
            ],
          },
          {
            scope,
            turn_id: 't4',
            messages: [{ role: 'user', content: 'Again: I prefer concise answers in writing.' }],
          },
          {
            scope,
            turn_id: 't5',
            run: { objective: 'Ship the billing deploy', done_definition: 'billing and auth deployed' },
          },
        ],
      },
    });
    expect(batch.status).toBe(200);
    expect(batch.body.results.map((result) => result.turn_id)).toEqual(['t2', 't3', 't4', 't5']);
    const again = await call<CommitTurnResult>('POST', '/v1/turns', {
      key: write,
      body: { scope, turn_id: 't1', messages: [{ role: 'user', content: 'I prefer concise answers in writing.' }] },
    });
    expect(again.body.replayed).toBe(true);
  });

  it('POST /v1/turns with markers leaves a compaction snapshot', async () => {
    const markers = ['PLAN_DONE', 'ACT_DONE', 'OBSERVE_DONE', 'STEP_DONE'];
    await call('POST', '/v1/turns', { key: write, body: { scope, turn_id: 't6', markers } });
    const second = await call<CommitTurnResult>('POST', '/v1/turns', {
      key: write,
      body: { scope, turn_id: 't7', markers },
    });
    expect(second.body.compaction).toMatchObject({ status: 'PASS', sequence: 1 });
    ids['snapshot'] = second.body.compaction!.snapshot_id;
  });

  it('POST /v1/compose returns the packet, and its text with ?render=', async () => {
    const plain = await call<{ packet: MemoryPacket }>('POST', '/v1/compose', {
      key: read,
      body: { scope, purpose: 'responder', cues: { query: 'writing' } },
    });
    expect(plain.status).toBe(200);
    expect(Object.keys(plain.body)).toEqual(['packet']);
    expect(plain.body.packet.meta).toMatchObject({ purpose: 'responder', scope: { tenant_id: TENANT_A } });
    ids['build'] = String(plain.body.packet.explain.determinism!['context_build_id']);
    const rendered = await call<{ packet: MemoryPacket; text: string }>('POST', '/v1/compose?render=markdown', {
      key: read,
      body: { scope, purpose: 'planner' },
    });
    expect(rendered.body.text).toEqual(expect.any(String));
    ids['build2'] = String(rendered.body.packet.explain.determinism!['context_build_id']);
    const xml = await call<{ text: string }>('POST', '/v1/compose?render=xml', {
      key: read,
      body: { scope, purpose: 'tool' },
    });
    expect(xml.body.text).toMatch(/^</);
  });

  it('GET /v1/events pages the log; GET /v1/events/:id; POST /v1/events/search', async () => {
    const first = await call<Page<EventRecord>>('GET', `/v1/events?${user}&session_id=s1&kinds=message&limit=2`, {
      key: read,
    });
    expect(first.status).toBe(200);
    expect(first.body.items).toHaveLength(2);
    expect(first.body.next_cursor).toBe(first.body.items[1]!.id);
    const rest = await call<Page<EventRecord>>(
      'GET',
      `/v1/events?${user}&kinds=message&cursor=${first.body.next_cursor}&limit=100`,
      { key: read },
    );
    expect(rest.body.next_cursor).toBeNull();
    expect(rest.body.items.every((event) => event.role === 'human')).toBe(true);
    const scopes = await call<{ sessions: Array<Record<string, unknown>>; users: Array<Record<string, unknown>> }>(
      'GET',
      '/v1/scopes?limit=5',
      { key: read },
    );
    expect(scopes.body.sessions[0]).toMatchObject({ user_id: 'mira', session_id: 's1', events: expect.any(Number) });
    expect(scopes.body.users).toContainEqual(
      expect.objectContaining({ user_id: 'mira', items: expect.any(Number), pending_candidates: expect.any(Number) }),
    );
    expect((await call('GET', '/v1/scopes?limit=0', { key: read })).body).toMatchObject({
      status: 400,
      field: 'limit',
    });
    const one = await call('GET', `/v1/events/${ids['event']}`, { key: read });
    expect(one.body).toMatchObject({ id: ids['event'], content: 'I prefer concise answers in writing.' });
    const search = await call<{ hits: EventSearchHit[]; next_cursor: string | null }>('POST', '/v1/events/search', {
      key: read,
      body: { scope: { user_id: 'mira' }, query: 'deploy' },
    });
    expect(search.body.hits.length).toBeGreaterThan(0);
    expect(search.body.hits[0]).toEqual({
      event: expect.objectContaining({ id: expect.stringMatching(/^evt_/) }),
      score: expect.any(Number),
    });
    expect(search.body.next_cursor).toBeNull();
    const page = await call<{ hits: EventSearchHit[]; next_cursor: string | null }>('POST', '/v1/events/search', {
      key: read,
      body: { scope: { user_id: 'mira' }, query: 'deploy', limit: 1 },
    });
    expect(page.body.hits).toEqual([search.body.hits[0]]);
    const next = await call<{ hits: EventSearchHit[]; next_cursor: string | null }>('POST', '/v1/events/search', {
      key: read,
      body: { scope: { user_id: 'mira' }, query: 'deploy', limit: 1, cursor: page.body.next_cursor },
    });
    expect(next.body.hits).toEqual([search.body.hits[1]]);
  });

  it('POST /v1/items remembers; GET /v1/items, /v1/items/:id, /v1/items/history; POST /v1/items/search and /v1/memory/search; POST /v1/items/forget', async () => {
    const value = { scope: 'writing', name: 'tone', value: 'concise' };
    const remembered = await call<{ diffs: ItemDiff[] }>('POST', '/v1/items', {
      key: write,
      body: { scope: { user_id: 'mira', agent_id: 'assistant' }, type: 'preferences', key: 'pref:writing:tone', value },
    });
    expect(remembered.status).toBe(200);
    expect(remembered.body.diffs[0]).toMatchObject({ action: 'created', key: 'pref:writing:tone' });
    ids['item'] = remembered.body.diffs[0]!.item_id;
    const list = await call<Page<MemoryItem>>('GET', `/v1/items?${user}&types=preferences`, { key: read });
    expect(list.body.items.map((item) => item.id)).toContain(ids['item']);
    expect(list.body.next_cursor).toBeNull();
    const one = await call('GET', `/v1/items/${ids['item']}`, { key: read });
    expect(one.body).toMatchObject({ id: ids['item'], key: 'pref:writing:tone', tenant_id: TENANT_A });
    const history = await call('GET', `/v1/items/history?${user}&key=pref:writing:tone`, { key: read });
    expect(history.body).toEqual({ items: [expect.objectContaining({ id: ids['item'] })], next_cursor: null });
    const search = await call<{ hits: SearchHit[] }>('POST', '/v1/memory/search', {
      key: read,
      body: { scope: { user_id: 'mira', agent_id: 'assistant' }, query: 'tone of writing' },
    });
    expect(search.body.hits[0]).toMatchObject({ item: { id: ids['item'] }, signals: expect.any(Object) });
    const items = await call<{ hits: SearchHit[] }>('POST', '/v1/items/search', {
      key: read,
      body: { scope: { user_id: 'mira', agent_id: 'assistant' }, query: 'tone of writing' },
    });
    expect(items.body).toEqual(search.body);
    const forgotten = await call<{ diffs: ItemDiff[] }>('POST', '/v1/items/forget', {
      key: write,
      body: { scope: { user_id: 'mira', agent_id: 'assistant' }, key: 'pref:writing:tone' },
    });
    expect(forgotten.body.diffs[0]).toMatchObject({ action: 'retracted' });
    const restored = await call<{ diffs: ItemDiff[] }>('POST', '/v1/items/restore', {
      key: write,
      body: { scope: { user_id: 'mira', agent_id: 'assistant' }, item_id: ids['item'] },
    });
    expect(restored.body.diffs[0]).toMatchObject({ action: 'created', version: 2, rule: 'api.restore' });
  });

  it("POST /v1/items/reextract plans (dry_run) and re-runs extraction over a user's log", async () => {
    const planned = await call<{ turns: number; dry_run: boolean; kept: string[] }>('POST', '/v1/items/reextract', {
      key: h.keys.a.admin,
      body: { user_id: 'mira', dry_run: true },
    });
    expect(planned.status).toBe(200);
    expect(planned.body).toMatchObject({ user_id: 'mira', tenant_id: TENANT_A, dry_run: true });
    expect(planned.body.turns).toBeGreaterThan(0);
  });

  it('GET and PATCH /v1/working-state', async () => {
    const state = await call<WorkingState>('GET', '/v1/working-state?user_id=mira&agent_id=assistant&session_id=s1', {
      key: read,
    });
    expect(state.status).toBe(200);
    const patched = await call('PATCH', '/v1/working-state', {
      key: write,
      body: {
        scope,
        expected_version: state.body.state_version,
        set: { goal: 'Ship billing' },
        append: { risks: [{ risk: 'auth may lag', mitigation: 'deploy auth first' }] },
      },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ goal: 'Ship billing', state_version: state.body.state_version + 1 });
  });

  it('POST /v1/reflections; GET /v1/review and /v1/review/:id; approve and reject', async () => {
    const reflected = await call<ReflectResult>('POST', '/v1/reflections', {
      key: write,
      body: { scope: { user_id: 'mira', agent_id: 'assistant', run_id: 'r1' } },
    });
    expect(reflected.status).toBe(200);
    expect(reflected.body).toMatchObject({ source: 'rules', status: 'succeeded' });
    const candidates = reflected.body.candidates;
    const preference = candidates.find((candidate) => candidate.memory_type === 'affective')!;
    const procedure = candidates.find((candidate) => candidate.memory_type === 'procedural')!;
    const list = await call<Page<ReviewCandidate>>('GET', `/v1/review?user_id=mira&status=pending&limit=1`, {
      key: read,
    });
    expect(list.body.items).toHaveLength(1);
    expect(list.body.next_cursor).toBe(list.body.items[0]!.id);
    const one = await call('GET', `/v1/review/${preference.id}`, { key: read });
    expect(one.body).toMatchObject({ id: preference.id, status: 'pending' });
    const approved = await call('POST', `/v1/review/${preference.id}/approve`, { key: write, body: { by: 'mira' } });
    expect(approved.body).toMatchObject({
      candidate: { status: 'approved', decision: { by: 'mira' } },
      items: expect.any(Array),
      insight_ids: [],
    });
    const rejected = await call('POST', `/v1/review/${procedure.id}/reject`, {
      key: write,
      body: { reason: 'one-off deploys' },
    });
    expect(rejected.body.candidate).toMatchObject({ status: 'rejected' });
    const twice = await call('POST', `/v1/review/${procedure.id}/reject`, { key: write, body: { reason: 'again' } });
    expect(twice.body).toMatchObject({ status: 409, code: 'STATE_VERSION_CONFLICT', field: 'candidate_id' });
  });

  it('POST /v1/insights; GET /v1/insights and /v1/insights/:id; state; promote', async () => {
    const added = await call<InsightRecord>('POST', '/v1/insights', {
      key: write,
      body: {
        scope: { user_id: 'mira', agent_id: 'assistant', run_id: 'r1' },
        type: 'strategy',
        statement: 'Deploy with a canary first',
        expires_at: null,
      },
    });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ validation_state: 'unvalidated', tenant_id: TENANT_A });
    const id = added.body.id;
    const list = await call('GET', `/v1/insights?user_id=mira&types=strategy&include_expired=false`, { key: read });
    expect(list.body).toEqual({ items: [expect.objectContaining({ id })], next_cursor: null });
    expect((await call('GET', `/v1/insights/${id}`, { key: read })).body.id).toBe(id);
    const testing = await call<InsightRecord>('POST', `/v1/insights/${id}/state`, {
      key: write,
      body: { state: 'testing', note: 'trying it' },
    });
    expect(testing.body.validation_state).toBe('testing');
    await call('POST', `/v1/insights/${id}/state`, { key: write, body: { state: 'validated', by: 'mira' } });
    const promoted = await call<{ insight: InsightRecord; items: ItemDiff[] }>('POST', `/v1/insights/${id}/promote`, {
      key: write,
      body: {
        type: 'procedure',
        key: 'procedure:deploy:canary',
        value: { task_type: 'deploy', name: 'canary', steps: ['deploy 5%', 'watch errors', 'roll out'] },
      },
    });
    expect(promoted.status).toBe(200);
    expect(promoted.body.insight.promoted_to).toMatch(/^mem_/);
    expect(promoted.body.items[0]).toMatchObject({ action: 'created', key: 'procedure:deploy:canary' });
  });

  it('GET /v1/runs; POST /v1/runs/resume; snapshots and their narrative', async () => {
    const run = await call('GET', '/v1/runs?user_id=mira&agent_id=assistant&run_id=r1', { key: read });
    expect(run.body).toMatchObject({ run_id: 'r1', status: 'active', objective: 'Ship the billing deploy' });
    const resumed = await call('POST', '/v1/runs/resume', {
      key: write,
      body: { scope: { user_id: 'mira', agent_id: 'assistant', run_id: 'r1' }, by: 'ops' },
    });
    expect(resumed.body).toMatchObject({ run_id: 'r1', status: 'active' });
    const list = await call('GET', '/v1/snapshots?user_id=mira&run_id=r1', { key: read });
    expect(list.body).toEqual({
      items: [
        expect.objectContaining({ run_id: 'r1', snapshot: expect.objectContaining({ snapshot_id: ids['snapshot'] }) }),
      ],
      next_cursor: null,
    });
    const one = await call<SnapshotRecord>('GET', `/v1/snapshots/${ids['snapshot']}`, { key: read });
    expect(one.body.snapshot.snapshot_id).toBe(ids['snapshot']);
    const narrative = await call('GET', `/v1/snapshots/${ids['snapshot']}/narrative`, { key: read });
    expect(narrative.status).toBe(200);
    expect(narrative.headers.get('content-type')).toMatch(/^text\/markdown/);
    expect(narrative.text).toMatch(/^#/);
  });

  it('GET /v1/builds, /v1/builds/:id, /v1/builds/diff; POST /v1/builds/:id/replay and /explain', async () => {
    const list = await call<Page<ContextBuild>>('GET', `/v1/builds?user_id=mira&limit=2`, { key: read });
    expect(list.body.items).toHaveLength(2);
    expect(list.body.next_cursor).toBe(list.body.items[1]!.id);
    const one = await call('GET', `/v1/builds/${ids['build']}`, { key: read });
    expect(one.body).toMatchObject({ id: ids['build'], purpose: 'responder', tenant_id: TENANT_A });
    const replayed = await call('POST', `/v1/builds/${ids['build']}/replay`, { key: read });
    expect(replayed.body).toMatchObject({ build_id: ids['build'], identical: true });
    const diff = await call('GET', `/v1/builds/diff?a=${ids['build']}&b=${ids['build2']}`, { key: read });
    expect(diff.body).toMatchObject({
      a: ids['build'],
      b: ids['build2'],
      request_changes: expect.arrayContaining(['purpose']),
    });
    const explained = await call('POST', `/v1/builds/${ids['build']}/explain`, {
      key: read,
      body: { id: ids['event'] },
    });
    expect(explained.status).toBe(200);
    expect(explained.body).toMatchObject({
      build_id: ids['build'],
      id: ids['event'],
      kind: 'event',
      verdict: expect.any(String),
      signals: expect.any(Object),
    });
  });

  it('GET, POST and DELETE /v1/keys (admin); GET /v1/whoami (any key)', async () => {
    const admin = h.keys.a.admin;
    expect((await call('GET', '/v1/whoami', { key: read })).body).toMatchObject({ tenant_id: TENANT_A, role: 'read' });
    const created = await call<{ key: string; info: ApiKeyInfo }>('POST', '/v1/keys', {
      key: admin,
      body: { role: 'read', label: 'ci' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      key: expect.stringMatching(/^egk_/),
      info: { tenant_id: TENANT_A, role: 'read', label: 'ci', revoked_at: null },
    });
    expect(created.body.info).not.toHaveProperty('hash');
    const list = await call<Page<ApiKeyInfo>>('GET', '/v1/keys?limit=2', { key: admin });
    expect(list.body.items).toHaveLength(2);
    const rest = await call<Page<ApiKeyInfo>>('GET', `/v1/keys?cursor=${list.body.next_cursor}`, { key: admin });
    expect([...list.body.items, ...rest.body.items].map((key) => key.id)).toContain(created.body.info.id);
    expect(rest.body.items.every((key) => key.tenant_id === TENANT_A)).toBe(true);
    const revoked = await call('DELETE', `/v1/keys/${created.body.info.id}`, { key: admin });
    expect(revoked.status).toBe(204);
    expect(revoked.text).toBe('');
    expect((await h.call('GET', '/v1/events?user_id=mira', { key: created.body.key })).status).toBe(401);
  });

  it('covered every route of the table', () => {
    expect([...covered].sort()).toEqual(API_ROUTES.map((spec) => spec.operationId).sort());
  });
});
