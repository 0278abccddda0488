// What approving a proposal would write (DESIGN §1, reflection memory types): an episode becomes an
// `events` item with its time range; a memory candidate's claim is read by the rule extractor to find
// its key and value (semantic → fact types by key, affective → preference, procedural → procedure,
// correction → the new value or a retraction of the key it corrects); strategic claims stay strategy
// sketches (insights) until validated. A claim no rule understands needs the reviewer to give a key.

import type { EventRecord } from '../spec/event.js';
import type { Extractor, ItemCandidate, MemoryItem, MemoryType } from '../spec/items.js';
import type { CandidateTarget, EpisodeCandidate, MemoryCandidate } from '../spec/reflection.js';
import { makeKey, slug } from '../items/keys.js';

export interface ProposalTarget {
  target: CandidateTarget;
  /** Current items the proposal is about (the item a correction corrects). */
  item_ids: string[];
  /** The events that support it, when known more precisely than its episodes. */
  source_event_ids?: string[];
}

/** The reflection types and the item types their claims may land on, best first. */
const CLAIM_TYPES: Readonly<Record<'semantic' | 'affective' | 'procedural' | 'correction', readonly MemoryType[]>> = {
  semantic: ['profile', 'decisions', 'goals', 'tasks', 'entities', 'events', 'preferences', 'cases', 'patterns'],
  affective: ['preferences'],
  procedural: ['procedure', 'patterns'],
  correction: ['preferences', 'profile', 'decisions', 'goals', 'tasks', 'entities', 'events', 'procedure'],
};

// Claims are written about "the user"; the rules read first-person speech.
const THIRD_PERSON: ReadonlyArray<[RegExp, string]> = [
  [/^the user's\s+/iu, 'My '],
  [/^the user\s+(?:is|was)\s+/iu, 'I am '],
  [/^the user\s+(prefer|like|want|use|work|live|need|hate|dislike|love|plan|decide)s\s+/iu, 'I $1 '],
  [/^the user\s+has\s+/iu, 'I have '],
  [/^the user\s+/iu, 'I '],
];

function firstPerson(claim: string): string {
  for (const [pattern, replacement] of THIRD_PERSON)
    if (pattern.test(claim)) return claim.replace(pattern, replacement);
  return claim;
}

/** The day an episode starts and its time range, from its source events (or the trace's first). */
function timeRangeOf(
  episode: EpisodeCandidate,
  events: ReadonlyMap<string, EventRecord>,
  fallback: string,
): { start: string; end: string } {
  const times = episode.source_event_ids
    .map((id) => events.get(id)?.ts)
    .filter((ts): ts is string => ts !== undefined)
    .sort();
  return { start: times[0] ?? fallback, end: times.at(-1) ?? fallback };
}

/**
 * The `events` item an approved episode becomes: dated by its first event, titled by its summary,
 * with its time range, entities, domains and compression level kept in the value.
 *
 * @example
 * episodeTarget(episode, eventsById, '2026-05-01T10:00:00.000Z').target.write // 'item'
 */
export function episodeTarget(
  episode: EpisodeCandidate,
  events: ReadonlyMap<string, EventRecord>,
  fallbackTime: string,
): ProposalTarget {
  const range = timeRangeOf(episode, events, fallbackTime);
  const domain = episode.domains[0] ?? 'general';
  const date = range.start.slice(0, 10);
  const value: Record<string, unknown> = {
    date,
    title: episode.summary,
    scope: domain,
    time_range: range,
    highlights:
      episode.candidate_meaning === undefined || episode.candidate_meaning === null ? [] : [episode.candidate_meaning],
    domains: episode.domains,
    compression_level: 'phase_summary',
  };
  return {
    target: {
      write: 'item',
      type: 'events',
      key: makeKey('events', [domain, date, slug(episode.summary, 40)]),
      value,
      tags: episode.domains,
      entities: episode.entities,
      valid_from: range.start,
    },
    item_ids: [],
  };
}

function itemTarget(candidate: ItemCandidate): CandidateTarget {
  if (candidate.action === 'retract') return { write: 'retract', key: candidate.key };
  return {
    write: 'item',
    type: candidate.type,
    key: candidate.key,
    value: candidate.value,
    ...(candidate.scope_level === undefined ? {} : { scope_level: candidate.scope_level }),
    ...(candidate.tags === undefined ? {} : { tags: candidate.tags }),
    ...(candidate.entities === undefined ? {} : { entities: candidate.entities }),
  };
}

function fallbackTarget(candidate: MemoryCandidate): CandidateTarget {
  const name = slug(candidate.claim, 40);
  if (candidate.memory_type === 'affective') {
    return {
      write: 'item',
      type: 'preferences',
      key: makeKey('preferences', ['other', name]),
      value: { scope: 'other', name, value: candidate.claim },
    };
  }
  if (candidate.memory_type === 'procedural') {
    const taskType = candidate.applies_when[0] === undefined ? 'generic' : slug(candidate.applies_when[0], 40);
    return {
      write: 'item',
      type: 'procedure',
      key: makeKey('procedure', [taskType, name]),
      value: { task_type: taskType, name: candidate.claim.slice(0, 200), steps: [candidate.claim] },
    };
  }
  return { write: 'none' };
}

export interface ClaimContext {
  extractor: Extractor;
  /** The user's current items (a correction names the ones of its key). */
  items: readonly MemoryItem[];
  episodes: readonly EpisodeCandidate[];
  events: ReadonlyMap<string, EventRecord>;
  /** The time of the trace's last event, for claims without dated episodes. */
  fallbackTime: string;
}

/**
 * What approving a memory candidate writes, read from its claim by the rule extractor, with a
 * typed fallback per memory type (or `none`: the reviewer gives the key at approval).
 *
 * @example
 * const { target } = await claimTarget({ claim: 'The user prefers concise answers', memory_type: 'affective', … }, context);
 */
export async function claimTarget(candidate: MemoryCandidate, context: ClaimContext): Promise<ProposalTarget> {
  if (candidate.memory_type === 'strategic') {
    return {
      target: {
        write: 'insight',
        insight_type: 'strategy',
        statement: candidate.claim,
        trigger: 'synthesis',
        tests_suggested: candidate.applies_when.map((when) => `Try it when ${when}`),
        expires_at: null,
      },
      item_ids: [],
    };
  }
  if (candidate.memory_type === 'episodic') {
    const episode = context.episodes[candidate.source_episode_indexes[0] ?? -1];
    const summary = {
      summary: candidate.claim,
      entities: episode?.entities ?? [],
      domains: episode?.domains ?? [],
      source_event_ids: episode?.source_event_ids ?? [],
      confidence: candidate.confidence,
    };
    return episodeTarget(summary, context.events, context.fallbackTime);
  }
  const sourceId = context.episodes[candidate.source_episode_indexes[0] ?? -1]?.source_event_ids[0] ?? 'evt_claim';
  const found = await context.extractor.extract({
    events: [
      {
        event_id: sourceId,
        kind: 'message',
        role: 'user',
        text: firstPerson(candidate.claim),
        ts: context.fallbackTime,
      },
    ],
    known_keys: context.items.map((item) => item.key),
  });
  const wanted = CLAIM_TYPES[candidate.memory_type];
  const usable = found
    .filter(
      (entry) => wanted.includes(entry.type) && (entry.action === 'upsert' || candidate.memory_type === 'correction'),
    )
    .sort((a, b) => wanted.indexOf(a.type) - wanted.indexOf(b.type));
  const best = usable[0];
  const target = best === undefined ? fallbackTarget(candidate) : itemTarget(best);
  const key = target.write === 'item' || target.write === 'retract' ? target.key : undefined;
  const itemIds =
    key === undefined
      ? []
      : context.items.filter((item) => item.key === key && item.status === 'active').map((item) => item.id);
  return { target, item_ids: itemIds };
}
