// Reflection without a model: what one run (a trace) suggests remembering, found by rules. The run
// is cut into topic segments (episodes); the rule extractor reads it turn by turn as the commit path
// does; then preferences stated again and again, tool sequences that recur, corrections, and values
// that disagree with current items (or with each other) become proposals for review. Deterministic:
// the same input gives the same output, byte for byte. Secret events are never read.

import type { EventRecord } from '../spec/event.js';
import { ValidationError } from '../spec/errors.js';
import type { MemoryItem } from '../spec/items.js';
import type {
  CandidateTarget,
  ContradictionProposal,
  EpisodeCandidate,
  SessionReflection,
} from '../spec/reflection.js';
import { contentText } from '../events/content-text.js';
import { isShareable } from '../events/sensitivity.js';
import { makeKey } from '../items/keys.js';
import { createRuleExtractor } from '../items/rules/index.js';
import { shorten } from '../items/rules/text.js';
import { describeValue } from '../items/values.js';
import { isId } from '../util/ids.js';
import { describeEpisode } from './episode-description.js';
import { DEFAULT_SEGMENT_OPTIONS, runUnits, segmentRun, type RunUnit } from './segments.js';
import { correctionsOf } from './corrections.js';
import {
  appliesWhen,
  extractRun,
  itemTarget,
  knownValues,
  norm,
  r2,
  show,
  statementsOf,
  type Proposal,
  type RunContext,
  type Statement,
} from './run-statements.js';
import { describeProcedure, repeatedToolSequences } from './tool-sequences.js';

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

/**
 * Preferences whose latest value the run states in two or more events (an item said before counts as
 * one), unless a correction proposes that value or changes the key after it.
 */
function repeatedPreferences(context: RunContext, corrections: readonly Proposal[]): Proposal[] {
  const corrected = new Set(
    corrections.flatMap(({ target }) =>
      target.write === 'item' && target.type === 'preferences'
        ? [`${target.key}\u0000${norm(show(target.value['value']))}`]
        : [],
    ),
  );
  const changedAt = new Map(
    corrections.flatMap(({ target, at }) =>
      target.write === 'item' || target.write === 'retract' ? [[target.key, at] as const] : [],
    ),
  );
  const latest = new Map<string, Statement>();
  for (const statement of context.statements) {
    const before = latest.get(statement.label);
    if (statement.type === 'preferences' && (before === undefined || statement.last >= before.last))
      latest.set(statement.label, statement);
  }
  const out: Proposal[] = [];
  for (const [label, last] of latest) {
    if (
      last.retract ||
      last.principal === undefined ||
      corrected.has(`${label}\u0000${norm(last.principal)}`) ||
      (changedAt.get(last.key) ?? -1) >= last.last
    )
      continue;
    const proposal = repeatedPreference(context, last, last.principal);
    if (proposal !== undefined) out.push(proposal);
  }
  return out;
}

/** The proposal for a preference whose latest value (`principal`) the run states twice or more, an earlier item counting once. */
function repeatedPreference(context: RunContext, last: Statement, principal: string): Proposal | undefined {
  const same = context.statements.filter(
    (statement) =>
      statement.label === last.label &&
      !statement.retract &&
      statement.principal !== undefined &&
      norm(statement.principal) === norm(principal),
  );
  const events = [...new Set(same.flatMap((statement) => statement.events))].sort(
    (a, b) => context.order.get(a)! - context.order.get(b)!,
  );
  const item = context.known.get(last.label);
  const before = item !== undefined && item.earlier && norm(item.principal) === norm(principal) ? 1 : 0;
  const times = events.length + before;
  if (times < 2) return undefined;
  const priority = Math.max(...same.map((statement) => Number(statement.value['priority'] ?? 0)));
  const value = { ...last.value, ...(priority > 0 ? { priority } : {}) };
  const confidence = r2(
    Math.min(0.95, Math.max(...same.map((statement) => statement.confidence)) + 0.05 * (times - 1)),
  );
  const initial_salience = {
    consequence: 0.4,
    emotional_charge: r2(Math.min(0.95, 0.4 + 0.15 * (times - 1))),
    reusability: 0.9,
  };
  const memory = {
    claim: describeValue('preferences', value),
    memory_type: 'affective' as const,
    applies_when: appliesWhen('preferences', value),
    does_not_apply_when: [],
    initial_salience,
    confidence,
  };
  return {
    memory,
    target: itemTarget('preferences', last.key, value),
    item_ids: item?.item_ids ?? [],
    events,
    at: context.order.get(events[0]!)!,
  };
}

/** Procedures from tool sequences that recur in the run (at most three). */
function recurringProcedures(units: readonly RunUnit[], order: ReadonlyMap<string, number>): Proposal[] {
  return repeatedToolSequences(units)
    .slice(0, 3)
    .map((sequence) => {
      const { claim, task, value } = describeProcedure(sequence);
      const events = sequence.occurrences.flatMap((occurrence) => occurrence.event_ids);
      const times = sequence.occurrences.length;
      const initial_salience = {
        consequence: 0.5,
        emotional_charge: 0.1,
        reusability: r2(Math.min(0.95, 0.6 + 0.1 * times)),
      };
      const memory = {
        claim,
        memory_type: 'procedural' as const,
        applies_when: task === undefined ? [] : [task],
        does_not_apply_when: [],
        initial_salience,
        confidence: r2(Math.min(0.85, 0.5 + 0.1 * times)),
      };
      return {
        memory,
        target: itemTarget('procedure', makeKey('procedure', [value.task_type, value.name]), value),
        item_ids: [],
        events,
        at: order.get(events[0]!) ?? 0,
      };
    });
}

const quote = (values: readonly string[]): string => {
  const quoted = values.map((value) => `"${shorten(value, 80)}"`);
  return quoted.length <= 2 ? quoted.join(' or ') : `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}`;
};

/** Labels whose current items and run statements hold two or more values (corrected labels aside: that is an update). */
function contradictionsOf(
  context: RunContext,
  corrected: ReadonlySet<string>,
): Array<ContradictionProposal & { at: number }> {
  const labels = [...new Set(context.statements.map((statement) => statement.label))];
  const out: Array<ContradictionProposal & { at: number }> = [];
  for (const label of labels) {
    const said = context.statements.filter(
      (statement) => statement.label === label && !statement.retract && statement.principal !== undefined,
    );
    if (said.length === 0 || corrected.has(label)) continue;
    const item = context.known.get(label);
    const values = new Map<string, string>();
    for (const principal of [item?.principal, ...said.map((statement) => statement.principal)])
      if (principal !== undefined && !values.has(norm(principal))) values.set(norm(principal), principal);
    if (values.size < 2) continue;
    const shown = [...values.values()];
    const events = [...new Set(said.flatMap((statement) => statement.events))].sort(
      (a, b) => context.order.get(a)! - context.order.get(b)!,
    );
    const detail =
      item === undefined
        ? `The run states ${values.size} values for ${label}: ${shown.map((value) => `"${shorten(value, 80)}"`).join(', ')}.`
        : `The run says ${label} is ${quote(shown.slice(1))}, but the current item says "${shorten(item.principal, 80)}".`;
    out.push({
      detail,
      item_ids: item?.item_ids ?? [],
      source_event_ids: events,
      question: `Which is right for ${label}: ${quote(shown)}?`,
      at: said[0]!.first,
    });
  }
  return out;
}

/** The memory candidates, targets and contradictions of a run, before episodes are attached. */
function proposalsOf(
  context: RunContext,
  units: readonly RunUnit[],
): { proposals: Proposal[]; contradictions: Array<ContradictionProposal & { at: number }> } {
  const corrections = context.events.flatMap((event, at) =>
    event.kind === 'message' && event.role === 'human'
      ? correctionsOf(context, event, at, contentText(event.content))
      : [],
  );
  const correctedLabels = new Set(corrections.flatMap(({ label }) => (label === undefined ? [] : [label])));
  const proposals = [
    ...corrections,
    ...repeatedPreferences(context, corrections),
    ...recurringProcedures(units, context.order),
  ];
  return {
    proposals: proposals.sort((a, b) => a.at - b.at),
    contradictions: contradictionsOf(context, correctedLabels).sort((a, b) => a.at - b.at),
  };
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
  if (!isId('trc', input.trace_id))
    throw ValidationError.of('trace_id', 'pattern', 'must be "trc_" followed by a 26-character ULID');
  const events = input.events.filter((event) => isShareable(event) && isId('evt', event.id));
  const items = input.items.filter((item) => item.status === 'active' && isShareable(item));
  const order = new Map(events.map((event, at) => [event.id, at]));
  const extractor = createRuleExtractor(options.project === undefined ? {} : { project: options.project });
  const knownKeys = [...new Set(items.map((item) => item.key))];
  const candidates = extractRun(events, knownKeys, extractor);
  const context: RunContext = {
    events,
    order,
    statements: statementsOf(candidates, order),
    known: knownValues(items, new Set(order.keys())),
    extractor,
    knownKeys,
  };
  const units = runUnits(events);
  const segments = segmentRun(units, {
    maxSegments: options.maxEpisodes ?? DEFAULT_SEGMENT_OPTIONS.maxSegments,
    gapMs: (options.gapMinutes ?? 30) * 60_000,
  });
  const episodes: EpisodeCandidate[] = segments.map((segment) => describeEpisode(segment, candidates, units));
  const episodeOf = new Map(
    episodes.flatMap((episode, index) => episode.source_event_ids.map((id) => [id, index] as const)),
  );
  const { proposals, contradictions } = proposalsOf(context, units);
  const inOrder = (ids: readonly string[]): string[] => [...new Set(ids)].sort((a, b) => order.get(a)! - order.get(b)!);
  const episodesOf = (ids: readonly string[]): number[] =>
    [...new Set(ids.flatMap((id) => episodeOf.get(id) ?? []))].sort((a, b) => a - b);
  return {
    reflection: {
      trace_id: input.trace_id,
      episode_candidates: episodes,
      memory_candidates: proposals.map((proposal) => ({
        ...proposal.memory,
        source_episode_indexes: episodesOf(proposal.events),
      })),
      contradictions: contradictions.map(({ detail, item_ids, source_event_ids, question }) => ({
        detail,
        item_ids,
        source_event_ids,
        question,
      })),
      doctrine_suggestions: [],
    },
    targets: proposals.map((proposal) => ({
      target: proposal.target,
      item_ids: proposal.item_ids,
      source_event_ids: inOrder(proposal.events),
    })),
  };
}
