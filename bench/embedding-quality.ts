// What an embedding model is worth to retrieval, measured without a store: LoCoMo turn-level
// evidence recall@10 (each question against every turn of its conversation, by cosine alone and
// fused with BM25 by reciprocal rank), the same on evidence turns sharing no content word with the
// question, vector-only ranks on bench/data/retrieval-set.json, and a Chinese paraphrase check.

import { createRequire } from 'node:module';

import type { RememberRequest } from '../src/index.js';
import { chunkEmbeddingText, chunkText } from '../src/items/chunk.js';
import { dot } from '../src/util/vectors.js';
import { Bm25Baseline } from './locomo-baselines.js';
import type { LocomoConversation } from './locomo-data.js';
import { loadRetrievalSet } from './retrieval-bench.js';
import { round } from './stats.js';

/** Embeds texts in order (a model wrapped with embedTexts). */
export type EmbedAll = (texts: readonly string[]) => Promise<Float32Array[]>;

export interface LocomoQuality {
  questions: number;
  recall_at_10: number;
  /** Recall@10 fused with BM25 (reciprocal rank, k = 60, as src/retrieval). */
  fused_recall_at_10: number;
  /** (question, evidence turn) pairs with no content word in common, and the share found alone / fused. */
  no_shared_word_pairs: number;
  no_shared_word_recall_at_10: number;
  no_shared_word_fused_recall_at_10: number;
}

export interface SetQuality {
  paraphrase_recall_at_1: number;
  paraphrase_recall_at_5: number;
  paraphrase_mrr_at_10: number;
  lexical_mrr_at_10: number;
}

const K = 10;
const RRF_K = 60;
const require = createRequire(import.meta.url);
const wink = require('wink-nlp-utils') as {
  string: { lowerCase(text: string): string; tokenize0(text: string): string[] };
  tokens: { removeWords(tokens: string[]): string[]; stem(tokens: string[]): string[] };
};

/** Content words as the BM25 baseline indexes them: lower case, no stop words, Porter stems. */
export function contentWords(text: string): Set<string> {
  return new Set(
    wink.tokens
      .stem(wink.tokens.removeWords(wink.string.tokenize0(wink.string.lowerCase(text))))
      .filter((word) => /\w/u.test(word)),
  );
}

function byCosine(query: Float32Array, vectors: readonly Float32Array[]): number[] {
  const scores = vectors.map((vector) => dot(query, vector));
  return scores.map((_, index) => index).sort((a, b) => scores[b]! - scores[a]! || a - b);
}

function fuse(dense: readonly number[], lexical: readonly number[], size: number): number[] {
  const scores = new Float64Array(size);
  dense.forEach((turn, rank) => (scores[turn]! += 1 / (RRF_K + rank + 1)));
  lexical.forEach((turn, rank) => (scores[turn]! += 1 / (RRF_K + rank + 1)));
  return Array.from({ length: size }, (_, index) => index).sort((a, b) => scores[b]! - scores[a]! || a - b);
}

/** The questions of categories 1–4 that name evidence, as each quality run reads them. */
export function scoredQuestions(conversation: LocomoConversation): LocomoConversation['questions'] {
  return conversation.questions.filter((question) => question.category <= 4 && question.evidence.length > 0);
}

/** Recall@10 of the model alone and fused with BM25, over every question of categories 1–4. */
export async function locomoQuality(
  conversations: readonly LocomoConversation[],
  embed: EmbedAll,
): Promise<LocomoQuality> {
  const sums = { recall: 0, fused: 0, questions: 0, pairs: 0, pairsFound: 0, pairsFused: 0 };
  for (const conversation of conversations) {
    const questions = scoredQuestions(conversation);
    const turns = await embed(conversation.turns.map((turn) => turn.text));
    const queries = await embed(questions.map((question) => question.question));
    const bm25 = new Bm25Baseline(conversation.turns);
    const position = new Map(conversation.turns.map((turn, index) => [turn, index]));
    const byId = new Map(conversation.turns.map((turn, index) => [turn.dia_id, index]));
    questions.forEach((question, at) => {
      const dense = byCosine(queries[at]!, turns);
      const fused = fuse(
        dense,
        bm25.rank(question.question).map((turn) => position.get(turn)!),
        turns.length,
      );
      const top = new Set(dense.slice(0, K));
      const topFused = new Set(fused.slice(0, K));
      const evidence = [...new Set(question.evidence)].map((id) => byId.get(id)!);
      sums.recall += evidence.filter((turn) => top.has(turn)).length / evidence.length;
      sums.fused += evidence.filter((turn) => topFused.has(turn)).length / evidence.length;
      sums.questions += 1;
      const asked = contentWords(question.question);
      for (const turn of evidence) {
        if ([...contentWords(conversation.turns[turn]!.text)].some((word) => asked.has(word))) continue;
        sums.pairs += 1;
        if (top.has(turn)) sums.pairsFound += 1;
        if (topFused.has(turn)) sums.pairsFused += 1;
      }
    });
  }
  const share = (part: number, whole: number) => round(whole === 0 ? 0 : part / whole, 3);
  return {
    questions: sums.questions,
    recall_at_10: share(sums.recall, sums.questions),
    fused_recall_at_10: share(sums.fused, sums.questions),
    no_shared_word_pairs: sums.pairs,
    no_shared_word_recall_at_10: share(sums.pairsFound, sums.pairs),
    no_shared_word_fused_recall_at_10: share(sums.pairsFused, sums.pairs),
  };
}

/** BM25 alone on the same questions (its no-shared-word recall is 0 by construction). */
export function bm25Quality(conversations: readonly LocomoConversation[]): { questions: number; recall_at_10: number } {
  let recall = 0;
  let questions = 0;
  for (const conversation of conversations) {
    const bm25 = new Bm25Baseline(conversation.turns);
    for (const question of scoredQuestions(conversation)) {
      const top = new Set(
        bm25
          .rank(question.question)
          .slice(0, K)
          .map((turn) => turn.dia_id),
      );
      const evidence = [...new Set(question.evidence)];
      recall += evidence.filter((id) => top.has(id)).length / evidence.length;
      questions += 1;
    }
  }
  return { questions, recall_at_10: round(recall / Math.max(1, questions), 3) };
}

function itemText(item: RememberRequest): string {
  const text = chunkText({
    type: item.type,
    key: item.key,
    value: item.value,
    updated_at: '2026-01-01T00:00:00.000Z',
    tags: item.tags ?? [],
    entities: item.entities ?? [],
  });
  return chunkEmbeddingText(text);
}

/**
 * Vector-only ranks on the labelled retrieval set: each query against the items of its user, by
 * cosine between the query and the text the embedding worker embeds for an item.
 */
export async function retrievalSetQuality(embed: EmbedAll): Promise<SetQuality> {
  const set = loadRetrievalSet();
  const items = await embed(set.items.map(itemText));
  const queries = await embed(set.queries.map((query) => query.query));
  const ranks: Record<'paraphrase' | 'lexical', Array<number | null>> = { paraphrase: [], lexical: [] };
  set.queries.forEach((query, at) => {
    const visible = set.items
      .map((_, index) => index)
      .filter((index) => set.items[index]!.scope.user_id === query.scope.user_id);
    const order = byCosine(
      queries[at]!,
      visible.map((index) => items[index]!),
    ).map((index) => visible[index]!);
    const rank = order.findIndex((index) => query.expected.includes(set.items[index]!.key));
    ranks[query.kind].push(rank === -1 ? null : rank + 1);
  });
  const within = (values: Array<number | null>, k: number) =>
    round(values.filter((rank) => rank !== null && rank <= k).length / values.length, 3);
  const mrr = (values: Array<number | null>) =>
    round(
      values.reduce<number>((sum, rank) => sum + (rank !== null && rank <= 10 ? 1 / rank : 0), 0) / values.length,
      3,
    );
  return {
    paraphrase_recall_at_1: within(ranks.paraphrase, 1),
    paraphrase_recall_at_5: within(ranks.paraphrase, 5),
    paraphrase_mrr_at_10: mrr(ranks.paraphrase),
    lexical_mrr_at_10: mrr(ranks.lexical),
  };
}

/** Chinese paraphrase pairs (the second says the first in other words); each pair's texts are unrelated to the others'. */
const CHINESE_PAIRS: ReadonlyArray<readonly [string, string]> = [
  ['我早上喜欢喝绿茶。', '每天早晨我都爱来一杯绿茶。'],
  ['我们下周五飞去北京。', '下个星期五我们坐飞机去北京。'],
  ['我的狗叫小白，它很调皮。', '我家小狗名字叫小白，特别淘气。'],
  ['这个报告明天必须交给老板。', '老板要求明天之前提交这份报告。'],
  ['我对花生过敏。', '我不能吃花生，会过敏。'],
  ['周末我们去山里露营了。', '上个周末我们到山上搭帐篷过夜。'],
];

/**
 * Whether the model tells Chinese texts apart: the share of pairs whose paraphrase is the nearest
 * of the other texts, the mean cosine of the pairs and of unrelated texts, and how many texts got a
 * vector of their own (a model that reads no Chinese gives them all the same one).
 */
export async function chineseQuality(embed: EmbedAll): Promise<{
  pairs: number;
  paraphrase_first: number;
  pair_cosine: number;
  unrelated_cosine: number;
  distinct_vectors: number;
}> {
  const texts = CHINESE_PAIRS.flat();
  const vectors = await embed(texts);
  let first = 0;
  let pairCosine = 0;
  let unrelated = 0;
  let unrelatedCount = 0;
  CHINESE_PAIRS.forEach((_, pair) => {
    const [a, b] = [vectors[pair * 2]!, vectors[pair * 2 + 1]!];
    pairCosine += dot(a, b);
    const others = vectors.map((vector, index) => ({
      index,
      score: index === pair * 2 ? Number.NEGATIVE_INFINITY : dot(a, vector),
    }));
    // Ties count against the model: the paraphrase must be strictly nearest.
    const best = Math.max(...others.map((other) => other.score));
    if (
      others.filter((other) => other.score === best).length === 1 &&
      others.find((other) => other.score === best)!.index === pair * 2 + 1
    )
      first += 1;
    vectors.forEach((vector, index) => {
      if (Math.floor(index / 2) === pair) return;
      unrelated += dot(a, vector);
      unrelatedCount += 1;
    });
  });
  const distinct = new Set(vectors.map((vector) => Array.from(vector, (value) => value.toFixed(6)).join(','))).size;
  return {
    pairs: CHINESE_PAIRS.length,
    paraphrase_first: first,
    pair_cosine: round(pairCosine / CHINESE_PAIRS.length, 3),
    unrelated_cosine: round(unrelated / unrelatedCount, 3),
    distinct_vectors: distinct,
  };
}
