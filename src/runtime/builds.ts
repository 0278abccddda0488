// Context builds: every composed packet is stored; replay rebuilds one as of its time and says
// whether it is byte-identical; diff explains what changed between two builds.

import { NotFoundError } from '../spec/errors.js';
import type { MemoryPacket } from '../spec/packet.js';
import type { ComposeRequest } from '../spec/requests.js';
import type { BuildRedaction, ContextBuild, StorageAdapter } from '../spec/storage.js';
import { compose, type ReadPathContext } from '../composer/compose.js';
import type { PurposePolicy } from '../composer/policy.js';

export interface ReplayResult {
  build_id: string;
  /** True when the rebuilt packet is byte-identical to the stored one. */
  identical: boolean;
  /**
   * The erases that redacted the stored build (empty when none did): the stored packet then lacks
   * what it quoted of erased data, and the rebuilt one is composed from what is left, so the two
   * describe the same time but are not the packet that was sent.
   */
  redactions: BuildRedaction[];
  original_hash: string;
  replay_hash: string;
  packet: MemoryPacket;
}

export interface BuildDiff {
  a: string;
  b: string;
  same_packet: boolean;
  /** Evidence and items selected by b but not a, and the other way round. */
  added: string[];
  removed: string[];
  /** Request fields that differ (purpose, cues, budget, …). */
  request_changes: string[];
  /** Token use per section, where it differs. */
  section_usage: Record<string, { a: number; b: number }>;
  /** The differences in words. */
  summary: string[];
}

async function load(storage: StorageAdapter, tenantId: string, buildId: string): Promise<ContextBuild> {
  const build = await storage.sessions.getBuild(tenantId, buildId);
  if (build === null) throw new NotFoundError('build_id', buildId);
  return build;
}

/**
 * Rebuilds a stored packet from the stores as they were at its time. A build an erase redacted is
 * rebuilt from what is left and says so (`redactions`).
 *
 * @example
 * const { identical } = await replay(context, 'default', 'ctx_01J…');
 */
export async function replay(context: ReadPathContext, tenantId: string, buildId: string): Promise<ReplayResult> {
  const build = await load(context.storage, tenantId, buildId);
  const { resolved_policy: policy, ...stored } = build.request as Record<string, unknown>;
  const request = { ...(stored as unknown as ComposeRequest), as_of: build.as_of };
  // A build recorded before a policy field existed used none of it (no spare passages, no upcoming part).
  const recorded =
    policy === undefined ? undefined : ({ spare_quotes: 0, upcoming: 0, ...(policy as object) } as PurposePolicy);
  const packet = await compose(context, request, {
    buildId: build.id,
    persist: false,
    ...(recorded === undefined ? {} : { policy: recorded }),
  });
  const replayHash = String(packet.explain.determinism?.['packet_hash'] ?? '');
  return {
    build_id: build.id,
    identical: JSON.stringify(packet) === JSON.stringify(build.packet),
    redactions: build.redactions ?? [],
    original_hash: build.packet_hash,
    replay_hash: replayHash,
    packet,
  };
}

/**
 * What changed between two builds.
 *
 * @example
 * const diff = await diffBuilds(storage, 'default', 'ctx_a…', 'ctx_b…');
 */
export async function diffBuilds(storage: StorageAdapter, tenantId: string, a: string, b: string): Promise<BuildDiff> {
  const [first, second] = await Promise.all([load(storage, tenantId, a), load(storage, tenantId, b)]);
  const added = second.selected.filter((id) => !first.selected.includes(id));
  const removed = first.selected.filter((id) => !second.selected.includes(id));
  const requestChanges = [...new Set([...Object.keys(first.request), ...Object.keys(second.request)])]
    .filter((key) => key !== 'resolved_policy')
    .filter((key) => JSON.stringify(first.request[key]) !== JSON.stringify(second.request[key]))
    .sort();
  const usage: BuildDiff['section_usage'] = {};
  const before = first.packet.budget_report.section_usage;
  const after = second.packet.budget_report.section_usage;
  for (const section of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if ((before[section] ?? 0) !== (after[section] ?? 0))
      usage[section] = { a: before[section] ?? 0, b: after[section] ?? 0 };
  }
  const summary: string[] = [];
  if (requestChanges.length > 0) summary.push(`request differs in ${requestChanges.join(', ')}`);
  if (first.as_of !== second.as_of) summary.push(`composed as of ${first.as_of} and ${second.as_of}`);
  if (added.length > 0) summary.push(`${added.length} selected only in ${b}: ${added.join(', ')}`);
  if (removed.length > 0) summary.push(`${removed.length} selected only in ${a}: ${removed.join(', ')}`);
  for (const [section, tokens] of Object.entries(usage)) summary.push(`${section}: ${tokens.a} → ${tokens.b} tokens`);
  if (first.packet.short_term.rolling_summary !== second.packet.short_term.rolling_summary)
    summary.push('the rolling summary changed');
  const same = first.packet_hash === second.packet_hash;
  if (summary.length === 0)
    summary.push(same ? 'identical packets' : 'same selection and budgets; details differ (times, ids)');
  return { a, b, same_packet: same, added, removed, request_changes: requestChanges, section_usage: usage, summary };
}
