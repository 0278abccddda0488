// Named budget policies: a caller registers a policy id with budgets and counts per purpose, and a
// compose request picks it with `policy_id`. The purpose's injection rules still apply: a policy
// changes how much, never what a purpose may see.

import { ValidationError } from '../spec/errors.js';
import { BUDGET_SECTIONS, type BudgetSection, type Purpose } from '../spec/packet.js';
import { DEFAULT_POLICY_ID, type PurposePolicy } from './policy.js';

/** What a policy may set for one purpose; anything left out keeps the default. */
export interface PurposeOverrides {
  budget?: { max_tokens?: number; per_section?: Partial<Record<BudgetSection, number>> };
  conversation_window?: number;
  key_quotes?: number;
  query_quotes?: number;
  spare_quotes?: number;
  tool_evidence?: number;
  summary_share?: number;
  facts?: number;
  upcoming?: number;
  procedures?: number;
  episodes?: number;
  insights?: number;
  /** Let validated insights into responder packets (`insight.usage_policy.allow_in_responder`). */
  allow_insights_in_responder?: boolean;
  /** How many times its facts allowance a question about the user's present gets, from 1 (no change) to 5. */
  present_facts?: number;
}

/** A named policy, registered with `engram.registerPolicy`. */
export interface NamedPolicy {
  policy_id: string;
  description?: string;
  purposes: Partial<Record<Purpose, PurposeOverrides>>;
}

const COUNTS = [
  'conversation_window',
  'key_quotes',
  'query_quotes',
  'spare_quotes',
  'tool_evidence',
  'facts',
  'upcoming',
  'procedures',
  'episodes',
  'insights',
] as const;
const PURPOSES: readonly Purpose[] = ['planner', 'tool', 'responder'];

function wholeNumber(field: string, value: unknown, min: number, max: number): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw ValidationError.of(field, 'range', `must be a whole number from ${min} to ${max}`);
  }
}

/**
 * Checks a named policy; throws ValidationError naming the field.
 *
 * @example
 * assertNamedPolicy({ policy_id: 'tight', purposes: { responder: { budget: { max_tokens: 600 } } } })
 */
export function assertNamedPolicy(policy: NamedPolicy): void {
  if (typeof policy !== 'object' || policy === null) throw ValidationError.of('policy', 'type', 'must be an object');
  if (typeof policy.policy_id !== 'string' || !/^[A-Za-z0-9_.:-]{1,128}$/.test(policy.policy_id)) {
    throw ValidationError.of('policy_id', 'pattern', 'must be 1–128 letters, digits, _ . : -');
  }
  if (policy.policy_id === DEFAULT_POLICY_ID)
    throw ValidationError.of('policy_id', 'reserved', '"default" is the built-in policy');
  for (const [purpose, overrides] of Object.entries(policy.purposes ?? {})) {
    const at = `purposes.${purpose}`;
    if (!PURPOSES.includes(purpose as Purpose))
      throw ValidationError.of(at, 'enum', 'must be planner, tool or responder');
    wholeNumber(`${at}.budget.max_tokens`, overrides.budget?.max_tokens, 256, 1_000_000);
    for (const [section, tokens] of Object.entries(overrides.budget?.per_section ?? {})) {
      if (!BUDGET_SECTIONS.includes(section as BudgetSection))
        throw ValidationError.of(
          `${at}.budget.per_section.${section}`,
          'enum',
          `must be one of ${BUDGET_SECTIONS.join(', ')}`,
        );
      wholeNumber(`${at}.budget.per_section.${section}`, tokens, 0, 1_000_000);
    }
    for (const count of COUNTS) wholeNumber(`${at}.${count}`, overrides[count], 0, 200);
    const allow = overrides.allow_insights_in_responder;
    if (allow !== undefined && typeof allow !== 'boolean')
      throw ValidationError.of(`${at}.allow_insights_in_responder`, 'type', 'must be true or false');
    const share = overrides.summary_share;
    if (share !== undefined && !(typeof share === 'number' && share >= 0 && share <= 1))
      throw ValidationError.of(`${at}.summary_share`, 'range', 'must be from 0 to 1');
    const present = overrides.present_facts;
    if (present !== undefined && !(typeof present === 'number' && present >= 1 && present <= 5))
      throw ValidationError.of(`${at}.present_facts`, 'range', 'must be from 1 to 5');
  }
}

/**
 * A purpose's policy with a named policy's overrides applied.
 *
 * @example
 * applyOverrides(defaultPolicy, { key_quotes: 2 }).key_quotes // 2
 */
export function applyOverrides(base: PurposePolicy, overrides: PurposeOverrides | undefined): PurposePolicy {
  if (overrides === undefined) return base;
  const { budget, ...counts } = overrides;
  return {
    ...base,
    ...counts,
    budget: {
      max_tokens: budget?.max_tokens ?? base.budget.max_tokens,
      per_section: { ...base.budget.per_section, ...budget?.per_section },
    },
  };
}
