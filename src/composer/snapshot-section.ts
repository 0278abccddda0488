// A long run's packet starts from its latest valid compaction snapshot (compaction-snapshot-v1):
// the verified claims, each with its evidence pointers, open the rolling summary, the snapshot's
// open questions join the open loops, and the summary sentences it already covers are left out, so
// the short-term part stays within budget however long the run grows, without drifting.

import type { CompactionSnapshot } from '../spec/compaction.js';
import type { Citation } from '../spec/packet.js';
import type { Scope } from '../spec/scope.js';
import type { StorageAdapter } from '../spec/storage.js';
import type { OpenLoop } from '../spec/working-state.js';
import type { Charge } from './packet-builder.js';
import type { LineCosts } from './text-tokens.js';

/**
 * The run's latest snapshot that passed its gate, as of `at` (a failed one is not valid state;
 * null when the run has none).
 *
 * @example
 * const snapshot = await gatherSnapshot(storage, scope, now);
 */
export async function gatherSnapshot(
  storage: StorageAdapter,
  scope: Scope,
  at: string,
): Promise<CompactionSnapshot | null> {
  const recent = await storage.runs.listSnapshots({
    tenant_id: scope.tenant_id,
    user_id: scope.user_id,
    agent_id: scope.agent_id,
    run_id: scope.run_id,
    created_at_or_before: at,
    order: 'desc',
    limit: 10,
  });
  return recent.find((record) => record.snapshot.validation.status === 'PASS')?.snapshot ?? null;
}

/** The last time (ms) a snapshot covers: the events recorded up to its creation. */
export function coveredUntil(snapshot: CompactionSnapshot | null): number {
  return snapshot === null ? Number.NEGATIVE_INFINITY : Date.parse(snapshot.created_at);
}

/** The open questions of a snapshot as open loops, after the session's own (no repeats). */
export function withSnapshotQuestions(loops: readonly OpenLoop[], snapshot: CompactionSnapshot | null): OpenLoop[] {
  if (snapshot === null) return [...loops];
  const known = new Set(loops.map((loop) => loop.question));
  return [
    ...loops,
    ...snapshot.state.open_questions
      .filter((question) => !known.has(question))
      .map((question) => ({ question, owner: 'agent' as const, status: 'open' as const })),
  ];
}

const claimLine = (claim: CompactionSnapshot['state']['claims'][number]) =>
  `- ${claim.statement.replace(/\s*\n+\s*/g, ' ')} [${claim.evidence_refs.map((ref) => ref.evidence_id).join(', ')}]`;

/**
 * The opening of the rolling summary: the snapshot's verified claims with their evidence ids, as
 * many as fit in `tokens` (the rest are recorded as a degradation), and its charge to the summary
 * section (none when no claim is shown).
 *
 * @example
 * const opening = snapshotOpening(costs, snapshot, 300); // { text: 'Verified in this run …', charge: { charge: 41, … } }
 */
export function snapshotOpening(
  costs: LineCosts,
  snapshot: CompactionSnapshot | null,
  tokens: number,
): { text: string; charge?: Charge } {
  if (snapshot === null) return { text: '' };
  const verified = snapshot.state.claims.filter(
    (claim) => claim.status === 'verified' && claim.evidence_refs.length > 0,
  );
  if (verified.length === 0) return { text: '' };
  const heading = `Verified in this run (snapshot ${snapshot.sequence}, ${snapshot.created_at.slice(0, 10)}):`;
  const lines = [heading];
  let used = costs.cost(heading) + 1;
  const cites: Citation[] = [];
  for (const claim of verified) {
    const line = claimLine(claim);
    const cost = costs.cost(line) + 1;
    if (used + cost > tokens) break;
    lines.push(line);
    used += cost;
    cites.push(...claim.evidence_refs.map((ref) => ({ id: ref.evidence_id, type: 'evidence' })));
  }
  const shown = lines.length - 1;
  if (shown === 0) return { text: '' };
  const charge: Charge = {
    charge: used,
    section: 'short_term_summary',
    select: {
      ref: { part: 'rolling_summary' },
      rule: `snapshot.verified_claims(${snapshot.snapshot_id}, ${shown} of ${verified.length})`,
    },
    cites,
  };
  if (shown < verified.length) {
    charge.degradation = {
      section: 'short_term_summary',
      action: `rolling_summary: verified claims ${verified.length}→${shown}`,
      reason: `over_budget: ${tokens} tokens for the snapshot`,
    };
  }
  return { text: lines.join('\n'), charge };
}
