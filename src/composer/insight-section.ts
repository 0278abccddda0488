// The insight part of a packet (MemoryPacket v1 §5, §9): hypotheses, strategy sketches and patterns
// of the user with this agent, live at the packet's time and in the validation state they had then.
// Planners see any that is not rejected; tools only validated ones; responders only validated ones,
// and only when the policy allows insights in responders. Unvalidated insights never reach a responder.

import type { Insight as InsightPacket, InsightItem, Purpose } from '../spec/packet.js';
import type { InsightRecord } from '../spec/reflection.js';
import type { Scope } from '../spec/scope.js';
import type { StorageAdapter } from '../spec/storage.js';
import { stateAt } from '../reflection/insights.js';
import { itemText } from './item-text.js';
import type { Entry, PacketBuilder } from './packet-builder.js';
import { INJECTION, type PurposePolicy } from './policy.js';
import { lazyForm } from './forms.js';

/** Insights read per compose, newest first, before the purpose's rules choose. */
const READ_LIMIT = 50;

/**
 * The user's insights with this agent that were live at `at` (created, not expired): those of this
 * run, and the lasting ones (no `run_end` expiry) of any run.
 *
 * @example
 * const insights = await gatherInsights(storage, scope, policy, now);
 */
export async function gatherInsights(
  storage: StorageAdapter,
  scope: Scope,
  policy: PurposePolicy,
  at: string,
): Promise<InsightRecord[]> {
  if (policy.insights === 0) return [];
  const live = await storage.reviews.listInsights({
    tenant_id: scope.tenant_id,
    user_id: scope.user_id,
    agent_id: scope.agent_id,
    live_at: at,
    order: 'desc',
    limit: READ_LIMIT,
  });
  return live.filter((insight) => insight.expires_at !== 'run_end' || insight.run_id === scope.run_id);
}

/** The part of the packet (and of its rendering) an insight of each type goes to. */
const BLOCK_OF_TYPE = { hypothesis: 'hypotheses', strategy: 'strategy_sketches', pattern: 'patterns' } as const;

function itemOf(insight: InsightRecord, state: InsightItem['validation_state']): InsightItem {
  return {
    id: insight.id,
    type: insight.type,
    statement: insight.statement,
    trigger: insight.trigger,
    confidence: insight.confidence,
    validation_state: state,
    tests_suggested: insight.tests_suggested,
    expires_at: insight.expires_at,
    sources: insight.sources,
  };
}

/**
 * Fills `insight` under the purpose's rules; each insight left out is explained.
 *
 * @example
 * const insight = fillInsights(builder, insights, 'planner', policy, now);
 */
export function fillInsights(
  builder: PacketBuilder,
  insights: readonly InsightRecord[],
  purpose: Purpose,
  policy: PurposePolicy,
  at: string,
): InsightPacket {
  const allowInResponder = purpose === 'responder' && policy.allow_insights_in_responder;
  const packet: InsightPacket = {
    usage_policy: { allow_in_responder: allowInResponder },
    hypotheses: [],
    strategy_sketches: [],
    patterns: [],
  };
  const rule = INJECTION[purpose].insights;
  const live = insights
    .map((insight) => ({ insight, state: stateAt(insight, at) }))
    .filter(
      (entry): entry is { insight: InsightRecord; state: InsightItem['validation_state'] } =>
        entry.state !== null && entry.state !== 'rejected',
    )
    .sort((a, b) => b.insight.confidence - a.insight.confidence || (a.insight.id < b.insight.id ? 1 : -1));
  let offered = 0;
  const entries = live.map(({ insight, state }): Entry<InsightItem> => {
    const ref = { part: 'insights' as const, id: insight.id };
    const omit = (reason: 'not_allowed_for_purpose' | 'low_priority', detail: string) => ({
      omit: ref,
      reason,
      section: 'insights',
      detail,
    });
    if (rule !== 'any' && state !== 'validated')
      return omit('not_allowed_for_purpose', `${state} insights are not for ${purpose} packets (spec §9)`);
    if (rule === 'validated_if_allowed' && !allowInResponder)
      return omit('not_allowed_for_purpose', 'insight.usage_policy.allow_in_responder is false');
    if (offered >= policy.insights)
      return omit('low_priority', `beyond the ${policy.insights} insights of this policy`);
    offered += 1;
    const item = itemOf(insight, state);
    return {
      ref,
      section: 'insights',
      block: BLOCK_OF_TYPE[item.type],
      rule: `insight.${state}(confidence ${insight.confidence})`,
      forms: [
        { level: 'raw', value: item },
        lazyForm('summary', () => ({
          ...item,
          statement: builder.costs.tokenizer.truncate(item.statement, 24),
          tests_suggested: [],
        })),
      ],
      text: itemText.insight,
    };
  });
  for (const taken of builder.place(entries))
    if (taken !== undefined) packet[BLOCK_OF_TYPE[taken.value.type]].push(taken.value);
  return packet;
}
