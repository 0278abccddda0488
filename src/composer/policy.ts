// Budget policies and the injection matrix of MemoryPacket v1 §9. The matrix is enforced, not
// advisory: a policy may change budgets and counts, never what a purpose is allowed to see.

import type { Budget, BudgetSection, Purpose } from '../spec/packet.js';
import type { ComposeRequest } from '../spec/requests.js';
import type { WorkingState } from '../spec/working-state.js';
import { asksAboutUserNow } from './question-subject.js';

export type WorkingStateField = Exclude<keyof WorkingState, 'state_version' | 'open_loops'>;

/** What one purpose may see of short-term memory (spec §9), in priority order. */
export interface InjectionRules {
  working_state_fields: readonly WorkingStateField[];
  last_tool_evidence: boolean;
  /** Procedures (task_type driven) are for planning and tool calls (spec §9: responder rarely). */
  procedures: boolean;
  /** Whether the conversation window is on when the request does not say. */
  conversation_window_by_default: boolean;
  /**
   * Which insights a packet may carry (spec §9): `any` live one not rejected (planner), `validated`
   * only (tool), or validated ones only when the policy allows insights in responders (responder).
   */
  insights: 'any' | 'validated' | 'validated_if_allowed';
}

export const INJECTION: Readonly<Record<Purpose, InjectionRules>> = {
  planner: {
    working_state_fields: ['goal', 'constraints', 'slots', 'decisions', 'plan', 'risks', 'tool_evidence'],
    last_tool_evidence: true,
    procedures: true,
    conversation_window_by_default: true,
    insights: 'any',
  },
  tool: {
    working_state_fields: ['goal', 'constraints', 'slots', 'decisions', 'plan', 'risks', 'tool_evidence'],
    last_tool_evidence: true,
    procedures: true,
    conversation_window_by_default: true,
    insights: 'validated',
  },
  responder: {
    working_state_fields: ['goal', 'constraints', 'slots', 'decisions'],
    last_tool_evidence: false,
    procedures: false,
    conversation_window_by_default: false,
    insights: 'validated_if_allowed',
  },
};

/** Budgets and counts for one purpose. */
export interface PurposePolicy {
  budget: Budget;
  conversation_window: number;
  key_quotes: number;
  query_quotes: number;
  /**
   * Further cue passages (beyond `query_quotes`) that may fill budget the other sections left
   * unused, each by its best-matching sentence; at most one per 30 tokens of the budget, so a larger
   * budget reads deeper into the ranking.
   */
  spare_quotes: number;
  tool_evidence: number;
  /** Share of the short_term_summary section the rolling summary may take. */
  summary_share: number;
  /** Most facts (incl. preferences), procedures and episodes offered. */
  facts: number;
  /**
   * Most upcoming items offered whatever the cues (dated events, open tasks and goals due later),
   * soonest first; a planner places them before its other facts, a responder after.
   */
  upcoming: number;
  procedures: number;
  episodes: number;
  /** Most insights offered. */
  insights: number;
  /** `insight.usage_policy.allow_in_responder`: validated insights may reach a responder packet. */
  allow_insights_in_responder: boolean;
  /**
   * How many times its facts allowance a question about the user's own present or future gets
   * ("where do I live now?", not "what did I buy?"), taken from the summary section; 1 leaves the
   * sections as they are. Not applied when the request sets its own section budgets.
   */
  present_facts: number;
}

export const DEFAULTS: Readonly<Record<Purpose, PurposePolicy>> = {
  planner: {
    budget: {
      max_tokens: 4000,
      per_section: {
        working_state: 1200,
        short_term_summary: 1000,
        facts: 800,
        procedures: 500,
        episodes: 300,
        insights: 200,
      },
    },
    conversation_window: 8,
    key_quotes: 6,
    query_quotes: 6,
    spare_quotes: 0,
    tool_evidence: 5,
    summary_share: 0.5,
    facts: 30,
    upcoming: 5,
    procedures: 5,
    episodes: 5,
    insights: 5,
    allow_insights_in_responder: false,
    present_facts: 1,
  },
  tool: {
    budget: {
      max_tokens: 2000,
      per_section: {
        working_state: 800,
        short_term_summary: 500,
        facts: 400,
        procedures: 300,
        episodes: 100,
        insights: 0,
      },
    },
    conversation_window: 4,
    key_quotes: 4,
    query_quotes: 4,
    spare_quotes: 0,
    tool_evidence: 5,
    summary_share: 0.4,
    facts: 15,
    upcoming: 3,
    procedures: 5,
    episodes: 2,
    insights: 3,
    allow_insights_in_responder: false,
    present_facts: 1,
  },
  responder: {
    // Passages of the history carry most of a responder's evidence: cue-matched facts get a tenth of
    // the budget and compete for it, the always-shown profile and preferences among them (LoCoMo
    // evidence cited at 256 / 1,000 tokens: 0.541 / 0.724 with facts at 30 %, 0.586 / 0.736 at 10 %).
    budget: {
      max_tokens: 3000,
      per_section: {
        working_state: 400,
        short_term_summary: 2150,
        facts: 300,
        procedures: 0,
        episodes: 150,
        insights: 0,
      },
    },
    conversation_window: 6,
    key_quotes: 8,
    query_quotes: 10,
    // A responder answers from the conversation's history: passages the cues match fill what is left,
    // as deep as the budget reaches (4,000 tokens: ~130 passages).
    spare_quotes: 190,
    tool_evidence: 0,
    summary_share: 0.4,
    facts: 30,
    upcoming: 3,
    procedures: 0,
    episodes: 4,
    insights: 3,
    allow_insights_in_responder: false,
    // A question about the user's present (where they live, what is coming up) is answered by
    // current facts: twice the facts allowance (memory corpus, current fact shown at 1,000 tokens:
    // 0.837 → 0.851 English, 0.914 → 0.946 Chinese; LoCoMo, whose questions name their speakers,
    // unchanged). A question in the past tense keeps the passages.
    present_facts: 2,
  },
};

export const DEFAULT_POLICY_ID = 'default';

/**
 * The policy of a purpose (the default, or a named policy's) with the request's budget applied. A `max_tokens` without `per_section`
 * scales the default sections to it, so every section keeps its share; then a question about the
 * user's own present or future moves `present_facts` − 1 times the facts allowance from the summary
 * section to facts.
 *
 * @example
 * resolvePolicy({ scope, purpose: 'responder', budget: { max_tokens: 500 } }).budget.max_tokens // 500
 */
export function resolvePolicy(
  request: Pick<ComposeRequest, 'purpose' | 'budget' | 'cues'>,
  base: PurposePolicy = DEFAULTS[request.purpose],
): PurposePolicy {
  const maxTokens = request.budget?.max_tokens ?? base.budget.max_tokens;
  const ratio = maxTokens / base.budget.max_tokens;
  const perSection = {} as Record<BudgetSection, number>;
  for (const [section, tokens] of Object.entries(base.budget.per_section) as [BudgetSection, number][]) {
    perSection[section] = request.budget?.per_section?.[section] ?? Math.floor(tokens * ratio);
  }
  const query = request.cues?.query;
  if (
    base.present_facts > 1 &&
    request.budget?.per_section === undefined &&
    query !== undefined &&
    asksAboutUserNow(query)
  ) {
    const moved = Math.min(perSection.short_term_summary, Math.floor(perSection.facts * (base.present_facts - 1)));
    perSection.facts += moved;
    perSection.short_term_summary -= moved;
  }
  return { ...base, budget: { max_tokens: maxTokens, per_section: perSection } };
}

/**
 * Section budgets with the allowance of sections that have nothing to show lent to those that do,
 * in proportion to their own allowance; `meta.budget` keeps the policy as requested.
 *
 * @example
 * lendIdleSections(budget.per_section, new Set(['working_state', 'short_term_summary']))
 */
export function lendIdleSections(
  perSection: Readonly<Record<BudgetSection, number>>,
  active: ReadonlySet<BudgetSection>,
): Record<BudgetSection, number> {
  const sections = Object.keys(perSection) as BudgetSection[];
  const idle = sections
    .filter((section) => !active.has(section))
    .reduce((sum, section) => sum + perSection[section], 0);
  const activeTotal = sections
    .filter((section) => active.has(section))
    .reduce((sum, section) => sum + perSection[section], 0);
  const effective = {} as Record<BudgetSection, number>;
  for (const section of sections) {
    if (!active.has(section)) effective[section] = 0;
    else if (activeTotal === 0) effective[section] = Math.floor(idle / active.size);
    else effective[section] = perSection[section] + Math.floor((idle * perSection[section]) / activeTotal);
  }
  return effective;
}
