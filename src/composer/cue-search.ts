// The passages of the user's history that match a compose's cues, found three ways and fused: by
// words (BM25 over the full-text index), by meaning (the query's vector against the events' vectors)
// and by time (the events inside the windows the question names, "four weeks ago", "上周五"). Each
// hit keeps its rank in every signal, so a packet explains why a passage is there.

import type { EventRecord } from '../spec/event.js';
import type { ComposeCues } from '../spec/requests.js';
import type { EventSearchHit, EventSearchQuery, StorageAdapter } from '../spec/storage.js';
import { contentText } from '../events/content-text.js';
import { termKey } from '../util/bm25-stats.js';
import { queryTerms, words as wordsOf } from '../util/segment.js';
import { contentTerms } from '../util/stopwords.js';
import { resolveTimeWindows, type TimeWindow } from '../util/time/time-expressions.js';
import { otherForms } from '../util/word-forms.js';
import { bySubject, questionSubject, type CueSubject } from './question-subject.js';

/**
 * The text a compose matches against memory: the query plus keywords and entities; items also
 * match the tags (`withTags`). One source for compose and for explaining a build.
 *
 * @example
 * cueText({ query: 'launch date', keywords: ['Atlas'] }) // 'launch date Atlas'
 */
export function cueText(cues: ComposeCues | undefined, options: { withTags?: boolean } = {}): string {
  const parts = [
    cues?.query ?? '',
    ...(cues?.keywords ?? []),
    ...(cues?.entities ?? []),
    ...(options.withTags === true ? (cues?.tags ?? []) : []),
  ];
  return parts.join(' ').trim();
}

/** Embeds a query on the request path (interactive); null when the model is too busy (OVERLOADED). */
export type QueryVector = (text: string) => Promise<Float32Array | null>;

/** The model that embeds queries, and the name its vectors are stored under. */
export interface CueEmbedder {
  embed: QueryVector;
  model: string;
  /** How much of a text the model can read, 0–1 (`EmbeddingModel.coverage`); absent: all of it. */
  coverage?: (text: string) => number;
}

/** A passage's place in each signal (1-based), null where the signal did not find it. */
export interface CueSignals {
  words: number | null;
  meaning: number | null;
  time: number | null;
}

export interface FusedHit {
  event: EventRecord;
  score: number;
  signals: CueSignals;
  /** Why it was chosen, for explain: `cue.hybrid(words #2, meaning #1)`. */
  rule: string;
  /**
   * Set on the best passage of a time the cues name when its score ranked it past the limit: it is
   * read anyway, in the last place, so its place in the list is not its rank.
   */
  keptForTime?: true;
}

/** How the search went, for explain.filters.retrieval. */
export interface CueSearchReport {
  /** `used`, or why meaning was not searched: no model configured, no query text, or the model was busy. */
  meaning: 'used' | 'no_model' | 'no_query' | 'overloaded';
  embedding_model: string | null;
  /** Passages found by words whose event has no vector yet (as the store is now): found by words alone. */
  unembedded_candidates: number;
  time_windows: Array<Pick<TimeWindow, 'text' | 'start' | 'end'>>;
  /** Whose passages go first (`questionSubject`); null when the question names nobody or several. */
  subject: CueSubject | null;
  /** What meaning weighed against words (1) for this question (`meaningWeight`); 0 when not searched. */
  meaning_weight: number;
}

/**
 * Reciprocal rank fusion, each signal's term scaled by how strong the hit is against the best hit of
 * that signal (as item search does): weight × strength / (RRF_K + rank). Ranks alone would put a
 * match of one common word of five right behind a match of all five; the strength keeps them apart,
 * so a turn next to a strong match can still rank above a weak match. Meaning weighs less than words:
 * on LoCoMo the local model alone finds the evidence in its top ten for 0.30 of the questions (0.42
 * with its GloVe words) against 0.57–0.62 for words, and fused at equal weight it pulled words' best
 * hits down (0.551 against 0.615 at ten); at 0.4 it adds what words miss without that (with the words,
 * 0.6 cited less evidence at 256 tokens: 0.658 against 0.666). The time a question names weighs as much
 * as its words (BENCHMARKS.md, "Recall by meaning, words and time").
 */
const RRF_K = 60;
const WEIGHTS: Readonly<Record<keyof CueSignals, number>> = { words: 1, meaning: 0.4, time: 1 };
/**
 * What meaning gains, at most, when words find a question poorly (`meaningWeight`): 0.4 + 0.25 for
 * a question none of whose words the best word match holds. The memory corpus in a haystack of other
 * chats (BENCHMARKS.md), English answers shown at 500 / 1,000 / 2,000 tokens 0.652 / 0.811 / 0.936 →
 * 0.665 / 0.837 / 0.940, its held-out sets 0.573 / 0.743 / 0.893 → 0.570 / 0.762 / 0.893, Chinese
 * unchanged within one question; LoCoMo −0.002 to −0.004 (its questions share more words with their
 * turns). A gain of 0.6 did more on English (0.695 / 0.841 / 0.936) and cost LoCoMo 0.013.
 */
const MEANING_GAIN = 0.25;
/**
 * A passage by someone other than the question's subject ranks at this share of its score. On
 * LoCoMo, 96 % of the evidence of a question naming one of the two speakers is that speaker's own
 * turn (their name, in the other's turns, is mostly an address: "That's great, Caroline!"); on
 * long user–assistant chats 94 % of the evidence is the user's. At half, the subject's passages
 * go first and another speaker's strong match still beats the subject's weak one (LoCoMo: evidence
 * in the top ten 0.638 → 0.660; BENCHMARKS.md).
 */
export const OTHER_SPEAKER_WEIGHT = 0.5;
/** The best fused matches whose sessions count for `sessionFocus`, and how much the focus adds (up to ×2 for the session holding most of them). */
const FOCUS_HITS = 10;
const SESSION_WEIGHT = 1;

/** Most windows searched for one question (a question naming more is rare). */
const MAX_WINDOWS = 3;

/**
 * What happened in a window is often told after it ("I went to a convention last month", said in
 * April, answers "what did John do in March?"): the turns said up to a week after a window, or as
 * long after as the window is long (at most a month), count for it when they name a time inside it.
 * Of those, the best 200 by meaning (or words) are read for a time: what was told is often said in
 * passing ("yesterday I went bowling") and ranks low for the question's words, and the time grammar
 * skips text without a time word (most turns). LoCoMo, reading 200 instead of 20: temporal evidence
 * cited +0.006 / +0.009 / +0.009 / +0.009 at 256 / 500 / 1,000 / 2,000 tokens, adversarial
 * unchanged, ~0.3 ms more on a question naming a time (BENCHMARKS.md).
 */
const TOLD_AFTER_DAYS = { least: 7, most: 31 } as const;
const TOLD_AFTER_READ = 200;
const DAY_MS = 86_400_000;

export interface CueSearchRequest {
  /** The event filters and words of a full-text search; `limit` is how many passages are wanted. */
  base: EventSearchQuery;
  /** The text embedded for meaning (the query and cue words); empty: no meaning search. */
  text: string;
  windows: readonly TimeWindow[];
  /** Only vectors stored strictly before this time (the packet's time): a replay sees what its original saw. */
  embeddedBefore: string;
}

/**
 * The passages for the cues, best first, at most `base.limit`, with how the search went. The best
 * passage of a time the cues name (`time #1`) is always among them: when it ranks below the limit,
 * it takes the last place.
 *
 * @example
 * const { hits, report } = await searchCues(storage, embedder, { base, text: 'which doctors did I see?', windows: [], embeddedBefore: now });
 */
export async function searchCues(
  storage: StorageAdapter,
  embedder: CueEmbedder | undefined,
  request: CueSearchRequest,
): Promise<{ hits: FusedHit[]; report: CueSearchReport }> {
  const { base, text } = request;
  const windows = request.windows.slice(0, MAX_WINDOWS);
  const [words, vector] = await Promise.all([
    base.terms.length > 0 ? storage.events.search(base) : Promise.resolve([]),
    embedder === undefined || text.trim() === '' ? Promise.resolve(null) : embedder.embed(text),
  ]);
  const meaningState: CueSearchReport['meaning'] =
    embedder === undefined ? 'no_model' : text.trim() === '' ? 'no_query' : vector === null ? 'overloaded' : 'used';
  const { terms: _terms, ...filters } = base;
  const near = (extra: Partial<EventSearchQuery>) =>
    vector === null || embedder === undefined
      ? Promise.resolve([])
      : storage.events.nearest({
          ...filters,
          ...extra,
          vector,
          model: embedder.model,
          embedded_before: request.embeddedBefore,
        });
  // Within a window the best passages come first: by meaning when there is a vector, else by words.
  const ranked: RankedWithin = (bounds, limit = base.limit) =>
    bounds === null
      ? Promise.resolve([])
      : vector !== null
        ? near({ ...bounds, limit })
        : base.terms.length > 0
          ? storage.events.search({ ...base, ...bounds, limit })
          : Promise.resolve([]);
  const [meaning, ...timed] = await Promise.all([
    near({}),
    ...windows.map((window) => windowHits(base, window, ranked)),
  ]);
  const signals = { words, meaning: meaning!, time: interleave(timed) };
  const speakers = new Set(
    Object.values(signals).flatMap((list) =>
      list.flatMap((hit) => (hit.event.speaker === null ? [] : [hit.event.speaker])),
    ),
  );
  const subject = questionSubject(text === '' ? base.terms.join(' ') : text, speakers);
  const weight = meaningState === 'used' ? meaningWeight(text, words[0]?.event, embedder?.coverage?.(text) ?? 1) : 0;
  const hits = fuse(signals, base.limit, subject, weight);
  const report: CueSearchReport = {
    meaning: meaningState,
    embedding_model: embedder?.model ?? null,
    unembedded_candidates:
      meaningState === 'used' ? words.filter((hit) => hit.event.embedding_status !== 'done').length : 0,
    time_windows: windows.map(({ text: phrase, start, end }) => ({ text: phrase, start, end })),
    subject,
    meaning_weight: weight,
  };
  return { hits, report };
}

/**
 * What meaning weighs against words for a question: 0.4, and up to MEANING_GAIN more as the best
 * word match holds fewer of the question's content words (a word counts by any of its forms),
 * scaled by how much of the question the model reads (`coverage`, 0–1). A question whose words the
 * best match holds all of is found by words; one whose words match only in passing ("Which city do
 * I live in?" against "live a healthier life") is better found by meaning, as far as the model can
 * read it (the local models read no Chinese: their vector of a Chinese question tells little).
 *
 * @example
 * meaningWeight('Which city do I live in?', undefined, 1) // 0.65
 * meaningWeight('我住在哪个城市？', undefined, 0) // 0.4
 */
export function meaningWeight(text: string, best: EventRecord | undefined, coverage: number): number {
  const wanted = contentTerms(queryTerms(text));
  if (wanted.length === 0) return WEIGHTS.meaning;
  const held = new Set(best === undefined ? [] : wordsOf(contentText(best.content)).map(termKey));
  const found = wanted.filter((word) => [word, ...otherForms(word)].some((form) => held.has(termKey(form)))).length;
  return Math.round((WEIGHTS.meaning + MEANING_GAIN * coverage * (1 - found / wanted.length)) * 1000) / 1000;
}

/** The best passages between two times (both ends included), at most `limit`: none for null bounds. */
type RankedWithin = (bounds: { ts_from: string; ts_to: string } | null, limit?: number) => Promise<EventSearchHit[]>;

/**
 * A window's passages, best first: those said inside it, and of the best TOLD_AFTER_READ said in
 * the days after it (afterWindow), those that name a time inside it.
 */
async function windowHits(base: EventSearchQuery, window: TimeWindow, ranked: RankedWithin): Promise<EventSearchHit[]> {
  const told = afterWindow(window);
  const [said, toldAfter] = await Promise.all([
    ranked(narrowed(base, window)),
    ranked(told === null ? null : narrowed(base, told), TOLD_AFTER_READ),
  ]);
  const tellers = toldAfter.filter((hit) => tellsOf(hit.event, window));
  return tellers.length === 0 ? said : [...said, ...tellers].sort((a, b) => b.score - a.score);
}

/** A window's bounds within the request's own time range; null when they do not meet. */
function narrowed(base: EventSearchQuery, window: TimeWindow): { ts_from: string; ts_to: string } | null {
  const from = base.ts_from !== undefined && base.ts_from > window.start ? base.ts_from : window.start;
  const to = base.ts_to !== undefined && base.ts_to < window.end ? base.ts_to : window.end;
  return from <= to ? { ts_from: from, ts_to: to } : null;
}

/** The last instant a stored time can name (a UTC year 9999). */
const LATEST = Date.parse('9999-12-31T23:59:59.999Z');

/** The days after a window in which what happened in it is told (TOLD_AFTER_DAYS); null after year 9999. */
function afterWindow(window: TimeWindow): TimeWindow | null {
  const end = Date.parse(window.end);
  if (!(end < LATEST)) return null;
  const length = Math.ceil((end - Date.parse(window.start)) / DAY_MS);
  const days = Math.min(TOLD_AFTER_DAYS.most, Math.max(TOLD_AFTER_DAYS.least, length));
  const last = Math.min(LATEST, end + days * DAY_MS);
  return { ...window, start: new Date(end + 1).toISOString(), end: new Date(last).toISOString() };
}

/** Whether an event names a time, read from when it was said, inside a window. */
function tellsOf(event: EventRecord, window: TimeWindow): boolean {
  return resolveTimeWindows(contentText(event.content), event.ts).some(
    (named) => named.start <= window.end && named.end >= window.start,
  );
}

/** The windows' hits as one ranking: the first of each window, then the second of each, and so on. */
function interleave(lists: readonly EventSearchHit[][]): EventSearchHit[] {
  const out: EventSearchHit[] = [];
  const seen = new Set<string>();
  for (let index = 0; lists.some((list) => index < list.length); index += 1) {
    for (const list of lists) {
      const hit = list[index];
      if (hit !== undefined && !seen.has(hit.event.id)) {
        seen.add(hit.event.id);
        out.push(hit);
      }
    }
  }
  return out;
}

function fuse(
  signals: Record<keyof CueSignals, readonly EventSearchHit[]>,
  limit: number,
  subject: CueSubject | null,
  meaningWeight: number,
): FusedHit[] {
  const byId = new Map<string, FusedHit>();
  for (const signal of ['words', 'meaning', 'time'] as const) {
    const best = Math.max(0, ...signals[signal].map((hit) => hit.score));
    for (const [index, hit] of signals[signal].entries()) {
      let entry = byId.get(hit.event.id);
      if (entry === undefined) {
        entry = { event: hit.event, score: 0, signals: { words: null, meaning: null, time: null }, rule: '' };
        byId.set(hit.event.id, entry);
      }
      entry.signals[signal] = index + 1;
      const strength = best > 0 ? Math.max(0, hit.score / best) : 1;
      entry.score += ((signal === 'meaning' ? meaningWeight : WEIGHTS[signal]) * strength) / (RRF_K + index + 1);
    }
  }
  const fused = [...byId.values()];
  const others = new Set<FusedHit>();
  for (const entry of fused) {
    if (subject !== null && !bySubject(entry.event, subject)) {
      others.add(entry);
      entry.score *= OTHER_SPEAKER_WEIGHT;
    }
  }
  const focus = sessionFocus(fused.sort(byScore).slice(0, FOCUS_HITS));
  for (const entry of fused) {
    const factor = 1 + SESSION_WEIGHT * (focus.get(entry.event.session_id) ?? 0);
    entry.score = Math.round(entry.score * factor * 1e6) / 1e6;
    entry.rule = ruleOf(entry.signals, { notBy: others.has(entry) ? subject : null, session: factor });
  }
  const read = fused.sort(byScore).slice(0, limit);
  // The best passage of the time the cues name is always read (withAdjacentTurns puts it first),
  // however little else of the question it shares.
  const ofTime = fused.find((entry) => entry.signals.time === 1);
  return ofTime === undefined || read.includes(ofTime) || limit === 0
    ? read
    : [...read.slice(0, limit - 1), { ...ofTime, keptForTime: true }];
}

/** Best first; equal scores: the newer event first (ids are time-ordered). */
function byScore(a: FusedHit, b: FusedHit): number {
  return b.score - a.score || (a.event.id < b.event.id ? 1 : a.event.id > b.event.id ? -1 : 0);
}

/**
 * How much of the best matches each session holds, against the session that holds most (1 for
 * it, 0 for a session with none of them); nothing when they all lie in one session. A conversation keeps to its topic: the turns around a
 * question's best matches are more likely to hold its answer than an equally good match alone in a
 * session about something else (LoCoMo: evidence in the top ten 0.660 → 0.686; BENCHMARKS.md).
 */
function sessionFocus(best: readonly FusedHit[]): Map<string, number> {
  const totals = new Map<string, number>();
  for (const hit of best) totals.set(hit.event.session_id, (totals.get(hit.event.session_id) ?? 0) + hit.score);
  // Best matches all in one session say nothing about which conversation to prefer.
  if (totals.size < 2) return new Map();
  const top = Math.max(0, ...totals.values());
  return new Map([...totals].map(([session, total]) => [session, top > 0 ? total / top : 0]));
}

/**
 * The rule of a passage, naming each signal that found it and its rank there, and the subject it
 * is not by when that lowered it.
 *
 * @example
 * ruleOf({ words: 2, meaning: 1, time: null }) // 'cue.hybrid(words #2, meaning #1)'
 * ruleOf({ words: 4, meaning: null, time: null }, { notBy: { speaker: 'Caroline' }, session: 1.5 }) // 'cue.hybrid(words #4; not by Caroline ×0.5, session ×1.5)'
 */
export function ruleOf(signals: CueSignals, weights: { notBy?: CueSubject | null; session?: number } = {}): string {
  const parts = (['words', 'meaning', 'time'] as const).flatMap((signal) =>
    signals[signal] === null ? [] : [`${signal} #${signals[signal]}`],
  );
  const { notBy = null, session = 1 } = weights;
  const notes = [
    ...(notBy === null ? [] : [`not by ${'speaker' in notBy ? notBy.speaker : 'the user'} ×${OTHER_SPEAKER_WEIGHT}`]),
    ...(session > 1 ? [`session ×${Math.round(session * 100) / 100}`] : []),
  ];
  return `cue.hybrid(${parts.join(', ')}${notes.length === 0 ? '' : `; ${notes.join(', ')}`})`;
}
