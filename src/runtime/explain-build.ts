// "Why is X (not) in this packet?": for one event or item and one stored context build, where the
// packet placed it, or which filter of the build left it out, what the packet recorded omitting it,
// and where each retrieval signal ranked it as of the build's time (explain-signals.ts).

import { NotFoundError } from '../spec/errors.js';
import type { EventRecord } from '../spec/event.js';
import { ownerOf, visibleOwners, type MemoryItem } from '../spec/items.js';
import type { ExplainOmission, MemoryPacket } from '../spec/packet.js';
import type { ComposeRequest, ExplainBuildRequest } from '../spec/requests.js';
import { DEFAULT_TENANT } from '../spec/scope.js';
import type { ContextBuild } from '../spec/storage.js';
import { validateBuildRequest } from '../spec/validators.js';
import { NEVER_SHARED } from '../events/sensitivity.js';
import type { ReadPathContext } from '../composer/compose.js';
import { isoRange } from '../util/clock.js';
import { itemSignals, passageSignals, type SignalRank, type SignalReport } from './explain-signals.js';

export type { SignalRank } from './explain-signals.js';

/** How deep an explanation ranks each signal: well past what a packet reads. */
export const EXPLAIN_DEPTH = 200;

/** The filter of a build that left a record out. */
export type ExplainFilter = 'scope' | 'sensitivity' | 'expired' | 'as_of' | 'time_range' | 'status' | 'not_found';

/** Why a record is, or is not, in a build's packet. */
export interface BuildExplanation {
  build_id: string;
  id: string;
  kind: 'event' | 'item';
  /** The build's time: everything here is as the stores were then. */
  as_of: string;
  /** Placed by the packet (explain.selected) or cited by it (a rolling-summary sentence, a fact's source). */
  in_packet: boolean;
  /** Where it was placed and the rule that chose it; null when it was not placed. */
  section: string | null;
  rule: string | null;
  /**
   * `selected`, `cited`, `filtered` (see `filter`), an omission reason the packet recorded
   * (`over_budget`, `duplicate`, `expired`, …), `over_budget` (read, but no budget was left),
   * `below_read_depth` (its fused rank is past `read_depth`), `not_matched`, `not_placed` (an item
   * read but not of a kind placed from cue matches) or `not_searched` (no cue text, or a purpose
   * without passages).
   */
  verdict: string;
  filter: ExplainFilter | null;
  /** Events: words, meaning, time. Items: full_text, vector. */
  signals: Record<string, SignalRank>;
  fused_rank: number | null;
  /** How many matches compose read for the build. */
  read_depth: number;
  /** How deep each signal was ranked for this explanation. */
  depth: number;
  /** The packet's explain.omitted entries for it. */
  omissions: ExplainOmission[];
  /** The verdict in words. */
  detail: string;
  /** Where the ranks may differ from what compose saw (the embedding model changed, or was busy). */
  notes: string[];
}

type Verdict = Pick<BuildExplanation, 'verdict' | 'filter' | 'detail'>;

/** The part of an explanation read from the stored packet alone. */
interface Recorded {
  in_packet: boolean;
  section: string | null;
  rule: string | null;
  omissions: ExplainOmission[];
}

/** The record an explain line names: `key_quotes:evt_…#2: rule` → `evt_…`. */
function targetOf(item: string): string {
  return item.slice(item.indexOf(':') + 1).split('#')[0]!;
}

function recordedIn(packet: MemoryPacket, id: string): Recorded {
  const omissions = packet.explain.omitted.filter((entry) => targetOf(entry.item) === id);
  for (const line of packet.explain.selected) {
    const cut = line.indexOf(': ');
    const item = cut < 0 ? line : line.slice(0, cut);
    if (item.includes(':') && targetOf(item) === id)
      return {
        in_packet: true,
        section: item.slice(0, item.indexOf(':')),
        rule: cut < 0 ? '' : line.slice(cut + 2),
        omissions,
      };
  }
  return { in_packet: packet.citations.some((citation) => citation.id === id), section: null, rule: null, omissions };
}

const filtered = (filter: ExplainFilter, detail: string): Verdict => ({ verdict: 'filtered', filter, detail });

function eventFilter(event: EventRecord | undefined, build: ContextBuild): Verdict | null {
  if (event === undefined)
    return filtered('not_found', 'the tenant holds no such event (never written, or erased or purged since)');
  if (event.user_id !== build.user_id || event.agent_id !== build.agent_id) {
    return filtered(
      'scope',
      "it belongs to another user or agent: the build searched only its own user's history with its agent",
    );
  }
  if (event.recorded_at > build.as_of)
    return filtered('as_of', `it was recorded at ${event.recorded_at}, after the build's time ${build.as_of}`);
  if (NEVER_SHARED.includes(event.sensitivity))
    return filtered('sensitivity', `it is ${event.sensitivity}: never shown in a packet`);
  if (event.expires_at !== null && event.expires_at <= build.as_of)
    return filtered('expired', `it expired at ${event.expires_at}, before the build's time`);
  const range = isoRange((build.request as unknown as ComposeRequest).cues?.time_range, 'cues.time_range');
  if (
    range !== undefined &&
    ((range.start !== undefined && event.ts < range.start) || (range.end !== undefined && event.ts > range.end))
  ) {
    return filtered('time_range', `its time ${event.ts} is outside the build's cues.time_range`);
  }
  return null;
}

function itemFilter(item: MemoryItem | null, build: ContextBuild): Verdict | null {
  if (item === null)
    return filtered('not_found', 'the tenant holds no such item version (never written, or deleted since)');
  if (!visibleOwners(build.user_id, build.agent_id).includes(ownerOf(item.scope_level, item.user_id, item.agent_id))) {
    return filtered(
      'scope',
      "it belongs to another user or agent: the build saw only its user's, its agent's and the tenant's items",
    );
  }
  if (item.recorded_at > build.as_of)
    return filtered('as_of', `it was recorded at ${item.recorded_at}, after the build's time ${build.as_of}`);
  if (item.ended_at !== null ? item.ended_at <= build.as_of : item.status !== 'active') {
    return filtered(
      'status',
      `it was not current at the build's time (now ${item.status}${item.ended_at === null ? '' : ` since ${item.ended_at}`})`,
    );
  }
  return null;
}

/** The verdict from the packet's own record: placed, cited, or omitted with a reason. */
function recordedVerdict(recorded: Recorded): Verdict | null {
  if (recorded.in_packet) {
    return recorded.section === null
      ? {
          verdict: 'cited',
          filter: null,
          detail:
            'the packet cites it (a sentence of the rolling summary, the source of a fact or decision) without placing it as an item of its own',
        }
      : { verdict: 'selected', filter: null, detail: `placed in ${recorded.section} by ${recorded.rule}` };
  }
  return null;
}

function omittedVerdict(omissions: readonly ExplainOmission[], id: string): Verdict | null {
  // The record's own omission before one of a sentence of it (`key_quotes:evt_…#0`).
  const omitted = omissions.find((entry) => entry.item.endsWith(`:${id}`)) ?? omissions[0];
  if (omitted === undefined) return null;
  const detail = typeof omitted['detail'] === 'string' ? `${omitted.item}: ${omitted['detail']}` : omitted.item;
  return { verdict: omitted.reason, filter: null, detail };
}

/** The verdict from the signals, once no filter and no omission explains it. */
function rankedVerdict(report: SignalReport, kind: 'event' | 'item', item: MemoryItem | null): Verdict {
  const none = { filter: null };
  if (!report.searched) {
    const detail =
      kind === 'event'
        ? 'the build searched no passages: its cues had no text, or its purpose reads none'
        : 'the build had no cue text: items came only by type (always shown, procedures, recent episodes)';
    return { ...none, verdict: 'not_searched', detail };
  }
  if (report.read_position !== null) {
    return kind === 'event'
      ? {
          ...none,
          verdict: 'over_budget',
          detail: `compose read it (passage ${report.read_position} of ${report.read_depth}), but no budget was left for further passages`,
        }
      : {
          ...none,
          verdict: 'not_placed',
          detail: `compose read it (match ${report.read_position} of ${report.read_depth}) but placed no ${item?.type ?? ''} item from it: only current facts are placed from cue matches (procedures come by task type, episodes by date, done tasks never)`,
        };
  }
  if (Object.values(report.signals).every((signal) => !signal.used || signal.rank === null)) {
    return { ...none, verdict: 'not_matched', detail: 'no signal compose searched found it for the cues' };
  }
  const fused = report.fused_rank === null ? `past ${EXPLAIN_DEPTH}` : `${report.fused_rank}`;
  return {
    ...none,
    verdict: 'below_read_depth',
    detail: `its fused rank is ${fused}; compose read the first ${report.read_depth}`,
  };
}

/** What the stores and the re-run search say about one record. */
interface Findings {
  kind: 'event' | 'item';
  filter: Verdict | null;
  item: MemoryItem | null;
  report: SignalReport;
}

async function eventFindings(context: ReadPathContext, build: ContextBuild, id: string): Promise<Findings> {
  const [events, report] = await Promise.all([
    // Expired ones too, to say the build left it out for that.
    context.storage.events.list({
      tenant_id: build.tenant_id,
      ids: [id],
      now: build.as_of,
      include_expired: true,
      limit: 1,
    }),
    passageSignals(context, build, id, EXPLAIN_DEPTH),
  ]);
  return { kind: 'event', filter: eventFilter(events[0], build), item: null, report };
}

async function itemFindings(context: ReadPathContext, build: ContextBuild, id: string): Promise<Findings> {
  const [item, report] = await Promise.all([
    context.storage.items.get(build.tenant_id, id),
    itemSignals(context, build, id, EXPLAIN_DEPTH),
  ]);
  return { kind: 'item', filter: itemFilter(item, build), item, report };
}

async function loadBuild(context: ReadPathContext, tenantId: string, buildId: string): Promise<ContextBuild> {
  const build = await context.storage.sessions.getBuild(tenantId, buildId);
  if (build === null) throw new NotFoundError('build_id', buildId);
  return build;
}

/**
 * Why an event or item version is, or is not, in a stored build's packet.
 *
 * @example
 * const why = await explainBuild(context, { build_id: 'ctx_01J…', id: 'evt_01J…' });
 * why.verdict // 'below_read_depth'
 */
export async function explainBuild(context: ReadPathContext, input: ExplainBuildRequest): Promise<BuildExplanation> {
  const request = validateBuildRequest<ExplainBuildRequest>('explain', input);
  const build = await loadBuild(context, request.tenant_id ?? DEFAULT_TENANT, request.build_id);
  const recorded = recordedIn(build.packet, request.id);
  const found = request.id.startsWith('evt_')
    ? await eventFindings(context, build, request.id)
    : await itemFindings(context, build, request.id);
  const verdict =
    recordedVerdict(recorded) ??
    found.filter ??
    omittedVerdict(recorded.omissions, request.id) ??
    rankedVerdict(found.report, found.kind, found.item);
  const { report } = found;
  return {
    build_id: build.id,
    id: request.id,
    kind: found.kind,
    as_of: build.as_of,
    ...recorded,
    ...verdict,
    signals: report.signals,
    fused_rank: report.fused_rank,
    read_depth: report.read_depth,
    depth: EXPLAIN_DEPTH,
    notes: report.notes,
  };
}
