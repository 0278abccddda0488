// Topic segments of one run, for rule-based reflection: the run's shareable messages and tool
// results cut where the topic shifts (the words of a new request share little with the exchanges
// before it) or where a long pause falls, one or more segments per session, at most a handful per
// run. Each segment becomes an extractive episode: its best sentences, names, domains and what was
// decided or asked in it. Also the repeated ordered tool sequences of a run (recurring procedures).
// Deterministic: text, roles and times only.

import type { EventRecord } from '../spec/event.js';
import type { ItemCandidate } from '../spec/items.js';
import type { EpisodeCandidate } from '../spec/reflection.js';
import type { SummarySentence } from '../spec/summary.js';
import { contentText } from '../events/content-text.js';
import { isShareable } from '../events/sensitivity.js';
import { slug } from '../items/keys.js';
import { describeValue } from '../items/values.js';
import { contentWords, endsWithQuestionMark, shorten } from '../items/rules/text.js';
import { sentences } from '../util/segment.js';
import { renderSummary, sentencesOf } from '../working-memory/summary.js';

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
const SUMMARY_CHARS = 300;
const HAN = /\p{Script=Han}/u;
// A plural `s` to drop ("risks"), but not the end of "atlas", "status", "analysis", "class" or "photos".
const PLURAL = /[^suiao]s$/;
// Chinese connectives the shared stop words lack, and capitalised words that name no entity.
const ZH_FUNCTION = new Set('不是 而是 但是 因为 所以 如果 可以 什么 怎么 还是 就是 现在 应该 这样 那样 然后 一下 一些 或者'.split(' '));
const NOT_A_NAME = /^(?:january|february|march|april|may|june|july|august|september|october|november|december|monday|tuesday|wednesday|thursday|friday|saturday|sunday|ok|okay|thanks)$/i;

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

/** The tool name of a tool result (`origin_metadata.tool_name`), if it has one. */
function toolName(event: EventRecord): string | undefined {
  const name = event.origin_metadata['tool_name'];
  return typeof name === 'string' && name.trim() !== '' ? name.trim() : undefined;
}

function termsOf(units: readonly RunUnit[], common: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  for (const unit of units) for (const term of unit.terms) if (!common.has(term)) out.add(term);
  return out;
}

/** Terms in more than a quarter of a long session's units: they say nothing about where topics change. */
function commonTerms(units: readonly RunUnit[]): Set<string> {
  if (units.length < COMMON_MIN_UNITS) return new Set();
  return new Set([...unitCounts(units)].filter(([, count]) => count > units.length * COMMON_SHARE).map(([term]) => term));
}

/** True when the exchange starting at `at` shares too few terms with the end of `current`. */
function shifts(current: readonly RunUnit[], units: readonly RunUnit[], at: number, starts: ReadonlySet<number>, common: ReadonlySet<string>): boolean {
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
  const starts = new Set(units.flatMap((unit, at) => (!human || (unit.event.kind === 'message' && unit.event.role === 'human') ? [at] : [])));
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
export function segmentRun(units: readonly RunUnit[], options: Readonly<SegmentOptions> = DEFAULT_SEGMENT_OPTIONS): RunUnit[][] {
  const sessions = new Map<string, RunUnit[]>();
  for (const unit of units) {
    const list = sessions.get(unit.event.session_id);
    if (list === undefined) sessions.set(unit.event.session_id, [unit]);
    else list.push(unit);
  }
  const segments = [...sessions.values()].flatMap((list) => splitSession(list, options.gapMs));
  return capSegments(segments, Math.max(options.maxSegments, sessions.size));
}

/** The one or two best sentences of a segment, in log order, with who said them. */
function summaryOf(segment: readonly RunUnit[]): string {
  const scored: Array<{ sentence: SummarySentence; at: number }> = segment.flatMap((unit) => sentencesOf(unit.event).map((sentence) => ({ sentence, at: unit.index })));
  const ranked = [...scored].sort((a, b) => b.sentence.score - a.sentence.score || a.at - b.at || a.sentence.position - b.sentence.position);
  const best = ranked.slice(0, 2).sort((a, b) => a.at - b.at || a.sentence.position - b.sentence.position);
  if (best.length > 0) {
    const text = renderSummary(best.map(({ sentence }) => ({ ...sentence, text: shorten(sentence.text, 180) })));
    return shorten(text.replace(/\n/g, ' '), SUMMARY_CHARS);
  }
  const tools = [...new Set(segment.flatMap((unit) => toolName(unit.event) ?? []))];
  if (tools.length > 0) return shorten(`Tool calls: ${tools.join(', ')}.`, SUMMARY_CHARS);
  return shorten(segment[0]?.text.replace(/\s+/g, ' ').trim() ?? '', SUMMARY_CHARS) || 'An exchange with no text.';
}

const NAME_WORD = /^\p{Lu}[\p{L}\p{N}]*(?:[-'’][\p{L}\p{N}]+)*$/u;

/** Capitalised names inside sentences of messages (not a sentence's first word, not "I"). */
function capitalisedNames(segment: readonly RunUnit[]): string[] {
  const out: string[] = [];
  for (const unit of segment) {
    if (unit.event.kind !== 'message') continue;
    for (const sentence of sentences(unit.text)) {
      let run: string[] = [];
      const flush = (): void => {
        if (run.length > 0) out.push(run.join(' '));
        run = [];
      };
      sentence.split(/\s+/).forEach((token, at) => {
        const word = token.replace(/^[("'“‘*_`]+|[)"'”’*_`.,;:!?]+$/gu, '').replace(/['’]s$/u, '');
        const name = at > 0 && word !== 'I' && word.length > 1 && NAME_WORD.test(word) && !NOT_A_NAME.test(word);
        if (name) run.push(word);
        else flush();
        if (/[.,;:!?)]$/.test(token)) flush();
      });
      flush();
    }
  }
  return out;
}

/** A name as the segment writes it ("Atlas" for the canonical "atlas"), else as given. */
function asWritten(segment: readonly RunUnit[], name: string): string {
  for (const unit of segment) {
    const lower = unit.text.toLowerCase();
    const at = lower.length === unit.text.length ? lower.indexOf(name.toLowerCase()) : -1;
    if (at !== -1) return unit.text.slice(at, at + name.length);
  }
  return name;
}

/** Names the segment mentions: the rule extractor's references and repeated names, then capitalised names. */
function entitiesOf(segment: readonly RunUnit[], candidates: readonly ItemCandidate[]): string[] {
  const found: string[] = [];
  for (const candidate of candidates) {
    if (candidate.type !== 'entities' || candidate.action !== 'upsert') continue;
    const aliases = candidate.value['aliases'];
    const canonical = candidate.value['canonical'];
    if (Array.isArray(aliases) && typeof aliases[0] === 'string') found.push(aliases[0]);
    else found.push(asWritten(segment, typeof canonical === 'string' ? canonical : candidate.key));
  }
  const seen = new Set<string>();
  return [...found, ...capitalisedNames(segment)].filter((name) => {
    const id = name.toLowerCase();
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  }).slice(0, 8);
}

/** In how many units each term appears. */
function unitCounts(units: readonly RunUnit[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const unit of units) for (const term of unit.terms) counts.set(term, (counts.get(term) ?? 0) + 1);
  return counts;
}

/** Item scopes and projects of the segment's candidates, then its most frequent topic terms. */
function domainsOf(segment: readonly RunUnit[], candidates: readonly ItemCandidate[], run: readonly RunUnit[]): string[] {
  const out: string[] = [];
  for (const candidate of candidates) {
    const domain = candidate.type === 'preferences' ? candidate.value['scope'] : candidate.value['project'];
    if (typeof domain === 'string' && domain !== 'other' && domain !== 'general' && domain !== '') out.push(domain);
  }
  // Terms frequent here but rare in the rest of the run name the segment best.
  const here = unitCounts(segment);
  const everywhere = unitCounts(run);
  const weight = (term: string, count: number): number => count * Math.log(1 + run.length / (everywhere.get(term) ?? count));
  const terms = [...here].sort((a, b) => weight(...b) - weight(...a)).slice(0, 3).map(([term]) => term);
  return [...new Set([...out, ...terms])].slice(0, 5);
}

const MEANING_TYPES = ['decisions', 'tasks', 'goals', 'preferences', 'profile', 'events'] as const;

/** What was decided, planned or stated in the segment, else the first question asked; null if neither. */
function meaningOf(segment: readonly RunUnit[], candidates: readonly ItemCandidate[]): string | null {
  const ranked = MEANING_TYPES.flatMap((type) => candidates.filter((candidate) => candidate.type === type && candidate.action === 'upsert'));
  const said = ranked.slice(0, 2).map((candidate) => describeValue(candidate.type, candidate.value));
  if (said.length > 0) return shorten(said.join('; '), 240);
  for (const unit of segment) {
    if (unit.event.kind !== 'message' || unit.event.role !== 'human') continue;
    const question = sentences(unit.text).find(endsWithQuestionMark);
    if (question !== undefined) return shorten(`Asked: ${question}`, 240);
  }
  return null;
}

/**
 * The episode a segment proposes: its best one or two sentences as the summary (at most 300
 * characters), names, domains, its events, a confidence growing with its size (0.5 for one event,
 * 0.8 from ten), and what was decided or asked in it. `candidates` are the run's rule candidates;
 * those whose evidence is in the segment describe it. `run` (all the run's units) lets the domains
 * prefer terms particular to the segment over those of the whole run.
 *
 * @example
 * describeEpisode(segmentRun(units)[0]!, candidates, units).summary // 'User: I prefer a concise tone. …'
 */
export function describeEpisode(segment: readonly RunUnit[], candidates: readonly ItemCandidate[], run: readonly RunUnit[] = segment): EpisodeCandidate {
  const ids = new Set(segment.map((unit) => unit.event.id));
  const own = candidates.filter((candidate) => candidate.source_event_ids.some((id) => ids.has(id)));
  return {
    summary: summaryOf(segment),
    entities: entitiesOf(segment, own),
    domains: domainsOf(segment, own, run),
    source_event_ids: segment.map((unit) => unit.event.id),
    confidence: Math.round((0.5 + 0.3 * Math.min(1, (segment.length - 1) / 9)) * 100) / 100,
    candidate_meaning: meaningOf(segment, own),
  };
}

/** A tool sequence that recurs in a run: the tool names in order, and the events of each occurrence. */
export interface ToolSequence {
  tools: string[];
  occurrences: Array<{ event_ids: string[]; request: RunUnit | undefined }>;
}

interface ToolStep {
  tool: string;
  event_ids: string[];
  request: RunUnit | undefined;
}

/** Successful tool results in runs between user messages; a tool repeated at once is one step. */
function toolChunks(units: readonly RunUnit[]): ToolStep[][] {
  const chunks: ToolStep[][] = [[]];
  let request: RunUnit | undefined;
  for (const unit of units) {
    if (unit.event.kind === 'message' && unit.event.role === 'human') {
      request = unit;
      chunks.push([]);
      continue;
    }
    const tool = unit.event.kind === 'tool_result' ? toolName(unit.event) : undefined;
    if (tool === undefined || unit.event.origin_metadata['status'] === 'error') continue;
    const chunk = chunks[chunks.length - 1]!;
    const last = chunk[chunk.length - 1];
    if (last?.tool === tool) last.event_ids.push(unit.event.id);
    else chunk.push({ tool, event_ids: [unit.event.id], request });
  }
  return chunks.filter((chunk) => chunk.length >= 2);
}

/**
 * The ordered sequences of 2–6 tools that occur at least twice in a run (without overlapping),
 * longest first; each step of the run belongs to at most one sequence. A run of calls to the same
 * tool counts as one step, failed calls are skipped, and sequences never cross a user message.
 *
 * @example
 * repeatedToolSequences(runUnits(events))[0]?.tools // ['search_docs', 'fetch_page']
 */
export function repeatedToolSequences(units: readonly RunUnit[]): ToolSequence[] {
  const chunks = toolChunks(units).map((chunk) => chunk.slice(0, 200));
  const used = chunks.map((chunk) => chunk.map(() => false));
  const out: ToolSequence[] = [];
  for (let length = 6; length >= 2; length -= 1) {
    const grams = new Map<string, Array<[number, number]>>();
    chunks.forEach((chunk, c) => {
      for (let start = 0; start + length <= chunk.length; start += 1) {
        const gram = chunk.slice(start, start + length).map((step) => step.tool).join('\u0000');
        const places = grams.get(gram);
        if (places === undefined) grams.set(gram, [[c, start]]);
        else places.push([c, start]);
      }
    });
    for (const [gram, places] of grams) {
      const taken: Array<[number, number]> = [];
      for (const [c, start] of places) {
        const free = used[c]!.slice(start, start + length).every((flag) => !flag);
        const clear = taken.every(([tc, ts]) => tc !== c || ts + length <= start);
        if (free && clear) taken.push([c, start]);
      }
      if (taken.length < 2) continue;
      for (const [c, start] of taken) used[c]!.fill(true, start, start + length);
      const occurrences = taken.map(([c, start]) => {
        const steps = chunks[c]!.slice(start, start + length);
        return { event_ids: steps.flatMap((step) => step.event_ids), request: steps[0]!.request };
      });
      out.push({ tools: gram.split('\u0000'), occurrences });
    }
  }
  return out;
}

/** The words shared by the requests that started each occurrence of a tool sequence. */
function sharedRequestTerms(requests: ReadonlyArray<RunUnit | undefined>): string[] {
  if (requests.some((request) => request === undefined)) return [];
  const [first, ...rest] = requests.map((request) => topicTerms(request!.text));
  return [...new Set(first ?? [])].filter((term) => rest.every((terms) => terms.includes(term))).slice(0, 3);
}

/**
 * The procedure a recurring tool sequence suggests: a claim ("To handle recipe requests, call
 * search_recipes, then fetch_page."), the task (the words the requests that started it share, if
 * any), and a procedure item value whose steps call the tools in order.
 *
 * @example
 * describeProcedure(sequence).value // { task_type: 'recipe', name: 'search_recipes_fetch_page', steps: ['call search_recipes', 'call fetch_page'] }
 */
export function describeProcedure(sequence: ToolSequence): { claim: string; task: string | undefined; value: { task_type: string; name: string; steps: string[] } } {
  const shared = sharedRequestTerms(sequence.occurrences.map((occurrence) => occurrence.request));
  const request = sequence.occurrences[0]?.request;
  const task = shared.length > 0 ? shared.join(' ') : undefined;
  const lead =
    task !== undefined ? `To handle ${task} requests` : request !== undefined ? `For requests like "${shorten(request.text.replace(/\s+/g, ' ').trim(), 60)}"` : 'For this recurring task';
  const value = { task_type: slug(task ?? sequence.tools[0] ?? 'tools', 60), name: slug(sequence.tools.join(' '), 60), steps: sequence.tools.map((tool) => `call ${tool}`) };
  return { claim: `${lead}, call ${sequence.tools.join(', then ')}.`, task, value };
}
