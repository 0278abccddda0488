// The data of the compose-shapes benchmark: long-term items of one or many users written in bulk
// (exactly the ops `remember` plans for new keys), a temporary store without embeddings, and the
// row counts read back from the SQLite file so the table states what the store really held.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import Database from 'better-sqlite3';

import type { Engram, RememberRequest } from '../src/index.js';
import { openTempEngram, storeOf } from './temp-store.js';
import { contentWord, seededRandom } from './corpus.js';
import { bulkOps, phrase, userItem } from './item-corpus.js';
import { median, nowMs, summarize, type LatencySummary } from './stats.js';

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
    yield {
      scope: { user_id: 'admin', agent_id: agent },
      type: 'procedure',
      key: `procedure:${taskType}:p${index}`,
      value: { task_type: taskType, name: phrase(shared, 2, 4), steps },
    };
  }
  for (let position = 0; position < plan.users.length; position += 1) {
    const user = plan.users[position]!;
    const random = seededRandom(plan.seed + 1 + position);
    for (let index = 0; index < plan.itemsPerUser; index += 1) yield userItem(random, user, plan.agents[0]!, index);
  }
}

export interface BulkItemsResult {
  items: number;
  batch_items: number;
  seconds: number;
  items_per_s: number;
  batch_latency: LatencySummary;
}

/** Writes the items through the store's `write` (`storeOf`), `batchSize` items (one transaction) at a time. */
export async function writeItems(
  engram: Engram,
  items: Iterable<RememberRequest>,
  batchSize: number,
): Promise<BulkItemsResult> {
  const batchMs: number[] = [];
  const rates: number[] = [];
  let written = 0;
  let batch: RememberRequest[] = [];
  const flush = async () => {
    const ops = bulkOps(batch);
    const start = nowMs();
    await storeOf(engram).write(ops);
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
  return {
    items: written,
    batch_items: batchSize,
    seconds: Math.round(seconds * 10) / 10,
    items_per_s: Math.round(median(rates)),
    batch_latency: summarize(batchMs),
  };
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
      extracted_items: one(
        `SELECT count(*) AS n FROM memory_items WHERE json_extract(provenance, '$.extractor') <> 'explicit'`,
      ),
      largest_owner_items: one(
        'SELECT coalesce(max(n), 0) AS n FROM (SELECT count(*) AS n FROM memory_items GROUP BY tenant_id, owner)',
      ),
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
  const engram = await openTempEngram(path, { embeddings: { provider: 'none' } });
  try {
    return await body(engram, path);
  } finally {
    await engram.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
