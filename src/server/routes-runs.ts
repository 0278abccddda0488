// Runs and what they leave behind (engram.runs): a run's recorded state and resuming a stopped
// one, and compaction snapshots with their narrative.

import { NotFoundError, type ListSnapshotsRequest, type ResumeRunRequest, type RunScope } from '../index.js';
import { type RouteCall, type RouteSpec } from './route-kit.js';
import { limitOf, page, PAGE_PARAMS, pick } from './route-query.js';
import { pageOf, ref } from './schema-refs.js';
import { bindTenant } from './tenancy.js';

async function getRun({ engram, tenant, query }: RouteCall): Promise<unknown> {
  const scope = { ...pick(query, ['user_id', 'agent_id', 'run_id']), tenant_id: tenant } as unknown as RunScope;
  const state = await engram.runs.get(scope);
  if (state === null) throw new NotFoundError('run_id', scope.run_id);
  return state;
}

async function listSnapshots({ engram, tenant, query }: RouteCall): Promise<unknown> {
  const limit = limitOf(query);
  const request = {
    scope: { ...pick(query, ['user_id', 'agent_id', 'run_id']), tenant_id: tenant },
    ...pick(query, ['order', 'cursor']),
    limit,
  };
  return page(
    await engram.runs.snapshots(request as unknown as ListSnapshotsRequest),
    limit,
    (record) => record.snapshot.snapshot_id,
  );
}

/** Runs and snapshots. */
export const runRoutes: readonly RouteSpec[] = [
  {
    method: 'GET',
    url: '/v1/runs',
    operationId: 'getRun',
    wire: { response: 'RunState' },
    role: 'read',
    tag: 'runs',
    summary: "A run's recorded state and compaction counters",
    query: [
      { name: 'user_id', type: 'string', description: 'The user (required).', required: true },
      { name: 'agent_id', type: 'string', description: 'The agent (required).', required: true },
      { name: 'run_id', type: 'string', description: 'The run (required).', required: true },
    ],
    response: { status: 200, description: 'The run state.', schema: ref('records', '/$defs/run_state') },
    errors: [404],
    handle: getRun,
  },
  {
    method: 'POST',
    url: '/v1/runs/resume',
    operationId: 'resumeRun',
    wire: { body: 'ResumeRunRequest', response: 'RunState' },
    role: 'write',
    tag: 'runs',
    summary: 'Resume a run that a failed snapshot stopped',
    body: { required: true, schema: ref('runRequests', '/$defs/resume_run') },
    response: { status: 200, description: 'The run state, active again.', schema: ref('records', '/$defs/run_state') },
    errors: [404, 409, 413, 415],
    handle: ({ engram, tenant, body }) => engram.runs.resume(bindTenant(body, tenant) as ResumeRunRequest),
  },
  {
    method: 'GET',
    url: '/v1/snapshots',
    operationId: 'listSnapshots',
    wire: { response: 'Page<SnapshotRecord>' },
    role: 'read',
    tag: 'runs',
    summary: "Compaction snapshots of a user's runs, oldest first",
    query: [
      { name: 'user_id', type: 'string', description: 'The user (required).', required: true },
      { name: 'agent_id', type: 'string', description: 'One agent.' },
      { name: 'run_id', type: 'string', description: 'One run.' },
      { name: 'order', type: 'string', enum: ['asc', 'desc'], description: 'By sequence (default asc).' },
      ...PAGE_PARAMS,
    ],
    response: {
      status: 200,
      description: 'A page of snapshot records (next_cursor is a snapshot_id).',
      schema: pageOf(ref('records', '/$defs/snapshot_record')),
    },
    handle: listSnapshots,
  },
  {
    method: 'GET',
    url: '/v1/snapshots/:id',
    operationId: 'getSnapshot',
    wire: { response: 'SnapshotRecord' },
    role: 'read',
    tag: 'runs',
    summary: 'One snapshot record',
    response: {
      status: 200,
      description: 'The snapshot record: its scope and the snapshot.',
      schema: ref('records', '/$defs/snapshot_record'),
    },
    errors: [404],
    handle: ({ engram, tenant, params }) => engram.runs.snapshot(params['id']!, tenant),
  },
  {
    method: 'GET',
    url: '/v1/snapshots/:id/narrative',
    operationId: 'getSnapshotNarrative',
    wire: { response: 'string' },
    role: 'read',
    tag: 'runs',
    summary: "A snapshot's deterministic narrative (Markdown)",
    response: {
      status: 200,
      description: 'The narrative.',
      contentType: 'text/markdown; charset=utf-8',
      schema: { type: 'string' },
    },
    errors: [404],
    handle: ({ engram, tenant, params }) => engram.runs.narrative(params['id']!, tenant),
  },
];
