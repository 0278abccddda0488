// The memory corpus in a haystack: each conversation committed as one user's history together with
// other conversations of its language (haystack.ts), every turn embedded, and its questions asked the
// day after as responder packets at three budgets. Shown: the rendered packet holds every value the
// question wants; cited: the packet cites the user's turn that last said it.

import type { Engram } from '../src/index.js';
import { renderPacket } from '../src/index.js';
import { evidenceTurn, haystackOf, historyOf, HAYSTACK_CONVERSATIONS, questionTime } from './haystack.js';
import { citedEvents } from './locomo-recall.js';
import { loadCorpus, type CorpusConversation } from './memory-corpus.js';
import { nowMs } from './stats.js';
import { withTempStore } from './temp-store.js';

export interface HaystackSizes {
  /** Conversations of each language asked, in file order (null: all); every one of the set is hay. */
  perLanguage: number | null;
  /** The corpus folder (default bench/data/memory-corpus/). */
  dir?: string;
  /** Only these files of the folder, by name without `.json`. */
  files?: string[];
}

export const HAYSTACK_BUDGETS = [500, 1_000, 2_000] as const;
/** The budget whose misses are listed. */
const MISS_BUDGET = 1_000;
const AGENT = 'assistant';

export interface HaystackScore {
  language: 'en' | 'zh';
  conversations: number;
  /** Turns of one user's history, on average. */
  turns_per_user: number;
  questions: number;
  /** Per budget: the share of questions whose packet shows every wanted value. */
  shown: Record<string, number>;
  /** Per budget: the share of the wanted values whose last saying the packet cites. */
  cited: Record<string, number>;
  /** The questions whose 1,000-token packet does not show the answer: `id "question" → values`. */
  misses: string[];
}

export interface HaystackResult {
  haystack_conversations: number;
  budgets: readonly number[];
  languages: HaystackScore[];
  seconds: number;
}

interface Tally {
  conversations: number;
  turns: number;
  questions: number;
  shown: Map<number, number>;
  cited: Map<number, number>;
  /** Questions whose wanted values were said in a turn of the conversation (the cited share counts these). */
  withEvidence: number;
  misses: string[];
}

/** Commits one user's history; returns the user and, by `session:turn`, the conversation's user messages. */
async function commitHistory(engram: Engram, user_id: string, corpus: readonly CorpusConversation[], index: number) {
  const conversation = corpus[index]!;
  const history = historyOf(conversation, haystackOf(corpus, index));
  const ownEvents = new Map<string, string>();
  for (const turn of history) {
    const result = await engram.commitTurn({
      scope: { user_id, agent_id: AGENT, session_id: turn.session_id, run_id: `run-${conversation.id}` },
      turn_id: turn.turn_id,
      ts: new Date(turn.ts).toISOString(),
      messages: [
        { role: 'user', content: turn.user },
        { role: 'assistant', content: turn.assistant },
      ],
    });
    const said = result.events.find((event) => event.role === 'human');
    if (turn.own !== null && said !== undefined) ownEvents.set(turn.own, said.event_id);
  }
  return { turns: history.length, ownEvents };
}

async function askQuestions(
  engram: Engram,
  user_id: string,
  conversation: CorpusConversation,
  ownEvents: ReadonlyMap<string, string>,
  tally: Tally,
): Promise<void> {
  const asked = questionTime(conversation);
  for (const question of conversation.questions) {
    tally.questions += 1;
    const evidence = question.show.flatMap((value) => {
      const turn = evidenceTurn(conversation, value);
      const event = turn === null ? undefined : ownEvents.get(turn);
      return event === undefined ? [] : [event];
    });
    if (evidence.length > 0) tally.withEvidence += 1;
    for (const budget of HAYSTACK_BUDGETS) {
      const packet = await engram.compose({
        scope: { user_id, agent_id: AGENT, session_id: 'questions', run_id: `run-${conversation.id}` },
        purpose: 'responder',
        cues: { query: question.ask },
        reference_time: asked,
        budget: { max_tokens: budget },
      });
      const text = renderPacket(packet).toLowerCase();
      if (question.show.every((value) => text.includes(value.toLowerCase())))
        tally.shown.set(budget, (tally.shown.get(budget) ?? 0) + 1);
      else if (budget === MISS_BUDGET)
        tally.misses.push(`${conversation.id} "${question.ask}" → ${question.show.join(', ')}`);
      if (evidence.length > 0) {
        const cited = citedEvents(packet);
        const share = evidence.filter((event) => cited.has(event)).length / evidence.length;
        tally.cited.set(budget, (tally.cited.get(budget) ?? 0) + share);
      }
    }
  }
}

const share = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 1000) / 1000);

/**
 * Asks the corpus's questions, each conversation in its haystack, in one fresh store.
 *
 * @example
 * const result = await benchHaystack({ perLanguage: 5 }, console.error);
 */
export async function benchHaystack(sizes: HaystackSizes, log: (message: string) => void): Promise<HaystackResult> {
  const corpus = loadCorpus(sizes.dir, sizes.files);
  const asked = (['en', 'zh'] as const).flatMap((language) => {
    const of = corpus.flatMap((conversation, index) => (conversation.language === language ? [index] : []));
    return sizes.perLanguage === null ? of : of.slice(0, sizes.perLanguage);
  });
  const tallies = new Map<'en' | 'zh', Tally>();
  const started = nowMs();
  await withTempStore('normal', async (engram) => {
    const committed = [];
    for (const index of asked) {
      const user_id = `hay-${corpus[index]!.id}`;
      committed.push({ index, user_id, ...(await commitHistory(engram, user_id, corpus, index)) });
    }
    // The background worker has embedded the turns by the time the questions come.
    await engram.maintenance.runEmbeddings();
    for (const { index, user_id, turns, ownEvents } of committed) {
      const conversation = corpus[index]!;
      let tally = tallies.get(conversation.language);
      if (tally === undefined) {
        tally = {
          conversations: 0,
          turns: 0,
          questions: 0,
          shown: new Map(),
          cited: new Map(),
          withEvidence: 0,
          misses: [],
        };
        tallies.set(conversation.language, tally);
      }
      tally.conversations += 1;
      tally.turns += turns;
      await askQuestions(engram, user_id, conversation, ownEvents, tally);
    }
  });
  const seconds = Math.round((nowMs() - started) / 100) / 10;
  log(`haystack: ${asked.length} conversations in ${seconds} s`);
  return {
    haystack_conversations: HAYSTACK_CONVERSATIONS,
    budgets: HAYSTACK_BUDGETS,
    languages: [...tallies].map(([language, tally]) => ({
      language,
      conversations: tally.conversations,
      turns_per_user: Math.round(tally.turns / tally.conversations),
      questions: tally.questions,
      shown: Object.fromEntries(
        HAYSTACK_BUDGETS.map((budget) => [budget, share(tally.shown.get(budget) ?? 0, tally.questions)]),
      ),
      cited: Object.fromEntries(
        HAYSTACK_BUDGETS.map((budget) => [budget, share(tally.cited.get(budget) ?? 0, tally.withEvidence)]),
      ),
      misses: tally.misses,
    })),
    seconds,
  };
}

/** The report: one row per language, the budgets side by side. */
export function haystackTable(result: HaystackResult): string {
  const budgets = result.budgets.map((budget) => budget.toLocaleString('en')).join(' / ');
  const lines = [
    `| language | conversations | turns of one user's history | questions | answer shown (${budgets} tokens) | its turn cited (${budgets}) |`,
    '| --- | --- | --- | --- | --- | --- |',
  ];
  const row = (figures: Record<string, number>) =>
    result.budgets.map((budget) => figures[budget]!.toFixed(3)).join(' / ');
  for (const score of result.languages)
    lines.push(
      `| ${score.language} | ${score.conversations} | ${score.turns_per_user} | ${score.questions} | **${row(score.shown)}** | ${row(score.cited)} |`,
    );
  return lines.join('\n');
}
