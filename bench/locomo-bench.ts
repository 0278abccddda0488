// Evidence recall on LoCoMo: every conversation committed turn by turn through commitTurn (default
// configuration: rule extraction, no LLM), every question composed as a responder packet at four
// budgets, and the turns each packet cites compared with the question's evidence; the baselines
// (recent turns, BM25, the whole conversation) answer the same questions in the same run.

import type { Engram, MemoryPacket } from '../src/index.js';
import { o200kTokenizer } from '../src/index.js';
import { Bm25Baseline, TurnPacker, type PackedContext } from './locomo-baselines.js';
import {
  loadLocomo,
  locomoPath,
  type EvidenceAudit,
  type LocomoConversation,
  type LocomoQuestion,
} from './locomo-data.js';
import { answerShown, citedTurns, evidenceRecall, sharesContentWord, shownText } from './locomo-recall.js';
import { MissLog, Scoreboard, type MissCause, type SystemScore } from './locomo-score.js';
import { nowMs, summarize, type LatencySummary } from './stats.js';
import { listAllItems } from './list-items.js';
import { storeSizeMiB, withTempStore } from './temp-store.js';

export interface LocomoSizes {
  /** How many conversations, in file order. */
  conversations: number;
  /** Every n-th question of a conversation (1: all). */
  questionStride: number;
  /** Composes before timing starts, on the first conversation (not counted). */
  warmup: number;
}

/**
 * The budgets are 250, 500, 1,000 and 2,000 tokens; a compose budget is at least 256
 * (compose-request schema), so every system gets 256 at the lowest.
 */
export const LOCOMO_BUDGETS = [256, 500, 1_000, 2_000] as const;
/**
 * The read path's targets: evidence recall over categories 1–4 at each budget, and the lead over
 * BM25 over the raw turns at every budget.
 */
export const LOCOMO_TARGETS: { readonly recall: Readonly<Record<number, number>>; readonly lead_over_bm25: number } = {
  recall: { 256: 0.7, 500: 0.8, 1000: 0.88, 2000: 0.93 },
  lead_over_bm25: 0.08,
};
/** The budget whose misses are listed in detail, and that warm-up composes use. */
const DETAIL_BUDGET = 1_000;

const AGENT = 'locomo-agent';
/** The questions are asked in a session of their own, after the conversation. */
const QUESTION_SESSION = 'questions';
/** The event search limit of the miss analysis (the most searchEvents returns). */
const SEARCH_DEPTH = 200;
/** How many cue passages compose read for a packet: its top ones and the spare ones (explain.filters). */
function passagesRead(packet: MemoryPacket): number {
  const filters = packet.explain.filters as Record<string, unknown>;
  return Number(filters['cue_matches_top_k'] ?? 0) + Number(filters['cue_matches_spare_top_k'] ?? 0);
}

/** What one conversation's ingestion wrote. */
interface Ingested {
  user_id: string;
  run_id: string;
  diaOfEvent: Map<string, string>;
  eventOfDia: Map<string, string>;
  /** Each turn's text, as committed. */
  textOfDia: Map<string, string>;
  /** When the questions are asked: the time of the conversation's last turn ("in June" is the June before it). */
  askedAt: string;
  /** Turns from which at least one current memory item was extracted. */
  turnsWithItems: Set<string>;
  /** Tasks among the items whose every source is the agent's turn (the facts section must carry none). */
  agentTasks: number;
  items: number;
  ms: number;
  /** Embedding the conversation's turns after they were committed (the background worker's work, run to the end). */
  embedMs: number;
}

export interface LatencyAtSize {
  sample_id: string;
  store_events: number;
  store_mib: number;
  compose: LatencySummary;
}

export interface LocomoResult {
  dataset: {
    path: string;
    conversations: number;
    turns: number;
    questions: Record<string, number>;
    evidence: EvidenceAudit;
  };
  sizes: LocomoSizes;
  budgets: readonly number[];
  targets: typeof LOCOMO_TARGETS & {
    /** The budgets whose recall target is met. */
    met_at: number[];
    /** Engram's recall less BM25's, per budget. */
    lead: Record<string, number>;
  };
  ingestion: {
    turns: number;
    events: number;
    items: number;
    turns_with_items: number;
    agent_sourced_tasks: number;
    seconds: number;
    turns_per_s: number;
    embed_seconds: number;
    embedded_per_s: number;
    embedding_backlog: number;
  };
  scores: SystemScore[];
  full_conversation: { mean_tokens: number; min_tokens: number; max_tokens: number };
  latency_by_store_size: LatencyAtSize[];
  engram_misses: Record<string, ReturnType<MissLog['summary']>>;
}

async function ingest(engram: Engram, conversation: LocomoConversation): Promise<Ingested> {
  const user_id = `locomo-${conversation.sample_id}`;
  const run_id = `run-${conversation.sample_id}`;
  const diaOfEvent = new Map<string, string>();
  const start = nowMs();
  for (const turn of conversation.turns) {
    const result = await engram.commitTurn({
      scope: { user_id, agent_id: AGENT, session_id: `session_${turn.session}`, run_id },
      turn_id: turn.dia_id,
      ts: turn.ts,
      messages: [
        {
          role: turn.side === 'a' ? 'user' : 'assistant',
          speaker: turn.speaker,
          content: turn.text,
          metadata: { dia_id: turn.dia_id },
        },
      ],
    });
    for (const event of result.events) diaOfEvent.set(event.event_id, turn.dia_id);
  }
  const ms = nowMs() - start;
  // Questions are asked once the turns have their vectors, as in a store whose worker keeps up.
  const embedStart = nowMs();
  await engram.maintenance.runEmbeddings();
  const embedMs = nowMs() - embedStart;
  await checkMetadata(engram, user_id, diaOfEvent);
  const items = await listAllItems(engram, { user_id, agent_id: AGENT });
  const turnsWithItems = new Set(
    items.flatMap((item) => item.source_event_ids).flatMap((id) => diaOfEvent.get(id) ?? []),
  );
  const agentTurns = new Set(conversation.turns.filter((turn) => turn.side === 'b').map((turn) => turn.dia_id));
  const agentTasks = items.filter(
    (item) => item.type === 'tasks' && item.source_event_ids.every((id) => agentTurns.has(diaOfEvent.get(id) ?? '')),
  ).length;
  const eventOfDia = new Map([...diaOfEvent].map(([event, dia]) => [dia, event]));
  const textOfDia = new Map(conversation.turns.map((turn) => [turn.dia_id, turn.text]));
  return {
    user_id,
    run_id,
    diaOfEvent,
    eventOfDia,
    textOfDia,
    askedAt: conversation.turns.at(-1)!.ts,
    turnsWithItems,
    agentTasks,
    items: items.length,
    ms,
    embedMs,
  };
}

/** Every event of the user carries its turn's `dia_id` in its metadata, as committed. */
async function checkMetadata(engram: Engram, user_id: string, diaOfEvent: ReadonlyMap<string, string>): Promise<void> {
  let cursor: string | undefined;
  let seen = 0;
  for (;;) {
    const page = await engram.events.list({
      scope: { user_id, agent_id: AGENT },
      limit: 1000,
      ...(cursor === undefined ? {} : { cursor }),
    });
    for (const event of page) {
      if (event.origin_metadata['dia_id'] !== diaOfEvent.get(event.id))
        throw new Error(`LoCoMo: event ${event.id} lost its dia_id`);
      seen += 1;
    }
    if (page.length < 1000) break;
    cursor = page.at(-1)!.id;
  }
  if (seen !== diaOfEvent.size) throw new Error(`LoCoMo: ${user_id} has ${seen} events, ${diaOfEvent.size} committed`);
}

function composeRequest(ingested: Ingested, question: string, budget: number) {
  return {
    scope: { user_id: ingested.user_id, agent_id: AGENT, session_id: QUESTION_SESSION, run_id: ingested.run_id },
    purpose: 'responder' as const,
    cues: { query: question },
    reference_time: ingested.askedAt,
    budget: { max_tokens: budget },
  };
}

/** Why each evidence turn a packet missed was missed (see MissCause). */
async function explainMisses(
  ingested: Ingested,
  question: LocomoQuestion,
  packet: MemoryPacket,
  cited: ReadonlySet<string>,
  ranks: () => Promise<ReadonlyMap<string, number>>,
) {
  const missed = question.evidence.filter((dia) => !cited.has(dia));
  if (missed.length === 0) return [];
  const rankOf = await ranks();
  const overBudget = new Set(
    (packet.budget_report.omissions ?? []).filter((entry) => entry.reason === 'over_budget').map((entry) => entry.item),
  );
  return missed.map((dia) => {
    const event = ingested.eventOfDia.get(dia)!;
    const rank = rankOf.get(event) ?? null;
    const cause: MissCause =
      overBudget.has(`key_quotes:${event}`) || (rank !== null && rank <= passagesRead(packet))
        ? 'omitted_for_budget'
        : rank === null
          ? 'no_shared_word'
          : 'ranked_below_cut';
    return { dia, cause, rank, stored: ingested.turnsWithItems.has(dia) };
  });
}

interface RunState {
  board: Scoreboard;
  misses: Map<number, MissLog>;
  packer: TurnPacker;
  warmupLeft: number;
}

async function evaluateQuestion(
  engram: Engram,
  conversation: LocomoConversation,
  ingested: Ingested,
  index: number,
  bm25: Bm25Baseline,
  recent: ReadonlyMap<number, { dia_ids: Set<string>; tokens: number }>,
  state: RunState,
  composeMs: number[],
): Promise<void> {
  const question = conversation.questions[index]!;
  const { category, evidence } = question;
  // The answer as the evidence turns hold it, and as a baseline shows them (whole turns or none).
  const evidenceTexts = evidence.map((dia) => ingested.textOfDia.get(dia) ?? '');
  const answerIn = (context: PackedContext) =>
    question.answer === null
      ? null
      : answerShown(
          question.answer,
          evidenceTexts,
          evidence.flatMap((dia) => (context.dia_ids.has(dia) ? [ingested.textOfDia.get(dia) ?? ''] : [])),
        );
  for (; state.warmupLeft > 0; state.warmupLeft -= 1)
    await engram.compose(composeRequest(ingested, question.question, DETAIL_BUDGET));
  // The rank of every event in the event search of the question: read once, when a packet misses.
  let searched: Promise<ReadonlyMap<string, number>> | undefined;
  const ranks = () =>
    (searched ??= engram.events
      .search({
        scope: { user_id: ingested.user_id, agent_id: AGENT },
        query: question.question,
        limit: SEARCH_DEPTH,
      })
      .then((hits) => new Map(hits.map((hit, rank) => [hit.event.id, rank + 1]))));
  for (const budget of state.board.budgets) {
    const start = nowMs();
    const packet = await engram.compose(composeRequest(ingested, question.question, budget));
    const ms = nowMs() - start;
    composeMs.push(ms);
    const cited = citedTurns(packet, ingested.diaOfEvent);
    const shown = evidenceRecall(evidence, citedTurns(packet, ingested.diaOfEvent, { shownOnly: true }));
    const shownFor = shownText(packet);
    const answer =
      question.answer === null
        ? null
        : answerShown(
            question.answer,
            evidenceTexts,
            evidence.flatMap((dia) => [shownFor.get(ingested.eventOfDia.get(dia) ?? '') ?? '']),
          );
    state.board.add('engram', budget, {
      category,
      recall: evidenceRecall(evidence, cited),
      tokens: packet.budget_report.used_tokens_est,
      shown,
      answer,
      ms,
    });
    const log = state.misses.get(budget)!;
    if (category !== 5) {
      log.evidenceTurns += evidence.length;
      for (const dia of evidence) {
        if (sharesContentWord(question.question, ingested.textOfDia.get(dia) ?? '')) continue;
        log.wordless.turns += 1;
        if (cited.has(dia)) log.wordless.cited += 1;
      }
      for (const miss of await explainMisses(ingested, question, packet, cited, ranks)) {
        log.add({
          sample_id: conversation.sample_id,
          question_index: index,
          category,
          dia_id: miss.dia,
          cause: miss.cause,
          search_rank: miss.rank,
          stored_as_item: miss.stored,
        });
      }
    }
    const context = recent.get(budget)!;
    state.board.add('recent', budget, {
      category,
      recall: evidenceRecall(evidence, context.dia_ids),
      tokens: context.tokens,
      answer: answerIn(context),
    });
  }
  const start = nowMs();
  const ranked = bm25.rank(question.question);
  const rankMs = nowMs() - start;
  for (const budget of state.board.budgets) {
    const packStart = nowMs();
    const context = state.packer.pack(ranked, budget);
    const ms = rankMs + (nowMs() - packStart);
    state.board.add('bm25', budget, {
      category,
      recall: evidenceRecall(evidence, context.dia_ids),
      tokens: context.tokens,
      answer: answerIn(context),
      ms,
    });
  }
}

/**
 * Runs the LoCoMo evidence-recall benchmark on a fresh embedded store with Engram's default
 * configuration.
 */
export async function benchLocomo(sizes: LocomoSizes, log: (message: string) => void): Promise<LocomoResult> {
  const { conversations: all, audit } = loadLocomo();
  const conversations = all.slice(0, sizes.conversations);
  const state: RunState = {
    board: new Scoreboard(LOCOMO_BUDGETS),
    misses: new Map(LOCOMO_BUDGETS.map((budget) => [budget, new MissLog()])),
    packer: new TurnPacker(o200kTokenizer),
    warmupLeft: sizes.warmup,
  };
  const latency: LatencyAtSize[] = [];
  const wholeTokens: number[] = [];
  let events = 0;
  let items = 0;
  let turnsWithItems = 0;
  let agentTasks = 0;
  let ingestMs = 0;
  let embedMs = 0;
  let backlog = 0;
  await withTempStore('full', async (engram, path) => {
    for (const conversation of conversations) {
      const ingested = await ingest(engram, conversation);
      events += ingested.diaOfEvent.size;
      items += ingested.items;
      turnsWithItems += ingested.turnsWithItems.size;
      agentTasks += ingested.agentTasks;
      ingestMs += ingested.ms;
      embedMs += ingested.embedMs;
      const bm25 = new Bm25Baseline(conversation.turns);
      const newestFirst = conversation.turns.toReversed();
      const recent = new Map(LOCOMO_BUDGETS.map((budget) => [budget, state.packer.pack(newestFirst, budget)]));
      wholeTokens.push(state.packer.whole(conversation.turns).tokens);
      const composeMs: number[] = [];
      for (let index = 0; index < conversation.questions.length; index += sizes.questionStride) {
        await evaluateQuestion(engram, conversation, ingested, index, bm25, recent, state, composeMs);
      }
      latency.push({
        sample_id: conversation.sample_id,
        store_events: events,
        store_mib: storeSizeMiB(path),
        compose: summarize(composeMs),
      });
      log(
        `${conversation.sample_id}: ${conversation.turns.length} turns in ${(ingested.ms / 1000).toFixed(1)} s, ${ingested.items} items; ${composeMs.length} composes, p50 ${latency.at(-1)!.compose.p50_ms} ms`,
      );
    }
    backlog = await engram.maintenance.embeddingBacklog();
  });
  return assemble(
    conversations,
    audit,
    sizes,
    state,
    { events, items, turnsWithItems, agentTasks, ingestMs, embedMs, backlog },
    wholeTokens,
    latency,
  );
}

function assemble(
  conversations: readonly LocomoConversation[],
  audit: EvidenceAudit,
  sizes: LocomoSizes,
  state: RunState,
  written: {
    events: number;
    items: number;
    turnsWithItems: number;
    agentTasks: number;
    ingestMs: number;
    embedMs: number;
    backlog: number;
  },
  wholeTokens: readonly number[],
  latency: LatencyAtSize[],
): LocomoResult {
  const scores = state.board.scores();
  const at = (system: SystemScore['system'], budget: number) =>
    scores.find((score) => score.system === system && score.budget === budget)!;
  const turns = conversations.reduce((sum, conversation) => sum + conversation.turns.length, 0);
  const questions: Record<string, number> = {};
  for (const conversation of conversations) {
    for (let index = 0; index < conversation.questions.length; index += sizes.questionStride) {
      const category = String(conversation.questions[index]!.category);
      questions[category] = (questions[category] ?? 0) + 1;
    }
  }
  return {
    dataset: { path: locomoPath(), conversations: conversations.length, turns, questions, evidence: audit },
    sizes,
    budgets: LOCOMO_BUDGETS,
    targets: {
      ...LOCOMO_TARGETS,
      met_at: LOCOMO_BUDGETS.filter((budget) => at('engram', budget).overall_1_4 >= LOCOMO_TARGETS.recall[budget]!),
      lead: Object.fromEntries(
        LOCOMO_BUDGETS.map((budget) => [
          String(budget),
          Math.round((at('engram', budget).overall_1_4 - at('bm25', budget).overall_1_4) * 1000) / 1000,
        ]),
      ),
    },
    ingestion: {
      turns,
      events: written.events,
      items: written.items,
      turns_with_items: written.turnsWithItems,
      agent_sourced_tasks: written.agentTasks,
      seconds: Math.round(written.ingestMs / 100) / 10,
      turns_per_s: Math.round(turns / (written.ingestMs / 1000)),
      embed_seconds: Math.round(written.embedMs / 100) / 10,
      embedded_per_s: Math.round(written.events / Math.max(0.001, written.embedMs / 1000)),
      embedding_backlog: written.backlog,
    },
    scores,
    full_conversation: {
      mean_tokens: Math.round(wholeTokens.reduce((sum, value) => sum + value, 0) / Math.max(1, wholeTokens.length)),
      min_tokens: Math.min(...wholeTokens),
      max_tokens: Math.max(...wholeTokens),
    },
    latency_by_store_size: latency,
    engram_misses: Object.fromEntries(
      [...state.misses].map(([budget, log]) => [String(budget), log.summary(budget === DETAIL_BUDGET ? 40 : 0)]),
    ),
  };
}
