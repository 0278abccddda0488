// The retention gate (MemoryTypes v0.1 §5): every message and tool result gets a decision with its
// reason. Must-write candidates (tool results that change state, refs, decisions, tasks, explicit
// denials) are written; may-write ones (preferences, goals, repeated or emphasised entities and
// events) only when confident; the rest — small talk, venting, speculation, one-off content —
// stays in the log only.

import type { ExtractionEvent, ItemCandidate } from '../spec/items.js';
import type { GateDecision } from '../spec/requests.js';
import { silenceOf } from './rules/speculation.js';

export interface GateOptions {
  /** Least confidence for a may-write candidate to be written. */
  mayThreshold: number;
}

export const DEFAULT_GATE: GateOptions = { mayThreshold: 0.6 };

/** Why an event produced nothing: the most specific reason its text shows. */
const REASONS: Record<string, string> = {
  small_talk: 'small talk: stays in the log only',
  venting: 'emotional venting: stays in the log only',
  speculation: 'speculative or unconfirmed: stays in the log only',
};

function neverReason(event: ExtractionEvent): string {
  if (event.kind === 'tool_result') return 'read-only tool output: no artifact or state change to keep';
  const text = event.text.trim();
  const silence = silenceOf(text.toLowerCase(), /\p{Script=Han}/u.test(text));
  if (silence !== undefined && REASONS[silence] !== undefined) return REASONS[silence];
  if (/[?？]$/u.test(text)) return 'a question, not a statement to remember';
  return 'no explicit durable statement: one-off content stays in the log only';
}

function describe(candidate: ItemCandidate): string {
  return `${candidate.action === 'retract' ? `retract ${candidate.key}` : candidate.key} (${candidate.rule}, ${candidate.confidence})`;
}

/**
 * Decides, for each event, what of its candidates is written, and which go to the review queue
 * instead (`proposed`: the readings of a statement a person must choose between).
 *
 * @example
 * const { decisions, accepted } = applyGate(events, candidates);
 */
export function applyGate(
  events: readonly ExtractionEvent[],
  candidates: readonly ItemCandidate[],
  options: GateOptions = DEFAULT_GATE,
): { decisions: GateDecision[]; accepted: ItemCandidate[]; proposed: ItemCandidate[] } {
  const accepted: ItemCandidate[] = [];
  const proposed: ItemCandidate[] = [];
  const decisions = events.map((event): GateDecision => {
    const all = candidates.filter((candidate) => candidate.source_event_ids.includes(event.event_id));
    if (all.length === 0)
      return { event_id: event.event_id, decision: 'never', wrote: false, reason: neverReason(event), rules: [] };
    // A statement with several readings writes none of them: each goes to the review queue.
    const review = all.filter((candidate) => candidate.review !== undefined);
    for (const candidate of review) if (!proposed.includes(candidate)) proposed.push(candidate);
    const own = all.filter((candidate) => candidate.review === undefined);
    const must = own.filter((candidate) => candidate.gate === 'must' || candidate.action === 'retract');
    const may = own.filter((candidate) => !must.includes(candidate));
    const mayWritten = may.filter((candidate) => candidate.confidence >= options.mayThreshold);
    const mayHeld = may.filter((candidate) => !mayWritten.includes(candidate));
    for (const candidate of [...must, ...mayWritten]) if (!accepted.includes(candidate)) accepted.push(candidate);
    const parts: string[] = [];
    if (must.length > 0) parts.push(`must write: ${must.map(describe).join('; ')}`);
    if (mayWritten.length > 0) parts.push(`may write, confident: ${mayWritten.map(describe).join('; ')}`);
    if (mayHeld.length > 0)
      parts.push(`may write, held below confidence ${options.mayThreshold}: ${mayHeld.map(describe).join('; ')}`);
    if (review.length > 0)
      parts.push(`proposed for review, one reading each (${review[0]!.review}): ${review.map(describe).join('; ')}`);
    const decision = must.length > 0 || review.some((candidate) => candidate.gate === 'must') ? 'must' : 'may';
    return {
      event_id: event.event_id,
      decision,
      wrote: must.length + mayWritten.length > 0,
      reason: parts.join(' | '),
      rules: [...new Set(all.map((candidate) => candidate.rule))],
    };
  });
  return { decisions, accepted, proposed };
}
