// The read path (DESIGN §4): gather what the scope holds, fill each section within its budget under
// the purpose's injection rules, explain every choice, and validate the packet against
// MemoryPacket v1 when asked.

import type { EventRecord } from '../spec/event.js';
import type { BudgetSection, Citation, MemoryPacket, PacketMeta } from '../spec/packet.js';
import type { ComposeRequest } from '../spec/requests.js';
import { resolveScope, sessionKeyOf, type Scope } from '../spec/scope.js';
import type { EventQuery, StorageAdapter } from '../spec/storage.js';
import { ValidationError } from '../spec/errors.js';
import type { Tokenizer } from '../spec/tokenizer.js';
import { assertPacket, validateComposeRequest } from '../spec/validators.js';
import { emptyWorkingState, type WorkingState } from '../spec/working-state.js';
import { NEVER_SHARED } from '../events/sensitivity.js';
import { toIso, type Clock } from '../util/clock.js';
import { newId, sha256 } from '../util/ids.js';
import { queryTerms } from '../util/segment.js';
import { contentTerms } from '../util/stopwords.js';
import { PacketBuilder, promptTokenizer } from './packet-builder.js';
import {
  DEFAULT_POLICY_ID,
  DEFAULTS,
  INJECTION,
  lendIdleSections,
  resolvePolicy,
  type PurposePolicy,
} from './policy.js';
import { applyOverrides, type NamedPolicy } from './named-policies.js';
import { fillSummarySection } from './summary-section.js';
import { withAdjacentTurns, type CuePassage } from './cue-passages.js';
import { cueText, searchCues, type CueEmbedder, type CueSearchReport } from './cue-search.js';
import { resolveTimeWindows } from '../util/time/time-expressions.js';
import { assertBuildBound } from './build-bound.js';
import { summaryAsOf, workingStateAsOf } from '../working-memory/as-of.js';
import { fillInsights, gatherInsights } from './insight-section.js';
import { gatherSnapshot, withSnapshotQuestions } from './snapshot-section.js';
import { fillLongTerm, gatherDisputes, gatherLongTerm } from './long-term-section.js';
import { citationOf, fillWorkingState } from './working-state-section.js';

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
  return contentTerms(queryTerms(cueText(request.cues)));
}

function windowSize(request: ComposeRequest, policy: PurposePolicy): number {
  if (request.conversation_window !== undefined) return request.conversation_window;
  return INJECTION[request.purpose].conversation_window_by_default ? policy.conversation_window : 0;
}

interface Gathered {
  state: WorkingState;
  summary: Awaited<ReturnType<StorageAdapter['sessions']['getSummary']>>;
  windowEvents: EventRecord[];
  toolEvents: EventRecord[];
  cueHits: CuePassage[];
  retrieval: Omit<CueSearchReport, 'unembedded_candidates'> & { reference_time: string };
  evidence: Map<string, EventRecord>;
}

async function gather(
  context: ReadPathContext,
  request: ComposeRequest,
  scope: Scope,
  policy: PurposePolicy,
  now: string,
  asOf: string | undefined,
): Promise<Gathered> {
  const { storage } = context;
  const key = sessionKeyOf(scope);
  const base = { ...key, now, as_of: asOf, exclude_sensitivity: [...NEVER_SHARED] };
  const window = windowSize(request, policy);
  const terms = cueTermsOf(request);
  const text = cueText(request.cues);
  const range = request.cues?.time_range;
  const tsFrom = range?.start === undefined ? undefined : toIso(range.start, 'cues.time_range.start');
  const tsTo = range?.end === undefined ? undefined : toIso(range.end, 'cues.time_range.end');
  // Relative times in the query ("four weeks ago") are read against when the question is asked.
  const reference = request.reference_time === undefined ? now : toIso(request.reference_time, 'reference_time');
  const filters = {
    tenant_id: scope.tenant_id,
    user_id: scope.user_id,
    agent_id: scope.agent_id,
    now,
    as_of: asOf,
    ts_from: tsFrom,
    ts_to: tsTo,
    exclude_sensitivity: [...NEVER_SHARED],
  };
  const searched = policy.query_quotes > 0 && text !== '';
  const [state, summary, windowEvents, toolEvents, cues] = await Promise.all([
    asOf === undefined ? storage.sessions.getWorkingState(key) : workingStateAsOf(storage, key, asOf),
    asOf === undefined ? storage.sessions.getSummary(key) : summaryAsOf(storage, key, asOf, context.tokenizer),
    window > 0 ? recentMessages(storage, base, window) : Promise.resolve([]),
    policy.tool_evidence > 0
      ? storage.events.list({ ...base, kinds: ['tool_result'], order: 'desc', limit: policy.tool_evidence })
      : Promise.resolve([]),
    searched
      ? searchCues(storage, context.embedder, {
          base: { ...filters, terms, limit: cuePool(policy) },
          text,
          windows: resolveTimeWindows(text, reference),
          embeddedBefore: now,
        })
      : Promise.resolve({ hits: [], report: idleReport(context.embedder) }),
  ]);
  const currentState = state ?? emptyWorkingState();
  const evidence = new Map<string, EventRecord>();
  const wanted = [...currentState.decisions, ...currentState.open_loops]
    .map((entry) => entry.evidence_id)
    .filter((id): id is string => typeof id === 'string' && id.startsWith('evt_'));
  const found = await Promise.all([...new Set(wanted)].map((id) => storage.events.get(scope.tenant_id, id, now)));
  for (const event of found)
    if (event !== null && !NEVER_SHARED.includes(event.sensitivity)) evidence.set(event.id, event);
  return {
    state: currentState,
    summary,
    windowEvents,
    toolEvents,
    cueHits: await withAdjacentTurns(storage, cues.hits, filters, policy.query_quotes, cuePool(policy), {
      terms,
      subject: cues.report.subject,
    }),
    // How many word matches had no vector yet depends on when it is asked, not on the packet's time:
    // explainBuild reports it; the packet keeps what a replay gives again.
    retrieval: { ...packetReport(cues.report), reference_time: reference },
    evidence,
  };
}

function packetReport({
  unembedded_candidates: _now,
  ...report
}: CueSearchReport): Omit<CueSearchReport, 'unembedded_candidates'> {
  return report;
}

/** How the search went when no passages were searched for (no cue text, or a purpose without passages). */
function idleReport(embedder: CueEmbedder | undefined): CueSearchReport {
  return {
    meaning: embedder === undefined ? 'no_model' : 'no_query',
    embedding_model: embedder?.model ?? null,
    unembedded_candidates: 0,
    time_windows: [],
    subject: null,
  };
}

/** Events read beyond the window's size at first, for system messages the window leaves out. */
const WINDOW_MARGIN = 2;

/**
 * The newest `window` messages and tool results of the session, newest first, without system
 * messages: a page of the window and a small margin, then further pages only while system
 * messages took places.
 */
async function recentMessages(
  storage: StorageAdapter,
  base: Omit<EventQuery, 'limit'>,
  window: number,
): Promise<EventRecord[]> {
  const out: EventRecord[] = [];
  let cursor: string | undefined;
  while (out.length < window) {
    const limit = window - out.length + WINDOW_MARGIN;
    const page = await storage.events.list({
      ...base,
      kinds: ['message', 'tool_result'],
      order: 'desc',
      limit,
      ...(cursor === undefined ? {} : { cursor }),
    });
    for (const event of page) if (event.role !== 'system' && out.length < window) out.push(event);
    if (page.length < limit) break;
    cursor = page[page.length - 1]!.id;
  }
  return out;
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
  const [gathered, longTerm, insights, disputes, snapshot] = await Promise.all([
    gather(context, request, scope, policy, generatedAt, asOf),
    gatherLongTerm(context.storage, scope, request, policy, generatedAt, asOf, context.embedder),
    gatherInsights(context.storage, scope, policy, generatedAt),
    gatherDisputes(context.storage, scope, generatedAt),
    gatherSnapshot(context.storage, scope, generatedAt),
  ]);
  const active = new Set<BudgetSection>(['working_state', 'short_term_summary']);
  if (longTerm.facts.length > 0) active.add('facts');
  if (longTerm.procedures.length > 0 && INJECTION[request.purpose].procedures) active.add('procedures');
  if (longTerm.episodes.length > 0) active.add('episodes');
  if (insights.length > 0) active.add('insights');
  const sectionBudgets = lendIdleSections(policy.budget.per_section, active);
  // Costs are counted as the prompt shows them, in either rendering.
  const tokenizer = promptTokenizer(context.tokenizer);
  const builder = new PacketBuilder(tokenizer, policy.budget.max_tokens, sectionBudgets, {
    purpose: request.purpose,
    generatedAt,
    tokenizer: context.tokenizer,
  });

  const lookup = (evidenceId: string | undefined): Citation[] => {
    if (evidenceId === undefined) return [];
    const event = gathered.evidence.get(evidenceId);
    return event === undefined ? [{ id: evidenceId, type: 'reference' }] : [citationOf(event)];
  };
  const state = { ...gathered.state, open_loops: withSnapshotQuestions(gathered.state.open_loops, snapshot) };
  const workingState = fillWorkingState(
    builder,
    state,
    request.purpose,
    policy,
    gathered.toolEvents,
    lookup,
    tokenizer,
  );
  const window = windowSize(request, policy);
  if (window === 0 && request.purpose === 'responder') {
    builder.omit(
      'conversation_window',
      'not_allowed_for_purpose',
      'short_term_summary',
      'responder packets carry summary and quotes, not the window, unless asked (spec §9)',
    );
  }
  if (!INJECTION[request.purpose].procedures) {
    for (const item of longTerm.procedures)
      builder.omit(
        `procedures:${item.id}`,
        'not_allowed_for_purpose',
        'procedures',
        `${request.purpose} packets carry no procedures (spec §9)`,
      );
  }
  const filled = fillLongTerm(
    builder,
    { ...longTerm, disputes },
    { purpose: request.purpose, now: generatedAt, tokenizer, cueTerms: cueTermsOf(request) },
  );
  const insight = fillInsights(builder, insights, request.purpose, policy, generatedAt, tokenizer);
  // The summary section comes last: passages matching the cues may use what the others left.
  const summary = fillSummarySection(
    builder,
    {
      summary: gathered.summary,
      cueHits: gathered.cueHits,
      cueTerms: cueTermsOf(request),
      purpose: request.purpose,
      windowEvents: gathered.windowEvents,
      now: generatedAt,
      snapshot,
    },
    policy,
    tokenizer,
  );

  const buildId = options.buildId ?? newId('ctx');
  const packet = assemble({
    request,
    scope,
    policy,
    generatedAt,
    window,
    sectionBudgets: builder.sectionBudgets(),
    builder,
    workingState,
    summary,
    longTerm: filled,
    insight,
    tokenizer: context.tokenizer.name,
    retrieval: gathered.retrieval,
  });
  const { hash, json } = sealPacket(packet, buildId);
  if (context.validatePackets) assertPacket(packet);
  if (options.persist !== false) {
    // The resolved policy travels with the request, so a replay uses exactly the same one.
    const storedRequest = { ...request, resolved_policy: policy } as unknown as Record<string, unknown>;
    assertBuildBound(json, storedRequest);
    await context.storage.write([
      {
        op: 'put_context_build',
        packet_json: json,
        build: {
          id: buildId,
          tenant_id: scope.tenant_id,
          user_id: scope.user_id,
          agent_id: scope.agent_id,
          session_id: scope.session_id,
          run_id: scope.run_id,
          purpose: request.purpose,
          request: storedRequest,
          as_of: generatedAt,
          selected: [
            ...new Set(builder.selected.flatMap((line) => line.match(/\b(?:evt|mem)_[0-9A-HJKMNP-TV-Z]{26}\b/g) ?? [])),
          ],
          packet_hash: hash,
          packet,
          created_at: now,
        },
      },
    ]);
  }
  return packet;
}

/** Budget tokens per spare passage read: a further passage shows its best sentence, ~30 tokens with its line. */
const TOKENS_PER_SPARE = 30;

/**
 * How many cue matches compose reads: the policy's top passages, and its spare ones (about one per
 * 30 tokens of the budget at most), which fill what the other sections leave unused (a packet with
 * few facts holds more of the history, each further passage shown by its best-matching sentence).
 */
function cuePool(policy: PurposePolicy): number {
  return policy.query_quotes === 0
    ? 0
    : policy.query_quotes + Math.min(policy.spare_quotes, Math.ceil(policy.budget.max_tokens / TOKENS_PER_SPARE));
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
  sectionBudgets: Record<BudgetSection, number>;
  builder: PacketBuilder;
  workingState: ReturnType<typeof fillWorkingState>;
  summary: ReturnType<typeof fillSummarySection>;
  longTerm: ReturnType<typeof fillLongTerm>;
  insight: ReturnType<typeof fillInsights>;
  tokenizer: string;
  retrieval: Gathered['retrieval'];
}

/** The packet from the filled sections, with its budget report and explanation. */
function assemble(parts: Assembly): MemoryPacket {
  const { request, policy, builder, workingState, summary, generatedAt } = parts;
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
    citations: builder.citations(),
    budget_report: {
      max_tokens: policy.budget.max_tokens,
      used_tokens_est: builder.usedTokens,
      section_usage: builder.sectionUsage(),
      degradations: builder.degradations,
      omissions: builder.omissions,
    },
    explain: {
      selected: builder.selected,
      omitted: builder.omitted,
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
        section_budgets: parts.sectionBudgets,
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
