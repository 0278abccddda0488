// Context builds (engram.builds): the packets compose recorded, listed and read back (optionally
// rendered as prompt text), replayed as of their time, compared, and explained for one record.

import { renderPacket, type ExplainBuildRequest, type RenderFormat } from '../index.js';
import { withPathId, type RouteCall, type RouteSpec } from './route-kit.js';
import { limitOf, page, PAGE_PARAMS, pick } from './route-query.js';
import { objectOf, OWN_TENANT, pageOf, ref } from './schema-refs.js';
import { bindTenant } from './tenancy.js';

async function listBuilds({ engram, tenant, query }: RouteCall): Promise<unknown> {
  const limit = limitOf(query);
  const builds = await engram.builds.list({
    ...(pick(query, ['user_id', 'agent_id', 'session_id', 'cursor']) as Record<string, string>),
    tenant_id: tenant,
    limit,
  });
  return page(builds, limit, (build) => build.id);
}

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
