// What happens to an existing item when a new value for its key arrives (MemoryTypes v0.1 §6), and
// the defaults of each type: overwrite (profile, preferences, goals, tasks: the old version is
// superseded, history kept) or versioned (decisions, events and the rest: all versions stay, the
// newest or most confident wins in compose). A profile's new version carries every fact of the old
// one with the changed facts replaced (values.ts, `mergeValue`), so it supersedes the old: one
// current value per attribute, in `items` as in packets. Explicit denial retracts, whatever the policy.

import { ValidationError } from '../spec/errors.js';
import { MEMORY_TYPES, type ConflictPolicy, type MemoryType, type ScopeLevel } from '../spec/items.js';

export const DEFAULT_POLICIES: Readonly<Record<MemoryType, ConflictPolicy>> = {
  profile: 'overwrite',
  preferences: 'overwrite',
  goals: 'overwrite',
  tasks: 'overwrite',
  decisions: 'versioned',
  entities: 'overwrite',
  events: 'versioned',
  cases: 'versioned',
  patterns: 'overwrite',
  procedure: 'overwrite',
};

/** The level an item is stored at when its candidate does not say: procedures and patterns serve every user of an agent. */
export const DEFAULT_LEVELS: Readonly<Record<MemoryType, ScopeLevel>> = {
  profile: 'user',
  preferences: 'user',
  goals: 'user',
  tasks: 'user',
  decisions: 'user',
  entities: 'user',
  events: 'user',
  cases: 'user',
  patterns: 'agent',
  procedure: 'agent',
};

/**
 * The policies with the caller's overrides, checked.
 *
 * @example
 * resolvePolicies({ decisions: 'overwrite' }).decisions // 'overwrite'
 */
export function resolvePolicies(overrides: Partial<Record<string, string>> = {}): Record<MemoryType, ConflictPolicy> {
  const policies = { ...DEFAULT_POLICIES };
  for (const [type, policy] of Object.entries(overrides)) {
    if (!MEMORY_TYPES.includes(type as MemoryType)) {
      throw ValidationError.of(
        `conflict_policies.${type}`,
        'enum',
        `must be a memory type: ${MEMORY_TYPES.join(', ')}`,
      );
    }
    if (policy !== 'overwrite' && policy !== 'versioned') {
      throw ValidationError.of(`conflict_policies.${type}`, 'enum', 'must be "overwrite" or "versioned"');
    }
    policies[type as MemoryType] = policy;
  }
  return policies;
}
