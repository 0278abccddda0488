// The passages a compose reads for its cues: how many (they follow the budget), searched by words,
// meaning and time (cue-search.ts) in the user's history at the packet's time, then ranked with the
// turns around them (cue-passages.ts); with how the search went, for the packet's explain.

import type { ComposeRequest } from '../spec/requests.js';
import type { Scope } from '../spec/scope.js';
import type { StorageAdapter } from '../spec/storage.js';
import { NEVER_SHARED } from '../events/sensitivity.js';
import { toIso } from '../util/clock.js';
import { asksWhen, resolveTimeWindows } from '../util/time/time-expressions.js';
import { contextDepth, withAdjacentTurns, type CuePassage } from './cue-passages.js';
import { cueText, searchCues, type CueEmbedder, type CueSearchReport } from './cue-search.js';
import type { PurposePolicy } from './policy.js';

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
    meaning_weight: 0,
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
  const hits = await withAdjacentTurns(storage, cues.hits, filters, contextDepth(policy.query_quotes, pool), pool, {
    terms,
    subject: cues.report.subject,
    asksWhen: asksWhen(text),
  });
  const { unembedded_candidates: _asked, ...report } = cues.report;
  return { hits, retrieval: { ...report, reference_time: reference } };
}
