// Topic segments of one run, for rule-based reflection: the run's shareable messages and tool
// results cut where the topic shifts (the words of a new request share little with the exchanges
// before it) or where a long pause falls, one or more segments per session, at most a handful per
// run (episode-description.ts describes each; tool-sequences.ts finds recurring procedures).
// Deterministic: text, roles and times only.

import type { EventRecord } from '../spec/event.js';
import { contentText } from '../events/content-text.js';
import { isShareable } from '../events/sensitivity.js';
import { contentWords } from '../items/rules/text.js';

/** How a run is cut into segments. */
export interface SegmentOptions {
  /** Most segments of one run (never fewer than the run's sessions). Default 8. */
  maxSegments: number;
  /** A pause longer than this (ms) between two events starts a new segment. Default 30 minutes. */
  gapMs: number;
}

/**
 * At most eight segments per run; a pause of more than 30 minutes starts a new one.
 *
 * @example
 * segmentRun(units, { ...DEFAULT_SEGMENT_OPTIONS, maxSegments: 4 })
 */
export const DEFAULT_SEGMENT_OPTIONS: Readonly<SegmentOptions> = { maxSegments: 8, gapMs: 30 * 60_000 };

/** One shareable message or tool result of a run: the event, its place in the run, its text and topic terms. */
export interface RunUnit {
  event: EventRecord;
  /** Position among the run's events as given (log order). */
  index: number;
  text: string;
  terms: ReadonlySet<string>;
}

// Two windows overlapping less than this (shared terms over the smaller window) are two topics.
const SHIFT_OVERLAP = 0.15;
// Terms of the segment so far that a new request is compared with: its last few units.
const LEFT_UNITS = 4;
const RIGHT_UNITS = 4;
const COMMON_MIN_UNITS = 12;
const COMMON_SHARE = 0.25;
const HAN = /\p{Script=Han}/u;
// A plural `s` to drop ("risks"), but not the end of "atlas", "status", "analysis", "class" or "photos".
const PLURAL = /[^suiao]s$/;
// Chinese connectives the shared stop words lack.
const ZH_FUNCTION = new Set(
  '不是 而是 但是 因为 所以 如果 可以 什么 怎么 还是 就是 现在 应该 这样 那样 然后 一下 一些 或者'.split(' '),
);

/**
 * The topic terms of a text: content words (no stop words or fillers), Latin ones of 3+ letters with
 * a plural `s` dropped, Chinese ones of 2+ characters, no bare numbers.
 *
 * @example
 * topicTerms('The launch risks for Atlas') // ['launch', 'risk', 'atlas']
 */
export function topicTerms(text: string): string[] {
  const out: string[] = [];
  for (const word of contentWords(text)) {
    if (/^\p{N}+$/u.test(word)) continue;
    if (HAN.test(word)) {
      if (word.length >= 2 && !ZH_FUNCTION.has(word)) out.push(word);
    } else if (word.length >= 3) {
      out.push(word.length > 3 && PLURAL.test(word) ? word.slice(0, -1) : word);
    }
  }
  return out;
}

/**
 * The units a run is segmented into: its shareable messages and tool results, in the order given
 * (secret events, state patches and markers are left out).
 *
 * @example
 * runUnits(events).map((unit) => unit.event.kind) // ['message', 'tool_result', 'message']
 */
export function runUnits(events: readonly EventRecord[]): RunUnit[] {
  const out: RunUnit[] = [];
  events.forEach((event, index) => {
    if (!isShareable(event) || (event.kind !== 'message' && event.kind !== 'tool_result')) return;
    const text = contentText(event.content);
    // Structured output is `field: value` lines: its field names (and the tool's name) say nothing of the topic.
    const said = typeof event.content === 'string' ? text : text.replace(/^[^\n:]{1,64}: /gmu, '');
    out.push({ event, index, text, terms: new Set(topicTerms(said)) });
  });
  return out;
}

/**
 * The tool name of a tool result (`origin_metadata.tool_name`), if it has one.
 *
 * @example
 * toolName(unit.event) // 'search'
 */
export function toolName(event: EventRecord): string | undefined {
  const name = event.origin_metadata['tool_name'];
  return typeof name === 'string' && name.trim() !== '' ? name.trim() : undefined;
}

function termsOf(units: readonly RunUnit[], common: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  for (const unit of units) for (const term of unit.terms) if (!common.has(term)) out.add(term);
  return out;
}

/**
 * In how many units each term appears.
 *
 * @example
 * unitCounts(units).get('atlas') // 3
 */
export function unitCounts(units: readonly RunUnit[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const unit of units) for (const term of unit.terms) counts.set(term, (counts.get(term) ?? 0) + 1);
  return counts;
}

/** Terms in more than a quarter of a long session's units: they say nothing about where topics change. */
function commonTerms(units: readonly RunUnit[]): Set<string> {
  if (units.length < COMMON_MIN_UNITS) return new Set();
  return new Set(
    [...unitCounts(units)].filter(([, count]) => count > units.length * COMMON_SHARE).map(([term]) => term),
  );
}

/** True when the exchange starting at `at` shares too few terms with the end of `current`. */
function shifts(
  current: readonly RunUnit[],
  units: readonly RunUnit[],
  at: number,
  starts: ReadonlySet<number>,
  common: ReadonlySet<string>,
): boolean {
  if (current.length < 2) return false;
  let end = at + 1;
  while (end < units.length && end - at < RIGHT_UNITS && !starts.has(end)) end += 1;
  const left = termsOf(current.slice(-LEFT_UNITS), common);
  const right = termsOf(units.slice(at, end), common);
  if (left.size < 3 || right.size < 2) return false;
  let shared = 0;
  for (const term of right) if (left.has(term)) shared += 1;
  return shared / Math.min(left.size, right.size) < SHIFT_OVERLAP;
}

/** The segments of one session's units: cut at long pauses and at requests that change the topic. */
function splitSession(units: readonly RunUnit[], gapMs: number): RunUnit[][] {
  // A topic changes with a request: cuts fall before user messages (anywhere, in a run without any).
  const human = units.some((unit) => unit.event.role === 'human');
  const common = commonTerms(units);
  const starts = new Set(
    units.flatMap((unit, at) => (!human || (unit.event.kind === 'message' && unit.event.role === 'human') ? [at] : [])),
  );
  const out: RunUnit[][] = [];
  let current: RunUnit[] = [];
  units.forEach((unit, at) => {
    const previous = current[current.length - 1];
    const gap = previous === undefined ? 0 : Date.parse(unit.event.ts) - Date.parse(previous.event.ts);
    if (previous !== undefined && (gap > gapMs || (starts.has(at) && shifts(current, units, at, starts, common)))) {
      out.push(current);
      current = [];
    }
    current.push(unit);
  });
  if (current.length > 0) out.push(current);
  return out;
}

/** Merges the smallest segment into its smaller neighbour of the same session until at most `max` remain. */
function capSegments(segments: RunUnit[][], max: number): RunUnit[][] {
  const out = [...segments];
  const session = (at: number): string | undefined => out[at]?.[0]?.event.session_id;
  while (out.length > max) {
    let pick = -1;
    out.forEach((segment, at) => {
      const mergeable = session(at - 1) === session(at) || session(at + 1) === session(at);
      if (mergeable && (pick === -1 || segment.length < out[pick]!.length)) pick = at;
    });
    if (pick === -1) break;
    const before = session(pick - 1) === session(pick) ? out[pick - 1]!.length : Infinity;
    const after = session(pick + 1) === session(pick) ? out[pick + 1]!.length : Infinity;
    const into = before <= after ? pick - 1 : pick + 1;
    const [first, second] = into < pick ? [into, pick] : [pick, into];
    out.splice(first, 2, [...out[first]!, ...out[second]!]);
  }
  return out;
}

/**
 * The topic segments of a run: per session (in order of first appearance), cut at pauses longer
 * than `gapMs` and where a new request shares few terms with what came before; then the smallest
 * merged into a neighbour until at most `maxSegments` remain. Every unit is in exactly one segment.
 *
 * @example
 * segmentRun(runUnits(events)).map((segment) => segment.length) // [4, 3]
 */
export function segmentRun(
  units: readonly RunUnit[],
  options: Readonly<SegmentOptions> = DEFAULT_SEGMENT_OPTIONS,
): RunUnit[][] {
  const sessions = new Map<string, RunUnit[]>();
  for (const unit of units) {
    const list = sessions.get(unit.event.session_id);
    if (list === undefined) sessions.set(unit.event.session_id, [unit]);
    else list.push(unit);
  }
  const segments = [...sessions.values()].flatMap((list) => splitSession(list, options.gapMs));
  return capSegments(segments, Math.max(options.maxSegments, sessions.size));
}
