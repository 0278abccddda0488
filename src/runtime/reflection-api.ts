// The reflection API: reflect over a run (the configured LLM, or the rule-based reflection), store
// the reflection and its review candidates with the contradiction questions it opens, and let a
// person approve (optionally with an edit) or reject each candidate. Every call is one transaction.

import { ConflictError, EngramError, NotFoundError } from '../spec/errors.js';
import type { EventRecord, Sensitivity } from '../spec/event.js';
import type { ConflictPolicy, Extractor, MemoryItem, MemoryType } from '../spec/items.js';
import { visibleOwners } from '../spec/items.js';
import type { StructuredModel } from '../spec/providers.js';
import type {
  ApproveRequest,
  DecisionResult,
  ListCandidatesRequest,
  ReflectionRecord,
  ReflectRequest,
  ReflectResult,
  RejectRequest,
  ReviewCandidate,
  SessionReflection,
} from '../spec/reflection.js';
import { DEFAULT_TENANT } from '../spec/scope.js';
import type { StorageAdapter, WriteOp } from '../spec/storage.js';
import { checkSessionReflection, validateReflectionRequest } from '../spec/validators.js';
import { NEVER_SHARED, strongestSensitivity } from '../events/sensitivity.js';
import { placement } from '../items/merge.js';
import { planApproval, planRejection, type DecisionPlan } from '../reflection/approval.js';
import {
  autoApproves,
  candidatesOf,
  confinedTarget,
  newProposals,
  sensitivityOf,
  type AutoApproveRule,
  type CandidateScope,
} from '../reflection/candidates.js';
import { reflectWithModel } from '../reflection/llm-reflection.js';
import { reflectByRules } from '../reflection/rules-reflection.js';
import { claimTarget, type ProposalTarget } from '../reflection/targets.js';
import { newId } from '../util/ids.js';
import { generateStructured } from '../providers/llm/generate-structured.js';
import { requireId, tenantOrDefault } from './arguments.js';
import { loopOps } from './open-loops.js';

/** Most events of a run a reflection reads. */
const MAX_TRACE_EVENTS = 5_000;
/** Most current items shown to a reflection. */
const MAX_ITEMS = 200;
const WRITE_ATTEMPTS = 3;

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

const tenantOf = (value: { tenant_id?: string }) => value.tenant_id ?? DEFAULT_TENANT;

/** Runs a planner that reads the working state again when another writer changed it first. */
async function writeWithRetry(storage: StorageAdapter, plan: () => Promise<WriteOp[]>): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    const ops = await plan();
    try {
      await storage.write(ops);
      return;
    } catch (error) {
      if (!(ConflictError.isInstance(error) && error.isRetryable) || attempt >= WRITE_ATTEMPTS) throw error;
    }
  }
}

async function traceEvents(
  storage: StorageAdapter,
  scope: CandidateScope | Omit<CandidateScope, 'session_id'>,
  now: string,
): Promise<EventRecord[]> {
  const events: EventRecord[] = [];
  for (let cursor: string | undefined; events.length < MAX_TRACE_EVENTS;) {
    const page = await storage.events.list({
      tenant_id: scope.tenant_id,
      user_id: scope.user_id,
      agent_id: scope.agent_id,
      run_id: scope.run_id,
      now,
      exclude_sensitivity: [...NEVER_SHARED],
      limit: Math.min(1000, MAX_TRACE_EVENTS - events.length),
      ...(cursor === undefined ? {} : { cursor }),
    });
    events.push(...page);
    if (page.length === 0 || page.length < 1000) break;
    cursor = page.at(-1)!.id;
  }
  return events;
}

interface Proposal {
  reflection: SessionReflection | null;
  targets: ProposalTarget[];
  record: Pick<ReflectionRecord, 'source' | 'model' | 'status' | 'failure'>;
  /** The strongest sensitivity a model read (any of its proposals may draw on it); rules cite exactly. */
  read?: Sensitivity;
}

async function propose(
  context: ReflectionApiContext,
  use: ReflectRequest['use'],
  traceId: string,
  scope: CandidateScope,
  events: EventRecord[],
  items: MemoryItem[],
): Promise<Proposal> {
  const llm = context.llm;
  if (use === 'llm' && llm === null) {
    throw new EngramError(
      'CONFIG_INVALID',
      'use: "llm" needs a model: createEngram({ reflection: { llm } }) or extraction.llm (CLI: --llm-base-url and --llm-model, or ENGRAM_LLM_BASE_URL and ENGRAM_LLM_MODEL)',
      { field: 'use' },
    );
  }
  if (llm === null || use === 'rules') {
    const { reflection, targets } = reflectByRules({ trace_id: traceId, events, items }, { project: context.project });
    const issues = checkSessionReflection(reflection);
    if (issues.length > 0)
      throw new EngramError(
        'INTERNAL',
        `reflect: the rule-based reflection broke its schema at ${issues[0]!.field}: ${issues[0]!.message}`,
        { field: 'reflection' },
      );
    return { reflection, targets, record: { source: 'rules', model: null, status: 'succeeded', failure: null } };
  }
  const shown =
    llm.model.remote && !llm.allowPrivateRemote ? events.filter((event) => event.sensitivity !== 'private') : events;
  const result = await reflectWithModel(
    llm.model,
    { generate: generateStructured },
    { trace_id: traceId, user_id: scope.user_id, agent_id: scope.agent_id, run_id: scope.run_id, events: shown, items },
  );
  const record = { source: 'llm' as const, model: `${llm.model.provider}:${llm.model.modelId}` };
  if (!result.ok)
    return {
      reflection: null,
      targets: [],
      record: { ...record, status: 'failed', failure: { ...result.failure, stage: 'model' } },
    };
  const byId = new Map(events.map((event) => [event.id, event]));
  const fallbackTime = events.at(-1)?.ts ?? context.now();
  const targets: ProposalTarget[] = [];
  for (const candidate of result.reflection.memory_candidates) {
    targets.push(
      await claimTarget(candidate, {
        extractor: context.extractor,
        items,
        episodes: result.reflection.episode_candidates,
        events: byId,
        fallbackTime,
      }),
    );
  }
  return {
    reflection: result.reflection,
    targets,
    record: { ...record, status: 'succeeded', failure: null },
    read: strongestSensitivity(shown.map((event) => event.sensitivity)),
  };
}

/** Every candidate proposed for a run before, whatever became of it. */
async function candidatesOfRun(storage: StorageAdapter, scope: CandidateScope): Promise<ReviewCandidate[]> {
  const all: ReviewCandidate[] = [];
  for (let cursor: string | undefined; ;) {
    const page = await storage.reviews.listCandidates({
      tenant_id: scope.tenant_id,
      user_id: scope.user_id,
      agent_id: scope.agent_id,
      run_id: scope.run_id,
      limit: 1000,
      ...(cursor === undefined ? {} : { cursor }),
    });
    all.push(...page);
    if (page.length < 1000) return all;
    cursor = page.at(-1)!.id;
  }
}

/**
 * Reflects over one run and stores its candidates for review (with the policy's auto-approvals and
 * the contradiction questions in the session's open loops); what it proposed for the run before is
 * not proposed again. A model answer that stays invalid after
 * one retry is recorded as a failed reflection; memory is untouched.
 *
 * @example
 * const result = await reflect(context, { scope: { user_id: 'mira', agent_id: 'assistant', run_id: 'r1' } });
 */
export async function reflect(context: ReflectionApiContext, input: unknown): Promise<ReflectResult> {
  const request = validateReflectionRequest<ReflectRequest>('reflect', input);
  const now = context.now();
  const partial = {
    tenant_id: tenantOf(request.scope),
    user_id: request.scope.user_id,
    agent_id: request.scope.agent_id,
    run_id: request.scope.run_id,
  };
  const events = await traceEvents(context.storage, partial, now);
  if (events.length === 0) throw new NotFoundError('scope.run_id', request.scope.run_id);
  const scope: CandidateScope = { ...partial, session_id: request.scope.session_id ?? events.at(-1)!.session_id };
  const items = await context.storage.items.list({
    tenant_id: scope.tenant_id,
    owners: visibleOwners(scope.user_id, scope.agent_id),
    statuses: ['active'],
    order: 'desc',
    limit: MAX_ITEMS,
  });
  const traceId = newId('trc');
  const proposal = await propose(context, request.use ?? 'auto', traceId, scope, events, items);
  const byId = new Map(events.map((event) => [event.id, event]));
  const proposed =
    proposal.reflection === null
      ? []
      : candidatesOf({
          reflection: proposal.reflection,
          source: proposal.record.source,
          scope,
          targets: proposal.targets,
          events: byId,
          now,
          ...(proposal.read === undefined ? {} : { read: proposal.read }),
        });
  const candidates =
    proposed.length === 0 ? proposed : newProposals(proposed, await candidatesOfRun(context.storage, scope));
  const record: ReflectionRecord = {
    trace_id: traceId,
    ...scope,
    ...proposal.record,
    reflection: proposal.reflection,
    event_count: events.length,
    candidate_ids: candidates.map((candidate) => candidate.id),
    created_at: now,
  };
  let decided: ReviewCandidate[] = candidates;
  await writeWithRetry(context.storage, async () => {
    const ops: WriteOp[] = [
      { op: 'put_reflection', record },
      ...candidates.map((candidate) => ({ op: 'put_candidate' as const, candidate })),
    ];
    decided = [];
    // One auto-approval per key and write: a second proposal for the same key waits for a person.
    const keys = new Set<string>();
    for (const candidate of candidates) {
      const key =
        candidate.target.write === 'item' || candidate.target.write === 'retract' ? candidate.target.key : candidate.id;
      if (!autoApproves(context.autoApprove, candidate) || keys.has(key)) {
        decided.push(candidate);
        continue;
      }
      keys.add(key);
      const plan = planApproval(candidate, null, await decisionContext(context, candidate, 'policy:auto-approve', now));
      ops.push(...plan.ops);
      decided.push({ ...candidate, status: plan.status, decision: plan.decision });
    }
    const questions = candidates
      .filter((candidate) => candidate.kind === 'contradiction')
      .map((candidate) => ({
        question: candidate.open_loop_id!,
        owner: 'user' as const,
        status: 'open' as const,
        ...(candidate.source_event_ids[0] === undefined ? {} : { evidence_id: candidate.source_event_ids[0] }),
      }));
    const key = {
      tenant_id: scope.tenant_id,
      user_id: scope.user_id,
      agent_id: scope.agent_id,
      session_id: scope.session_id,
    };
    ops.push(
      ...(await loopOps(context.storage, { key, run_id: scope.run_id, open: questions }, now, `reflection:${traceId}`)),
    );
    return ops;
  });
  return {
    trace_id: traceId,
    source: record.source,
    status: record.status,
    reflection: record.reflection,
    failure: record.failure,
    candidates: decided,
  };
}

/**
 * What deciding a candidate needs from the store: its evidence's sensitivity as stored now (with
 * the candidate's own: a model's candidate is as sensitive as all it read), the versions of its
 * target's key at the level that sensitivity allows, and the items it disputes.
 */
async function decisionContext(context: ReflectionApiContext, candidate: ReviewCandidate, by: string, now: string) {
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
    tenant_id: tenantOf(scope),
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
  const candidate = await pending(context, tenantOf(request), request.candidate_id);
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
  const candidate = await pending(context, tenantOf(request), request.candidate_id);
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
