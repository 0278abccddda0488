// Insights (engram.insights): hypotheses, strategies and patterns of a run: list, add, get, move
// through validation states, and promote a validated one to a fact or procedure.

import type { AddInsightRequest, ListInsightsRequest, PromoteInsightRequest, UpdateInsightRequest } from '../index.js';
import { addressed, type RouteCall, type RouteSpec } from './route-kit.js';
import { limitOf, page, PAGE_PARAMS, pick } from './route-query.js';
import { objectOf, OWN_TENANT, pageOf, ref, REVIEWER, USER_PARAMS } from './schema-refs.js';
import { bindTenant } from './tenancy.js';

async function listInsights({ engram, tenant, query }: RouteCall): Promise<unknown> {
  const limit = limitOf(query);
  const request = {
    scope: { ...pick(query, ['user_id', 'agent_id', 'session_id', 'run_id']), tenant_id: tenant },
    ...pick(query, ['states', 'types', 'include_expired', 'cursor']),
    limit,
  };
  return page(await engram.insights.list(request as unknown as ListInsightsRequest), limit, (insight) => insight.id);
}
/** Insights. */
export const insightRoutes: readonly RouteSpec[] = [
  {
    method: 'GET',
    url: '/v1/insights',
    operationId: 'listInsights',
    wire: { response: 'Page<InsightRecord>' },
    role: 'read',
    tag: 'insights',
    summary: "A user's live insights (all with include_expired=true), oldest first",
    query: [
      ...USER_PARAMS,
      {
        name: 'states',
        type: 'list',
        enum: ['unvalidated', 'testing', 'validated', 'rejected'],
        description: 'Validation states (comma-separated).',
      },
      {
        name: 'types',
        type: 'list',
        enum: ['hypothesis', 'strategy', 'pattern'],
        description: 'Insight types (comma-separated).',
      },
      { name: 'include_expired', type: 'boolean', description: 'Also expired insights.' },
      ...PAGE_PARAMS,
    ],
    response: {
      status: 200,
      description: 'A page of insights.',
      schema: pageOf(ref('records', '/$defs/insight_record')),
    },
    handle: listInsights,
  },
  {
    method: 'POST',
    url: '/v1/insights',
    operationId: 'addInsight',
    wire: { body: 'AddInsightRequest', response: 'InsightRecord' },
    role: 'write',
    tag: 'insights',
    summary: 'Add a hypothesis, strategy or pattern to a run (unvalidated)',
    body: { required: true, schema: ref('reflectionRequests', '/$defs/add_insight') },
    response: { status: 201, description: 'The new insight.', schema: ref('records', '/$defs/insight_record') },
    errors: [413, 415],
    handle: ({ engram, tenant, body }) => engram.insights.add(bindTenant(body, tenant) as AddInsightRequest),
  },
  {
    method: 'GET',
    url: '/v1/insights/:id',
    operationId: 'getInsight',
    wire: { response: 'InsightRecord' },
    role: 'read',
    tag: 'insights',
    summary: 'One insight',
    response: { status: 200, description: 'The insight.', schema: ref('records', '/$defs/insight_record') },
    errors: [404],
    handle: ({ engram, tenant, params }) => engram.insights.get(params['id']!, tenant),
  },
  {
    method: 'POST',
    url: '/v1/insights/:id/state',
    operationId: 'updateInsight',
    wire: { body: "Omit<UpdateInsightRequest, 'insight_id'>", response: 'InsightRecord' },
    role: 'write',
    tag: 'insights',
    summary: 'Move an insight to a new validation state',
    body: {
      required: true,
      schema: objectOf(
        {
          state: ref('reflectionRequests', '/$defs/update_insight/properties/state'),
          note: ref('reflectionRequests', '/$defs/update_insight/properties/note'),
          by: REVIEWER,
          tenant_id: OWN_TENANT,
        },
        ['state'],
      ),
    },
    response: { status: 200, description: 'The insight.', schema: ref('records', '/$defs/insight_record') },
    errors: [404, 409, 413, 415],
    handle: (call) => call.engram.insights.update(addressed(call, 'insight_id') as UpdateInsightRequest),
  },
  {
    method: 'POST',
    url: '/v1/insights/:id/promote',
    operationId: 'promoteInsight',
    wire: { body: "Omit<PromoteInsightRequest, 'insight_id'>", response: 'PromoteResult' },
    role: 'write',
    tag: 'insights',
    summary: 'Promote a validated insight to a fact or procedure',
    body: {
      required: true,
      schema: objectOf(
        {
          type: ref('reflectionRequests', '/$defs/promote_insight/properties/type'),
          key: ref('reflectionRequests', '/$defs/promote_insight/properties/key'),
          value: ref('reflectionRequests', '/$defs/promote_insight/properties/value'),
          by: REVIEWER,
          tenant_id: OWN_TENANT,
        },
        ['type', 'key', 'value'],
      ),
    },
    response: {
      status: 200,
      description: 'The insight and the item diffs.',
      schema: ref('records', '/$defs/promote_result'),
    },
    errors: [404, 409, 413, 415],
    handle: (call) => call.engram.insights.promote(addressed(call, 'insight_id') as PromoteInsightRequest),
  },
];
