// The passages of the user's history that a compose offers for its cues: the events the cue search
// ranked, each with what the turns around it say. In a conversation the answer to a question
// often shares no word with it but sits right after (or before) a turn that does, above all the
// reply to a turn that asked about what the cues name ("Which team did you sign with?" — "The
// Minnesota Wolves!").

import type { EventRecord } from '../spec/event.js';
import type { NeighbourQuery, StorageAdapter } from '../spec/storage.js';
import { contentText } from '../events/content-text.js';
import { sentences, words } from '../util/segment.js';
import { namesDuration, namesTime } from '../util/time/time-expressions.js';
import { bestSentence, cueMatcher, matchScore } from './best-sentence.js';
import { OTHER_SPEAKER_WEIGHT } from './cue-search.js';
import { bySubject, speaksOfItself, type CueSubject } from './question-subject.js';

/** A passage offered for the cues, with the rule that chose it. */
export interface CuePassage {
  event: EventRecord;
  rule: string;
}

/**
 * A ranked match of the cues: its event, its score (higher is better), the rule that found it and,
 * when the cues name a time, its place among the passages of that time (1 for the best).
 */
export interface RankedCue extends CuePassage {
  score: number;
  signals?: { time: number | null };
}

/**
 * A turn takes this share of the score of each match right before it, two before it and right
 * after it in its session, added to its own: in a conversation a turn often means what the turns
 * around it say ("How long have you had them?" — "Three years now!"), so the words of its
 * neighbours count for it, at less than its own (the context of a turn, as a second field of
 * lower weight, summed as BM25F sums fields). A turn between two matches gains from both. LoCoMo,
 * evidence cited at 256 / 500 / 1,000 / 2,000 tokens: 0.602 / 0.697 / 0.775 / 0.835 with half the
 * best neighbouring match's score (the rule before) → 0.641 / 0.737 / 0.813 / 0.870 with every match
 * lending (0.642 / 0.743 / 0.813 / 0.859 as shipped, contextDepth); at 0.3 and 0.5 within 0.01 of
 * 0.4 (BENCHMARKS.md).
 */
export const CONTEXT_WEIGHT = 0.4;

/**
 * The turn right after a match that asks about the cues (a sentence with a question mark holding a
 * cue term), said by someone else, is its answer: it takes this share of the question's score
 * instead of CONTEXT_WEIGHT, as if the question's subject had asked it. So the answer a question's
 * subject gave to another speaker's question ranks with the question, not at a quarter of it
 * (LoCoMo at 256 tokens: evidence sharing no word with its question 0.066 → 0.120; the answer
 * shown with its evidence 0.525 at 0.25, 0.590 at 0.7, no better at 1; BENCHMARKS.md).
 */
export const REPLY_WEIGHT = 0.7;

/**
 * How many of the best matches lend their score to the turns around them: the top passages and as
 * many again, or every match read when fewer. A match further down lends too little to lift a
 * neighbour into the packet, and each one lent from costs a read of its neighbours (LoCoMo at
 * 2,000 tokens, 77 matches read: evidence cited 0.870 when every match lends, 0.864 for the better
 * half, 0.860 for the first 20, at a quarter less compose time than the half).
 *
 * @example
 * contextDepth(10, 77) // 20
 */
export function contextDepth(top: number, read: number): number {
  return Math.min(read, 2 * top);
}

/**
 * A question asking when something happened (or how long it lasted, asksWhen) takes the passages
 * that say when at this many times their score: of the first `contextDepth` passages, each whose
 * text names a time its moment can place ("last Saturday", "two days ago", "in May", namesTime) or
 * a length of time ("for three years", namesDuration), its lent score included. On LoCoMo, 79 % of
 * the evidence of a "When did…" question names a time against 9 % of all turns; temporal evidence
 * cited at 256 / 500 tokens (turns told after a window counted) 0.682 / 0.769 without the weight,
 * 0.730 / 0.794 at ×2, 0.746 / 0.797 at ×2.5, 0.749 / 0.795 at ×3 over 30 passages (BENCHMARKS.md).
 * A passage that does not name a time keeps its date in the packet, so a question answered by when
 * it was said still finds it.
 */
export const SAYS_WHEN_WEIGHT = 2.5;

/**
 * A match whose sentence that best matches the cues is a question ("Do they enjoy going to the dog
 * park?") ranks at this share of its own score: it names what the question is about without telling
 * it, and the answer it asks for, which it still lends its score to (REPLY_WEIGHT), is the better
 * passage. Sentences that state something come first. A question that speaks of its speaker ("Can
 * you suggest a gift for my pottery teacher?", "我们周六去哪儿？") tells about them as it asks, as a
 * user's requests to an assistant do, and keeps its score (LoCoMo the same with or without the
 * exception). LoCoMo, evidence cited at 256 / 500 / 1,000 /
 * 2,000 tokens: 0.658 / 0.759 / 0.822 / 0.868 without, 0.665 / 0.760 / 0.823 / 0.869 at 0.7, 0.666 /
 * 0.761 / 0.822 / 0.870 at 0.5; answer shown at 256 0.640 → 0.646 (BENCHMARKS.md).
 */
export const ASKING_WEIGHT = 0.7;

/** What the passages are ranked for: the cue terms, whose words the question is about, and whether it asks when (asksWhen). */
export interface PassageCues {
  terms: readonly string[];
  subject: CueSubject | null;
  asksWhen?: boolean;
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

/** A passage being ranked: its own score as a match, what its neighbours lend it, and the largest loan. */
interface Ranked {
  event: EventRecord;
  own: number;
  lent: number;
  /** Where it sorts on a tie: its match's rank, or right after the match that lent it most. */
  order: number;
  rule: string;
  /** The ranks of the matches that lent it a score, and the rule of the largest loan. */
  lenders: number[];
  largest: number;
  largestRule: string;
  /** The question asks when or how long and it names a time or a length of time: its score counts SAYS_WHEN_WEIGHT times. */
  saysWhen: boolean;
  /** Its sentence that best matches the cues is a question: its own score counts ASKING_WEIGHT times. */
  asking: boolean;
  /** The best match on its own score, moved ahead of passages that ranked above it by what they were lent. */
  first: boolean;
  /** The best passage of the time the cues name, moved ahead of every other. */
  timeFirst: boolean;
}

/** The passage of an event being ranked, made (at `order`, with nothing yet) the first time it is asked for. */
function rankedOf(byId: Map<string, Ranked>, event: EventRecord, order: number): Ranked {
  let held = byId.get(event.id);
  if (held === undefined) {
    held = {
      event,
      own: 0,
      lent: 0,
      order,
      rule: '',
      lenders: [],
      largest: 0,
      largestRule: '',
      saysWhen: false,
      asking: false,
      first: false,
      timeFirst: false,
    };
    byId.set(event.id, held);
  }
  return held;
}

/**
 * The ranked matches with the turns around them, best first, at most `limit`: each of the first
 * `depth` matches (contextDepth) lends CONTEXT_WEIGHT of its score to the message right before it,
 * right after it and two after it in its session (REPLY_WEIGHT to the answer to a question about
 * the cues), and a passage ranks by its own score plus what it was lent. A score is lent as its
 * match's words count for the question's subject (a match by someone else counts in full), and
 * taken at the borrower's own weight (half for a turn not by the subject). A match that asks about
 * the cues (ASKING_WEIGHT) takes less of its own score; when the question asks when, the first
 * `depth` passages that name a time count SAYS_WHEN_WEIGHT times.
 *
 * @example
 * const passages = await withAdjacentTurns(storage, hits, base, 20, 77, cues);
 */
export async function withAdjacentTurns(
  storage: StorageAdapter,
  hits: readonly RankedCue[],
  base: NeighbourBase,
  depth: number,
  limit: number,
  cues: PassageCues = { terms: [], subject: null },
): Promise<CuePassage[]> {
  const { subject } = cues;
  const weightOf = (event: EventRecord) => (subject !== null && !bySubject(event, subject) ? OTHER_SPEAKER_WEIGHT : 1);
  const byId = new Map<string, Ranked>();
  for (const [index, hit] of hits.entries())
    Object.assign(rankedOf(byId, hit.event, index * 4), { own: hit.score, rule: hit.rule });
  const lending = hits.slice(0, depth);
  const around = await storage.events.neighbours({
    ...base,
    kinds: ['message'],
    anchors: lending.map(({ event }) => ({ id: event.id, session_id: event.session_id })),
  });
  const topic = topicTerms(
    cues.terms,
    lending.map((hit) => hit.event),
  );
  const matcher = cueMatcher(
    topic,
    lending.map((hit) => contentText(hit.event.content)),
  );
  for (const [index, hit] of lending.entries()) {
    const asks = topic.length > 0 && asksAbout(hit.event, matcher);
    for (const loan of loansOf(hit, index, around[index]!, asks, weightOf)) {
      const borrower = rankedOf(byId, loan.event, index * 4 + loan.order);
      borrower.lent += loan.amount;
      borrower.lenders.push(index + 1);
      if (loan.amount > borrower.largest) {
        borrower.largest = loan.amount;
        borrower.largestRule = loan.rule;
      }
    }
  }
  if (topic.length > 0) markAsking([...byId.values()], matcher);
  if (cues.asksWhen === true) markSaysWhen([...byId.values()], depth);
  const weight = (ranked: Ranked) => (ranked.saysWhen ? SAYS_WHEN_WEIGHT : 1);
  const sorted = [...byId.values()]
    .map((ranked) => ({ ranked, score: Math.round((ranked.own + ranked.lent) * weight(ranked) * 1e6) / 1e6 }))
    .sort((a, b) => b.score - a.score || a.ranked.order - b.ranked.order)
    .map(({ ranked }) => ranked);
  const inTime = hits.find((hit) => hit.signals?.time === 1);
  return bestOfTimeFirst(bestMatchFirst(sorted, weight), inTime === undefined ? undefined : byId.get(inTime.event.id))
    .slice(0, limit)
    .map((ranked) => ({ event: ranked.event, rule: passageRule(ranked) }));
}

/**
 * The passages with the best match on its own score first, behind only the turns it lent a score
 * to itself (its answer, the turn before it): what other matches lend their neighbours sums, so a
 * run of similar turns that each match a little ("made pasta again…", twenty times) would
 * otherwise outrank the one turn that matches best and leave it out of a small packet. Only the
 * best match is kept ahead: lower down, the turns around the matches are what finds the evidence
 * that shares no word with the question (LoCoMo, evidence cited at 256 / 500 / 1,000 / 2,000
 * tokens: 0.711 / 0.787 / 0.835 / 0.881 → 0.712 / 0.787 / 0.835 / 0.881, the three best matches
 * kept ahead 0.702 / 0.787 / 0.835 / 0.881, the five best 0.638 / 0.788 / 0.835 / 0.881).
 */
function bestMatchFirst(sorted: readonly Ranked[], weight: (ranked: Ranked) => number): Ranked[] {
  let best: Ranked | undefined;
  for (const ranked of sorted)
    if (ranked.own > 0 && (best === undefined || ranked.own * weight(ranked) > best.own * weight(best))) best = ranked;
  const at = best === undefined ? -1 : sorted.indexOf(best);
  if (best === undefined || at <= 0) return [...sorted];
  // A match's rank among the lenders is its place among the hits (order is that place × 4).
  const rank = best.order / 4 + 1;
  const ahead = sorted.slice(0, at);
  const itsOwn = ahead.filter((ranked) => ranked.lenders.includes(rank));
  if (itsOwn.length === ahead.length) return [...sorted];
  best.first = true;
  return [...itsOwn, best, ...ahead.filter((ranked) => !itsOwn.includes(ranked)), ...sorted.slice(at + 1)];
}

/**
 * The passages with the best one of the time the cues name first ("What did I cook in March?": the
 * best turn said in March, or told of it in the days after), ahead of the best match: a question
 * that names a time asks about that time, and a passage of another time that shares more of its
 * words ("cooking is fun", said every day of April) would otherwise keep the one March turn out of
 * a small packet. Only the best one is moved; the others keep the place their score gives them
 * (LoCoMo, evidence cited at 256 / 500 / 1,000 / 2,000 tokens: 0.716 / 0.786 / 0.836 / 0.880 →
 * 0.715 / 0.785 / 0.835 / 0.880, adversarial 0.707 / 0.886 → 0.707 / 0.888; BENCHMARKS.md).
 */
function bestOfTimeFirst(sorted: readonly Ranked[], best: Ranked | undefined): Ranked[] {
  const at = best === undefined ? -1 : sorted.indexOf(best);
  if (best === undefined || at <= 0) return [...sorted];
  best.timeFirst = true;
  return [best, ...sorted.slice(0, at), ...sorted.slice(at + 1)];
}

/**
 * Marks the matches whose sentence that best matches the cues is a question not speaking of its
 * speaker, and takes their own score at ASKING_WEIGHT (what they lent is left as it was).
 */
function markAsking(ranked: readonly Ranked[], matcher: ReturnType<typeof cueMatcher>): void {
  for (const passage of ranked) {
    if (passage.own === 0) continue;
    const text = contentText(passage.event.content);
    // A text without a question mark holds no question: its best sentence need not be found.
    if (!text.includes('?') && !text.includes('？')) continue;
    const sentence = bestSentence(text, matcher);
    if (sentence === undefined || !(sentence.includes('?') || sentence.includes('？')) || speaksOfItself(sentence))
      continue;
    passage.asking = true;
    passage.own *= ASKING_WEIGHT;
  }
}

/**
 * Marks the passages that say when (or for how long) among the best `depth`, by their score with
 * what they were lent: only they are read for a time, so the cost stays that of a few passages.
 */
function markSaysWhen(ranked: Ranked[], depth: number): void {
  const best = ranked.toSorted((a, b) => b.own + b.lent - (a.own + a.lent) || a.order - b.order).slice(0, depth);
  for (const passage of best) {
    const text = contentText(passage.event.content);
    passage.saysWhen = namesTime(text, passage.event.ts) || namesDuration(text);
  }
}

/**
 * What the match at `index` lends the turns around it: its score as its words count for the
 * question's subject (a question by the other speaker lends in full), at CONTEXT_WEIGHT, or at
 * REPLY_WEIGHT to the answer to its question, taken at each borrower's own weight; `order` places
 * each turn right after the match on a tie, the turn before it first.
 */
function loansOf(
  hit: RankedCue,
  index: number,
  around: { before: EventRecord | null; after: EventRecord | null; twoAfter: EventRecord | null },
  asks: boolean,
  weightOf: (event: EventRecord) => number,
): Array<{ event: EventRecord; order: number; amount: number; rule: string }> {
  const score = hit.score / weightOf(hit.event);
  const { before, after, twoAfter } = around;
  const turns = [
    { event: before, order: 1, place: 'next to', answers: false },
    { event: after, order: 2, place: 'next to', answers: after !== null && asks && voice(after) !== voice(hit.event) },
    { event: twoAfter, order: 3, place: 'two after', answers: false },
  ];
  return turns.flatMap(({ event, order, place, answers }) =>
    event === null
      ? []
      : [
          {
            event,
            order,
            amount: (answers ? REPLY_WEIGHT : CONTEXT_WEIGHT) * score * weightOf(event),
            rule: answers ? `cue.answer(to rank ${index + 1})` : `cue.adjacent_turn(${place} rank ${index + 1})`,
          },
        ],
  );
}

/**
 * Why a passage is there: a match's rule with the ranks of the matches around it that lent it
 * their words (`cue.hybrid(words #4; context of ranks 1, 2)`), or the rule of the largest loan to
 * a turn that matched nothing (`cue.answer(to rank 1)`, `cue.adjacent_turn(next to rank 2; also
 * ranks 5)`), with the weights that moved it last (`…; asks ×0.7)`, `…; says when ×2.5)`), for
 * the best match moved ahead of passages lent more `…; best match first)`, and for the best passage
 * of the time the cues name moved ahead of every other `…; best of the time named first)`.
 */
function passageRule(ranked: Ranked): string {
  const { own, rule, lenders, largestRule, saysWhen, asking, first, timeFirst } = ranked;
  const notes = [
    ...(asking ? [`asks ×${ASKING_WEIGHT}`] : []),
    ...(saysWhen ? [`says when ×${SAYS_WHEN_WEIGHT}`] : []),
    ...(first ? ['best match first'] : []),
    ...(timeFirst ? ['best of the time named first'] : []),
  ];
  const noted = (text: string) => notes.reduce((withNotes, note) => withNote(withNotes, note), text);
  if (lenders.length === 0) return noted(rule);
  const ranks = (list: readonly number[]) => `rank${list.length > 1 ? 's' : ''} ${list.join(', ')}`;
  if (own > 0) return noted(withNote(rule, `context of ${ranks(lenders)}`));
  const others = lenders.filter((rank) => !largestRule.endsWith(` ${rank})`));
  return noted(others.length === 0 ? largestRule : withNote(largestRule, `also ${ranks(others)}`));
}

/**
 * A rule with a note added inside its parentheses, after a `;` (a `,` when it has notes already).
 *
 * @example
 * withNote('cue.hybrid(words #4)', 'context of rank 1') // 'cue.hybrid(words #4; context of rank 1)'
 */
function withNote(rule: string, note: string): string {
  return `${rule.slice(0, -1)}${rule.includes(';') ? ',' : ';'} ${note})`;
}
