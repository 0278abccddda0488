// The review queue (`engram.review`): the candidates reflection proposed, listed and read, and a
// person's decision on each — approved (optionally with an edit), its items written under their
// type's conflict policy, or rejected with a reason. Every decision is one transaction.

import { ConflictError, NotFoundError } from '../spec/errors.js';
import type { ConflictPolicy, Extractor, MemoryItem, MemoryType } from '../spec/items.js';
import { visibleOwners } from '../spec/items.js';
import type { StructuredModel } from '../spec/providers.js';
import type {
  ApproveRequest,
  DecisionResult,
  ListCandidatesRequest,
  RejectRequest,
  ReviewCandidate,
} from '../spec/reflection.js';
import type { StorageAdapter } from '../spec/storage.js';
import { validateReflectionRequest } from '../spec/validators.js';
import { placement } from '../items/merge.js';
import { planApproval, planRejection, type DecisionPlan } from '../reflection/approval.js';
import { confinedTarget, sensitivityOf, type AutoApproveRule } from '../reflection/candidates.js';
import { requireId, tenantOrDefault } from './arguments.js';
import { loopOps } from './open-loops.js';
import { writeWithRetry } from './write-retry.js';

/** What reflection and the review queue work with: the store, the policies, the claim reader, the model. */
export interface ReflectionApiContext {
  storage: StorageAdapter;
  now: () => string;
  policies: Readonly<Record<MemoryType, ConflictPolicy>>;
  /** Reads claims into keys and values. */
  extractor: Extractor;
  llm: { model: StructuredModel; allowPrivateRemote: boolean } | null;
  autoApprove: readonly AutoApproveRule[];
  /** The project name used in keys when the run names none. */
  project: string;
}

/**
 * What deciding a candidate needs from the store: its evidence's sensitivity as stored now (with
 * the candidate's own: a model's candidate is as sensitive as all it read), the versions of its
 * target's key at the level that sensitivity allows, and the items it disputes.
 */
export async function decisionContext(
  context: ReflectionApiContext,
  candidate: ReviewCandidate,
  by: string,
  now: string,
) {
  const sources =
    candidate.source_event_ids.length === 0
      ? []
      : await context.storage.events.list({
          tenant_id: candidate.tenant_id,
          ids: candidate.source_event_ids,
          now,
          include_expired: true,
          limit: candidate.source_event_ids.length,
        });
  // Candidates stored before they carried a sensitivity read as normal: their events decide.
  const recorded = candidate.sensitivity;
  const sensitivity =
    sources.length === 0
      ? recorded
      : sensitivityOf(candidate.source_event_ids, new Map(sources.map((event) => [event.id, event])), recorded);
  const target = confinedTarget(candidate.target, sensitivity);
  let stored: MemoryItem[] = [];
  if (target.write === 'item' || target.write === 'retract') {
    const owners =
      target.write === 'item'
        ? [placement(target, candidate).owner]
        : visibleOwners(candidate.user_id, candidate.agent_id);
    stored = await context.storage.items.list({
      tenant_id: candidate.tenant_id,
      owners,
      keys: [target.key],
      limit: 10_000,
    });
  }
  const disputed =
    candidate.item_ids.length === 0
      ? []
      : await context.storage.items.list({
          tenant_id: candidate.tenant_id,
          owners: visibleOwners(candidate.user_id, candidate.agent_id),
          ids: candidate.item_ids,
          limit: candidate.item_ids.length,
        });
  return { now, by, policies: context.policies, stored, disputed, sensitivity };
}

/**
 * Review candidates of a user, oldest first (filter by status, kind, trace, run, session).
 *
 * @example
 * const pending = await listCandidates(context, { scope: { user_id: 'mira' }, status: ['pending'] });
 */
export async function listCandidates(context: ReflectionApiContext, input: unknown): Promise<ReviewCandidate[]> {
  const request = validateReflectionRequest<ListCandidatesRequest>('list_candidates', input);
  const { scope } = request;
  return context.storage.reviews.listCandidates({
    tenant_id: tenantOrDefault(scope.tenant_id),
    user_id: scope.user_id,
    ...(scope.agent_id === undefined ? {} : { agent_id: scope.agent_id }),
    ...(scope.session_id === undefined ? {} : { session_id: scope.session_id }),
    ...(scope.run_id === undefined ? {} : { run_id: scope.run_id }),
    ...(request.trace_id === undefined ? {} : { trace_id: request.trace_id }),
    ...(request.status === undefined ? {} : { statuses: request.status }),
    ...(request.kind === undefined ? {} : { kinds: request.kind }),
    ...(request.cursor === undefined ? {} : { cursor: request.cursor }),
    limit: request.limit ?? 100,
  });
}

async function pending(context: ReflectionApiContext, tenantId: string, candidateId: string): Promise<ReviewCandidate> {
  const candidate = await context.storage.reviews.getCandidate(tenantId, candidateId);
  if (candidate === null) throw new NotFoundError('candidate_id', candidateId);
  if (candidate.status !== 'pending') {
    throw new ConflictError(
      `candidate_id: ${candidateId} was already ${candidate.status} by ${candidate.decision?.by ?? 'someone'}`,
      { field: 'candidate_id', origin: 'caller' },
    );
  }
  return candidate;
}

async function decide(
  context: ReflectionApiContext,
  candidate: ReviewCandidate,
  plan: () => Promise<DecisionPlan>,
): Promise<DecisionResult> {
  let last: DecisionPlan | undefined;
  await writeWithRetry(context.storage, async () => {
    last = await plan();
    const key = {
      tenant_id: candidate.tenant_id,
      user_id: candidate.user_id,
      agent_id: candidate.agent_id,
      session_id: candidate.session_id,
    };
    const loops =
      last.closeLoop === null
        ? []
        : await loopOps(
            context.storage,
            { key, run_id: candidate.run_id, close: [last.closeLoop] },
            last.decision.at,
            `review:${candidate.id}`,
          );
    return [...last.ops, ...loops];
  });
  const done = last!;
  return {
    candidate: { ...candidate, status: done.status, decision: done.decision },
    items: done.diffs,
    insight_ids: done.decision.written.insight_ids,
  };
}

/**
 * Approves a pending candidate: writes its target (or the edit) through the normal merge, with
 * the candidate's events as evidence, and records who approved it and when.
 *
 * @example
 * await approve(context, { candidate_id: 'cand_…', by: 'mira' });
 */
export async function approve(context: ReflectionApiContext, input: unknown): Promise<DecisionResult> {
  const request = validateReflectionRequest<ApproveRequest>('approve', input);
  const candidate = await pending(context, tenantOrDefault(request.tenant_id), request.candidate_id);
  const edited = request.edit === undefined ? candidate : { ...candidate, target: request.edit };
  return decide(context, candidate, async () => {
    const now = context.now();
    return planApproval(
      candidate,
      request.edit ?? null,
      await decisionContext(context, edited, request.by ?? 'user', now),
    );
  });
}

/**
 * Rejects a pending candidate with a reason; it never becomes memory.
 *
 * @example
 * await reject(context, { candidate_id: 'cand_…', by: 'mira', reason: 'I never said that' });
 */
export async function reject(context: ReflectionApiContext, input: unknown): Promise<DecisionResult> {
  const request = validateReflectionRequest<RejectRequest>('reject', input);
  const candidate = await pending(context, tenantOrDefault(request.tenant_id), request.candidate_id);
  return decide(context, candidate, async () =>
    planRejection(candidate, request.reason, { by: request.by ?? 'user', now: context.now() }),
  );
}

/** The review queue of an Engram (`engram.review`). */
export interface ReviewQueue {
  /** Candidates of a user, oldest first; filter by status, kind, trace, run or session. */
  list(request: ListCandidatesRequest): Promise<ReviewCandidate[]>;
  /** One candidate by id (NOT_FOUND when the tenant has none). */
  get(candidateId: string, tenantId?: string): Promise<ReviewCandidate>;
  /** Approves a pending candidate, optionally with an edit of what it writes. */
  approve(request: ApproveRequest): Promise<DecisionResult>;
  /** Rejects a pending candidate with a reason. */
  reject(request: RejectRequest): Promise<DecisionResult>;
}

/**
 * The review queue over a context (made fresh per call, so a closed Engram fails typed).
 *
 * @example
 * const review = reviewQueue(() => context);
 * for (const candidate of await review.list({ scope: { user_id: 'mira' }, status: ['pending'] })) await review.approve({ candidate_id: candidate.id });
 */
export function reviewQueue(context: () => ReflectionApiContext): ReviewQueue {
  return {
    list: async (request) => listCandidates(context(), request),
    get: async (candidateId, tenantId) => {
      requireId('cand', candidateId, 'candidate_id');
      const tenant = tenantOrDefault(tenantId);
      const found = await context().storage.reviews.getCandidate(tenant, candidateId);
      if (found === null) throw new NotFoundError('candidate_id', candidateId);
      return found;
    },
    approve: async (request) => approve(context(), request),
    reject: async (request) => reject(context(), request),
  };
}
