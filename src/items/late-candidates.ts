// Candidates read from events older than what memory already holds for their key: a background
// extraction (the LLM's) runs after later turns may have changed the same thing. What changed later
// stays, and only what is news is kept of such a candidate. "Later" is by when a version's
// information was learned (its valid_from, else its recorded time), not by when it was written: a job
// of an earlier turn writes after the rules of a later one, and must not undo them.

import { isDeepStrictEqual } from 'node:util';

import type { ItemCandidate, MemoryItem } from '../spec/items.js';

function learnedAt(item: MemoryItem): string {
  return item.valid_from ?? item.recorded_at;
}

function factsOf(value: Record<string, unknown>): Map<string, unknown> {
  const facts = Array.isArray(value['facts']) ? (value['facts'] as unknown[]) : [];
  return new Map(
    facts
      .filter((fact): fact is Record<string, unknown> => typeof fact === 'object' && fact !== null)
      .map((fact) => [String(fact['k']), fact]),
  );
}

/** The `k` of each profile fact that a version learned after `at` set, changed or ended. */
function factsChangedAfter(versions: readonly MemoryItem[], at: string): Set<string> {
  const changed = new Set<string>();
  let previous = new Map<string, unknown>();
  for (const version of [...versions].sort((a, b) => a.version - b.version)) {
    const facts = factsOf(version.value);
    if (learnedAt(version) > at) {
      for (const [k, fact] of facts) if (!isDeepStrictEqual(previous.get(k), fact)) changed.add(k);
      for (const k of previous.keys()) if (!facts.has(k)) changed.add(k);
    }
    previous = facts;
  }
  return changed;
}

/**
 * The candidate without what versions of its key learned after it, or null when nothing of it is
 * news: any later version (or a later retraction) outranks it, except that a profile keeps the facts
 * no later version touched. A candidate without `valid_from` is taken as current.
 *
 * @example
 * withoutLaterChanges({ ...candidate, valid_from: '2026-06-01T10:00:00.000Z' }, versions) // null: the key changed at 11:00
 */
export function withoutLaterChanges(candidate: ItemCandidate, versions: readonly MemoryItem[]): ItemCandidate | null {
  const at = candidate.valid_from;
  if (at === undefined || at === null) return candidate;
  const retractedLater = versions.some(
    (version) => version.status === 'retracted' && version.ended_at !== null && version.ended_at > at,
  );
  if (retractedLater) return null;
  if (!versions.some((version) => learnedAt(version) > at)) return candidate;
  if (candidate.type !== 'profile' || candidate.action === 'retract') return null;
  const changed = factsChangedAfter(versions, at);
  const facts = [...factsOf(candidate.value)].filter(([k]) => !changed.has(k)).map(([, fact]) => fact);
  return facts.length === 0 ? null : { ...candidate, value: { ...candidate.value, facts } };
}
