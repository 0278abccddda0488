// Reflection without a model: what one run (a trace) suggests remembering, found by rules. The run
// is cut into topic segments (episodes); the rule extractor reads it turn by turn as the commit path
// does; then preferences stated again and again, tool sequences that recur, corrections, and values
// that disagree with current items (or with each other) become proposals for review. Deterministic:
// the same input gives the same output, byte for byte. Secret events are never read.

import type { EventRecord } from '../spec/event.js';
import { ValidationError } from '../spec/errors.js';
import type { ExtractionEvent, ExtractionInput, Extractor, ItemCandidate, MemoryItem, MemoryType, Salience } from '../spec/items.js';
import type { CandidateTarget, ContradictionProposal, EpisodeCandidate, MemoryCandidate, SessionReflection } from '../spec/reflection.js';
import { contentText } from '../events/content-text.js';
import { isShareable } from '../events/sensitivity.js';
import { extractionEvents } from '../items/extraction-events.js';
import { makeKey } from '../items/keys.js';
import { createRuleExtractor } from '../items/rules/index.js';
import { cleanPhrase, hasHan, shorten } from '../items/rules/text.js';
import { describeValue } from '../items/values.js';
import { isId } from '../util/ids.js';
import { DEFAULT_SEGMENT_OPTIONS, describeEpisode, describeProcedure, repeatedToolSequences, runUnits, segmentRun, type RunUnit } from './segments.js';

/** What a rule-based reflection reads: one run's events and the scope's current items. */
export interface RulesReflectionInput {
  trace_id: string;
  /** The run's events in log order (may include secret ones: skip them entirely). */
  events: readonly EventRecord[];
  /** The user's current (active) items visible in this scope, for contradiction and repetition checks. */
  items: readonly MemoryItem[];
}

/** A rule-based reflection: the schema's SessionReflection, and per memory candidate what approving it writes. */
export interface RulesReflection {
  reflection: SessionReflection;
  /**
   * For each memory candidate (same index), what approving it should write, which items it is about,
   * and the events that support it (its evidence, in log order).
   */
  targets: Array<{ target: CandidateTarget; item_ids: string[]; source_event_ids: string[] }>;
}

/** Tuning of a rule-based reflection; every field has a default. */
export interface RulesReflectionOptions {
  /** The extractor's project for tasks, decisions and goals that name none. Default `general`. */
  project?: string;
  /** Most episodes per run (never fewer than the run's sessions). Default 8. */
  maxEpisodes?: number;
  /** A pause longer than this many minutes starts a new episode. Default 30. */
  gapMinutes?: number;
}

/** One value the run states (or denies) for a key; a profile fact is its own statement. */
interface Statement {
  /** The key, or `key (fact)` for a profile fact. */
  label: string;
  key: string;
  type: MemoryType;
  /** The value compared and shown ("concise"); undefined for types whose values are not compared. */
  principal: string | undefined;
  /** What writing it would write. */
  value: Record<string, unknown>;
  retract: boolean;
  confidence: number;
  salience: Partial<Salience>;
  events: string[];
  first: number;
  last: number;
}

/** The value a label has before some point of the run: its latest statement, else its current items. */
interface Prior {
  label: string;
  principal: string;
  value: Record<string, unknown>;
  type: MemoryType;
  key: string;
  item_ids: string[];
  /** The item holds evidence from outside this run (it was said before). */
  earlier: boolean;
  events: string[];
}

interface Proposal {
  /** The label a correction changes. */
  label?: string;
  memory: Omit<MemoryCandidate, 'source_episode_indexes'>;
  target: CandidateTarget;
  item_ids: string[];
  events: string[];
  at: number;
}

interface Context {
  events: readonly EventRecord[];
  order: ReadonlyMap<string, number>;
  statements: readonly Statement[];
  known: ReadonlyMap<string, Prior>;
  extractor: Extractor;
  knownKeys: readonly string[];
}

const r2 = (value: number): number => Math.round(Math.min(1, Math.max(0, value)) * 100) / 100;
const norm = (text: string): string => text.normalize('NFKC').toLowerCase().replace(/[\s\p{P}]+/gu, ' ').trim();
/** Two normalised values name the same thing: equal, or one (of 2+ characters) inside the other. */
const related = (a: string, b: string): boolean => a === b || (Math.min(a.length, b.length) >= 2 && (a.includes(b) || b.includes(a)));
const show = (value: unknown): string => (typeof value === 'string' ? value : Array.isArray(value) ? value.map(show).join(', ') : JSON.stringify(value) ?? '');

function extractSync(extractor: Extractor, input: ExtractionInput): ItemCandidate[] {
  const result = extractor.extract(input);
  return Array.isArray(result) ? result : [];
}

/** The rule candidates of a run, turn by turn as the commit path extracts them, each turn knowing the keys before it. */
function extractRun(events: readonly EventRecord[], knownKeys: readonly string[], extractor: Extractor): ItemCandidate[] {
  const turnOf = new Map(events.map((event) => [event.id, event.turn_id ?? '']));
  const turns: ExtractionEvent[][] = [];
  let current: string | undefined;
  for (const event of extractionEvents(events)) {
    const turn = turnOf.get(event.event_id) ?? '';
    if (turns.length === 0 || turn !== current) turns.push([]);
    turns[turns.length - 1]!.push(event);
    current = turn;
  }
  const keys = new Set(knownKeys);
  const out: ItemCandidate[] = [];
  for (const turn of turns) {
    const found = extractSync(extractor, { events: turn, known_keys: [...keys] });
    for (const candidate of found) if (candidate.action === 'upsert') keys.add(candidate.key);
    out.push(...found);
  }
  return out;
}

// The field of a value that a new value disputes: a preference's value, a decision, a goal's description.
const PRINCIPAL_FIELD: Partial<Record<MemoryType, string>> = { preferences: 'value', decisions: 'decision', goals: 'description', procedure: 'steps' };

/** The compared value of a type: a preference's value, a decision, a goal's description, a procedure's steps. */
function principalOf(type: MemoryType, value: Record<string, unknown>): string | undefined {
  const field = PRINCIPAL_FIELD[type];
  const found = field === undefined ? undefined : value[field];
  return found === undefined || found === null || show(found) === '' ? undefined : show(found);
}

/** A value split into labelled parts: one per profile fact, else the value itself. */
function partsOf(key: string, type: MemoryType, value: Record<string, unknown>): Array<{ label: string; principal: string | undefined; value: Record<string, unknown>; cleared: boolean }> {
  if (type !== 'profile' || !Array.isArray(value['facts'])) return [{ label: key, principal: principalOf(type, value), value, cleared: false }];
  return (value['facts'] as unknown[]).flatMap((fact) => {
    if (typeof fact !== 'object' || fact === null) return [];
    const { k, v } = fact as Record<string, unknown>;
    return [{ label: `${key} (${show(k)})`, principal: v === null || v === undefined ? undefined : show(v), value: { subject: value['subject'] ?? 'user', facts: [fact] }, cleared: v === null }];
  });
}

function statementsOf(candidates: readonly ItemCandidate[], order: ReadonlyMap<string, number>): Statement[] {
  const out: Statement[] = [];
  for (const candidate of candidates) {
    if (candidate.type === 'entities') continue;
    const at = candidate.source_event_ids.map((id) => order.get(id)).filter((index): index is number => index !== undefined);
    if (at.length === 0) continue;
    const events = [...new Set(candidate.source_event_ids.filter((id) => order.has(id)))];
    for (const part of partsOf(candidate.key, candidate.type, candidate.value)) {
      const retract = candidate.action === 'retract' || part.cleared;
      out.push({ ...part, key: candidate.key, type: candidate.type, retract, confidence: candidate.confidence, salience: candidate.salience ?? {}, events, first: Math.min(...at), last: Math.max(...at) });
    }
  }
  return out.sort((a, b) => a.first - b.first);
}

/** Current values of the scope's shareable active items, by label. */
function knownValues(items: readonly MemoryItem[], runIds: ReadonlySet<string>): Map<string, Prior> {
  const out = new Map<string, Prior>();
  for (const item of items) {
    for (const part of partsOf(item.key, item.type, item.value)) {
      if (part.principal === undefined) continue;
      const earlier = item.source_event_ids.some((id) => !runIds.has(id));
      const same = out.get(part.label);
      if (same === undefined) out.set(part.label, { ...part, principal: part.principal, type: item.type, key: item.key, item_ids: [item.id], earlier, events: [] });
      else same.item_ids.push(item.id);
    }
  }
  return out;
}

/** Every label's value just before log position `at`. */
function priorsAt(context: Context, at: number): Map<string, Prior> {
  const out = new Map(context.known);
  for (const statement of context.statements) {
    if (statement.first >= at || statement.retract || statement.principal === undefined) continue;
    const items = context.known.get(statement.label)?.item_ids ?? [];
    out.set(statement.label, { ...statement, principal: statement.principal, item_ids: items, earlier: false });
  }
  return out;
}

function appliesWhen(type: MemoryType, value: Record<string, unknown>): string[] {
  const pick = (...fields: string[]): string[] => {
    const found = fields.map((field) => value[field]).find((v) => typeof v === 'string' && v !== '' && v !== 'other' && v !== 'general');
    return typeof found === 'string' ? [found.replace(/_/g, ' ')] : [];
  };
  if (type === 'preferences') return pick('scope', 'name');
  if (type === 'procedure') return pick('task_type');
  if (type === 'decisions' || type === 'goals' || type === 'tasks') return pick('project', 'topic', 'name');
  return [];
}

function itemTarget(type: MemoryType, key: string, value: Record<string, unknown>): CandidateTarget {
  return { write: 'item', type, key, value, ...(type === 'preferences' || type === 'profile' ? { scope_level: 'user' as const } : {}) };
}

// Corrections: strong cues correct on their own; weak ones only when a known value changes.
const EN_STRONG =
  /^\s*(?:no|nope|nah)\b[\s,.!-]+(?:i|we)\s+(?:meant|mean|said|wanted|asked for)\b|\b(?:i|we)\s+meant\b|\bthat(?:'s|’s| is| was)\s+(?:wrong|incorrect|not (?:right|correct|true|what i (?:said|meant|asked|wanted)))\b|\byou(?:'re|’re| are| got (?:it|that))\s+wrong\b|\byou misunderstood\b|\bi was wrong\b|\bi misspoke\b|\bcorrection\s*:|\bscratch that\b|\bi take (?:that|it) back\b/i;
const EN_WEAK = /^\s*(?:actually|well,?\s+actually|in fact|no|nope)\b|\binstead\b|\bi changed my mind\b|\bon second thought\b|\bnot\s+(?!only\b)[^,.;!?]{1,40}?\s*,?\s+but\b/i;
const ZH_STRONG = /说错了|搞错了|弄错了|写错了|记错了|(?<!对)不对|(?<!没)错了|更正|纠正|我的意思是|我是说|我指的是/u;
const ZH_WEAK = /^(?:其实|实际上)|应该是|改成|改为|换成|还是用|不是[^，,。！？!?]{1,20}[，,]?\s*而是/u;

/** What a correction says: the new value, and the old one when it names it ("not X but Y"). */
const SUBSTITUTIONS: ReadonlyArray<{ pattern: RegExp; next: number; old?: number }> = [
  { pattern: /\bnot\s+(?!only\b)([^,.;!?]{1,40}?)\s*,?\s+but\s+(?:rather\s+)?([^,.;!?]{1,60})/i, old: 1, next: 2 },
  { pattern: /\b(?:i|we)\s+meant\s+([^,.;!?]{1,60}?)\s*,?\s+not\s+([^,.;!?]{1,40})/i, next: 1, old: 2 },
  { pattern: /\b(?:i|we)\s+meant\s+(?:to\s+say\s+)?([^,.;!?]{1,60})/i, next: 1 },
  { pattern: /不是([^，,。！？!?]{1,20}?)[，,]?\s*而是([^，,。！？!?]{1,30})/u, old: 1, next: 2 },
  { pattern: /(?:我的意思是|我是说|我指的是|应该是)([^，,。！？!?]{1,30})/u, next: 1 },
];

function cueOf(text: string): 'strong' | 'weak' | undefined {
  if (EN_STRONG.test(text) || ZH_STRONG.test(text)) return 'strong';
  return EN_WEAK.test(text) || ZH_WEAK.test(text) ? 'weak' : undefined;
}

function supersede(prior: Prior, statement: Pick<Statement, 'type' | 'key' | 'value' | 'principal'>, confidence: number, salience: Partial<Salience>, event: number, id: string): Proposal {
  const value = statement.value;
  const claim = `Correction: ${describeValue(statement.type, value)} (was "${shorten(prior.principal, 80)}")`;
  const memory = { claim, memory_type: 'correction' as const, applies_when: appliesWhen(statement.type, value), does_not_apply_when: [], initial_salience: correctionSalience(salience), confidence: r2(confidence) };
  return { label: prior.label, memory, target: itemTarget(statement.type, statement.key, value), item_ids: prior.item_ids, events: [...prior.events, id], at: event };
}

function correctionSalience(salience: Partial<Salience>): Salience {
  return { consequence: r2(Math.max(salience.consequence ?? 0, 0.6)), emotional_charge: r2(Math.max(salience.emotional_charge ?? 0, 0.3)), reusability: r2(salience.reusability ?? 0.8) };
}

/** A new principal written into a prior value of its type. */
function withPrincipal(prior: Prior, principal: string): Pick<Statement, 'type' | 'key' | 'value' | 'principal'> {
  const field = prior.type === 'procedure' ? undefined : PRINCIPAL_FIELD[prior.type];
  const facts: unknown = prior.value['facts'];
  let value: Record<string, unknown> = field === undefined ? prior.value : { ...prior.value, [field]: principal };
  if (prior.type === 'profile' && Array.isArray(facts)) value = { ...prior.value, facts: facts.map((fact: unknown) => ({ ...(fact as Record<string, unknown>), v: principal })) };
  return { type: prior.type, key: prior.key, value, principal };
}

/** Corrections an event's wording implies when the rules found nothing: "No, I meant …", "不是X，而是Y". */
function substituted(context: Context, event: EventRecord, text: string, priors: ReadonlyMap<string, Prior>, at: number): Proposal | undefined {
  for (const { pattern, next, old } of SUBSTITUTIONS) {
    const found = pattern.exec(text);
    if (found === null) continue;
    const wanted = cleanPhrase(found[next] ?? '');
    const was = old === undefined ? undefined : norm(cleanPhrase(found[old] ?? ''));
    if (wanted === '') continue;
    const probe = { event_id: event.id, kind: 'message' as const, role: 'user' as const, text: hasHan(wanted) ? `我更喜欢${wanted}` : `I prefer ${wanted}`, ts: event.ts };
    for (const statement of statementsOf(extractSync(context.extractor, { events: [probe], known_keys: context.knownKeys }), context.order)) {
      const prior = priors.get(statement.label);
      const matches = was === undefined || (prior !== undefined && related(norm(prior.principal), was));
      if (prior !== undefined && matches && statement.principal !== undefined && norm(prior.principal) !== norm(statement.principal)) return supersede(prior, statement, 0.75, statement.salience, at, event.id);
    }
    if (was === undefined || was === '') continue;
    const hits = [...priors.values()].filter((prior) => related(norm(prior.principal), was));
    const prior = hits.sort((a, b) => Number(a.events.length === 0) - Number(b.events.length === 0))[0];
    if (prior !== undefined) return supersede(prior, withPrincipal(prior, wanted), 0.7, {}, at, event.id);
  }
  return undefined;
}

function retraction(statement: Statement, prior: Prior | undefined, context: Context, at: number, id: string): Proposal {
  const target: CandidateTarget = statement.type === 'profile' ? itemTarget('profile', statement.key, statement.value) : { write: 'retract', key: statement.key };
  const what = prior === undefined ? statement.label : describeValue(prior.type, prior.value);
  return {
    label: statement.label,
    memory: { claim: `No longer true: ${what}`, memory_type: 'correction', applies_when: [], does_not_apply_when: [], initial_salience: correctionSalience(statement.salience), confidence: r2(statement.confidence) },
    target,
    item_ids: context.known.get(statement.label)?.item_ids ?? prior?.item_ids ?? [],
    events: [...(prior?.events ?? []), id],
    at,
  };
}

/** The corrections of one user message: changed values, denials, and corrections the rules missed. */
function correctionsOf(context: Context, event: EventRecord, at: number, text: string): Proposal[] {
  const cue = cueOf(text);
  const own = context.statements.filter((statement) => statement.events.includes(event.id) && statement.first === at);
  if (cue === undefined && !own.some((statement) => statement.retract)) return [];
  const priors = priorsAt(context, at);
  const out: Proposal[] = [];
  const changed = new Set<string>();
  for (const statement of own) {
    const prior = priors.get(statement.label);
    if (statement.retract || statement.principal === undefined || prior === undefined || norm(prior.principal) === norm(statement.principal)) continue;
    const denied = own.some((other) => other.retract && other.key === statement.key);
    if (!denied && cue === undefined) continue;
    changed.add(statement.key);
    out.push(supersede(prior, statement, Math.min(0.95, statement.confidence + (cue === 'strong' ? 0.05 : 0)), statement.salience, at, event.id));
  }
  for (const statement of own) {
    if (statement.retract && !changed.has(statement.key)) out.push(retraction(statement, priors.get(statement.label), context, at, event.id));
  }
  if (out.length > 0 || cue === undefined) return out;
  const found = substituted(context, event, text, priors, at);
  if (found !== undefined || cue !== 'strong') return found === undefined ? [] : [found];
  const claim = `Correction: "${shorten(text.replace(/\s+/g, ' ').trim(), 200)}"`;
  const memory = { claim, memory_type: 'correction' as const, applies_when: [], does_not_apply_when: [], initial_salience: correctionSalience({}), confidence: 0.4 };
  return [{ memory, target: { write: 'none' }, item_ids: [], events: [event.id], at }];
}

/**
 * Preferences whose latest value the run states in two or more events (an item said before counts as
 * one), unless a correction proposes that value or changes the key after it.
 */
function repeatedPreferences(context: Context, corrections: readonly Proposal[]): Proposal[] {
  const corrected = new Set(corrections.flatMap(({ target }) => (target.write === 'item' && target.type === 'preferences' ? [`${target.key}\u0000${norm(show(target.value['value']))}`] : [])));
  const changedAt = new Map(corrections.flatMap(({ target, at }) => (target.write === 'item' || target.write === 'retract' ? [[target.key, at] as const] : [])));
  const latest = new Map<string, Statement>();
  for (const statement of context.statements) {
    const before = latest.get(statement.label);
    if (statement.type === 'preferences' && (before === undefined || statement.last >= before.last)) latest.set(statement.label, statement);
  }
  const out: Proposal[] = [];
  for (const [label, last] of latest) {
    if (last.retract || last.principal === undefined || corrected.has(`${label}\u0000${norm(last.principal)}`) || (changedAt.get(last.key) ?? -1) >= last.last) continue;
    const same = context.statements.filter((statement) => statement.label === label && !statement.retract && statement.principal !== undefined && norm(statement.principal) === norm(last.principal!));
    const events = [...new Set(same.flatMap((statement) => statement.events))].sort((a, b) => context.order.get(a)! - context.order.get(b)!);
    const item = context.known.get(label);
    const before = item !== undefined && item.earlier && norm(item.principal) === norm(last.principal) ? 1 : 0;
    const times = events.length + before;
    if (times < 2) continue;
    const priority = Math.max(...same.map((statement) => Number(statement.value['priority'] ?? 0)));
    const value = { ...last.value, ...(priority > 0 ? { priority } : {}) };
    const confidence = r2(Math.min(0.95, Math.max(...same.map((statement) => statement.confidence)) + 0.05 * (times - 1)));
    const initial_salience = { consequence: 0.4, emotional_charge: r2(Math.min(0.95, 0.4 + 0.15 * (times - 1))), reusability: 0.9 };
    const memory = { claim: describeValue('preferences', value), memory_type: 'affective' as const, applies_when: appliesWhen('preferences', value), does_not_apply_when: [], initial_salience, confidence };
    out.push({ memory, target: itemTarget('preferences', last.key, value), item_ids: item?.item_ids ?? [], events, at: context.order.get(events[0]!)! });
  }
  return out;
}

/** Procedures from tool sequences that recur in the run (at most three). */
function recurringProcedures(units: readonly RunUnit[], order: ReadonlyMap<string, number>): Proposal[] {
  return repeatedToolSequences(units)
    .slice(0, 3)
    .map((sequence) => {
      const { claim, task, value } = describeProcedure(sequence);
      const events = sequence.occurrences.flatMap((occurrence) => occurrence.event_ids);
      const times = sequence.occurrences.length;
      const initial_salience = { consequence: 0.5, emotional_charge: 0.1, reusability: r2(Math.min(0.95, 0.6 + 0.1 * times)) };
      const memory = { claim, memory_type: 'procedural' as const, applies_when: task === undefined ? [] : [task], does_not_apply_when: [], initial_salience, confidence: r2(Math.min(0.85, 0.5 + 0.1 * times)) };
      return { memory, target: itemTarget('procedure', makeKey('procedure', [value.task_type, value.name]), value), item_ids: [], events, at: order.get(events[0]!) ?? 0 };
    });
}

const quote = (values: readonly string[]): string => {
  const quoted = values.map((value) => `"${shorten(value, 80)}"`);
  return quoted.length <= 2 ? quoted.join(' or ') : `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}`;
};

/** Labels whose current items and run statements hold two or more values (corrected labels aside: that is an update). */
function contradictionsOf(context: Context, corrected: ReadonlySet<string>): Array<ContradictionProposal & { at: number }> {
  const labels = [...new Set(context.statements.map((statement) => statement.label))];
  const out: Array<ContradictionProposal & { at: number }> = [];
  for (const label of labels) {
    const said = context.statements.filter((statement) => statement.label === label && !statement.retract && statement.principal !== undefined);
    if (said.length === 0 || corrected.has(label)) continue;
    const item = context.known.get(label);
    const values = new Map<string, string>();
    for (const principal of [item?.principal, ...said.map((statement) => statement.principal)]) if (principal !== undefined && !values.has(norm(principal))) values.set(norm(principal), principal);
    if (values.size < 2) continue;
    const shown = [...values.values()];
    const events = [...new Set(said.flatMap((statement) => statement.events))].sort((a, b) => context.order.get(a)! - context.order.get(b)!);
    const detail = item === undefined ? `The run states ${values.size} values for ${label}: ${shown.map((value) => `"${shorten(value, 80)}"`).join(', ')}.` : `The run says ${label} is ${quote(shown.slice(1))}, but the current item says "${shorten(item.principal, 80)}".`;
    out.push({ detail, item_ids: item?.item_ids ?? [], source_event_ids: events, question: `Which is right for ${label}: ${quote(shown)}?`, at: said[0]!.first });
  }
  return out;
}

/** The memory candidates, targets and contradictions of a run, before episodes are attached. */
function proposalsOf(context: Context, units: readonly RunUnit[]): { proposals: Proposal[]; contradictions: Array<ContradictionProposal & { at: number }> } {
  const corrections = context.events.flatMap((event, at) =>
    event.kind === 'message' && event.role === 'human' ? correctionsOf(context, event, at, contentText(event.content)) : [],
  );
  const correctedLabels = new Set(corrections.flatMap(({ label }) => (label === undefined ? [] : [label])));
  const proposals = [...corrections, ...repeatedPreferences(context, corrections), ...recurringProcedures(units, context.order)];
  return { proposals: proposals.sort((a, b) => a.at - b.at), contradictions: contradictionsOf(context, correctedLabels).sort((a, b) => a.at - b.at) };
}

/**
 * Reflects over one run with rules only: episodes per topic segment, memory candidates (repeated
 * preferences → affective, recurring tool sequences → procedural, corrections → correction) with
 * what approving each would write, and contradictions with current items. Never reads secret
 * events or items, nor events whose id is not an `evt_` id; proposes no doctrine. Throws a
 * ValidationError for a malformed trace id.
 *
 * @example
 * const { reflection, targets } = reflectByRules({ trace_id, events, items });
 * checkSessionReflection(reflection) // []
 * targets[0]?.target // { write: 'item', type: 'preferences', key: 'pref:writing:tone', value: { … }, scope_level: 'user' }
 */
export function reflectByRules(input: RulesReflectionInput, options: RulesReflectionOptions = {}): RulesReflection {
  if (!isId('trc', input.trace_id)) throw ValidationError.of('trace_id', 'pattern', 'must be "trc_" followed by a 26-character ULID');
  const events = input.events.filter((event) => isShareable(event) && isId('evt', event.id));
  const items = input.items.filter((item) => item.status === 'active' && isShareable(item));
  const order = new Map(events.map((event, at) => [event.id, at]));
  const extractor = createRuleExtractor(options.project === undefined ? {} : { project: options.project });
  const knownKeys = [...new Set(items.map((item) => item.key))];
  const candidates = extractRun(events, knownKeys, extractor);
  const context: Context = { events, order, statements: statementsOf(candidates, order), known: knownValues(items, new Set(order.keys())), extractor, knownKeys };
  const units = runUnits(events);
  const segments = segmentRun(units, { maxSegments: options.maxEpisodes ?? DEFAULT_SEGMENT_OPTIONS.maxSegments, gapMs: (options.gapMinutes ?? 30) * 60_000 });
  const episodes: EpisodeCandidate[] = segments.map((segment) => describeEpisode(segment, candidates, units));
  const episodeOf = new Map(episodes.flatMap((episode, index) => episode.source_event_ids.map((id) => [id, index] as const)));
  const { proposals, contradictions } = proposalsOf(context, units);
  const inOrder = (ids: readonly string[]): string[] => [...new Set(ids)].sort((a, b) => order.get(a)! - order.get(b)!);
  const episodesOf = (ids: readonly string[]): number[] => [...new Set(ids.flatMap((id) => episodeOf.get(id) ?? []))].sort((a, b) => a - b);
  return {
    reflection: {
      trace_id: input.trace_id,
      episode_candidates: episodes,
      memory_candidates: proposals.map((proposal) => ({ ...proposal.memory, source_episode_indexes: episodesOf(proposal.events) })),
      contradictions: contradictions.map(({ detail, item_ids, source_event_ids, question }) => ({ detail, item_ids, source_event_ids, question })),
      doctrine_suggestions: [],
    },
    targets: proposals.map((proposal) => ({ target: proposal.target, item_ids: proposal.item_ids, source_event_ids: inOrder(proposal.events) })),
  };
}
