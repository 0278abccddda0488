// The read path (DESIGN §4): gather what the scope holds, fill each section within its budget under
// the purpose's injection rules, explain every choice, and validate the packet against
// MemoryPacket v1 when asked.

import type { BudgetSection, MemoryPacket, PacketMeta } from '../spec/packet.js';
import type { ComposeRequest } from '../spec/requests.js';
import { resolveScope, sessionKeyOf, type Scope } from '../spec/scope.js';
import type { StorageAdapter } from '../spec/storage.js';
import { ValidationError } from '../spec/errors.js';
import type { Tokenizer } from '../spec/tokenizer.js';
import { assertPacket, validateComposeRequest } from '../spec/validators.js';
import { NEVER_SHARED } from '../events/sensitivity.js';
import { toIso, type Clock } from '../util/clock.js';
import { newId, sha256 } from '../util/ids.js';
import { searchTerms } from '../util/word-forms.js';
import { PacketBuilder, type Omitted, type PacketRecord } from './packet-builder.js';
import {
  DEFAULT_POLICY_ID,
  DEFAULTS,
  INJECTION,
  lendIdleSections,
  resolvePolicy,
  type PurposePolicy,
} from './policy.js';
import { applyOverrides, type NamedPolicy } from './named-policies.js';
import { fillSummarySection, gatherSummary } from './summary-section.js';
import { cuePool, gatherCuePassages, type CueRetrieval } from './cue-gather.js';
import { cueText, type CueEmbedder } from './cue-search.js';
import { assertBuildBound } from './build-bound.js';
import { fillInsights, gatherInsights } from './insight-section.js';
import { gatherSnapshot, withSnapshotQuestions } from './snapshot-section.js';
import { fillLongTerm, gatherDisputes, gatherLongTerm } from './long-term-section.js';
import { fillWorkingState, gatherWorkingState } from './working-state-section.js';
import { LineCosts } from './text-tokens.js';

export interface ReadPathContext {
  storage: StorageAdapter;
  tokenizer: Tokenizer;
  clock: Clock;
  /** Validate every packet against the schema before returning it. */
  validatePackets: boolean;
  /** Registered named policies. */
  policies?: ReadonlyMap<string, NamedPolicy>;
  /** The model that embeds queries for the meaning signal; none: passages are found by words and time. */
  embedder?: CueEmbedder;
}

/** The words of the cue text matched against the user's history. */
function cueTermsOf(request: ComposeRequest): string[] {
  return searchTerms(cueText(request.cues));
}

function windowSize(request: ComposeRequest, policy: PurposePolicy): number {
  if (request.conversation_window !== undefined) return request.conversation_window;
  return INJECTION[request.purpose].conversation_window_by_default ? policy.conversation_window : 0;
}

/** Everything a packet is made from, read from the stores at the packet's time (`now`), as of `asOf`. */
async function gather(
  context: ReadPathContext,
  request: ComposeRequest,
  scope: Scope,
  policy: PurposePolicy,
  at: { now: string; asOf: string | undefined },
) {
  const { storage, embedder } = context;
  const { now, asOf } = at;
  const key = sessionKeyOf(scope);
  const events = { ...key, now, as_of: asOf, exclude_sensitivity: [...NEVER_SHARED] };
  const [workingState, summary, passages, longTerm, insights, disputes, snapshot] = await Promise.all([
    gatherWorkingState(storage, key, events, policy, at),
    gatherSummary(storage, key, events, windowSize(request, policy), context.tokenizer, asOf),
    gatherCuePassages(storage, embedder, { request, scope, policy, terms: cueTermsOf(request), now, asOf }),
    gatherLongTerm(storage, scope, request, policy, now, asOf, embedder),
    gatherInsights(storage, scope, policy, now),
    gatherDisputes(storage, scope, now),
    gatherSnapshot(storage, scope, now),
  ]);
  return { workingState, summary, passages, longTerm, insights, disputes, snapshot };
}

/** A responder packet carries no conversation window unless the request asks for one: left out, with the reason. */
function windowOmission(request: ComposeRequest, window: number): Omitted[] {
  if (window > 0 || request.purpose !== 'responder') return [];
  return [
    {
      omit: { part: 'conversation_window' },
      reason: 'not_allowed_for_purpose',
      section: 'short_term_summary',
      detail: 'responder packets carry summary and quotes, not the window, unless asked (spec §9)',
    },
  ];
}

/** The sections that have something to show: the others lend their allowance to them. */
function activeSections(request: ComposeRequest, read: Awaited<ReturnType<typeof gather>>): Set<BudgetSection> {
  const { longTerm } = read;
  const active = new Set<BudgetSection>(['working_state', 'short_term_summary']);
  if (longTerm.facts.length > 0) active.add('facts');
  if (longTerm.procedures.length > 0 && INJECTION[request.purpose].procedures) active.add('procedures');
  if (longTerm.episodes.length > 0) active.add('episodes');
  if (read.insights.length > 0) active.add('insights');
  return active;
}

/**
 * Composes a MemoryPacket for the agent's next LLM call.
 *
 * @example
 * const packet = await compose(context, { scope, purpose: 'responder', cues: { query: 'deadline?' } });
 */
export async function compose(
  context: ReadPathContext,
  input: unknown,
  options: ComposeOptions = {},
): Promise<MemoryPacket> {
  const request = validateComposeRequest(input);
  const scope = resolveScope(request.scope);
  const policy = options.policy ?? resolvePolicy(request, policyBase(context, request));
  const now = toIso(context.clock.now());
  const asOf = request.as_of === undefined ? undefined : toIso(request.as_of, 'as_of');
  // A packet as of a time still to come would change as the store fills up to it: no replay could match it.
  if (asOf !== undefined && asOf > now)
    throw ValidationError.of('as_of', 'not_future', `must not be later than now (${now})`);
  const generatedAt = asOf ?? now;
  const read = await gather(context, request, scope, policy, { now: generatedAt, asOf });
  const { purpose } = request;
  // Costs are counted as the prompt shows them, in either rendering.
  const builder = new PacketBuilder(
    new LineCosts(context.tokenizer),
    policy.budget.max_tokens,
    lendIdleSections(policy.budget.per_section, activeSections(request, read)),
    { purpose, generatedAt, tokenizer: context.tokenizer },
  );

  const openLoops = withSnapshotQuestions(read.workingState.state.open_loops, read.snapshot);
  const workingState = fillWorkingState(builder, read.workingState, openLoops, purpose, policy);
  const window = windowSize(request, policy);
  builder.place(windowOmission(request, window));
  const cueTerms = cueTermsOf(request);
  const longTerm = fillLongTerm(
    builder,
    { ...read.longTerm, disputes: read.disputes },
    { purpose, now: generatedAt, cueTerms },
  );
  const insight = fillInsights(builder, read.insights, purpose, policy, generatedAt);
  // The summary section comes last: passages matching the cues may use what the others left.
  const summary = fillSummarySection(
    builder,
    {
      summary: read.summary.summary,
      cueHits: read.passages.hits,
      cueTerms,
      purpose,
      windowEvents: read.summary.windowEvents,
      now: generatedAt,
      snapshot: read.snapshot,
    },
    policy,
  );

  const buildId = options.buildId ?? newId('ctx');
  const record = builder.finish();
  const packet = assemble({
    request,
    scope,
    policy,
    generatedAt,
    window,
    record,
    workingState,
    summary,
    longTerm,
    insight,
    tokenizer: context.tokenizer.name,
    retrieval: read.passages.retrieval,
  });
  const { hash, json } = sealPacket(packet, buildId);
  if (context.validatePackets) assertPacket(packet);
  if (options.persist !== false)
    await storeBuild(context, { request, scope, policy, generatedAt, now, buildId, packet, hash, json, record });
  return packet;
}

/**
 * Stores the context build of a packet: its request with the resolved policy (a replay uses exactly
 * the same one), the events and item versions it placed, and the packet with its hash.
 */
async function storeBuild(
  context: ReadPathContext,
  build: {
    request: ComposeRequest;
    scope: Scope;
    policy: PurposePolicy;
    generatedAt: string;
    now: string;
    buildId: string;
    packet: MemoryPacket;
    hash: string;
    json: string;
    record: PacketRecord;
  },
): Promise<void> {
  const { request, scope } = build;
  const storedRequest = { ...request, resolved_policy: build.policy } as unknown as Record<string, unknown>;
  assertBuildBound(build.json, storedRequest);
  await context.storage.write([
    {
      op: 'put_context_build',
      packet_json: build.json,
      build: {
        id: build.buildId,
        tenant_id: scope.tenant_id,
        user_id: scope.user_id,
        agent_id: scope.agent_id,
        session_id: scope.session_id,
        run_id: scope.run_id,
        purpose: request.purpose,
        request: storedRequest,
        as_of: build.generatedAt,
        selected: build.record.records,
        packet_hash: build.hash,
        packet: build.packet,
        created_at: build.now,
      },
    },
  ]);
}

/** The base policy of a request: the named one it asks for, or the purpose's default. */
function policyBase(context: ReadPathContext, request: ComposeRequest): PurposePolicy {
  const id = request.policy_id ?? DEFAULT_POLICY_ID;
  if (id === DEFAULT_POLICY_ID) return DEFAULTS[request.purpose];
  const named = context.policies?.get(id);
  if (named === undefined)
    throw ValidationError.of(
      'policy_id',
      'registered',
      `no policy ${JSON.stringify(id)} is registered (engram.registerPolicy)`,
    );
  return applyOverrides(DEFAULTS[request.purpose], named.purposes[request.purpose]);
}

export interface ComposeOptions {
  /** The exact policy to use (a replay uses the one the build recorded). */
  policy?: PurposePolicy;
  /** The context build id to use (a replay uses the original one). */
  buildId?: string;
  /** Store the context build (default true; a replay does not). */
  persist?: boolean;
}

/**
 * Puts the build id and a SHA-256 of the packet into explain.determinism; returns the hash and the
 * packet's JSON. The hash covers everything but itself, so equal packets have equal hashes.
 */
export function sealPacket(packet: MemoryPacket, buildId: string): { hash: string; json: string } {
  const determinism = packet.explain.determinism ?? {};
  delete determinism['packet_hash'];
  determinism['context_build_id'] = buildId;
  packet.explain.determinism = determinism;
  const unsealed = JSON.stringify(packet);
  const hash = sha256(unsealed);
  determinism['packet_hash'] = hash;
  // When explain is the packet's last key, determinism explain's, and the build id determinism's last
  // entry (as assemble builds them), the sealed JSON is the unsealed one with the hash appended to
  // determinism: one serialisation instead of two. Otherwise it is serialised again.
  const end = `${JSON.stringify(buildId)}}}}`;
  const json = unsealed.endsWith(end)
    ? `${unsealed.slice(0, -3)},"packet_hash":${JSON.stringify(hash)}}}}`
    : JSON.stringify(packet);
  return { hash, json };
}

interface Assembly {
  request: ComposeRequest;
  scope: Scope;
  policy: PurposePolicy;
  generatedAt: string;
  window: number;
  record: PacketRecord;
  workingState: ReturnType<typeof fillWorkingState>;
  summary: ReturnType<typeof fillSummarySection>;
  longTerm: ReturnType<typeof fillLongTerm>;
  insight: ReturnType<typeof fillInsights>;
  tokenizer: string;
  retrieval: CueRetrieval;
}

/** The packet from the filled sections, with its budget report and explanation. */
function assemble(parts: Assembly): MemoryPacket {
  const { request, policy, record, workingState, summary, generatedAt } = parts;
  const meta: PacketMeta = {
    schema_version: 'v1',
    scope: parts.scope,
    generated_at: generatedAt,
    purpose: request.purpose,
    task_type: request.task_type ?? 'generic',
    cues: request.cues ?? {},
    budget: policy.budget,
    policy_id: request.policy_id ?? DEFAULT_POLICY_ID,
  };
  return {
    meta,
    short_term: {
      working_state: workingState.working_state,
      rolling_summary: summary.rolling_summary,
      key_quotes: summary.key_quotes,
      conversation_window: summary.conversation_window,
      open_loops: workingState.open_loops,
      last_tool_evidence: workingState.last_tool_evidence,
    },
    long_term: parts.longTerm.long_term,
    insight: parts.insight,
    citations: record.citations,
    budget_report: record.budget_report,
    explain: {
      selected: record.selected,
      omitted: record.omitted,
      filters: {
        as_of: generatedAt,
        time_range: request.cues?.time_range ?? null,
        conversation_window: parts.window,
        key_quotes_top_k: policy.key_quotes,
        cue_matches_top_k: policy.query_quotes,
        // Further matches, placed only in budget the other sections left unused.
        cue_matches_spare_top_k: cuePool(policy) - policy.query_quotes,
        tool_evidence_top_k: INJECTION[request.purpose].last_tool_evidence ? policy.tool_evidence : 0,
        facts_top_k: policy.facts,
        procedures_top_k: INJECTION[request.purpose].procedures ? policy.procedures : 0,
        episodes_top_k: policy.episodes,
        insights_top_k: policy.insights,
        insight_states:
          INJECTION[request.purpose].insights === 'any'
            ? ['unvalidated', 'testing', 'validated']
            : parts.insight.usage_policy.allow_in_responder || request.purpose !== 'responder'
              ? ['validated']
              : [],
        item_status: ['active'],
        sensitivity_excluded: [...NEVER_SHARED],
        expired_excluded: true,
        section_budgets: record.section_budgets,
        retrieval: parts.retrieval,
      },
      conflicts: parts.longTerm.conflicts,
      determinism: {
        policy_id: meta.policy_id,
        tokenizer: parts.tokenizer,
        as_of: generatedAt,
        sort_keys: {
          key_quotes: ['cue rank', 'event id', 'sentence position'],
          conversation_window: ['event id'],
          rolling_summary: ['score desc', 'event id desc', 'then shown in log order'],
        },
      },
    },
  };
}
