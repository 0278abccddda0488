// The long_term part of a packet (MemoryPacket v1 §4, DESIGN §1 "facts vs types"): the candidates it
// reads, and its facts from profile, preferences, goals, decisions, entities, events and open tasks
// (procedures and episodes have sections of their own). Facts come from the user's always-relevant
// memory plus what matches the cues; each is costed as the prompt shows it, degraded before omitted.

import type { EventRecord } from '../spec/event.js';
import type { MemoryItem, MemoryType } from '../spec/items.js';
import { ownerOf, visibleOwners } from '../spec/items.js';
import type { Citation, ExplainConflict, Fact, LongTerm, Purpose } from '../spec/packet.js';
import type { ComposeRequest } from '../spec/requests.js';
import type { Scope } from '../spec/scope.js';
import type { StorageAdapter } from '../spec/storage.js';
import { describeValue } from '../items/values.js';
import { hybridSearch } from '../retrieval/hybrid-search.js';
import { cueText, type CueEmbedder } from './cue-search.js';
import { activateEpisodes, episodeEntries, episodeReadLimit } from './episodes-section.js';
import { itemLine, itemText } from './item-text.js';
import type { Offer, Omitted, PacketBuilder } from './packet-builder.js';
import { INJECTION, type PurposePolicy } from './policy.js';
import { factForms } from './forms.js';
import { procedureEntries, procedureReadLimit, proceduresForTask } from './procedures-section.js';
import { factBlock, upcomingDay } from './render.js';

const FACT_TYPES: readonly MemoryType[] = [
  'profile',
  'preferences',
  'goals',
  'decisions',
  'entities',
  'events',
  'tasks',
];
const ALWAYS: readonly MemoryType[] = ['profile', 'preferences', 'goals', 'tasks'];
/**
 * What a responder always shows: who the user is and how they like answers, a few items. Its goals
 * and tasks compete with the passages of the history on relevance to the question (they come in
 * when the cues match them), instead of taking their allowance whatever is asked.
 */
const RESPONDER_ALWAYS: readonly MemoryType[] = ['profile', 'preferences'];
const RESPONDER_ALWAYS_LIMIT = 6;
/**
 * Who the user is: first among the always-shown items, however many newer profile items there are,
 * and a responder's first fact of all. Cue matches found by meaning alone are never few (the nearest
 * items are always some distance away), and in a long history they filled a responder's facts before
 * the profile came: the memory corpus in a haystack of other chats (BENCHMARKS.md), questions whose
 * answer the packet shows at 500 / 1,000 / 2,000 tokens 0.588 / 0.781 / 0.914 → 0.652 / 0.811 /
 * 0.936 (English) and 0.372 / 0.564 / 0.787 → 0.489 / 0.681 / 0.777 (Chinese); "Which city do I live
 * in?" lost `location` to dated events that share "live". The profile shows the facts the question asks about first when it does not fit whole.
 */
const OWN_PROFILE = 'profile:user';
/** What can be still to come: dated events, and tasks and goals with a due date. */
const UPCOMING_TYPES: readonly MemoryType[] = ['events', 'tasks', 'goals'];
/** Items read to find what is upcoming, newest first: plans are told some time before they happen. */
const UPCOMING_READ_LIMIT = 200;
/** Items read beyond the facts a packet can place, for open tasks that turn out done and keys held at two levels. */
export const FACT_SLACK = 10;

export interface LongTermCandidates {
  /** Items with the rule that chose each, in priority order. */
  facts: Array<{ item: MemoryItem; rule: string }>;
  procedures: MemoryItem[];
  episodes: Array<{ item: MemoryItem; rule: string }>;
  /** The citations of each candidate (by item id): its source events that were read. */
  citations: ReadonlyMap<string, Citation[]>;
}

/** A contradiction under review at the packet's time: its items are shown as disputed. */
export interface Dispute {
  candidate_id: string;
  detail: string;
  item_ids: readonly string[];
}

/**
 * The contradictions of a user that were pending review at `at` (reflection opened them; a
 * decision settles them).
 *
 * @example
 * const disputes = await gatherDisputes(storage, scope, now);
 */
export async function gatherDisputes(storage: StorageAdapter, scope: Scope, at: string): Promise<Dispute[]> {
  const pending = await storage.reviews.listCandidates({
    tenant_id: scope.tenant_id,
    user_id: scope.user_id,
    kinds: ['contradiction'],
    pending_at: at,
    limit: 100,
  });
  return pending.map((candidate) => ({
    candidate_id: candidate.id,
    detail: String(candidate.payload['detail'] ?? 'disputed by reflection'),
    item_ids: candidate.item_ids,
  }));
}

function isCurrent(item: MemoryItem, now: string): boolean {
  return item.valid_to === null || item.valid_to > now;
}

/**
 * The items a packet may use: the always-relevant ones (profile, preferences, goals, open tasks),
 * the ones matching the cues, the procedures of the task type and the episodes the cues activate.
 *
 * @example
 * const candidates = await gatherLongTerm(storage, scope, request, policy, now);
 */
export async function gatherLongTerm(
  storage: StorageAdapter,
  scope: Scope,
  request: ComposeRequest,
  policy: PurposePolicy,
  now: string,
  asOf: string | undefined,
  embedder?: CueEmbedder,
): Promise<LongTermCandidates> {
  const owners = visibleOwners(scope.user_id, scope.agent_id);
  // As of a past time, the versions current then; otherwise the active ones.
  const base = {
    tenant_id: scope.tenant_id,
    owners,
    ...(asOf === undefined ? { statuses: ['active' as const] } : { active_at: asOf }),
  };
  const matched = await matchCues(storage, scope, request, policy, now, asOf, embedder);
  // Cue matches come first; the always-relevant items fill what they leave.
  const responder = request.purpose === 'responder';
  const open = Math.max(0, policy.facts - matched.filter((hit) => FACT_TYPES.includes(hit.item.type)).length);
  const alwaysLimit = responder ? Math.min(open, RESPONDER_ALWAYS_LIMIT) : open;
  const [ownProfile, always, procedures, recentEpisodes, dated] = await Promise.all([
    alwaysLimit === 0 && !responder
      ? Promise.resolve([])
      : storage.items.list({ ...base, keys: [OWN_PROFILE], order: 'desc', limit: FACT_SLACK }),
    // Newest first, and only as many as the policy can place (with room for versions and done tasks).
    alwaysLimit === 0
      ? Promise.resolve([])
      : storage.items.list({
          ...base,
          types: responder ? RESPONDER_ALWAYS : ALWAYS,
          order: 'desc',
          limit: alwaysLimit + FACT_SLACK,
        }),
    INJECTION[request.purpose].procedures
      ? storage.items.list({
          ...base,
          types: ['procedure', 'patterns'],
          order: 'desc',
          limit: procedureReadLimit(policy),
        })
      : Promise.resolve([]),
    storage.items.list({ ...base, types: ['events', 'cases'], order: 'desc', limit: episodeReadLimit(policy) }),
    policy.upcoming === 0
      ? Promise.resolve([])
      : storage.items.list({ ...base, types: UPCOMING_TYPES, order: 'desc', limit: UPCOMING_READ_LIMIT }),
  ]);
  const facts = orderFacts(
    matched.map((hit) => hit.item),
    [...ownProfile, ...always],
    upcomingItems(dated, now, policy.upcoming),
    { responder, alwaysLimit, limit: policy.facts },
  );

  const forTask = proceduresForTask(procedures, request.task_type ?? 'generic');
  const episodes = activateEpisodes(
    recentEpisodes,
    matched.map((hit) => hit.item),
    request,
    policy.episodes,
    now,
  );
  const cited = [...facts.map((entry) => entry.item), ...forTask, ...episodes.map((entry) => entry.item)];
  return { facts, procedures: forTask, episodes, citations: await readCitations(storage, scope.tenant_id, cited, now) };
}

/** The items matching the cues (their text and tags), by words and meaning; none without cues. */
async function matchCues(
  storage: StorageAdapter,
  scope: Scope,
  request: ComposeRequest,
  policy: PurposePolicy,
  now: string,
  asOf: string | undefined,
  embedder: CueEmbedder | undefined,
) {
  const cues = request.cues ?? {};
  const text = cueText(cues, { withTags: true });
  return text === ''
    ? []
    : await hybridSearch(storage, embedder?.embed, {
        scope,
        query: text,
        k: policy.facts,
        candidates: policy.facts + FACT_SLACK,
        ...(asOf === undefined ? {} : { active_at: asOf }),
        // Vectors stored before the packet's time, of the model that embeds the query: a replay compares the same ones.
        vectors_before: now,
        ...(embedder === undefined ? {} : { vector_model: embedder.model }),
      });
}

/**
 * The citations of items, by item id: each of its source events read for the packet, by id, kind
 * and time (secret events are never read, and a source not read is not cited).
 */
async function readCitations(
  storage: StorageAdapter,
  tenantId: string,
  items: readonly MemoryItem[],
  now: string,
): Promise<Map<string, Citation[]>> {
  const ids = [...new Set(items.flatMap((item) => item.source_event_ids))];
  const events =
    ids.length === 0
      ? []
      : await storage.events.list({
          tenant_id: tenantId,
          ids,
          now,
          limit: ids.length,
          exclude_sensitivity: ['secret'],
        });
  const sources = new Map<string, EventRecord>(events.map((event) => [event.id, event]));
  return new Map(
    items.map((item) => [
      item.id,
      item.source_event_ids.flatMap((id) => {
        const event = sources.get(id);
        return event === undefined ? [] : [{ id, type: event.kind, ts: event.ts }];
      }),
    ]),
  );
}

/**
 * The facts a packet offers, in order, each with the rule that chose it: for a responder the user's
 * own profile, matched or not; the cue matches; then what
 * is still to come (whatever the query) before the always-relevant items for a planner or tool, after
 * them for a responder (which shows them when its budget has room); done tasks the query did not match
 * and non-fact types left out, each version once.
 */
function orderFacts(
  matched: readonly MemoryItem[],
  always: readonly MemoryItem[],
  upcoming: ReadonlyArray<{ item: MemoryItem; day: string }>,
  options: { responder: boolean; alwaysLimit: number; limit: number },
): LongTermCandidates['facts'] {
  const facts: LongTermCandidates['facts'] = [];
  const seen = new Set<string>();
  const add = (item: MemoryItem, rule: string, matchedByCue = false) => {
    if (seen.has(item.id) || !FACT_TYPES.includes(item.type)) return;
    // A done task is history, not something to act on: shown only when the query asks about it.
    if (!matchedByCue && item.type === 'tasks' && item.value['status'] === 'done') return;
    seen.add(item.id);
    facts.push({ item, rule });
  };
  const addUpcoming = () => {
    for (const { item, day } of upcoming) add(item, `ltm.upcoming(${day})`);
  };
  if (options.responder) {
    const rank = matched.findIndex((item) => item.key === OWN_PROFILE);
    const own = rank >= 0 ? matched[rank] : always.find((item) => item.key === OWN_PROFILE);
    if (own !== undefined)
      add(own, rank >= 0 ? `cue.hybrid_search(rank ${rank + 1})` : 'ltm.always(profile)', rank >= 0);
  }
  matched.forEach((item, index) => add(item, `cue.hybrid_search(rank ${index + 1})`, true));
  if (!options.responder) addUpcoming();
  const alwaysFrom = facts.length;
  for (const item of always) if (facts.length - alwaysFrom < options.alwaysLimit) add(item, `ltm.always(${item.type})`);
  if (options.responder) addUpcoming();
  return facts.slice(0, options.limit + (options.responder ? upcoming.length : 0));
}

/** The `limit` soonest items still to come at `now` (one version per key), soonest first. */
function upcomingItems(
  items: readonly MemoryItem[],
  now: string,
  limit: number,
): Array<{ item: MemoryItem; day: string }> {
  const byKey = new Map<string, { item: MemoryItem; day: string }>();
  for (const item of items) {
    const day = upcomingDay(item.key, item.value, now);
    const known = byKey.get(item.key);
    if (day !== undefined && (known === undefined || item.version > known.item.version))
      byKey.set(item.key, { item, day });
  }
  return [...byKey.values()]
    .sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : a.item.key < b.item.key ? -1 : 1))
    .slice(0, limit);
}

function factOf(item: MemoryItem, status: Fact['status']): Fact {
  return {
    fact_id: item.id,
    fact_key: item.key,
    value: item.value,
    status,
    validity: { valid_from: item.valid_from ?? item.recorded_at, valid_to: item.valid_to },
    confidence: item.confidence,
    sources: item.source_event_ids,
    scope_level: item.scope_level,
    notes: describeValue(item.type, item.value),
  };
}

/**
 * Fills facts, preferences, procedures and episodes within their budgets.
 *
 * @example
 * const { long_term, conflicts } = fillLongTerm(builder, candidates, { purpose: 'responder', now, cueTerms: ['dog'] });
 */
export function fillLongTerm(
  builder: PacketBuilder,
  candidates: LongTermCandidates & { disputes?: readonly Dispute[] },
  options: { purpose: Purpose; now: string; cueTerms: readonly string[] },
): { long_term: LongTerm; conflicts: ExplainConflict[] } {
  const { purpose, now } = options;
  const tokenizer = builder.costs.tokenizer;
  const cites = (item: MemoryItem) => candidates.citations.get(item.id) ?? [];
  const conflicts: ExplainConflict[] = [];
  const { chosen, omitted } = chooseFacts(candidates.facts, now, conflicts);
  const disputed = new Set<string>();
  for (const dispute of candidates.disputes ?? []) {
    const shown = dispute.item_ids.filter((id) => chosen.some((entry) => entry.item.id === id));
    if (shown.length === 0) continue;
    for (const id of shown) disputed.add(id);
    conflicts.push({
      type: 'disputed_fact',
      detail: `${dispute.detail} (review ${dispute.candidate_id})`,
      fact_ids: [...dispute.item_ids],
    });
  }
  for (const entry of chosen) if (disputed.has(entry.item.id)) entry.status = 'disputed';
  const offers = chosen.map(({ item, status, rule }): Offer<Fact> => {
    const fact = factOf(item, status);
    const notes = fact.notes ?? '';
    return {
      ref: { part: 'facts', id: item.id },
      section: 'facts',
      // Preferences and what is still to come render under headings of their own.
      block: factBlock(fact, now),
      rule,
      forms: factForms(item, fact, { ...options, tokenizer }),
      text: itemText.fact,
      whole: { record: item, line: (value) => (value.notes === notes ? itemLine.fact(value) : undefined) },
      cites: cites(item),
      smallestLast: true,
    };
  });
  const facts = placed(builder.place<Fact>([...omitted, ...offers]));
  const procedures = placed(builder.place(procedureEntries(candidates.procedures, cites, purpose)));
  const placedAsFacts = new Set(facts.map((fact) => fact.fact_id));
  const episodes = placed(builder.place(episodeEntries(candidates.episodes, cites, { now, tokenizer, placedAsFacts })));
  const preferences = facts.filter((fact) => fact.fact_key.startsWith('pref:'));
  return { long_term: { facts, preferences, procedures, episodes }, conflicts };
}

/** The values of the forms placed, in order. */
function placed<T>(forms: ReadonlyArray<{ value: T } | undefined>): T[] {
  return forms.flatMap((form) => (form === undefined ? [] : [form.value]));
}

/**
 * One fact per owner and key (the newest, or most confident, version); keys that disagree across
 * owners are disputed. Expired items and older versions are left out.
 */
function chooseFacts(entries: LongTermCandidates['facts'], now: string, conflicts: ExplainConflict[]) {
  const omitted: Omitted[] = [];
  const omit = (item: MemoryItem, reason: Omitted['reason'], detail: string) =>
    omitted.push({ omit: { part: 'facts', id: item.id }, reason, section: 'facts', detail });
  const byKey = new Map<string, Array<{ item: MemoryItem; rule: string }>>();
  for (const entry of entries) {
    if (!isCurrent(entry.item, now)) {
      omit(entry.item, 'expired', `valid until ${entry.item.valid_to}`);
      continue;
    }
    byKey.set(entry.item.key, [...(byKey.get(entry.item.key) ?? []), entry]);
  }
  const chosen: Array<{ item: MemoryItem; rule: string; status: Fact['status'] }> = [];
  for (const [key, group] of byKey) {
    const perOwner = new Map<string, { item: MemoryItem; rule: string }>();
    for (const entry of group) {
      const owner = ownerOf(entry.item.scope_level, entry.item.user_id, entry.item.agent_id);
      const best = perOwner.get(owner);
      if (best === undefined || entry.item.version > best.item.version) {
        if (best !== undefined) omit(best.item, 'duplicate', `an older version of ${key}`);
        perOwner.set(owner, entry);
      } else omit(entry.item, 'duplicate', `an older version of ${key}`);
    }
    const winners = [...perOwner.values()];
    const disputed = winners.length > 1 && new Set(winners.map((entry) => JSON.stringify(entry.item.value))).size > 1;
    if (disputed) {
      conflicts.push({
        type: 'disputed_fact',
        detail: `${key} has different values at ${winners.map((entry) => entry.item.scope_level).join(' and ')} level`,
        fact_ids: winners.map((entry) => entry.item.id),
      });
    }
    for (const entry of winners) chosen.push({ ...entry, status: disputed ? 'disputed' : 'active' });
  }
  return { chosen, omitted };
}
