// The passages of the user's history that a compose offers for its cues: the events the full-text
// search ranked, and the turns next to the best of them. In a conversation the answer to a
// question often shares no word with it but sits right after (or before) a turn that does, above
// all the reply to a turn that asked about what the cues name ("Which team did you sign with?" —
// "The Minnesota Wolves!").

import type { EventRecord } from '../spec/event.js';
import type { ComposeRequest } from '../spec/requests.js';
import type { Scope } from '../spec/scope.js';
import type { NeighbourQuery, StorageAdapter } from '../spec/storage.js';
import { contentText } from '../events/content-text.js';
import { NEVER_SHARED } from '../events/sensitivity.js';
import { toIso } from '../util/clock.js';
import { sentences, words } from '../util/segment.js';
import { resolveTimeWindows } from '../util/time/time-expressions.js';
import { cueMatcher, matchScore } from './best-sentence.js';
import {
  bySubject,
  cueText,
  OTHER_SPEAKER_WEIGHT,
  searchCues,
  type CueEmbedder,
  type CueSearchReport,
  type CueSubject,
} from './cue-search.js';
import type { PurposePolicy } from './policy.js';

/** A passage offered for the cues, with the rule that chose it. */
export interface CuePassage {
  event: EventRecord;
  rule: string;
}

/** A ranked match of the cues: its event, its score (higher is better) and the rule that found it. */
export interface RankedCue extends CuePassage {
  score: number;
}

/** A neighbour ranks at this share of its anchor's score: above weak matches, below its anchor. */
export const ADJACENT_WEIGHT = 0.5;

/**
 * The turn right after a hit that asks about the cues (a sentence with a question mark holding a
 * cue term), said by someone else, is its answer: it ranks at this share of the question's score
 * before the subject weighed it, and as the subject's own words when it is theirs. So the answer a
 * question's subject gave to another speaker's question ranks with the question, not at a quarter of
 * it (half for the neighbour, half again for the asker not being the subject); a hit that is itself
 * such an answer keeps the better of its two scores. LoCoMo, evidence shown at 256 / 500 / 1,000 /
 * 2,000 tokens: 0.623 / 0.706 / 0.780 / 0.840 → 0.667 / 0.737 / 0.788 / 0.843, the evidence sharing no
 * word with its question 0.066 → 0.120 at 256; the answer shown with its evidence at 256 was 0.525 at
 * 0.25 (as a plain neighbour) and 0.590 at 0.7, and no better at 1 (BENCHMARKS.md).
 */
export const REPLY_WEIGHT = 0.7;

/** What the passages are ranked for: the cue terms, and whose words the question is about. */
export interface PassageCues {
  terms: readonly string[];
  subject: CueSubject | null;
}

/** Whether an event asks about the cues: one of its sentences is a question holding a cue term. */
function asksAbout(event: EventRecord, matcher: ReturnType<typeof cueMatcher>): boolean {
  const text = contentText(event.content);
  if (!text.includes('?') && !text.includes('？')) return false;
  return sentences(text).some(
    (sentence) => (sentence.includes('?') || sentence.includes('？')) && matchScore(sentence, matcher) > 0,
  );
}

/**
 * The cue terms that can tell which sentence of a passage is about the cues: not the words of the
 * passages' speakers' names, which in a conversation are on every other line ("Thanks, Caroline!",
 * "How are you, Caroline?").
 *
 * @example
 * topicTerms(['caroline', 'research'], [{ speaker: 'Caroline' }]) // ['research']
 */
export function topicTerms(terms: readonly string[], events: ReadonlyArray<Pick<EventRecord, 'speaker'>>): string[] {
  const names = new Set(events.flatMap((event) => (event.speaker === null ? [] : words(event.speaker))));
  return terms.filter((term) => !names.has(term));
}

/** Who said an event: its speaker's name, else its role. */
function voice(event: EventRecord): string {
  return event.speaker ?? event.role;
}

/** The event filters of the compose (scope, time, sensitivity). */
export type NeighbourBase = Omit<NeighbourQuery, 'anchors' | 'kinds'>;

/**
 * The ranked hits and the messages right before and after each of the first `anchors` hits in
 * the same session, ordered by score (a neighbour scores half its anchor), at most `limit` of
 * them. A neighbour that is itself a hit keeps its own rank.
 *
 * @example
 * const passages = await withAdjacentTurns(storage, hits, base, 10, 40);
 */
export async function withAdjacentTurns(
  storage: StorageAdapter,
  hits: readonly RankedCue[],
  base: NeighbourBase,
  anchors: number,
  limit: number,
  cues: PassageCues = { terms: [], subject: null },
): Promise<CuePassage[]> {
  const ranked = hits.map((hit, index) => ({ event: hit.event, score: hit.score, order: index * 3, rule: hit.rule }));
  const byId = new Map(ranked.map((entry) => [entry.event.id, entry]));
  const { subject } = cues;
  const others = (event: EventRecord) => subject !== null && !bySubject(event, subject);
  const read = hits.slice(0, anchors);
  const topic = topicTerms(
    cues.terms,
    read.map((hit) => hit.event),
  );
  const matcher = cueMatcher(
    topic,
    read.map((hit) => contentText(hit.event.content)),
  );
  const asking = read.map((hit) => topic.length > 0 && asksAbout(hit.event, matcher));
  // What an answer to a hit would score: the hit's score as if by the subject, at the reply's share.
  const answerScore = (index: number) => {
    const { event, score } = hits[index]!;
    return (others(event) ? score / OTHER_SPEAKER_WEIGHT : score) * REPLY_WEIGHT;
  };
  // With `limit` hits already, a neighbour scoring below the last of them would be cut: the turns
  // of an anchor whose neighbours can all score no more than that are not read (a tie may still
  // place one, ahead of later hits).
  const floor = hits.length >= limit ? hits[limit - 1]!.score : Number.NEGATIVE_INFINITY;
  const chosen = asking.flatMap((asks, index) =>
    Math.max(hits[index]!.score * ADJACENT_WEIGHT, asks ? answerScore(index) : 0) >= floor ? [index] : [],
  );
  const anchored = chosen.map((index) => ({ id: hits[index]!.event.id, session_id: hits[index]!.event.session_id }));
  const neighbours =
    anchored.length === 0 ? [] : await storage.events.neighbours({ ...base, kinds: ['message'], anchors: anchored });
  for (const [position, { before, after }] of neighbours.entries()) {
    // Neighbours score by the hit as the search ranked it (not as an answer may have raised it).
    const index = chosen[position]!;
    const hit = hits[index]!;
    for (const [side, event] of [before, after].entries()) {
      if (event === null) continue;
      const answers = side === 1 && asking[index] === true && voice(event) !== voice(hit.event);
      const score = answers
        ? answerScore(index) * (others(event) ? OTHER_SPEAKER_WEIGHT : 1)
        : hit.score * ADJACENT_WEIGHT;
      const rule = answers ? `cue.answer(to rank ${index + 1})` : `cue.adjacent_turn(next to rank ${index + 1})`;
      const held = byId.get(event.id);
      if (held === undefined) {
        const entry = { event, score, order: index * 3 + 1 + side, rule };
        byId.set(event.id, entry);
        ranked.push(entry);
      } else if (answers && score > held.score) {
        // A passage that answers a better hit's question ranks as that answer, right after it on a tie.
        held.score = score;
        held.rule = rule;
        held.order = index * 3 + 1 + side;
      }
    }
  }
  return ranked
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, limit)
    .map(({ event, rule }) => ({ event, rule }));
}

/** Budget tokens per spare passage read: a further passage shows its best sentence, ~30 tokens with its line. */
const TOKENS_PER_SPARE = 30;

/**
 * How many cue matches compose reads: the policy's top passages, and its spare ones (about one per
 * 30 tokens of the budget at most), which fill what the other sections leave unused (a packet with
 * few facts holds more of the history, each further passage shown by its best-matching sentence).
 *
 * @example
 * cuePool(DEFAULTS.responder) // 10 + min(190, 3000 / 30) = 110
 */
export function cuePool(policy: PurposePolicy): number {
  return policy.query_quotes === 0
    ? 0
    : policy.query_quotes + Math.min(policy.spare_quotes, Math.ceil(policy.budget.max_tokens / TOKENS_PER_SPARE));
}

/**
 * How the search went, as the packet records it: how many word matches had no vector yet depends
 * on when it is asked, not on the packet's time (explainBuild reports it; the packet keeps what a
 * replay gives again), and relative times were read against `reference_time`.
 */
export type CueRetrieval = Omit<CueSearchReport, 'unembedded_candidates'> & { reference_time: string };

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

/**
 * The passages a compose offers for its cues, best first (its top ones and the spare ones,
 * `cuePool`), searched in the user's history with this agent at `now` (as of `asOf`), with how the
 * search went; none when the request has no cue text or the policy shows no passages.
 *
 * @example
 * const { hits, retrieval } = await gatherCuePassages(storage, embedder, { request, scope, policy, terms, now, asOf });
 */
export async function gatherCuePassages(
  storage: StorageAdapter,
  embedder: CueEmbedder | undefined,
  read: {
    request: ComposeRequest;
    scope: Scope;
    policy: PurposePolicy;
    /** The cue text's content words. */
    terms: string[];
    now: string;
    asOf: string | undefined;
  },
): Promise<{ hits: CuePassage[]; retrieval: CueRetrieval }> {
  const { request, scope, policy, terms, now, asOf } = read;
  const text = cueText(request.cues);
  const range = request.cues?.time_range;
  // Relative times in the query ("four weeks ago") are read against when the question is asked.
  const reference = request.reference_time === undefined ? now : toIso(request.reference_time, 'reference_time');
  const filters = {
    tenant_id: scope.tenant_id,
    user_id: scope.user_id,
    agent_id: scope.agent_id,
    now,
    as_of: asOf,
    ts_from: range?.start === undefined ? undefined : toIso(range.start, 'cues.time_range.start'),
    ts_to: range?.end === undefined ? undefined : toIso(range.end, 'cues.time_range.end'),
    exclude_sensitivity: [...NEVER_SHARED],
  };
  const pool = cuePool(policy);
  const cues =
    policy.query_quotes > 0 && text !== ''
      ? await searchCues(storage, embedder, {
          base: { ...filters, terms, limit: pool },
          text,
          windows: resolveTimeWindows(text, reference),
          embeddedBefore: now,
        })
      : { hits: [], report: idleReport(embedder) };
  const hits = await withAdjacentTurns(storage, cues.hits, filters, policy.query_quotes, pool, {
    terms,
    subject: cues.report.subject,
  });
  const { unembedded_candidates: _asked, ...report } = cues.report;
  return { hits, retrieval: { ...report, reference_time: reference } };
}
