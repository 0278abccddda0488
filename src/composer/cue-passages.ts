// The passages of the user's history that a compose offers for its cues: the events the full-text
// search ranked, and the turns next to the best of them. In a conversation the answer to a
// question often shares no word with it but sits right after (or before) a turn that does.

import type { EventRecord } from '../spec/event.js';
import type { NeighbourQuery, StorageAdapter } from '../spec/storage.js';

/** A passage offered for the cues, with the rule that chose it. */
export interface CuePassage {
  event: EventRecord;
  rule: string;
}

/** A ranked match of the cues: its event, its score (higher is better) and the rule that found it. */
export interface RankedCue extends CuePassage {
  score: number;
}

/** A neighbour ranks at this share of its anchor's score: above weak matches, below its anchor. */
export const ADJACENT_WEIGHT = 0.5;

/** The event filters of the compose (scope, time, sensitivity). */
export type NeighbourBase = Omit<NeighbourQuery, 'anchors' | 'kinds'>;

/**
 * The ranked hits and the messages right before and after each of the first `anchors` hits in
 * the same session, ordered by score (a neighbour scores half its anchor), at most `limit` of
 * them. A neighbour that is itself a hit keeps its own rank.
 *
 * @example
 * const passages = await withAdjacentTurns(storage, hits, base, 10, 40);
 */
export async function withAdjacentTurns(
  storage: StorageAdapter,
  hits: readonly RankedCue[],
  base: NeighbourBase,
  anchors: number,
  limit: number,
): Promise<CuePassage[]> {
  const ranked = hits.map((hit, index) => ({ event: hit.event, score: hit.score, order: index * 3, rule: hit.rule }));
  const taken = new Set(hits.map((hit) => hit.event.id));
  // With `limit` hits already, a neighbour scoring below the last of them would be cut: its anchor's
  // turns are not read (a tie may still place it, ahead of later hits).
  const floor = hits.length >= limit ? hits[limit - 1]!.score : Number.NEGATIVE_INFINITY;
  const reach = hits.slice(0, anchors).findIndex((hit) => hit.score * ADJACENT_WEIGHT < floor);
  const anchored = hits.slice(0, reach < 0 ? anchors : reach).map((hit) => ({ id: hit.event.id, session_id: hit.event.session_id }));
  const neighbours = anchored.length === 0 ? [] : await storage.neighbourEvents({ ...base, kinds: ['message'], anchors: anchored });
  for (const [index, { before, after }] of neighbours.entries()) {
    const anchor = ranked[index]!;
    for (const [side, event] of [before, after].entries()) {
      if (event === null) continue;
      if (taken.has(event.id)) continue;
      taken.add(event.id);
      ranked.push({ event, score: anchor.score * ADJACENT_WEIGHT, order: anchor.order + 1 + side, rule: `cue.adjacent_turn(next to rank ${index + 1})` });
    }
  }
  return ranked
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, limit)
    .map(({ event, rule }) => ({ event, rule }));
}
