// The review candidates of one reflection: every episode, memory candidate, contradiction and
// doctrine suggestion becomes a pending candidate with its evidence, salience and what approving it
// would write. An auto-approve policy may name memory types and a confidence floor; contradictions
// and doctrine suggestions are never approved automatically, and by default nothing is. A
// candidate carries the strongest sensitivity of its evidence, and one drawn from private events
// proposes to write at the user's level only. A proposal made before for the same run (or twice in
// one reflection) is not proposed again. The write path proposes too: a statement with several
// readings (two open tasks fit one done statement) becomes one candidate per reading.

import type { EventRecord, Sensitivity } from '../spec/event.js';
import type { ItemCandidate, Salience } from '../spec/items.js';
import type {
  CandidateKind,
  CandidateTarget,
  ContradictionProposal,
  DoctrineSuggestion,
  ReflectionMemoryType,
  ReflectionSource,
  ReviewCandidate,
  SessionReflection,
} from '../spec/reflection.js';
import { newId } from '../util/ids.js';
import { confinedLevel, strongestSensitivity } from '../events/sensitivity.js';
import { episodeTarget, type ProposalTarget } from './targets.js';

/** One rule of an auto-approve policy: candidates of these memory types, at least this confident, from these sources. */
export interface AutoApproveRule {
  /** `episodic` covers episode candidates too. */
  memory_types: readonly ReflectionMemoryType[];
  min_confidence: number;
  /** Default `['rules']`: a model's proposals are auto-approved only when a rule names `llm`. */
  sources?: readonly ReflectionSource[];
}

/** The run a reflection was made for. */
export interface CandidateScope {
  tenant_id: string;
  user_id: string;
  agent_id: string;
  session_id: string;
  run_id: string;
}

const EPISODE_SALIENCE: Salience = { consequence: 0.3, emotional_charge: 0.1, reusability: 0.4 };
const DISPUTE_SALIENCE: Salience = { consequence: 0.7, emotional_charge: 0.2, reusability: 0.5 };
const DOCTRINE_SALIENCE: Salience = { consequence: 0.6, emotional_charge: 0.1, reusability: 0.8 };

/**
 * Whether a policy approves a candidate without a person. Contradictions and doctrine never.
 *
 * @example
 * autoApproves([{ memory_types: ['affective'], min_confidence: 0.8 }], candidate) // true for a confident rules preference
 */
export function autoApproves(rules: readonly AutoApproveRule[], candidate: ReviewCandidate): boolean {
  if (candidate.kind === 'contradiction' || candidate.kind === 'doctrine' || candidate.memory_type === null)
    return false;
  if (candidate.target.write === 'none') return false;
  return rules.some(
    (rule) =>
      rule.memory_types.includes(candidate.memory_type!) &&
      candidate.confidence >= rule.min_confidence &&
      (rule.sources ?? ['rules']).includes(candidate.source),
  );
}

export interface ProposalInput {
  reflection: SessionReflection;
  source: ReflectionSource;
  scope: CandidateScope;
  /** What each memory candidate would write (same order as `memory_candidates`). */
  targets: readonly ProposalTarget[];
  /** The trace's events by id (for episode dates and the sensitivity of each candidate's evidence). */
  events: ReadonlyMap<string, EventRecord>;
  /**
   * The strongest sensitivity of what a model read, given to each of its candidates whatever they
   * cite (a model may draw on any event it was shown); leave it out for rules, whose evidence is exact.
   */
  read?: Sensitivity;
  now: string;
}

/**
 * The sensitivity of a candidate: the strongest of its events (of every event the reflection read
 * when it cites none) and of `floor`.
 *
 * @example
 * sensitivityOf(['evt_…'], eventsById) // 'private' when that event is
 */
export function sensitivityOf(
  sourceEventIds: readonly string[],
  events: ReadonlyMap<string, Pick<EventRecord, 'sensitivity'>>,
  floor: Sensitivity = 'normal',
): Sensitivity {
  const cited =
    sourceEventIds.length === 0 ? [...events.values()] : sourceEventIds.flatMap((id) => events.get(id) ?? []);
  return strongestSensitivity([floor, ...cited.map((event) => event.sensitivity)]);
}

/**
 * A target confined to what its evidence allows: an item drawn from private events is written at
 * the user's level (the other targets write nothing shared: insights belong to their user).
 *
 * @example
 * confinedTarget({ write: 'item', type: 'procedure', key, value }, 'private').scope_level // 'user'
 */
export function confinedTarget(target: CandidateTarget, sensitivity: Sensitivity): CandidateTarget {
  if (target.write !== 'item' || sensitivity === 'normal') return target;
  return { ...target, scope_level: confinedLevel(target.scope_level ?? 'agent', sensitivity) };
}

/** A candidate with its sensitivity, and its target confined to it. */
function withSensitivity<T extends Omit<ReviewCandidate, 'sensitivity'>>(
  candidate: T,
  input: ProposalInput,
): T & { sensitivity: Sensitivity } {
  const sensitivity = sensitivityOf(candidate.source_event_ids, input.events, input.read ?? 'normal');
  return { ...candidate, sensitivity, target: confinedTarget(candidate.target, sensitivity) };
}

/**
 * The pending candidates of a reflection, in the order it proposed them.
 *
 * @example
 * const candidates = candidatesOf({ reflection, source: 'rules', scope, targets, events, now });
 */
export function candidatesOf(input: ProposalInput): ReviewCandidate[] {
  const { reflection } = input;
  const base = (kind: CandidateKind) => ({
    id: newId('cand'),
    ...input.scope,
    trace_id: reflection.trace_id,
    kind,
    source: input.source,
    status: 'pending' as const,
    open_loop_id: null,
    created_at: input.now,
    decision: null,
  });
  const lastTime =
    [...input.events.values()]
      .map((event) => event.ts)
      .sort()
      .at(-1) ?? input.now;
  const out: Array<Omit<ReviewCandidate, 'sensitivity'>> = reflection.episode_candidates.map((episode) => ({
    ...base('episode'),
    payload: { ...episode },
    memory_type: 'episodic',
    confidence: episode.confidence,
    salience: EPISODE_SALIENCE,
    source_event_ids: episode.source_event_ids,
    ...episodeTarget(episode, input.events, lastTime),
  }));
  reflection.memory_candidates.forEach((candidate, index) => {
    const proposal = input.targets[index] ?? { target: { write: 'none' }, item_ids: [] };
    const sources =
      proposal.source_event_ids ??
      candidate.source_episode_indexes.flatMap((at) => reflection.episode_candidates[at]?.source_event_ids ?? []);
    out.push({
      ...base('memory'),
      payload: { ...candidate },
      memory_type: candidate.memory_type,
      confidence: candidate.confidence,
      salience: candidate.initial_salience,
      source_event_ids: [...new Set(sources)],
      target: proposal.target,
      item_ids: proposal.item_ids,
    });
  });
  for (const entry of reflection.contradictions) {
    const proposal = entry as ContradictionProposal;
    out.push({
      ...base('contradiction'),
      payload: { ...proposal },
      memory_type: null,
      confidence: 1,
      salience: DISPUTE_SALIENCE,
      source_event_ids: proposal.source_event_ids,
      item_ids: proposal.item_ids,
      target: { write: 'resolve', keep: null },
      open_loop_id: proposal.question,
    });
  }
  for (const entry of reflection.doctrine_suggestions) {
    const doctrine = entry as DoctrineSuggestion;
    out.push({
      ...base('doctrine'),
      payload: { ...doctrine },
      memory_type: null,
      confidence: 0.5,
      salience: DOCTRINE_SALIENCE,
      source_event_ids: (doctrine.source_event_ids ?? []).filter((id) => input.events.has(id)),
      item_ids: [],
      target: {
        write: 'insight',
        insight_type: 'pattern',
        statement: doctrine.statement,
        trigger: 'synthesis',
        tests_suggested: [],
        expires_at: null,
      },
    });
  }
  return out.map((candidate) => withSensitivity(candidate, input));
}

/** JSON with every object's keys sorted, so equal values read the same. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([name, entry]) => `${JSON.stringify(name)}:${stableJson(entry)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * What makes two candidates the same proposal: their kind, what approving them writes and the items
 * they are about; a candidate that writes nothing without an edit is told apart by its proposal.
 *
 * @example
 * candidateFingerprint(first) === candidateFingerprint(second) // true for the same proposal made twice
 */
export function candidateFingerprint(
  candidate: Pick<ReviewCandidate, 'kind' | 'target' | 'item_ids' | 'payload'>,
): string {
  const about = [...candidate.item_ids].sort();
  return stableJson([
    candidate.kind,
    candidate.target,
    about,
    candidate.target.write === 'none' ? candidate.payload : null,
  ]);
}

/**
 * The proposals that are new: neither made before (`earlier`, whatever became of them) nor made
 * twice in `proposed`. Reflecting over the same run again adds nothing it proposed already.
 *
 * @example
 * const fresh = newProposals(candidatesOf(input), await earlierCandidatesOfTheRun());
 */
export function newProposals(
  proposed: readonly ReviewCandidate[],
  earlier: readonly ReviewCandidate[],
): ReviewCandidate[] {
  const seen = new Set(earlier.map(candidateFingerprint));
  return proposed.filter((candidate) => {
    const fingerprint = candidateFingerprint(candidate);
    if (seen.has(fingerprint)) return false;
    seen.add(fingerprint);
    return true;
  });
}

const READING_SALIENCE: Salience = { consequence: 0.5, emotional_charge: 0.2, reusability: 0.5 };

/** A reading in one line: "task:general:renew_car_insurance → status done". */
function claimOf(reading: ItemCandidate): string {
  if (reading.action === 'retract') return `${reading.key} → retracted`;
  const changes = Object.entries(reading.value).filter(([name]) => name !== 'task_id' && name !== 'project');
  return `${reading.key} → ${changes.map(([name, value]) => `${name} ${typeof value === 'string' ? value : JSON.stringify(value)}`).join(', ')}`;
}

/**
 * The review candidates of a turn's statements that have several readings (ItemCandidate.review):
 * one memory candidate per reading, approving which writes it through the normal merge. `about`
 * gives the current item each key names, when there is one: the target then holds the whole value
 * the approval leaves ("renew the car insurance", now done), so a reviewer reads what they approve.
 *
 * @example
 * readingCandidates(proposed, { scope, events, about, now }) // one pending candidate per tied task
 */
export function readingCandidates(
  readings: readonly ItemCandidate[],
  input: {
    scope: CandidateScope;
    events: ReadonlyMap<string, EventRecord>;
    about: ReadonlyMap<string, { id: string; value: Record<string, unknown> }>;
    now: string;
  },
): ReviewCandidate[] {
  const traceId = newId('trc');
  return readings.map((reading) => {
    const sensitivity = sensitivityOf(reading.source_event_ids, input.events);
    const current = input.about.get(reading.key);
    const item = current?.id;
    const value = { ...current?.value, ...reading.value };
    const target: CandidateTarget =
      reading.action === 'retract'
        ? { write: 'retract', key: reading.key }
        : { write: 'item', type: reading.type, key: reading.key, value };
    return {
      id: newId('cand'),
      ...input.scope,
      trace_id: traceId,
      kind: 'memory',
      source: reading.provenance?.extractor === 'llm' ? 'llm' : 'rules',
      status: 'pending',
      payload: { claim: claimOf(reading), reason: reading.review ?? '', rule: reading.rule },
      memory_type: 'semantic',
      confidence: reading.confidence,
      salience: { ...READING_SALIENCE, ...reading.salience },
      source_event_ids: reading.source_event_ids,
      sensitivity,
      item_ids: item === undefined ? [] : [item],
      target: confinedTarget(target, sensitivity),
      open_loop_id: null,
      created_at: input.now,
      decision: null,
    };
  });
}
