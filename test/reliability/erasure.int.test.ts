// Erasure on both stores: a user with events (a secret one too), items with history, chunks and
// vectors, candidates, an insight, a snapshot and context builds, all carrying a canary word, is
// erased. On SQLite, after `compactStore` (full-text merge, WAL checkpoint, VACUUM) the canary's
// bytes are in no file of the store; on PostgreSQL no row of any table of the store mentions the user
// or the canary. Another user's data, with its own canary, is still there, and found the same way.

import { existsSync, readFileSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createEngram, type Engram } from '../../src/index.js';
import { startOpenAiCompatibleServer, type OpenAiCompatibleServer } from '../helpers/openai-compatible-server.js';
import { POSTGRES_URL } from '../helpers/postgres.js';
import { postgresStore, sqliteStore, type StoreUnderTest } from '../helpers/stores.js';
import { recordOutcome } from './results.js';

const unique = Date.now().toString(36);
const CANARY = `quokkaerased${unique}`;
const KEEPER = `wombatkept${unique}`;
const GONE = `gone-${unique}`;
const KEPT = `kept-${unique}`;
const markers = ['PLAN_DONE', 'ACT_DONE', 'OBSERVE_DONE', 'STEP_DONE'] as const;
const figures: Record<string, unknown> = {};

/** A user's whole life in the store, every kind of record holding `word`. */
async function seedUser(engram: Engram, user: string, word: string): Promise<void> {
  const scope = { user_id: user, agent_id: 'assistant', session_id: 's1', run_id: 'r1' };
  await engram.commitTurn({ scope, turn_id: 't1', messages: [{ role: 'user', content: `I prefer ${word} tea in the morning.` }, { role: 'assistant', content: `Noted: ${word} tea.` }] });
  await engram.commitTurn({ scope, turn_id: 't2', messages: [{ role: 'user', content: `my vault code is ${word}-1234`, sensitivity: 'secret' }] });
  await engram.commitTurn({
    scope,
    turn_id: 't3',
    messages: [{ role: 'user', content: `Actually I prefer ${word} coffee now. Deploy ${word} billing to staging.` }],
    tool_results: [{ tool_name: 'build_image', content: { image: `${word}:42` } }],
    run: { objective: `Ship ${word} billing`, done_definition: 'deployed' },
  });
  await engram.commitTurn({ scope, turn_id: 't4', markers: [...markers] });
  await engram.commitTurn({ scope, turn_id: 't5', markers: [...markers] });
  await engram.remember({ scope, type: 'preferences', key: 'pref:other:morning', value: { scope: 'other', name: 'morning', value: `${word} tea` } });
  await engram.remember({ scope, type: 'preferences', key: 'pref:other:morning', value: { scope: 'other', name: 'morning', value: `${word} coffee` } });
  const run = { user_id: user, agent_id: 'assistant', run_id: 'r1' };
  await engram.reflect({ scope: run });
  await engram.insights.add({ scope: run, type: 'strategy', statement: `Ask about ${word} first`, expires_at: null });
  await engram.compose({ scope, purpose: 'responder', cues: { query: `${word} tea` } });
  await engram.compose({ scope, purpose: 'planner' });
}

/** How many times `word` occurs in the store's files (the database, its WAL and shared memory). */
function occurrences(path: string, word: string): number {
  let found = 0;
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    if (!existsSync(file)) continue;
    const bytes = readFileSync(file);
    for (let at = bytes.indexOf(word); at !== -1; at = bytes.indexOf(word, at + 1)) found += 1;
  }
  return found;
}

/** Rows of each table of a PostgreSQL schema whose text mentions any of `words`. */
async function rowsMentioning(schema: string, words: readonly string[]): Promise<Record<string, number>> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    const tables = await client.query<{ tablename: string }>('SELECT tablename FROM pg_tables WHERE schemaname = $1 ORDER BY tablename', [schema]);
    const counts: Record<string, number> = {};
    for (const { tablename } of tables.rows) {
      const where = words.map((_, index) => `t::text LIKE $${index + 1}`).join(' OR ');
      const result = await client.query<{ n: string }>(`SELECT count(*) AS n FROM "${schema}"."${tablename}" AS t WHERE ${where}`, words.map((word) => `%${word}%`));
      counts[tablename] = Number(result.rows[0]!.n);
    }
    return counts;
  } finally {
    await client.end();
  }
}

const total = (counts: Record<string, number>) => Object.values(counts).reduce((sum, n) => sum + n, 0);

afterAll(() => recordOutcome('erasure', figures));

/** The checks of both stores, then `extra`: what the store's files or tables must show. */
function erasureSuite(store: StoreUnderTest, extra: (engram: () => Engram) => void): void {
  let provider: OpenAiCompatibleServer;
  let engram: Engram;

  beforeAll(async () => {
    provider = await startOpenAiCompatibleServer();
    engram = await createEngram({
      store: store.address(),
      embeddings: { provider: 'openai-compatible', baseUrl: provider.baseUrl, model: 'test-embed' },
      compaction: { eventThreshold: 5, stepFallback: 3 },
    });
    await seedUser(engram, GONE, CANARY);
    await seedUser(engram, KEPT, KEEPER);
    // Vectors for every embeddable event and chunk of both users.
    while ((await engram.runEmbeddings(500)).embedded > 0);
  }, 120_000);

  afterAll(async () => {
    await engram?.close();
    await provider?.close();
    await store.cleanup();
  });

  it("erases every kind of record of the user, and nothing of another user's", async () => {
    const listed = async (user: string) => ({
      events: (await engram.listEvents({ scope: { user_id: user }, limit: 1000 })).length,
      items: (await engram.listItems({ scope: { user_id: user, agent_id: 'assistant' }, status: ['active', 'superseded', 'retracted'], limit: 1000 })).length,
      candidates: (await engram.review.list({ scope: { user_id: user }, limit: 1000 })).length,
      insights: (await engram.insights.list({ scope: { user_id: user }, include_expired: true, limit: 1000 })).length,
      snapshots: (await engram.runs.snapshots({ scope: { user_id: user } })).length,
      builds: (await engram.listBuilds({ user_id: user, limit: 1000 })).length,
    });
    const before = await listed(GONE);
    const kept = await listed(KEPT);
    for (const [kind, count] of Object.entries(before)) expect(count, `${kind} seeded`).toBeGreaterThan(0);
    const erased = await engram.erase({ user_id: GONE });
    for (const table of ['events', 'memory_items', 'memory_chunks', 'candidates', 'insights', 'snapshots', 'context_builds']) expect(erased[table], table).toBeGreaterThan(0);
    expect(Object.values(await listed(GONE)).every((count) => count === 0)).toBe(true);
    expect(await listed(KEPT)).toEqual(kept);
    expect(await engram.search({ scope: { user_id: GONE }, query: `${CANARY} tea` })).toEqual([]);
    figures[store.name] = { ...(figures[store.name] as object), records_erased: erased, records_seeded: before };
  });

  extra(() => engram);
}

describe('erasure: sqlite', () => {
  const store = sqliteStore('erase');
  erasureSuite(store, (engram) => {
    it('leaves no byte of the canary in the SQLite files after compaction', async () => {
      const path = store.path!;
      // Deleted rows still hold their bytes in free pages and old index segments until the store is compacted.
      const afterErase = occurrences(path, CANARY);
      const compacted = await engram().compactStore();
      const left = occurrences(path, CANARY);
      expect(left).toBe(0);
      // The same search finds the other user's canary: the check can see what it looks for.
      expect(occurrences(path, KEEPER)).toBeGreaterThan(0);
      figures['sqlite'] = { ...(figures['sqlite'] as object), canary_occurrences_after_erase: afterErase, canary_occurrences_after_compaction: left, file_bytes: compacted };
    });
  });
});

describe('erasure: postgres', () => {
  const store = postgresStore('erase');
  erasureSuite(store, (engram) => {
    it('leaves no row in any PostgreSQL table that mentions the user or the canary', async () => {
      const mentions = await rowsMentioning(store.schema!, [GONE, CANARY]);
      expect(Object.keys(mentions).length).toBeGreaterThan(10);
      expect(mentions).toEqual(Object.fromEntries(Object.keys(mentions).map((table) => [table, 0])));
      const keeper = await rowsMentioning(store.schema!, [KEPT, KEEPER]);
      expect(total(keeper)).toBeGreaterThan(0);
      await engram().compactStore();
      figures['postgres'] = { ...(figures['postgres'] as object), tables_checked: Object.keys(mentions).length, rows_mentioning_erased_user: total(mentions), rows_of_kept_user: total(keeper) };
    });
  });
});

