// Reflection over a run (the configured LLM, or the rule-based reflection): the run's trace read,
// the reflection stored with its review candidates and the contradiction questions it opens, in one
// transaction. A person decides the candidates in the review queue (review-api.ts).

import { EngramError, NotFoundError } from '../spec/errors.js';
import type { EventRecord, Sensitivity } from '../spec/event.js';
import type { MemoryItem } from '../spec/items.js';
import { visibleOwners } from '../spec/items.js';
import type {
  ReflectionRecord,
  ReflectRequest,
  ReflectResult,
  ReviewCandidate,
  SessionReflection,
} from '../spec/reflection.js';
import type { StorageAdapter, WriteOp } from '../spec/storage.js';
import { checkSessionReflection, validateReflectionRequest } from '../spec/validators.js';
import { NEVER_SHARED, strongestSensitivity } from '../events/sensitivity.js';
import { planApproval } from '../reflection/approval.js';
import { autoApproves, candidatesOf, newProposals, type CandidateScope } from '../reflection/candidates.js';
import { reflectWithModel } from '../reflection/llm-reflection.js';
import { reflectByRules } from '../reflection/rules-reflection.js';
import { claimTarget, type ProposalTarget } from '../reflection/targets.js';
import { newId } from '../util/ids.js';
import { generateStructured } from '../providers/llm/generate-structured.js';
import { tenantOrDefault } from './arguments.js';
import { loopOps } from './open-loops.js';
import { decisionContext, type ReflectionApiContext } from './review-api.js';
import { writeWithRetry } from './write-retry.js';

/** Most events of a run a reflection reads. */
const MAX_TRACE_EVENTS = 5_000;
/** Most current items shown to a reflection. */
const MAX_ITEMS = 200;

export type { ReflectionApiContext } from './review-api.js';

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
    tenant_id: tenantOrDefault(request.scope.tenant_id),
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
