// The LoCoMo results as Markdown: recall per budget and system beside the targets, why Engram's
// packets missed evidence, and compose latency as the store grew.

import type { LocomoResult } from './locomo-bench.js';
import { CATEGORY_LABEL, SYSTEM_LABEL, type SystemScore } from './locomo-score.js';
import { table } from './report.js';

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

function fixed(value: number): string {
  return Number.isNaN(value) ? '—' : value.toFixed(3);
}

function ms(value: number | undefined): string {
  return value === undefined ? '—' : `${value.toFixed(value < 10 ? 2 : 1)} ms`;
}

function budgetLabel(budget: number): string {
  return budget === 256 ? '256 (250 asked)' : integer.format(budget);
}

function scoreRow(score: SystemScore): string[] {
  return [
    budgetLabel(score.budget),
    SYSTEM_LABEL[score.system],
    ...([1, 2, 3, 4] as const).map((category) => fixed(score.recall[category])),
    `**${fixed(score.overall_1_4)}**`,
    fixed(score.recall[5]),
    integer.format(score.mean_tokens),
    ms(score.latency?.p50_ms),
    ms(score.latency?.p95_ms),
  ];
}

/** Recall per budget and system, the whole conversation for scale, and the verdict on the targets. */
export function locomoRecallTable(result: LocomoResult): string {
  const first = result.scores.find((score) => score.system === 'engram')!;
  const header = [
    'budget (tokens)',
    'system',
    ...([1, 2, 3, 4] as const).map((category) => `${CATEGORY_LABEL[category]} (${first.questions[category]})`),
    'overall 1–4',
    `${CATEGORY_LABEL[5]} (${first.questions[5]})`,
    'mean tokens used',
    'latency p50',
    'latency p95',
  ];
  const rows = result.budgets.flatMap((budget) =>
    result.scores.filter((score) => score.budget === budget).map(scoreRow),
  );
  const whole = result.full_conversation;
  rows.push([
    '—',
    'whole conversation',
    '1.000',
    '1.000',
    '1.000',
    '1.000',
    '**1.000**',
    '1.000',
    `${integer.format(whole.mean_tokens)} (${integer.format(whole.min_tokens)}–${integer.format(whole.max_tokens)})`,
    '—',
    '—',
  ]);
  const { targets } = result;
  const lagging = result.budgets.filter((budget) => targets.lead[String(budget)]! < targets.lead_over_bm25);
  const verdict = [
    "Recall is the mean over questions; overall 1–4 counts each question once. Latency: Engram's compose as a caller sees it (its stored context build included); BM25's ranking and packing, in memory. Tokens: Engram's `used_tokens_est` (o200k, framing and item ids included); baselines' turn lines (o200k).",
    '',
    `Targets, evidence recall over categories 1–4 ≥ ${result.budgets.map((budget) => fixed(targets.recall[budget]!)).join(' / ')}: ${targets.met_at.length === result.budgets.length ? 'PASS' : `MISS (met at ${targets.met_at.length === 0 ? 'no budget' : targets.met_at.map(budgetLabel).join(', ')})`}.`,
    `Ahead of BM25 by ≥ ${targets.lead_over_bm25} at every budget: ${lagging.length === 0 ? 'PASS' : `MISS (not at ${lagging.map(budgetLabel).join(', ')})`} (by ${result.budgets.map((budget) => fixed(targets.lead[String(budget)]!)).join(' / ')}).`,
    `Counting only evidence whose text the packet shows (not a bare id), Engram's overall 1–4 is ${result.scores
      .filter((score) => score.system === 'engram')
      .map((score) => `${fixed(score.shown_overall_1_4 ?? Number.NaN)} at ${budgetLabel(score.budget)}`)
      .join(', ')}.`,
    `The answer shown with its evidence (of the reference answer's words that the evidence turns hold, the share found in the text the context shows for them; categories 1–4, by budget): ${(
      ['engram', 'bm25'] as const
    )
      .map(
        (system) =>
          `${SYSTEM_LABEL[system]} ${result.scores
            .filter((score) => score.system === system)
            .map((score) => fixed(score.answer_shown_1_4))
            .join(' / ')}`,
      )
      .join('; ')}.`,
  ];
  return [table(header, rows), '', ...verdict].join('\n');
}

/** Why Engram's packets missed evidence turns, per budget. */
export function locomoMissTable(result: LocomoResult): string {
  const rows = result.budgets.map((budget) => {
    const log = result.engram_misses[String(budget)]!;
    return [
      budgetLabel(budget),
      integer.format(log.evidence_turns),
      integer.format(log.missed),
      integer.format(log.by_cause.omitted_for_budget),
      integer.format(log.by_cause.ranked_below_cut),
      integer.format(log.by_cause.no_shared_word),
      integer.format(log.missed_turns_stored_as_items),
      log.no_shared_word.recall === null
        ? '—'
        : `${fixed(log.no_shared_word.recall)} (${integer.format(log.no_shared_word.cited)} of ${integer.format(log.no_shared_word.turns)})`,
    ];
  });
  return table(
    [
      'budget',
      'evidence turns (1–4)',
      'missed',
      'found, left out for the budget',
      'matched, ranked below the passages compose read',
      'no content word in common',
      'missed turns with an extracted item',
      'cited, of the turns with no content word in common',
    ],
    rows,
  );
}

/** Compose latency after each conversation was added to the store. */
export function locomoLatencyTable(result: LocomoResult): string {
  return table(
    ['after', 'store events', 'store size', 'composes', 'compose p50', 'compose p95'],
    result.latency_by_store_size.map((point) => [
      point.sample_id,
      integer.format(point.store_events),
      `${point.store_mib} MiB`,
      integer.format(point.compose.samples),
      ms(point.compose.p50_ms),
      ms(point.compose.p95_ms),
    ]),
  );
}

/** Everything printed after a LoCoMo run. */
export function locomoReport(result: LocomoResult): string {
  const audit = result.dataset.evidence;
  const ingestion = result.ingestion;
  return [
    locomoRecallTable(result),
    '',
    `${result.dataset.conversations} conversations, ${integer.format(ingestion.turns)} turns committed in ${ingestion.seconds} s (${integer.format(ingestion.turns_per_s)} turns/s), ` +
      `${integer.format(ingestion.items)} memory items extracted from ${integer.format(ingestion.turns_with_items)} turns (${integer.format(ingestion.agent_sourced_tasks)} of them tasks drawn only from the agent's turns); their texts embedded in ${ingestion.embed_seconds} s (${integer.format(ingestion.embedded_per_s)} events/s, ${integer.format(ingestion.embedding_backlog)} left waiting). ` +
      `Evidence: ${integer.format(audit.evidence_strings)} strings, ${audit.malformed} not one id of an existing turn (${audit.repaired} repaired, dropped: ${audit.dropped.join(', ') || 'none'}); ${audit.questions_without_evidence} questions without evidence are left out.`,
    '',
    'Why Engram missed evidence turns (categories 1–4):',
    '',
    locomoMissTable(result),
    '',
    'Compose latency as the store grew (all budgets, every question of the conversation just added):',
    '',
    locomoLatencyTable(result),
  ].join('\n');
}
