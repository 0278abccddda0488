// Tallies of the LoCoMo run: evidence recall per system, budget and question category, the tokens
// each context used, and latencies; then the figures written to bench/results/locomo.json.

import type { LocomoQuestion } from './locomo-data.js';
import { round, summarize, type LatencySummary } from './stats.js';

export type SystemName = 'engram' | 'recent' | 'bm25';
export type Category = LocomoQuestion['category'];

export const SYSTEM_LABEL: Readonly<Record<SystemName, string>> = {
  engram: 'Engram (responder packet)',
  recent: 'most recent turns',
  bm25: 'BM25 over raw turns',
};

/** LoCoMo's category ids as the upstream evaluation reads them (not the paper's list order). */
export const CATEGORY_LABEL: Readonly<Record<Category, string>> = {
  1: 'multi-hop',
  2: 'temporal',
  3: 'open-domain',
  4: 'single-hop',
  5: 'adversarial',
};

export interface SystemScore {
  system: SystemName;
  budget: number;
  /** Mean evidence recall per category, over the questions with evidence. */
  recall: Record<Category, number>;
  /** Mean over all questions of categories 1–4 (each question counts once). */
  overall_1_4: number;
  /** Engram only: recall counting only evidence whose text the packet shows (not a bare reference). */
  shown_overall_1_4?: number;
  /**
   * How much of the answer a context shows with its evidence (`answerShown`), mean over the
   * questions of categories 1–4 whose evidence turns hold a word of their answer.
   */
  answer_shown_1_4: number;
  questions: Record<Category, number>;
  /** Mean tokens of the context, over every question (categories 1–5). */
  mean_tokens: number;
  /** Engram: compose; BM25: ranking and packing. Over every question. */
  latency?: LatencySummary;
}

class Tally {
  readonly sums = new Map<Category, number>();
  readonly counts = new Map<Category, number>();
  shownSum = 0;
  answerSum = 0;
  answerCount = 0;
  tokens = 0;
  contexts = 0;
  readonly latencies: number[] = [];

  add(category: Category, recall: number | null, tokens: number, shown?: number | null, answer?: number | null): void {
    this.tokens += tokens;
    this.contexts += 1;
    if (answer !== undefined && answer !== null && category !== 5) {
      this.answerSum += answer;
      this.answerCount += 1;
    }
    if (recall === null) return;
    this.sums.set(category, (this.sums.get(category) ?? 0) + recall);
    this.counts.set(category, (this.counts.get(category) ?? 0) + 1);
    if (shown !== undefined && shown !== null && category !== 5) this.shownSum += shown;
  }
}

/** Recall and tokens per system and budget, filled question by question. */
export class Scoreboard {
  private readonly tallies = new Map<string, Tally>();

  constructor(readonly budgets: readonly number[]) {}

  private tally(system: SystemName, budget: number): Tally {
    const key = `${system}@${budget}`;
    let tally = this.tallies.get(key);
    if (tally === undefined) {
      tally = new Tally();
      this.tallies.set(key, tally);
    }
    return tally;
  }

  /** One question's context from one system at one budget. */
  add(
    system: SystemName,
    budget: number,
    entry: {
      category: Category;
      recall: number | null;
      tokens: number;
      shown?: number | null;
      answer?: number | null;
      ms?: number;
    },
  ): void {
    const tally = this.tally(system, budget);
    tally.add(entry.category, entry.recall, entry.tokens, entry.shown, entry.answer);
    if (entry.ms !== undefined) tally.latencies.push(entry.ms);
  }

  scores(): SystemScore[] {
    const out: SystemScore[] = [];
    for (const system of ['engram', 'bm25', 'recent'] as const) {
      for (const budget of this.budgets) out.push(this.score(system, budget));
    }
    return out;
  }

  private score(system: SystemName, budget: number): SystemScore {
    const tally = this.tally(system, budget);
    const recall = {} as Record<Category, number>;
    const questions = {} as Record<Category, number>;
    let sum = 0;
    let count = 0;
    for (const category of [1, 2, 3, 4, 5] as const) {
      const n = tally.counts.get(category) ?? 0;
      const total = tally.sums.get(category) ?? 0;
      questions[category] = n;
      recall[category] = n === 0 ? Number.NaN : round(total / n, 3);
      if (category !== 5) {
        sum += total;
        count += n;
      }
    }
    return {
      system,
      budget,
      recall,
      overall_1_4: round(sum / Math.max(1, count), 3),
      ...(system === 'engram' ? { shown_overall_1_4: round(tally.shownSum / Math.max(1, count), 3) } : {}),
      answer_shown_1_4: round(tally.answerSum / Math.max(1, tally.answerCount), 3),
      questions,
      mean_tokens: Math.round(tally.tokens / Math.max(1, tally.contexts)),
      ...(tally.latencies.length > 0 ? { latency: summarize(tally.latencies) } : {}),
    };
  }
}

/** Why Engram's packet missed an evidence turn (at one budget). */
export type MissCause =
  /** Among the passages compose asks the event index for, but left out for the budget. */
  | 'omitted_for_budget'
  /** Matched by the query's words, but ranked below the passages compose asks for. */
  | 'ranked_below_cut'
  /** No content word of the question is in the turn (after stop words and stemming). */
  | 'no_shared_word';

export interface MissExample {
  sample_id: string;
  /** Index of the question in the conversation's `qa` list. */
  question_index: number;
  category: Category;
  dia_id: string;
  cause: MissCause;
  /** The turn's rank in the event search of the same query (null when unmatched in the top 200). */
  search_rank: number | null;
  /** Whether a memory item was extracted from the turn. */
  stored_as_item: boolean;
}

/** The misses of Engram at one budget, by cause, with every example kept for the report. */
export class MissLog {
  readonly counts: Record<MissCause, number> = { omitted_for_budget: 0, ranked_below_cut: 0, no_shared_word: 0 };
  evidenceTurns = 0;
  turnsWithItems = 0;
  /** Evidence turns sharing no content word with their question, and how many of them packets cited. */
  readonly wordless = { turns: 0, cited: 0 };
  readonly examples: MissExample[] = [];

  add(example: MissExample): void {
    this.counts[example.cause] += 1;
    if (example.stored_as_item) this.turnsWithItems += 1;
    this.examples.push(example);
  }

  summary(limit: number) {
    return {
      evidence_turns: this.evidenceTurns,
      missed: this.examples.length,
      by_cause: this.counts,
      missed_turns_stored_as_items: this.turnsWithItems,
      no_shared_word: {
        turns: this.wordless.turns,
        cited: this.wordless.cited,
        recall:
          this.wordless.turns === 0 ? null : Math.round((this.wordless.cited / this.wordless.turns) * 1000) / 1000,
      },
      examples: this.examples.slice(0, limit),
    };
  }
}
