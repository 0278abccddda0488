// Reflection and what people decide about it (engram.review, and engram.reflect): reflect over a
// run, and the review queue (list, get, approve, reject). Reflect is a root call of the library but
// is kept here: it is what fills the queue, its route is tagged review and the docs list it first
// among the review routes. Listed candidates carry `text`, the line a packet would show for the
// item approving one writes.

import {
  describeItem,
  type ApproveRequest,
  type ListCandidatesRequest,
  type ReflectRequest,
  type RejectRequest,
  type ReviewCandidate,
} from '../index.js';
import { addressed, type RouteCall, type RouteSpec } from './route-kit.js';
import { limitOf, page, PAGE_PARAMS, pick } from './route-query.js';
import { objectOf, OWN_TENANT, pageOf, ref, REVIEWER, USER_PARAMS } from './schema-refs.js';
import { bindTenant } from './tenancy.js';

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
      schema: objectOf({ by: REVIEWER, edit: ref('reflectionRequests', '/$defs/edit'), tenant_id: OWN_TENANT }),
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
        { by: REVIEWER, reason: ref('reflectionRequests', '/$defs/reject/properties/reason'), tenant_id: OWN_TENANT },
        ['reason'],
      ),
    },
    response: { status: 200, description: 'The decision.', schema: ref('records', '/$defs/decision_result') },
    errors: [404, 409, 413, 415],
    handle: (call) => call.engram.review.reject(addressed(call, 'candidate_id') as RejectRequest),
  },
];
