// Deterministic synthetic conversations for the benchmarks: a seeded PRNG, a small vocabulary, and
// the turns of many users' sessions. The same seed always gives the same text, so runs compare.

import type { CommitTurnRequest, ScopeInput, TurnToolResult } from '../src/index.js';

/** mulberry32: tiny, fast, good enough for picking words; never for anything secret. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FUNCTION_WORDS =
  'the a to of and in for on with that this is it we you i will can should our my be at from'.split(' ');

/** Content words, roughly most common first; picks are skewed towards the front like real text. */
export const CONTENT_WORDS = (
  'project deadline report meeting budget design review customer release schedule plan team draft ' +
  'server database query index latency memory cache error deploy migration backup invoice contract ' +
  'travel flight hotel booking lisbon berlin tokyo weekend morning evening coffee tea lunch dinner ' +
  'summary notes slides chart metric revenue forecast quarter launch feature bug ticket sprint ' +
  'prefer decide need remember important always never want agreed goal priority risk option ' +
  'python typescript sqlite postgres docker kubernetes api endpoint schema token budget pipeline ' +
  'atlas orion phoenix acme globex initech marketing sales support legal finance hiring onboarding'
).split(' ');

const TOOL_NAMES = ['search', 'calendar', 'weather', 'db_query', 'web_fetch'];
const TOOL_RESULT_SHARE = 0.3;

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

/** A content word, skewed: index ~ n·u² puts about a third of the picks in the first tenth. */
export function contentWord(random: () => number): string {
  const u = random();
  return CONTENT_WORDS[Math.floor(u * u * CONTENT_WORDS.length)]!;
}

function sentence(random: () => number, length: number): string {
  const parts: string[] = [];
  for (let index = 0; index < length; index += 1) {
    parts.push(random() < 0.45 ? pick(random, FUNCTION_WORDS) : contentWord(random));
  }
  if (random() < 0.15) parts.push(String(Math.floor(random() * 2000)));
  const text = parts.join(' ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}${random() < 0.15 ? '?' : '.'}`;
}

/** A message of 20–40 words in sentences of 5–12 words. */
export function messageText(random: () => number): string {
  const target = 20 + Math.floor(random() * 21);
  const out: string[] = [];
  let count = 0;
  while (count < target) {
    const length = Math.min(target - count, 5 + Math.floor(random() * 8));
    out.push(sentence(random, Math.max(length, 3)));
    count += Math.max(length, 3);
  }
  return out.join(' ');
}

function toolResult(random: () => number, callId: string): TurnToolResult {
  const tool = pick(random, TOOL_NAMES);
  const items = Array.from({ length: 1 + Math.floor(random() * 3) }, () => ({
    title: `${contentWord(random)} ${contentWord(random)} ${contentWord(random)}`,
    score: Math.round(random() * 100) / 100,
  }));
  return {
    tool_name: tool,
    call_id: callId,
    status: 'ok',
    content: { query: `${contentWord(random)} ${contentWord(random)}`, items },
  };
}

/** One session of the store shape: who it belongs to and how many turns it has. */
export interface SessionPlan {
  scope: ScopeInput;
  turns: number;
}

/**
 * Sessions spread round-robin over `users` users, 40–60 turns each (~50). A user's sessions
 * alternate between two agents, so once every user has two sessions each has both.
 */
export function planSessions(random: () => number, sessionCount: number, users: number, prefix: string): SessionPlan[] {
  return Array.from({ length: sessionCount }, (_, index) => {
    const user = index % users;
    return {
      scope: {
        user_id: `${prefix}u${user}`,
        agent_id: `agent${Math.floor(index / users) % 2}`,
        session_id: `${prefix}s${index}`,
        run_id: `${prefix}r${index}`,
      },
      turns: 40 + Math.floor(random() * 21),
    };
  });
}

/** Turn `index` of a session: a user message, an assistant reply, and sometimes a tool result. */
export function makeTurn(random: () => number, scope: ScopeInput, index: number): CommitTurnRequest {
  const turn: CommitTurnRequest = {
    scope,
    turn_id: `t${index}`,
    messages: [
      { role: 'user', content: messageText(random) },
      { role: 'assistant', content: messageText(random) },
    ],
  };
  if (random() < TOOL_RESULT_SHARE) turn.tool_results = [toolResult(random, `c${index}`)];
  return turn;
}

/** Events a turn writes (messages and tool results; no state patch or markers here). */
export function eventCount(turn: CommitTurnRequest): number {
  return (turn.messages?.length ?? 0) + (turn.tool_results?.length ?? 0);
}

/** Every turn of the planned sessions, session after session, generated lazily. */
export function* turnsOf(plans: readonly SessionPlan[], random: () => number): Generator<CommitTurnRequest> {
  for (const plan of plans) {
    for (let index = 0; index < plan.turns; index += 1) yield makeTurn(random, plan.scope, index);
  }
}

/** A cue query of 2–4 content words. */
export function cueQuery(random: () => number): string {
  const count = 2 + Math.floor(random() * 3);
  return Array.from({ length: count }, () => contentWord(random)).join(' ');
}

/** The planned sessions that hold at least one of the first `turns` turns, in import order. */
export function sessionsHolding(plans: readonly SessionPlan[], turns: number): SessionPlan[] {
  const out: SessionPlan[] = [];
  let seen = 0;
  for (const plan of plans) {
    if (seen >= turns) break;
    out.push(plan);
    seen += plan.turns;
  }
  return out;
}
