// The read path: compose latency for random existing sessions, purposes in turn, half the requests
// with a cue query; and, on the same queries, the bare full-text search through searchEvents (of an
// Engram that keeps no searched words, when one is given).

import type { Engram, Purpose } from '../src/index.js';
import { cueQuery, seededRandom, type SessionPlan } from './corpus.js';
import { nowMs, round, summarize, type LatencySummary } from './stats.js';

const PURPOSES: readonly Purpose[] = ['planner', 'tool', 'responder'];

/** The default `query_quotes` of each purpose (src/composer/policy.ts), so search asks for as many hits as compose. */
const QUERY_QUOTES: Readonly<Record<Purpose, number>> = { planner: 6, tool: 4, responder: 10 };

export interface ComposeOptions {
  warmup: number;
  samples: number;
  seed: number;
  /** The Engram the search pass asks (default: the one composing); one that keeps no searched words times the full-text index itself. */
  searcher?: Engram;
}

export interface ComposeResult {
  store_events: number;
  store_mib: number;
  compose: LatencySummary;
  compose_with_query: LatencySummary;
  compose_without_query: LatencySummary;
  by_purpose: Record<Purpose, LatencySummary>;
  search: LatencySummary;
  /** compose-with-query p50 over search p50. */
  compose_over_search_p50: number;
  mean_search_hits: number;
  mean_packet_tokens: number;
}

interface Sample {
  plan: SessionPlan;
  purpose: Purpose;
  query: string | undefined;
}

function planSamples(sessions: readonly SessionPlan[], count: number, seed: number): Sample[] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, (_, index) => ({
    plan: sessions[Math.floor(random() * sessions.length)]!,
    purpose: PURPOSES[index % PURPOSES.length]!,
    query: index % 2 === 0 ? cueQuery(random) : undefined,
  }));
}

async function composeOnce(engram: Engram, sample: Sample): Promise<number> {
  const packet = await engram.compose({
    scope: sample.plan.scope,
    purpose: sample.purpose,
    ...(sample.query === undefined ? {} : { cues: { query: sample.query } }),
  });
  return packet.budget_report.used_tokens_est;
}

async function searchOnce(engram: Engram, sample: Sample, query: string): Promise<number> {
  const { user_id, agent_id } = sample.plan.scope;
  const hits = await engram.events.search({ scope: { user_id, agent_id }, query, limit: QUERY_QUOTES[sample.purpose] });
  return hits.length;
}

/**
 * Measures compose and searchEvents on a store that already holds `sessions`. The same sample list
 * feeds both passes, so the search pass runs exactly the queries compose ran.
 */
export async function benchCompose(
  engram: Engram,
  sessions: readonly SessionPlan[],
  store: { events: number; mib: number },
  options: ComposeOptions,
): Promise<ComposeResult> {
  const searcher = options.searcher ?? engram;
  for (const sample of planSamples(sessions, options.warmup, options.seed + 1)) {
    await composeOnce(engram, sample);
    if (sample.query !== undefined) await searchOnce(searcher, sample, sample.query);
  }

  const samples = planSamples(sessions, options.samples, options.seed);
  const all: number[] = [];
  const withQuery: number[] = [];
  const withoutQuery: number[] = [];
  const byPurpose: Record<Purpose, number[]> = { planner: [], tool: [], responder: [] };
  let tokens = 0;
  for (const sample of samples) {
    const start = nowMs();
    tokens += await composeOnce(engram, sample);
    const ms = nowMs() - start;
    all.push(ms);
    (sample.query === undefined ? withoutQuery : withQuery).push(ms);
    byPurpose[sample.purpose].push(ms);
  }

  const search: number[] = [];
  let hits = 0;
  for (const sample of samples) {
    if (sample.query === undefined) continue;
    const start = nowMs();
    hits += await searchOnce(searcher, sample, sample.query);
    search.push(nowMs() - start);
  }

  const composeWithQuery = summarize(withQuery);
  const searchSummary = summarize(search);
  return {
    store_events: store.events,
    store_mib: store.mib,
    compose: summarize(all),
    compose_with_query: composeWithQuery,
    compose_without_query: summarize(withoutQuery),
    by_purpose: {
      planner: summarize(byPurpose.planner),
      tool: summarize(byPurpose.tool),
      responder: summarize(byPurpose.responder),
    },
    search: searchSummary,
    compose_over_search_p50: round(composeWithQuery.p50_ms / searchSummary.p50_ms, 1),
    mean_search_hits: round(hits / Math.max(1, search.length), 1),
    mean_packet_tokens: Math.round(tokens / samples.length),
  };
}
