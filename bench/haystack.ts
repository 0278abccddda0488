// The memory corpus in a haystack, as pure functions: one conversation's sessions interleaved in
// time with other conversations' sessions of the same language (their facts are other users', so
// wrong for this one), as one user's history, and the turn that last said what a question wants.
// The memory bench asks a conversation's questions with nothing else in the store; here a question
// has to find its turn among a history many times longer, as on a user–assistant long-term-memory
// benchmark.

import type { CorpusConversation } from './memory-corpus.js';

/** How many other conversations make one user's haystack. */
export const HAYSTACK_CONVERSATIONS = 20;
/** The haystack starts this long before the conversation's first session. */
const LEAD_DAYS = 90;
const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

/** One turn of a user's history: a user message and the reply, at a time, in a session. */
export interface HistoryTurn {
  ts: number;
  session_id: string;
  turn_id: string;
  user: string;
  assistant: string;
  /** `session:turn` (0-based) of a turn of the conversation itself; null for the haystack's. */
  own: string | null;
}

/**
 * The conversations that make the haystack of the conversation at `index`: the
 * HAYSTACK_CONVERSATIONS others of its language that follow it in the corpus from a start that moves
 * with `index`, wrapping around, so each conversation gets a different haystack.
 *
 * @example
 * haystackOf(corpus, 0).length // 20 (when the language has 21 conversations or more)
 */
export function haystackOf(corpus: readonly CorpusConversation[], index: number): CorpusConversation[] {
  const conversation = corpus[index]!;
  const others = corpus.filter((other) => other.language === conversation.language && other !== conversation);
  const start = (index * 7) % Math.max(1, others.length);
  return Array.from(
    { length: Math.min(HAYSTACK_CONVERSATIONS, others.length) },
    (_, step) => others[(start + step) % others.length]!,
  );
}

/**
 * A user's history: the conversation's turns at their sessions' times (a minute apart), and the
 * haystack's sessions spread evenly from LEAD_DAYS before the conversation's first session to half a
 * day after its last, in time order.
 *
 * @example
 * historyOf(conversation, haystackOf(corpus, 0)).filter((turn) => turn.own !== null).length // the conversation's turns
 */
export function historyOf(conversation: CorpusConversation, haystack: readonly CorpusConversation[]): HistoryTurn[] {
  const first = Date.parse(conversation.sessions[0]!.start);
  const last = Date.parse(conversation.sessions.at(-1)!.start);
  const from = first - LEAD_DAYS * DAY_MS;
  const to = last + DAY_MS / 2;
  const turns: HistoryTurn[] = [];
  const sessions = haystack.flatMap((other) => other.sessions.map((session, number) => ({ other, session, number })));
  for (const [order, { other, session, number }] of sessions.entries()) {
    const at = from + ((to - from) * order) / Math.max(1, sessions.length - 1);
    for (const [index, turn] of session.turns.entries())
      turns.push({
        ts: at + index * MINUTE_MS,
        session_id: `h-${other.id}-${number + 1}`,
        turn_id: `h-${other.id}-${number + 1}-${index + 1}`,
        user: turn.user,
        assistant: turn.assistant,
        own: null,
      });
  }
  for (const [number, session] of conversation.sessions.entries())
    for (const [index, turn] of session.turns.entries())
      turns.push({
        ts: Date.parse(session.start) + index * MINUTE_MS,
        session_id: `s${number + 1}`,
        turn_id: `t${number + 1}-${index + 1}`,
        user: turn.user,
        assistant: turn.assistant,
        own: `${number}:${index}`,
      });
  return turns.sort((a, b) => a.ts - b.ts);
}

/**
 * When a conversation's questions are asked: the day after its last session starts, after every
 * turn of its history (the haystack ends half a day after that session).
 *
 * @example
 * questionTime(conversation) // '2026-04-02T09:00:00.000Z' for a last session at 2026-04-01T09:00
 */
export function questionTime(conversation: CorpusConversation): string {
  return new Date(Date.parse(conversation.sessions.at(-1)!.start) + DAY_MS).toISOString();
}

/**
 * The turn (`session:turn`) that last said a value a question wants: the last one whose expected
 * facts hold it, else the last whose user message holds it (case-insensitive); null when none does.
 *
 * @example
 * evidenceTurn(conversation, 'Milan') // '0:0'
 */
export function evidenceTurn(conversation: CorpusConversation, value: string): string | null {
  const wanted = value.toLowerCase();
  const turns = conversation.sessions
    .flatMap((session, number) => session.turns.map((turn, index) => ({ turn, at: `${number}:${index}` })))
    .reverse();
  const byFact = turns.find(({ turn }) => turn.expect.some((fact) => fact.value.toLowerCase() === wanted));
  const bySaying = turns.find(({ turn }) => turn.user.toLowerCase().includes(wanted));
  return (byFact ?? bySaying)?.at ?? null;
}
