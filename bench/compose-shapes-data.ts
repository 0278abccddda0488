// The data of the compose-shapes benchmark: long-term items of one or many users written in bulk
// (exactly the ops `remember` plans for new keys), a temporary store without embeddings, and the
// row counts read back from the SQLite file so the table states what the store really held.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import Database from 'better-sqlite3';

import type { Engram, ItemCandidate, MemoryType, RememberRequest, WriteOp } from '../src/index.js';
import { createEngram, DEFAULT_POLICIES } from '../src/index.js';
import { ItemMerger } from '../src/items/merge.js';
import { DEFAULT_TENANT } from '../src/spec/scope.js';
import { contentWord, seededRandom } from './corpus.js';
import { median, nowMs, summarize, type LatencySummary } from './stats.js';

const PROJECTS = ['atlas', 'orion', 'phoenix', 'home', 'finance', 'hiring'];
const PREF_SCOPES = ['writing', 'coding', 'tools', 'ui', 'other'];
const FUNCTION_WORDS = ['the', 'a', 'to', 'of', 'and', 'in', 'for', 'with', 'on', 'before', 'after'];
// A user's items cycle through this mix (item 0 is their profile): the types compose always reads
// (profile, preferences, goals, tasks), the episode types (events, cases) and the cue-only ones.
const MIX: readonly MemoryType[] = [
  'tasks', 'tasks', 'preferences', 'decisions', 'events', 'tasks', 'entities', 'preferences', 'tasks', 'decisions',
  'events', 'goals', 'tasks', 'preferences', 'cases', 'events', 'entities', 'tasks', 'decisions', 'goals',
];

function pick<T>(random: () => number, values: readonly T[]): T {
  return values[Math.floor(random() * values.length)]!;
}

function phrase(random: () => number, min: number, max: number): string {
  const length = min + Math.floor(random() * (max - min + 1));
  return Array.from({ length }, () => (random() < 0.3 ? pick(random, FUNCTION_WORDS) : contentWord(random))).join(' ');
}

function date(random: () => number): string {
  return new Date(Date.UTC(2025, 0, 1) + Math.floor(random() * 600) * 86_400_000).toISOString().slice(0, 10);
}

/** Item `index` of a user: a valid remember request whose key is unique for that user. */
function userItem(random: () => number, user: string, agent: string, index: number): RememberRequest {
  const type: MemoryType = index === 0 ? 'profile' : MIX[index % MIX.length]!;
  const project = pick(random, PROJECTS);
  const body = (key: string, value: Record<string, unknown>): RememberRequest => ({ scope: { user_id: user, agent_id: agent }, type, key, value });
  switch (type) {
    case 'profile':
      return body(`profile:${user}`, { subject: user, facts: [{ k: 'city', v: contentWord(random) }, { k: 'role', v: phrase(random, 2, 5) }] });
    case 'preferences': {
      const scope = pick(random, PREF_SCOPES);
      return body(`pref:${scope}:${contentWord(random)}_${index}`, { scope, name: contentWord(random), value: phrase(random, 3, 8) });
    }
    case 'tasks':
      return body(`task:${project}:t${index}`, { project, task_id: `t${index}`, title: phrase(random, 5, 12), status: pick(random, ['todo', 'doing', 'done', 'blocked']), due: date(random) });
    case 'decisions':
      return body(`decision:${project}:d${index}`, { project, topic: phrase(random, 2, 4), decision: phrase(random, 6, 14), rationale: phrase(random, 5, 10) });
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
      return body(`goal:${project}:g${index}`, { project, name: phrase(random, 2, 4), description: phrase(random, 6, 14) });
    default:
      return body(`case:${project}:c${index}`, { domain: contentWord(random), problem: phrase(random, 6, 12), solution: phrase(random, 6, 12) });
  }
}

/** What a shape's long-term memory holds: `itemsPerUser` items for each user, and agent procedures. */
export interface ItemPlan {
  users: readonly string[];
  itemsPerUser: number;
  /** Agent-level procedures, spread over these agents (every user of the agent sees them). */
  agents: readonly string[];
  procedures: number;
  seed: number;
}

/** Every item of the plan in write order: the procedures, then each user's items. */
export function* plannedItems(plan: ItemPlan): Generator<RememberRequest> {
  const shared = seededRandom(plan.seed);
  for (let index = 0; index < plan.procedures; index += 1) {
    const agent = plan.agents[index % plan.agents.length]!;
    const taskType = index % 4 === 0 ? 'generic' : contentWord(shared);
    const steps = Array.from({ length: 3 }, () => phrase(shared, 3, 7));
    yield { scope: { user_id: 'admin', agent_id: agent }, type: 'procedure', key: `procedure:${taskType}:p${index}`, value: { task_type: taskType, name: phrase(shared, 2, 4), steps } };
  }
  for (let position = 0; position < plan.users.length; position += 1) {
    const user = plan.users[position]!;
    const random = seededRandom(plan.seed + 1 + position);
    for (let index = 0; index < plan.itemsPerUser; index += 1) yield userItem(random, user, plan.agents[0]!, index);
  }
}

function candidateOf(request: RememberRequest): ItemCandidate {
  return { action: 'upsert', type: request.type, key: request.key, value: request.value, confidence: 0.95, rule: 'api.remember', gate: 'must', source_event_ids: [] };
}

/** The ops `remember` writes for brand-new keys (src/runtime/memory-api.ts): ItemMerger.plan, one merger per writer. */
function bulkOps(requests: readonly RememberRequest[]): WriteOp[] {
  const mergers = new Map<string, ItemMerger>();
  const now = new Date().toISOString();
  return requests.flatMap((request) => {
    const { user_id, agent_id } = request.scope;
    const writer = `${user_id}\u0000${agent_id}`;
    let merger = mergers.get(writer);
    if (merger === undefined) {
      merger = new ItemMerger({ tenant_id: DEFAULT_TENANT, user_id, agent_id }, [], { now, policies: DEFAULT_POLICIES, extractor: 'explicit', sensitivityOf: () => 'normal' });
      mergers.set(writer, merger);
    }
    return merger.plan(candidateOf(request)).ops;
  });
}

export interface BulkItemsResult {
  items: number;
  batch_items: number;
  seconds: number;
  items_per_s: number;
  batch_latency: LatencySummary;
}

/** Writes the items through `engram.storage.write`, `batchSize` items (one transaction) at a time. */
export async function writeItems(engram: Engram, items: Iterable<RememberRequest>, batchSize: number): Promise<BulkItemsResult> {
  const batchMs: number[] = [];
  const rates: number[] = [];
  let written = 0;
  let batch: RememberRequest[] = [];
  const flush = async () => {
    const ops = bulkOps(batch);
    const start = nowMs();
    await engram.storage.write(ops);
    const ms = nowMs() - start;
    batchMs.push(ms);
    rates.push(batch.length / (ms / 1000));
    written += batch.length;
    batch = [];
  };
  for (const item of items) {
    batch.push(item);
    if (batch.length === batchSize) await flush();
  }
  if (batch.length > 0) await flush();
  const seconds = batchMs.reduce((sum, ms) => sum + ms, 0) / 1000;
  return { items: written, batch_items: batchSize, seconds: Math.round(seconds * 10) / 10, items_per_s: Math.round(median(rates)), batch_latency: summarize(batchMs) };
}

export interface StoreCounts {
  events: number;
  items: number;
  /** Items the rule extractor wrote during commitTurns (provenance other than `explicit`). */
  extracted_items: number;
  /** The most items one owner holds. */
  largest_owner_items: number;
  context_builds: number;
}

/** Counts rows in the store file through a second, read-only connection (WAL lets it read alongside). */
export function storeCounts(path: string): StoreCounts {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const one = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
    return {
      events: one('SELECT count(*) AS n FROM events'),
      items: one('SELECT count(*) AS n FROM memory_items'),
      extracted_items: one(`SELECT count(*) AS n FROM memory_items WHERE json_extract(provenance, '$.extractor') <> 'explicit'`),
      largest_owner_items: one('SELECT coalesce(max(n), 0) AS n FROM (SELECT count(*) AS n FROM memory_items GROUP BY tenant_id, owner)'),
      context_builds: one('SELECT count(*) AS n FROM context_builds'),
    };
  } finally {
    db.close();
  }
}

/**
 * A fresh SQLite store under os.tmpdir() without an embedding model (compose reads no vectors, and
 * nothing here waits on the embedding queue), removed afterwards even when the body throws.
 */
export async function withStoreWithoutEmbeddings<T>(body: (engram: Engram, path: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'engram-bench-'));
  const path = join(dir, 'engram.db');
  const engram = await createEngram({ store: `sqlite:${path}`, embeddings: { provider: 'none' } });
  try {
    return await body(engram, path);
  } finally {
    await engram.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
