// The retrieval signals of a stored build run again as of its time: the passages of the user's
// history (words, meaning, time, fused) and the long-term items (full text, vector, fused), both as
// deep as an explanation looks and exactly as compose read them, so a rank shown is the one it saw.

import type { ComposeRequest } from '../spec/requests.js';
import type { ContextBuild, EventSearchQuery } from '../spec/storage.js';
import { NEVER_SHARED } from '../events/sensitivity.js';
import type { ReadPathContext } from '../composer/compose.js';
import { cueText, searchCues, type CueEmbedder } from '../composer/cue-search.js';
import { contextDepth, withAdjacentTurns } from '../composer/cue-passages.js';
import { FACT_SLACK } from '../composer/long-term-section.js';
import { hybridSearch, type SearchRequest } from '../retrieval/hybrid-search.js';
import { asksWhen, resolveTimeWindows } from '../util/time/time-expressions.js';
import { toIso } from '../util/clock.js';
import { searchTerms } from '../util/word-forms.js';
import { staleVectors } from './vector-models.js';

/** A signal's verdict on one record: whether compose used the signal, and the record's place in it. */
export interface SignalRank {
  /** Compose searched by this signal for the build. */
  used: boolean;
  /** Its 1-based place in the signal's ranking, searched `depth` deep; null when not found there. */
  rank: number | null;
}

/** What re-running a build's search says about one record. */
export interface SignalReport {
  /** Whether compose searched anything for the build's cues. */
  searched: boolean;
  signals: Record<string, SignalRank>;
  /** Its place in the fused ranking, `depth` deep. */
  fused_rank: number | null;
  /** Its place among what compose read (1-based), null when compose did not read it. */
  read_position: number | null;
  read_depth: number;
  notes: string[];
}

/** A number of explain.filters, 0 when a build recorded before it existed lacks it. */
function filterCount(build: ContextBuild, name: string): number {
  const value = build.packet.explain.filters[name];
  return typeof value === 'number' ? value : 0;
}

function storedRequest(build: ContextBuild): ComposeRequest {
  return build.request as unknown as ComposeRequest;
}

/** How meaning was searched for the build (explain.filters.retrieval), and the model it used. */
function recordedMeaning(build: ContextBuild): { used: boolean; model: string | null } {
  const retrieval = build.packet.explain.filters['retrieval'];
  if (typeof retrieval !== 'object' || retrieval === null) return { used: false, model: null };
  const { meaning, embedding_model: model } = retrieval as Record<string, unknown>;
  return { used: meaning === 'used', model: typeof model === 'string' ? model : null };
}

/** The model that embeds the build's query now, when the build searched by meaning and one is configured. */
function meaningModel(context: ReadPathContext, build: ContextBuild, notes: string[]): CueEmbedder | undefined {
  const recorded = recordedMeaning(build);
  if (!recorded.used) return undefined;
  const embedder = context.embedder;
  if (embedder === undefined)
    notes.push(
      'the build searched by meaning, but no embedding model is configured now: meaning ranks and the fused ranking leave it out',
    );
  else if (recorded.model !== null && recorded.model !== embedder.model)
    notes.push(
      `the build searched by meaning with ${recorded.model}; the model now is ${embedder.model}: meaning ranks may differ`,
    );
  return embedder;
}

/** The filters of the build's cue search: its user and agent, its time, its cues' time range, no secrets. */
function passageFilters(build: ContextBuild, request: ComposeRequest) {
  const range = request.cues?.time_range;
  return {
    tenant_id: build.tenant_id,
    user_id: build.user_id,
    agent_id: build.agent_id,
    now: build.as_of,
    as_of: build.as_of,
    ts_from: range?.start === undefined ? undefined : toIso(range.start, 'cues.time_range.start'),
    ts_to: range?.end === undefined ? undefined : toIso(range.end, 'cues.time_range.end'),
    exclude_sensitivity: [...NEVER_SHARED],
  };
}

/**
 * The passages compose read for a build and each signal's ranking, as of its time, for one event.
 *
 * @example
 * const report = await passageSignals(context, build, 'evt_01J…', 200);
 */
export async function passageSignals(
  context: ReadPathContext,
  build: ContextBuild,
  eventId: string,
  depth: number,
): Promise<SignalReport> {
  const request = storedRequest(build);
  const { storage } = context;
  const asOf = build.as_of;
  const text = cueText(request.cues);
  const terms = searchTerms(text);
  const filters = passageFilters(build, request);
  const anchors = filterCount(build, 'cue_matches_top_k');
  const readDepth = anchors + filterCount(build, 'cue_matches_spare_top_k');
  const notes: string[] = [];
  const searched = anchors > 0 && text !== '';
  if (!searched)
    return {
      searched,
      signals: idleSignals(['words', 'meaning', 'time']),
      fused_rank: null,
      read_position: null,
      read_depth: readDepth,
      notes,
    };
  const embedder = meaningModel(context, build, notes);
  const reference = request.reference_time === undefined ? asOf : toIso(request.reference_time, 'reference_time');
  const windows = resolveTimeWindows(text, reference);
  const cueRequest = (limit: number) => ({ base: { ...filters, terms, limit }, text, windows, embeddedBefore: asOf });
  const [read, deep, words, meaning] = await Promise.all([
    searchCues(storage, embedder, cueRequest(readDepth)),
    searchCues(storage, embedder, cueRequest(depth)),
    terms.length > 0 ? storage.events.search({ ...filters, terms, limit: depth }) : Promise.resolve([]),
    meaningRanking(context, embedder, { ...filters, limit: depth }, text, asOf),
  ]);
  if (embedder !== undefined && read.report.meaning !== 'used')
    notes.push(
      'the embedding model was too busy to embed the query now: meaning ranks and the fused ranking leave it out',
    );
  if (read.report.unembedded_candidates > 0) {
    notes.push(
      `${read.report.unembedded_candidates} of the passages words found have no vector yet: meaning cannot find them until the worker embeds them`,
    );
  }
  if (embedder !== undefined) {
    const stale = staleVectors({
      configured: embedder.model,
      models: await storage.service.vectorModels(build.tenant_id),
    });
    if (stale !== null) notes.push(stale);
  }
  const passages = await withAdjacentTurns(storage, read.hits, filters, contextDepth(anchors, readDepth), readDepth, {
    terms,
    subject: read.report.subject,
    asksWhen: asksWhen(text),
  });
  const fused = deep.hits.findIndex((hit) => hit.event.id === eventId);
  const found = fused < 0 ? undefined : deep.hits[fused]!;
  // The best passage of a named time is read past its rank, in the list's last place: that place is not its rank.
  const kept = found?.keptForTime === true;
  if (kept)
    notes.push(
      `its fused score ranks it past the first ${deep.hits.length}; compose reads it as the best passage of the time the question names (time #1)`,
    );
  const position = passages.findIndex((passage) => passage.event.id === eventId);
  const rankIn = (ids: readonly string[]) => (ids.includes(eventId) ? ids.indexOf(eventId) + 1 : null);
  return {
    searched,
    signals: {
      words: { used: terms.length > 0, rank: rankIn(words.map((hit) => hit.event.id)) },
      meaning: { used: recordedMeaning(build).used, rank: rankIn(meaning) },
      // Time ranks come from the fused ranking: a passage past its depth shows none.
      time: { used: deep.report.time_windows.length > 0, rank: found?.signals.time ?? null },
    },
    fused_rank: found === undefined || kept ? null : fused + 1,
    read_position: position < 0 ? null : position + 1,
    read_depth: readDepth,
    notes,
  };
}

/** The events nearest the query's vector, as the cue search compares them (vectors stored before the build). */
async function meaningRanking(
  context: ReadPathContext,
  embedder: CueEmbedder | undefined,
  filters: Omit<EventSearchQuery, 'terms'>,
  text: string,
  asOf: string,
): Promise<string[]> {
  if (embedder === undefined) return [];
  const vector = await embedder.embed(text);
  if (vector === null) return [];
  const hits = await context.storage.events.nearest({
    ...filters,
    vector,
    model: embedder.model,
    embedded_before: asOf,
  });
  return hits.map((hit) => hit.event.id);
}

function idleSignals(names: readonly string[]): Record<string, SignalRank> {
  return Object.fromEntries(names.map((name) => [name, { used: false, rank: null }]));
}

/**
 * The items compose read for a build's cues (hybrid search as of its time) and each signal's
 * ranking, for one item version.
 *
 * @example
 * const report = await itemSignals(context, build, 'mem_01J…', 200);
 */
export async function itemSignals(
  context: ReadPathContext,
  build: ContextBuild,
  itemId: string,
  depth: number,
): Promise<SignalReport> {
  const cues = storedRequest(build).cues ?? {};
  // Items match the tags too (gatherLongTerm).
  const query = cueText(cues, { withTags: true });
  const readDepth = filterCount(build, 'facts_top_k');
  const notes: string[] = [];
  if (query === '')
    return {
      searched: false,
      signals: idleSignals(['full_text', 'vector']),
      fused_rank: null,
      read_position: null,
      read_depth: readDepth,
      notes,
    };
  const scope = { tenant_id: build.tenant_id, user_id: build.user_id, agent_id: build.agent_id };
  const embedder = context.embedder;
  // As compose searched them: by words and by meaning, comparing the vectors stored before the build.
  const search = (k: number, candidates: number): SearchRequest => ({
    scope,
    query,
    k,
    candidates,
    active_at: build.as_of,
    vectors_before: build.as_of,
    ...(embedder === undefined ? {} : { vector_model: embedder.model }),
  });
  const [read, deep] = await Promise.all([
    hybridSearch(context.storage, embedder?.embed, search(readDepth, readDepth + FACT_SLACK)),
    hybridSearch(context.storage, embedder?.embed, search(depth, depth)),
  ]);
  const fused = deep.findIndex((hit) => hit.item.id === itemId);
  const position = read.findIndex((hit) => hit.item.id === itemId);
  const vector = fused < 0 ? null : deep[fused]!.signals.vector;
  return {
    searched: true,
    signals: {
      full_text: { used: true, rank: fused < 0 ? null : (deep[fused]!.signals.full_text?.rank ?? null) },
      vector: { used: embedder !== undefined, rank: vector?.rank ?? null },
    },
    fused_rank: fused < 0 ? null : fused + 1,
    read_position: position < 0 ? null : position + 1,
    read_depth: readDepth,
    notes,
  };
}
