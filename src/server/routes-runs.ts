// Runs and what they leave behind: a run's recorded state and resuming a stopped one, compaction
// snapshots with their narrative, and context builds (get, list, replay, diff, explain one record).

import {
  NotFoundError,
  renderPacket,
  type ExplainBuildRequest,
  type RenderFormat,
  type ListSnapshotsRequest,
  type ResumeRunRequest,
  type RunScope,
} from '../index.js';
import { limitOf, page, PAGE_PARAMS, pick, withPathId, type RouteCall, type RouteSpec } from './route-kit.js';
import { objectOf, OWN_TENANT, pageOf, ref } from './schema-refs.js';
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

async function listBuilds({ engram, tenant, query }: RouteCall): Promise<unknown> {
  const limit = limitOf(query);
  const builds = await engram.builds.list({
    ...(pick(query, ['user_id', 'agent_id', 'session_id', 'cursor']) as Record<string, string>),
    tenant_id: tenant,
    limit,
  });
  return page(builds, limit, (build) => build.id);
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

async function getBuild({ engram, tenant, params, query }: RouteCall): Promise<unknown> {
  const build = await engram.builds.get(params['id']!, tenant);
  const format = query['render'] as RenderFormat | undefined;
  return format === undefined ? build : { ...build, text: renderPacket(build.packet, { format }) };
}

/** Context builds. */
export const buildRoutes: readonly RouteSpec[] = [
  {
    method: 'GET',
    url: '/v1/builds',
    operationId: 'listBuilds',
    wire: { response: 'Page<ContextBuild>' },
    role: 'read',
    tag: 'builds',
    summary: 'Context builds, newest first',
    query: [
      { name: 'user_id', type: 'string', description: 'One user.' },
      { name: 'agent_id', type: 'string', description: 'One agent.' },
      { name: 'session_id', type: 'string', description: 'One session.' },
      ...PAGE_PARAMS,
    ],
    response: { status: 200, description: 'A page of builds.', schema: pageOf(ref('records', '/$defs/context_build')) },
    handle: listBuilds,
  },
  {
    method: 'GET',
    url: '/v1/builds/diff',
    operationId: 'diffBuilds',
    wire: { response: 'BuildDiff' },
    role: 'read',
    tag: 'builds',
    summary: 'What changed between two context builds',
    query: [
      { name: 'a', type: 'string', description: 'The first build (ctx_…, required).', required: true },
      { name: 'b', type: 'string', description: 'The second build (ctx_…, required).', required: true },
    ],
    response: { status: 200, description: 'The diff.', schema: ref('records', '/$defs/build_diff') },
    errors: [404],
    handle: ({ engram, tenant, query }) => engram.builds.diff(query['a'] as string, query['b'] as string, tenant),
  },
  {
    method: 'GET',
    url: '/v1/builds/:id',
    operationId: 'getBuild',
    wire: { response: 'BuildRecord' },
    role: 'read',
    tag: 'builds',
    summary: 'One context build (with ?render=, also its packet as prompt text)',
    query: [
      {
        name: 'render',
        type: 'string',
        enum: ['markdown', 'xml'],
        description: 'Also render the packet as prompt text (`text`).',
      },
    ],
    response: {
      status: 200,
      description: 'The build, and its text when rendered.',
      schema: ref('records', '/$defs/build_record'),
    },
    errors: [404],
    handle: getBuild,
  },
  {
    method: 'POST',
    url: '/v1/builds/:id/replay',
    operationId: 'replayBuild',
    wire: { response: 'ReplayResult' },
    role: 'read',
    tag: 'builds',
    summary: 'Rebuild a stored packet as of its time and tell whether it is byte-identical',
    response: { status: 200, description: 'The replay.', schema: ref('records', '/$defs/replay_result') },
    errors: [404],
    handle: ({ engram, tenant, params }) => engram.builds.replay(params['id']!, tenant),
  },
  {
    method: 'POST',
    url: '/v1/builds/:id/explain',
    operationId: 'explainBuild',
    wire: { body: "Omit<ExplainBuildRequest, 'build_id'>", response: 'BuildExplanation' },
    role: 'read',
    tag: 'builds',
    summary:
      "Why an event or item is, or is not, in a stored packet: where it was placed, or the filter or omission that left it out, and each retrieval signal's rank for it as of the build's time",
    body: {
      required: true,
      schema: objectOf({ id: ref('buildRequests', '/$defs/explain/properties/id'), tenant_id: OWN_TENANT }, ['id']),
    },
    response: { status: 200, description: 'The explanation.', schema: ref('buildRequests', '/$defs/explanation') },
    errors: [404, 413, 415],
    handle: ({ engram, tenant, params, body }) =>
      engram.builds.explain(
        bindTenant(withPathId(body, 'build_id', params['id']!), tenant, { top: true }) as ExplainBuildRequest,
      ),
  },
];
