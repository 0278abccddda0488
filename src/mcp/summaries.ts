// The short text beside each tool's structured result: what a client that shows only text (and the
// model behind it) needs to go on — ids, keys, readable values — in a few lines, never the whole JSON.

import {
  describeItem,
  type CommitTurnResult,
  type DecisionResult,
  type ItemDiff,
  type ReviewCandidate,
  type SearchHit,
  type WorkingState,
} from '../index.js';

const MAX_LINES = 20;

function lines(entries: readonly string[]): string {
  const shown = entries.slice(0, MAX_LINES);
  const more =
    entries.length > shown.length ? [`… and ${entries.length - shown.length} more (see the structured result)`] : [];
  return [...shown, ...more].join('\n');
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

function diffLine(diff: ItemDiff): string {
  return `${diff.action} ${diff.key} (v${diff.version}, ${diff.item_id})`;
}

/**
 * @example
 * commitSummary(result) // 'Committed turn t1: 2 events, working state v0.\nMemory: created pref:writing:tone (v1, mem_…)'
 */
export function commitSummary(result: CommitTurnResult): string {
  if (result.replayed)
    return `Turn ${result.turn_id} was committed before: nothing written (this is its first result).`;
  const verb = result.dry_run ? 'Dry run, nothing written: turn' : 'Committed turn';
  const head = `${verb} ${result.turn_id}: ${plural(result.events.length, 'event')}, working state v${result.working_state.state_version}.`;
  const memory = result.items.length === 0 ? [] : [`Memory: ${result.items.map(diffLine).join('; ')}`];
  const compaction =
    result.compaction === undefined
      ? []
      : [
          `Compaction snapshot ${result.compaction.snapshot_id}: ${result.compaction.status}${result.compaction.stopped ? ' (the run is stopped)' : ''}`,
        ];
  return [head, ...memory, ...compaction].join('\n');
}

/**
 * @example
 * searchSummary('tone', hits) // '2 hits for "tone":\n- pref:writing:tone = Prefers concise (writing tone) [mem_…]'
 */
export function searchSummary(query: string, hits: readonly SearchHit[]): string {
  if (hits.length === 0) return `No memory matches ${JSON.stringify(query)}.`;
  const head = `${plural(hits.length, 'hit')} for ${JSON.stringify(query)}:`;
  return `${head}\n${lines(hits.map((hit) => `- ${hit.item.key} = ${describeItem(hit.item)} [${hit.item.id}]`))}`;
}

/**
 * @example
 * changesSummary('Remembered', diffs) // 'Remembered: created pref:writing:tone (v1, mem_…)'
 */
export function changesSummary(verb: string, diffs: readonly ItemDiff[]): string {
  if (diffs.length === 0) return `${verb}: nothing changed.`;
  return `${verb}: ${diffs.map(diffLine).join('; ')}`;
}

/**
 * The state as compact JSON: it is what the model asked for, and small.
 *
 * @example
 * stateSummary(state) // 'Working state v3: {"goal":"Ship Atlas",…}'
 */
export function stateSummary(state: WorkingState): string {
  const { state_version: version, ...fields } = state;
  return `Working state v${version}: ${JSON.stringify(fields)}`;
}

function candidateText(candidate: ReviewCandidate): string {
  const payload = candidate.payload;
  const text = [payload['claim'], payload['summary'], payload['detail'], payload['statement']].find(
    (value) => typeof value === 'string',
  );
  return typeof text === 'string' ? text : candidate.kind;
}

/**
 * @example
 * candidatesSummary(page) // '2 candidates:\n- cand_… memory (pending, confidence 0.8): The user prefers bullet points.'
 */
export function candidatesSummary(candidates: readonly ReviewCandidate[], nextCursor: string | null): string {
  if (candidates.length === 0) return 'No candidates.';
  const head = `${plural(candidates.length, 'candidate')}${nextCursor === null ? '' : ` (more with cursor ${nextCursor})`}:`;
  const flags = (candidate: ReviewCandidate) =>
    candidate.sensitivity === 'normal' ? '' : `, ${candidate.sensitivity}: stays with its user`;
  return `${head}\n${lines(candidates.map((candidate) => `- ${candidate.id} ${candidate.kind} (${candidate.status}, confidence ${candidate.confidence}${flags(candidate)}): ${candidateText(candidate)}`))}`;
}

/**
 * @example
 * decisionSummary(result) // 'cand_… approved. Memory: created pref:writing:format (v1, mem_…)'
 */
export function decisionSummary(result: DecisionResult): string {
  const memory = result.items.length === 0 ? '' : ` Memory: ${result.items.map(diffLine).join('; ')}`;
  const insights = result.insight_ids.length === 0 ? '' : ` Insights: ${result.insight_ids.join(', ')}`;
  return `${result.candidate.id} ${result.candidate.status}.${memory}${insights}`;
}
