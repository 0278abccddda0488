// Synthetic long-term memory items for the benchmarks: one user's items cycle through a fixed mix
// of types with deterministic text, and bulk writes use the operations `remember` would plan.

import type { ItemCandidate, MemoryType, RememberRequest, WriteOp } from '../src/index.js';
import { DEFAULT_POLICIES } from '../src/index.js';
import { ItemMerger } from '../src/items/merge.js';
import { DEFAULT_TENANT } from '../src/spec/scope.js';
import { contentWord } from './corpus.js';

const PROJECTS = ['atlas', 'orion', 'phoenix', 'home', 'finance', 'hiring'];
const PREF_SCOPES = ['writing', 'coding', 'tools', 'ui', 'other'];
const FUNCTION_WORDS = ['the', 'a', 'to', 'of', 'and', 'in', 'for', 'with', 'on', 'before', 'after'];
// A user's items cycle through this mix (item 0 is their profile): the types compose always reads
// (profile, preferences, goals, tasks), the episode types (events, cases) and the cue-only ones.
const MIX: readonly MemoryType[] = [
  'tasks',
  'tasks',
  'preferences',
  'decisions',
  'events',
  'tasks',
  'entities',
  'preferences',
  'tasks',
  'decisions',
  'events',
  'goals',
  'tasks',
  'preferences',
  'cases',
  'events',
  'entities',
  'tasks',
  'decisions',
  'goals',
];

function pick<T>(random: () => number, values: readonly T[]): T {
  return values[Math.floor(random() * values.length)]!;
}

export function phrase(random: () => number, min: number, max: number): string {
  const length = min + Math.floor(random() * (max - min + 1));
  return Array.from({ length }, () => (random() < 0.3 ? pick(random, FUNCTION_WORDS) : contentWord(random))).join(' ');
}

function date(random: () => number): string {
  return new Date(Date.UTC(2025, 0, 1) + Math.floor(random() * 700) * 86_400_000).toISOString().slice(0, 10);
}

/** Item `index` of a user: a valid remember request whose key is unique for that user. */
export function userItem(random: () => number, user: string, agent: string, index: number): RememberRequest {
  const type: MemoryType = index === 0 ? 'profile' : MIX[index % MIX.length]!;
  const project = pick(random, PROJECTS);
  const body = (key: string, value: Record<string, unknown>): RememberRequest => ({
    scope: { user_id: user, agent_id: agent },
    type,
    key,
    value,
  });
  switch (type) {
    case 'profile':
      return body(`profile:${user}`, {
        subject: user,
        facts: [
          { k: 'city', v: contentWord(random) },
          { k: 'role', v: phrase(random, 2, 5) },
        ],
      });
    case 'preferences': {
      const scope = pick(random, PREF_SCOPES);
      return body(`pref:${scope}:${contentWord(random)}_${index}`, {
        scope,
        name: contentWord(random),
        value: phrase(random, 3, 8),
      });
    }
    case 'tasks':
      return body(`task:${project}:t${index}`, {
        project,
        task_id: `t${index}`,
        title: phrase(random, 5, 12),
        status: pick(random, ['todo', 'doing', 'done', 'blocked']),
        due: date(random),
      });
    case 'decisions':
      return body(`decision:${project}:d${index}`, {
        project,
        topic: phrase(random, 2, 4),
        decision: phrase(random, 6, 14),
        rationale: phrase(random, 5, 10),
      });
    case 'events': {
      const day = date(random);
      return body(`event:${project}:${day}:e${index}`, { date: day, title: phrase(random, 5, 12) });
    }
    case 'entities': {
      const kind = pick(random, ['person', 'org', 'repo', 'topic']);
      const canonical = `${contentWord(random)}-${index}`;
      return body(`entity:${kind}:${canonical}`, { kind, canonical, aliases: [contentWord(random)] });
    }
    case 'goals':
      return body(`goal:${project}:g${index}`, {
        project,
        name: phrase(random, 2, 4),
        description: phrase(random, 6, 14),
      });
    default:
      return body(`case:${project}:c${index}`, {
        domain: contentWord(random),
        problem: phrase(random, 6, 12),
        solution: phrase(random, 6, 12),
      });
  }
}

/** What a shape's long-term memory holds: `itemsPerUser` items for each user, and agent procedures. */
export function candidateOf(request: RememberRequest): ItemCandidate {
  return {
    action: 'upsert',
    type: request.type,
    key: request.key,
    value: request.value,
    confidence: 0.95,
    rule: 'api.remember',
    gate: 'must',
    source_event_ids: [],
  };
}

/** The ops `remember` writes for brand-new keys (src/runtime/memory-api.ts): ItemMerger.plan, one merger per writer. */
export function bulkOps(requests: readonly RememberRequest[]): WriteOp[] {
  const mergers = new Map<string, ItemMerger>();
  const now = new Date().toISOString();
  return requests.flatMap((request) => {
    const { user_id, agent_id } = request.scope;
    const writer = `${user_id}\u0000${agent_id}`;
    let merger = mergers.get(writer);
    if (merger === undefined) {
      merger = new ItemMerger({ tenant_id: DEFAULT_TENANT, user_id, agent_id }, [], {
        now,
        policies: DEFAULT_POLICIES,
        extractor: 'explicit',
        sensitivityOf: () => 'normal',
      });
      mergers.set(writer, merger);
    }
    return merger.plan(candidateOf(request)).ops;
  });
}
