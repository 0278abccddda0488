// The filters and namespace conditions of LangGraph's BaseStore, applied to entries read from
// Engram: a filter compares top-level fields of a value (exactly, or with $eq, $ne, $gt, $gte, $lt,
// $lte, $in, $nin); a match condition compares a namespace's labels, `*` matching any one.

import type { MatchCondition } from '@langchain/langgraph-checkpoint';

const OPERATORS = new Set(['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin']);

function isOperators(filter: unknown): filter is Record<string, unknown> {
  return (
    typeof filter === 'object' &&
    filter !== null &&
    !Array.isArray(filter) &&
    Object.keys(filter).length > 0 &&
    Object.keys(filter).every((name) => OPERATORS.has(name))
  );
}

/** JSON with object members in key order, so equal values compare equal whatever their order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([name, member]) => `${JSON.stringify(name)}:${canonical(member)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

function same(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

function compare(field: unknown, operator: string, operand: unknown): boolean {
  switch (operator) {
    case '$eq':
      return same(field, operand);
    case '$ne':
      return !same(field, operand);
    case '$gt':
      return Number(field) > Number(operand);
    case '$gte':
      return Number(field) >= Number(operand);
    case '$lt':
      return Number(field) < Number(operand);
    case '$lte':
      return Number(field) <= Number(operand);
    case '$in':
      return Array.isArray(operand) && operand.some((candidate) => same(field, candidate));
    default:
      return !Array.isArray(operand) || !operand.some((candidate) => same(field, candidate));
  }
}

/**
 * True when a value passes a BaseStore filter.
 *
 * @example
 * matchesFilter({ kind: 'food', rating: 5 }, { kind: 'food', rating: { $gte: 4 } }) // true
 */
export function matchesFilter(value: Record<string, unknown>, filter: Record<string, unknown> | undefined): boolean {
  if (filter === undefined) return true;
  return Object.entries(filter).every(([name, wanted]) => {
    const field = value[name];
    if (isOperators(wanted))
      return Object.entries(wanted).every(([operator, operand]) => compare(field, operator, operand));
    return same(field, wanted);
  });
}

/**
 * True when a namespace starts with a prefix (`*` matches any label).
 *
 * @example
 * startsWith(['mira', 'memories', 'food'], ['*', 'memories']) // true
 */
export function startsWith(namespace: readonly string[], prefix: readonly string[]): boolean {
  return (
    prefix.length <= namespace.length && prefix.every((label, index) => label === '*' || label === namespace[index])
  );
}

/**
 * True when a namespace meets every match condition (prefix or suffix).
 *
 * @example
 * meetsConditions(['mira', 'memories'], [{ matchType: 'suffix', path: ['memories'] }]) // true
 */
export function meetsConditions(
  namespace: readonly string[],
  conditions: readonly MatchCondition[] | undefined,
): boolean {
  return (conditions ?? []).every((condition) =>
    condition.matchType === 'prefix'
      ? startsWith(namespace, condition.path)
      : startsWith([...namespace].reverse(), [...condition.path].reverse()),
  );
}
