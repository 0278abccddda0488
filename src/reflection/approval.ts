// Deciding a review candidate. Approval writes what the candidate's target says (or the reviewer's
// edit of it) through the same merge as extraction, with the candidate's events as the item's
// evidence and the candidate as its provenance rule; a rejection writes nothing but the decision.
// The caller reads what the plan needs (the stored versions of the key, the disputed items) and
// writes the plan's operations in one transaction with the decision. What private evidence
// supports is written at the user's level; asking for the agent or tenant level is refused.

import type { Sensitivity } from '../spec/event.js';
import { ValidationError } from '../spec/errors.js';
import type { ConflictPolicy, ItemCandidate, MemoryItem, MemoryType } from '../spec/items.js';
import type { CandidateDecision, CandidateTarget, InsightRecord, ReviewCandidate } from '../spec/reflection.js';
import type { ItemDiff } from '../spec/requests.js';
import type { WriteOp } from '../spec/storage.js';
import { typeOfKey } from '../items/keys.js';
import { ItemMerger } from '../items/merge.js';
import { assertLevelAllowed } from '../events/sensitivity.js';
import { confinedTarget } from './candidates.js';
import { newInsight } from './insights.js';
import { isoOrNull } from '../util/clock.js';

export interface DecisionContext {
  now: string;
  /** Who decides: a person's name, or `policy:auto-approve`. */
  by: string;
  policies: Readonly<Record<MemoryType, ConflictPolicy>>;
  /** Every stored version of the target's key at the owners it may land on. */
  stored: readonly MemoryItem[];
  /** The items a contradiction disputes, as stored now. */
  disputed: readonly MemoryItem[];
  /** The strongest sensitivity of the candidate's evidence as stored now (and of the candidate's own). */
  sensitivity: Sensitivity;
}

export interface DecisionPlan {
  ops: WriteOp[];
  diffs: ItemDiff[];
  decision: CandidateDecision;
  status: 'approved' | 'edited' | 'rejected';
  /** The open loop (its question) to close in the candidate's session, if any. */
  closeLoop: string | null;
}

function itemCandidate(
  candidate: ReviewCandidate,
  target: Extract<CandidateTarget, { write: 'item' | 'retract' }>,
): ItemCandidate {
  const common = {
    confidence: candidate.confidence,
    rule: `review:${candidate.id}`,
    gate: 'must' as const,
    source_event_ids: candidate.source_event_ids,
    evidence_refs: candidate.source_event_ids.map((id) => ({ kind: 'event' as const, ref: id })),
    salience: candidate.salience,
  };
  if (target.write === 'retract')
    return { ...common, action: 'retract', type: typeOfTarget(candidate, target.key), key: target.key, value: {} };
  return {
    ...common,
    action: 'upsert',
    type: target.type,
    key: target.key,
    value: target.value,
    ...(target.scope_level === undefined ? {} : { scope_level: target.scope_level }),
    ...(target.tags === undefined ? {} : { tags: target.tags }),
    ...(target.entities === undefined ? {} : { entities: target.entities }),
    ...(target.valid_from === undefined ? {} : { valid_from: isoOrNull(target.valid_from, 'edit.valid_from') }),
  };
}

/** The type of the key a retraction names. */
function typeOfTarget(candidate: ReviewCandidate, key: string): MemoryType {
  const type = typeOfKey(key);
  if (type === undefined)
    throw ValidationError.of(
      'edit.key',
      'key_rule',
      `${JSON.stringify(key)} of candidate ${candidate.id} has no known type prefix`,
    );
  return type;
}

function insightOf(
  candidate: ReviewCandidate,
  target: Extract<CandidateTarget, { write: 'insight' }>,
  context: DecisionContext,
): InsightRecord {
  const scope = {
    tenant_id: candidate.tenant_id,
    user_id: candidate.user_id,
    agent_id: candidate.agent_id,
    session_id: candidate.session_id,
    run_id: candidate.run_id,
  };
  return newInsight(
    scope,
    {
      type: target.insight_type,
      statement: target.statement,
      trigger: target.trigger,
      confidence: candidate.confidence,
      tests_suggested: target.tests_suggested,
      expires_at: target.expires_at,
      sources: candidate.source_event_ids,
      candidate_id: candidate.id,
    },
    context.by,
    context.now,
  );
}

/** Retracts every disputed item but the one kept (`keep: null` retracts them all). */
function resolveOps(
  candidate: ReviewCandidate,
  keep: string | null,
  context: DecisionContext,
): { ops: WriteOp[]; retracted: string[] } {
  if (keep !== null && !candidate.item_ids.includes(keep)) {
    throw ValidationError.of(
      'edit.keep',
      'disputed_item',
      `must be one of the disputed items ${candidate.item_ids.join(', ')}, or null to retract them all`,
    );
  }
  const ops: WriteOp[] = [];
  const retracted: string[] = [];
  for (const item of context.disputed) {
    if (item.id === keep || item.status !== 'active') continue;
    ops.push({
      op: 'set_item_status',
      tenant_id: item.tenant_id,
      item_id: item.id,
      expected_status: 'active',
      status: 'retracted',
      ended_at: context.now,
      updated_at: context.now,
    });
    retracted.push(item.id);
  }
  return { ops, retracted };
}

/**
 * Plans the approval of a pending candidate, with the reviewer's edit of its target if given.
 * A candidate with nothing to write (`none`) needs an edit; doctrine is approved only by a person.
 * An item its private evidence supports lands at the user's level; a target or edit that asks for
 * the agent or tenant level is refused (VALIDATION_FAILED, rule `private_evidence`).
 *
 * @example
 * const plan = planApproval(candidate, null, context);
 * await storage.write([...plan.ops, { op: 'decide_candidate', … }]);
 */
export function planApproval(
  candidate: ReviewCandidate,
  edit: CandidateTarget | null,
  context: DecisionContext,
): DecisionPlan {
  const asked = edit ?? candidate.target;
  if (asked.write === 'item')
    assertLevelAllowed(
      asked.scope_level,
      context.sensitivity,
      edit === null ? 'target.scope_level' : 'edit.scope_level',
    );
  const target = confinedTarget(asked, context.sensitivity);
  if (candidate.kind === 'doctrine' && context.by.startsWith('policy:')) {
    throw ValidationError.of('candidate_id', 'human_review', 'doctrine suggestions are approved by a person only');
  }
  const written: CandidateDecision['written'] = { item_ids: [], insight_ids: [], retracted_item_ids: [] };
  const ops: WriteOp[] = [];
  let diffs: ItemDiff[] = [];
  if (candidate.kind === 'contradiction' && edit === null) {
    throw ValidationError.of(
      'edit',
      'required',
      `approving contradiction ${candidate.id} settles it: say which item stands with an edit {"write":"resolve","keep":"mem_…"} (or "keep": null to retract them all); reject it if there is no contradiction`,
    );
  }
  if (target.write === 'none') {
    throw ValidationError.of(
      'edit',
      'required',
      `candidate ${candidate.id} proposes nothing Engram can write by itself; approve it with an edit giving the type, key and value`,
    );
  } else if (target.write === 'item' || target.write === 'retract') {
    const merger = new ItemMerger(
      { tenant_id: candidate.tenant_id, user_id: candidate.user_id, agent_id: candidate.agent_id },
      context.stored,
      {
        now: context.now,
        policies: context.policies,
        extractor: 'reflection',
        sensitivityOf: () => context.sensitivity,
      },
    );
    const plan = merger.plan(itemCandidate(candidate, target));
    ops.push(...plan.ops);
    diffs = plan.diffs;
    for (const diff of plan.diffs) {
      if (diff.action === 'created' || diff.action === 'updated' || diff.action === 'unchanged')
        written.item_ids.push(diff.item_id);
      if (diff.action === 'retracted' || diff.action === 'superseded') written.retracted_item_ids.push(diff.item_id);
    }
  } else if (target.write === 'insight') {
    const insight = insightOf(candidate, target, context);
    ops.push({ op: 'put_insight', insight, expected_version: null });
    written.insight_ids.push(insight.id);
  } else {
    const resolved = resolveOps(candidate, target.keep, context);
    ops.push(...resolved.ops);
    written.retracted_item_ids.push(...resolved.retracted);
  }
  const status = edit === null ? 'approved' : 'edited';
  const decision: CandidateDecision = { by: context.by, at: context.now, reason: null, edit, written };
  ops.push({ op: 'decide_candidate', tenant_id: candidate.tenant_id, candidate_id: candidate.id, status, decision });
  return { ops, diffs, decision, status, closeLoop: candidate.open_loop_id };
}

/**
 * Plans the rejection of a pending candidate: the decision with its reason, nothing else (a
 * rejected contradiction closes its open question: the items stand).
 *
 * @example
 * const plan = planRejection(candidate, 'not what I said', { by: 'mira', now });
 */
export function planRejection(
  candidate: ReviewCandidate,
  reason: string,
  context: { by: string; now: string },
): DecisionPlan {
  if (reason.trim() === '') throw ValidationError.of('reason', 'required', 'a rejection needs a reason');
  const decision: CandidateDecision = {
    by: context.by,
    at: context.now,
    reason,
    edit: null,
    written: { item_ids: [], insight_ids: [], retracted_item_ids: [] },
  };
  return {
    ops: [
      {
        op: 'decide_candidate',
        tenant_id: candidate.tenant_id,
        candidate_id: candidate.id,
        status: 'rejected',
        decision,
      },
    ],
    diffs: [],
    decision,
    status: 'rejected',
    closeLoop: candidate.open_loop_id,
  };
}
