// The review queue's groups: candidates that propose the same thing (the same kind, the same write,
// about the same items; one that writes nothing told apart by its proposal) are one group, decided
// together; and deciding a group over the API: its first candidate carries the decision, the others
// are rejected as the same proposal.

import { api } from '../api.js';
import type { CandidateRecord, DecisionResult } from '../../../src/client/index.js';

/** Candidates that propose the same thing, the oldest first. */
export interface Group {
  key: string;
  kind: string;
  members: CandidateRecord[];
}

/** The order kinds are shown in. */
export const KINDS = ['memory', 'contradiction', 'episode', 'doctrine'] as const;

/** JSON with every object's keys sorted, so equal values read the same. */
function stable(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stable).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    return `{${Object.keys(value)
      .sort()
      .map((name) => `${JSON.stringify(name)}:${stable((value as Record<string, unknown>)[name])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The same proposal reads the same: kind, write, items it is about (and its proposal when it writes nothing). */
function proposalOf(candidate: CandidateRecord): string {
  return stable([
    candidate.kind,
    candidate.target,
    [...candidate.item_ids].sort(),
    candidate.target.write === 'none' ? candidate.payload : null,
  ]);
}

/**
 * The candidates as groups of the same proposal, by kind (KINDS order), each kind oldest first.
 *
 * @example
 * groupsOf(page.items).map((group) => group.members.length) // [2, 1, …]: the first proposed twice
 */
export function groupsOf(candidates: readonly CandidateRecord[]): Group[] {
  const groups = new Map<string, Group>();
  for (const candidate of candidates) {
    const key = proposalOf(candidate);
    const group = groups.get(key);
    if (group === undefined) groups.set(key, { key, kind: candidate.kind, members: [candidate] });
    else group.members.push(candidate);
  }
  const rank = (kind: string) => {
    const at = (KINDS as readonly string[]).indexOf(kind);
    return at === -1 ? KINDS.length : at;
  };
  return [...groups.values()].sort((a, b) => rank(a.kind) - rank(b.kind));
}

/** What deciding a group did: the first candidate's decision, and how many like it were rejected with it. */
export interface GroupDecision {
  candidate: CandidateRecord;
  alsoRejected: number;
}

async function decide(
  candidate: CandidateRecord,
  action: 'approve' | 'reject',
  body: Record<string, unknown>,
): Promise<CandidateRecord> {
  const answer = await api<DecisionResult>('POST', `/v1/review/${encodeURIComponent(candidate.id)}/${action}`, body);
  // A decision answers the candidate without its line (`text` is for listed ones).
  return { ...answer.candidate, text: null };
}

/**
 * Approves a group's first pending candidate (with an edit, if given) and rejects the rest as the same proposal.
 *
 * @example
 * await approveGroup(group, 'mira', undefined)
 */
export async function approveGroup(group: Group, by: string, edit: unknown): Promise<GroupDecision> {
  const [first, ...rest] = group.members.filter((member) => member.status === 'pending');
  if (first === undefined) return { candidate: group.members[0]!, alsoRejected: 0 };
  const candidate = await decide(first, 'approve', { by, ...(edit === undefined ? {} : { edit }) });
  for (const twin of rest)
    await decide(twin, 'reject', { by, reason: `the same proposal as ${first.id}, decided with it` });
  return { candidate, alsoRejected: rest.length };
}

/**
 * Rejects every pending candidate of a group with the reason.
 *
 * @example
 * await rejectGroup(group, 'mira', 'not a lasting fact')
 */
export async function rejectGroup(group: Group, by: string, reason: string): Promise<GroupDecision> {
  const [first, ...rest] = group.members.filter((member) => member.status === 'pending');
  if (first === undefined) return { candidate: group.members[0]!, alsoRejected: 0 };
  const candidate = await decide(first, 'reject', { by, reason });
  for (const twin of rest) await decide(twin, 'reject', { by, reason });
  return { candidate, alsoRejected: rest.length };
}
