// Reflection and what people decide about it: reflect over a run, the review queue (list, get,
// approve, reject) and insights (list, add, get, move through validation states, promote). Listed
// candidates carry `text`, the line a packet would show for the item approving one writes.

import {
  describeItem,
  type AddInsightRequest,
  type ApproveRequest,
  type ListCandidatesRequest,
  type ListInsightsRequest,
  type PromoteInsightRequest,
  type ReflectRequest,
  type RejectRequest,
  type ReviewCandidate,
  type UpdateInsightRequest,
} from '../index.js';
import { limitOf, page, PAGE_PARAMS, pick, withPathId, type RouteCall, type RouteSpec } from './route-kit.js';
import { objectOf, OWN_TENANT, pageOf, ref } from './schema-refs.js';
import { bindTenant } from './tenancy.js';

const USER_PARAMS = [
  { name: 'user_id', type: 'string', description: 'The user (required).', required: true },
  { name: 'agent_id', type: 'string', description: 'One agent.' },
  { name: 'session_id', type: 'string', description: 'One session.' },
  { name: 'run_id', type: 'string', description: 'One run.' },
] as const;

const reviewer = ref('reflectionRequests', '/$defs/reviewer');

/** A candidate with `text`: the line a packet would show for the item approving it writes (null for other writes). */
function withText(candidate: ReviewCandidate): ReviewCandidate & { text: string | null } {
  const target = candidate.target;
  return { ...candidate, text: target.write === 'item' ? describeItem(target) : null };
}

async function listCandidates({ engram, tenant, query }: RouteCall): Promise<unknown> {
  const limit = limitOf(query);
  const request = {
    scope: { ...pick(query, ['user_id', 'agent_id', 'session_id', 'run_id']), tenant_id: tenant },
    ...pick(query, ['status', 'kind', 'trace_id', 'cursor']),
    limit,
  };
  return page(
    (await engram.review.list(request as unknown as ListCandidatesRequest)).map(withText),
    limit,
    (candidate) => candidate.id,
  );
}

async function listInsights({ engram, tenant, query }: RouteCall): Promise<unknown> {
  const limit = limitOf(query);
  const request = {
    scope: { ...pick(query, ['user_id', 'agent_id', 'session_id', 'run_id']), tenant_id: tenant },
    ...pick(query, ['states', 'types', 'include_expired', 'cursor']),
    limit,
  };
  return page(await engram.insights.list(request as unknown as ListInsightsRequest), limit, (insight) => insight.id);
}

/** A request addressed by the id in its path, in the key's tenant. */
const addressed = ({ body, params, tenant }: RouteCall, field: string) =>
  bindTenant(withPathId(body, field, params['id']!), tenant, { top: true });

/** Reflection and the review queue. */
export const reviewRoutes: readonly RouteSpec[] = [
  {
    method: 'POST',
    url: '/v1/reflections',
    operationId: 'reflect',
    wire: { body: 'ReflectRequest', response: 'ReflectResult' },
    role: 'write',
    tag: 'review',
    summary: 'Reflect over a run: propose candidates for review',
    body: { required: true, schema: ref('reflectionRequests', '/$defs/reflect') },
    response: {
      status: 200,
      description: 'The reflection and its candidates.',
      schema: ref('records', '/$defs/reflect_result'),
    },
    errors: [404, 413, 415],
    handle: ({ engram, tenant, body }) => engram.reflect(bindTenant(body, tenant) as ReflectRequest),
  },
  {
    method: 'GET',
    url: '/v1/review',
    operationId: 'listCandidates',
    wire: { response: 'Page<CandidateRecord>' },
    role: 'read',
    tag: 'review',
    summary: "A user's review candidates, oldest first",
    query: [
      ...USER_PARAMS,
      {
        name: 'status',
        type: 'list',
        enum: ['pending', 'approved', 'edited', 'rejected'],
        description: 'Statuses (comma-separated).',
      },
      {
        name: 'kind',
        type: 'list',
        enum: ['episode', 'memory', 'contradiction', 'doctrine'],
        description: 'Kinds (comma-separated).',
      },
      { name: 'trace_id', type: 'string', description: 'One reflection (trc_…).' },
      ...PAGE_PARAMS,
    ],
    response: {
      status: 200,
      description:
        'A page of candidates, each with `text`: the line a packet would show for the item approving it writes (null when it writes no item).',
      schema: pageOf(ref('records', '/$defs/candidate_record')),
    },
    handle: listCandidates,
  },
  {
    method: 'GET',
    url: '/v1/review/:id',
    operationId: 'getCandidate',
    wire: { response: 'ReviewCandidate' },
    role: 'read',
    tag: 'review',
    summary: 'One review candidate',
    response: { status: 200, description: 'The candidate.', schema: ref('records', '/$defs/review_candidate') },
    errors: [404],
    handle: ({ engram, tenant, params }) => engram.review.get(params['id']!, tenant),
  },
  {
    method: 'POST',
    url: '/v1/review/:id/approve',
    operationId: 'approveCandidate',
    wire: { body: "Omit<ApproveRequest, 'candidate_id'>", response: 'DecisionResult' },
    role: 'write',
    tag: 'review',
    summary: 'Approve a pending candidate (optionally with an edit of what it writes)',
    body: {
      required: false,
      schema: objectOf({ by: reviewer, edit: ref('reflectionRequests', '/$defs/edit'), tenant_id: OWN_TENANT }),
    },
    response: {
      status: 200,
      description: 'The decision and what it wrote.',
      schema: ref('records', '/$defs/decision_result'),
    },
    errors: [404, 409, 413, 415],
    handle: (call) => call.engram.review.approve(addressed(call, 'candidate_id') as ApproveRequest),
  },
  {
    method: 'POST',
    url: '/v1/review/:id/reject',
    operationId: 'rejectCandidate',
    wire: { body: "Omit<RejectRequest, 'candidate_id'>", response: 'DecisionResult' },
    role: 'write',
    tag: 'review',
    summary: 'Reject a pending candidate with a reason',
    body: {
      required: true,
      schema: objectOf(
        { by: reviewer, reason: ref('reflectionRequests', '/$defs/reject/properties/reason'), tenant_id: OWN_TENANT },
        ['reason'],
      ),
    },
    response: { status: 200, description: 'The decision.', schema: ref('records', '/$defs/decision_result') },
    errors: [404, 409, 413, 415],
    handle: (call) => call.engram.review.reject(addressed(call, 'candidate_id') as RejectRequest),
  },
];

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
          by: reviewer,
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
          by: reviewer,
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
