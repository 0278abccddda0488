// Search latency over one large tenant: long-term items of many users (100 each, generated from the
// seeded PRNG) plus shared agent know-how; engram.items.search p50/p95 beside the raw full-text query, the
// vector candidates read and the query-embedding time, all on the same queries in the same run.

import type { Engram, RememberRequest } from '../src/index.js';
import { createEmbeddingModel, embedTexts, visibleOwners } from '../src/index.js';
import { DEFAULT_TENANT } from '../src/spec/scope.js';
import { searchTerms } from '../src/util/word-forms.js';
import { contentWord, cueQuery, seededRandom } from './corpus.js';
import { bulkOps, phrase, userItem } from './item-corpus.js';
import { median, nowMs, round, summarize, timed, type LatencySummary } from './stats.js';
import { storeOf, storeSizeMiB, keepingNothing, withTempStore } from './temp-store.js';

export interface LatencySizes {
  users: number;
  itemsPerUser: number;
  /** Agent-level items every user sees (procedures), written and embedded first. */
  sharedItems: number;
  /** Users whose items are embedded; every query goes to one of them. */
  embeddedUsers: number;
  queries: number;
  /** Items written one `remember` at a time into the empty store, and again (new keys) into the full one. */
  rememberItems: number;
}

export interface RememberRun {
  items: number;
  items_per_s: number;
  latency: LatencySummary;
}

export interface SearchLatencyResult {
  items: number;
  users: number;
  store_mib: number;
  /** `remember`, one call (one transaction) each: the first items of the empty store, then new keys in the full store. */
  remember_empty: RememberRun;
  remember_full: RememberRun;
  /** Everything else, written through storage.write with the ops remember plans (ItemMerger). */
  bulk: { items: number; batch_items: number; items_per_s: number; batch_latency: LatencySummary };
  embeddings: { texts: number; seconds: number; texts_per_s: number; vectors_per_search: number };
  search_first: LatencySummary;
  search_cached: LatencySummary;
  full_text: LatencySummary;
  item_vectors: LatencySummary;
  query_embedding: LatencySummary;
  mean_hits: number;
  mean_text_hits: number;
}

const AGENT = 'assistant';
const SEED = 20_261_130;
const BULK_BATCH = 500;
/** Below Engram's query-vector cache (256 entries), so a block's second pass is all cache hits. */
const BLOCK = 150;
function sharedItem(random: () => number, index: number): RememberRequest {
  const taskType = contentWord(random);
  const steps = Array.from({ length: 3 }, () => phrase(random, 3, 7));
  return {
    scope: { user_id: 'admin', agent_id: AGENT },
    type: 'procedure',
    key: `procedure:${taskType}:p${index}`,
    value: { task_type: taskType, name: phrase(random, 2, 4), steps },
  };
}

/** Every item in write order: shared items, the embedded users' items, then everyone else's. */
function* allItems(sizes: LatencySizes): Generator<RememberRequest> {
  const shared = seededRandom(SEED);
  for (let index = 0; index < sizes.sharedItems; index += 1) yield sharedItem(shared, index);
  for (let user = 0; user < sizes.users; user += 1) {
    const random = seededRandom(SEED + 1 + user);
    for (let index = 0; index < sizes.itemsPerUser; index += 1) yield userItem(random, `u${user}`, AGENT, index);
  }
}

/** The candidate `remember` builds from a request (src/runtime/memory-api.ts), for the bulk path. */
function take(source: Iterator<RememberRequest>, count: number): RememberRequest[] {
  const out: RememberRequest[] = [];
  for (let next = source.next(); next.done !== true; next = source.next()) {
    out.push(next.value);
    if (out.length === count) break;
  }
  return out;
}

async function rememberAll(engram: Engram, requests: readonly RememberRequest[]): Promise<RememberRun> {
  const latencies: number[] = [];
  const start = nowMs();
  for (const request of requests) {
    const before = nowMs();
    await engram.items.remember(request);
    latencies.push(nowMs() - before);
  }
  return {
    items: requests.length,
    items_per_s: Math.round(requests.length / ((nowMs() - start) / 1000)),
    latency: summarize(latencies),
  };
}

/** New keys (item numbers past `itemsPerUser`) for users nobody queries, to time remember in the full store. */
function lateItems(sizes: LatencySizes): RememberRequest[] {
  const random = seededRandom(SEED - 1);
  return Array.from({ length: sizes.rememberItems }, (_, index) => {
    const user = sizes.embeddedUsers + Math.floor(random() * (sizes.users - sizes.embeddedUsers));
    return userItem(random, `u${user}`, AGENT, sizes.itemsPerUser + 1 + index);
  });
}

/**
 * `remember` for the first items, the bulk path for the rest (remember slows as the tenant grows,
 * see BENCHMARKS.md), then `remember` again for new keys in the full store.
 */
async function populate(engram: Engram, sizes: LatencySizes, log: (message: string) => void) {
  const source = allItems(sizes);
  const rememberEmpty = await rememberAll(engram, take(source, sizes.rememberItems));
  log(
    `latency: ${rememberEmpty.items} items through remember at ${rememberEmpty.items_per_s} items/s; the rest through storage.write`,
  );
  const batchMs: number[] = [];
  const batchRates: number[] = [];
  let bulkItems = 0;
  const storage = storeOf(engram);
  for (let batch = take(source, BULK_BATCH); batch.length > 0; batch = take(source, BULK_BATCH)) {
    const start = nowMs();
    await storage.write(bulkOps(batch));
    const ms = nowMs() - start;
    batchMs.push(ms);
    batchRates.push(batch.length / (ms / 1000));
    bulkItems += batch.length;
    if (batchMs.length % 40 === 0) log(`latency: ${rememberEmpty.items + bulkItems} items written`);
  }
  const rememberFull = await rememberAll(engram, lateItems(sizes));
  log(
    `latency: ${rememberFull.items} more items through remember into the full store at ${rememberFull.items_per_s} items/s`,
  );
  return {
    rememberEmpty,
    rememberFull,
    bulk: {
      items: bulkItems,
      batch_items: BULK_BATCH,
      items_per_s: Math.round(median(batchRates)),
      batch_latency: summarize(batchMs),
    },
  };
}

interface PlannedQuery {
  user: string;
  query: string;
}

/** Distinct cue queries (2–4 vocabulary words), each for a random embedded user. */
function planQueries(
  count: number,
  users: number,
  seed: number,
  avoid: ReadonlySet<string> = new Set(),
): PlannedQuery[] {
  const random = seededRandom(seed);
  const seen = new Set(avoid);
  const out: PlannedQuery[] = [];
  while (out.length < count) {
    const query = cueQuery(random);
    if (seen.has(query)) continue;
    seen.add(query);
    out.push({ user: `u${Math.floor(random() * users)}`, query });
  }
  return out;
}

/**
 * Per block of queries: search on first sight, the same search again (cached vector, and the words
 * the store kept), then the raw reads, of `raw`: an Engram whose store keeps no searched words.
 */
async function measureQueries(engram: Engram, raw: Engram, queries: readonly PlannedQuery[]) {
  const first: number[] = [];
  const cached: number[] = [];
  const fullText: number[] = [];
  const vectors: number[] = [];
  let hits = 0;
  let textHits = 0;
  let vectorCount = 0;
  const base = (user: string) => ({
    tenant_id: DEFAULT_TENANT,
    owners: visibleOwners(user, AGENT),
    statuses: ['active' as const],
  });
  const rawStore = storeOf(raw);
  for (let start = 0; start < queries.length; start += BLOCK) {
    const block = queries.slice(start, start + BLOCK);
    for (const { user, query } of block)
      hits += (await timed(() => engram.items.search({ scope: { user_id: user, agent_id: AGENT }, query }), first))
        .length;
    for (const { user, query } of block)
      await timed(() => engram.items.search({ scope: { user_id: user, agent_id: AGENT }, query }), cached);
    // The terms and candidate limit hybridSearch uses (src/retrieval/hybrid-search.ts).
    for (const { user, query } of block) {
      textHits += (
        await timed(() => rawStore.items.search({ ...base(user), terms: searchTerms(query), limit: 100 }), fullText)
      ).length;
    }
    for (const { user } of block)
      vectorCount += (await timed(() => rawStore.items.vectors(base(user)), vectors)).length;
  }
  return { first, cached, fullText, vectors, hits, textHits, vectorCount };
}

/**
 * Fills one tenant, embeds the shared items and the first `embeddedUsers` users, and measures search
 * for random embedded users; query embedding is timed on its own with a second local model.
 */
export async function benchSearchLatency(
  sizes: LatencySizes,
  log: (message: string) => void,
): Promise<SearchLatencyResult> {
  return withTempStore('full', async (engram, path) => {
    const { rememberEmpty, rememberFull, bulk } = await populate(engram, sizes, log);
    const items = rememberEmpty.items + bulk.items + rememberFull.items;
    const toEmbed = sizes.sharedItems + sizes.embeddedUsers * sizes.itemsPerUser;
    log(`latency: ${items} items (${storeSizeMiB(path)} MiB); embedding ${toEmbed} of them`);
    const embedStart = nowMs();
    // The worker embeds the oldest chunks first: the shared items and the first users' items (and at
    // most one batch more: a run claims whole batches).
    const run = await engram.maintenance.runEmbeddings(toEmbed);
    const embedSeconds = (nowMs() - embedStart) / 1000;

    const warmup = planQueries(30, sizes.embeddedUsers, SEED + 2);
    const queries = planQueries(
      sizes.queries,
      sizes.embeddedUsers,
      SEED + 3,
      new Set(warmup.map((entry) => entry.query)),
    );
    const raw = await keepingNothing(path);
    await measureQueries(engram, raw, warmup);
    log(`latency: ${run.embedded} texts embedded in ${embedSeconds.toFixed(1)} s; ${queries.length} queries`);
    const measured = await measureQueries(engram, raw, queries);
    await raw.close();

    const model = createEmbeddingModel({ provider: 'local' })!;
    await embedTexts(model, ['warm up the model']);
    const embedMs: number[] = [];
    for (const { query } of queries) await timed(() => embedTexts(model, [query]), embedMs);

    const count = queries.length;
    return {
      items,
      users: sizes.users,
      store_mib: storeSizeMiB(path),
      remember_empty: rememberEmpty,
      remember_full: rememberFull,
      bulk,
      embeddings: {
        texts: run.embedded,
        seconds: round(embedSeconds, 1),
        texts_per_s: Math.round(run.embedded / embedSeconds),
        vectors_per_search: round(measured.vectorCount / count, 1),
      },
      search_first: summarize(measured.first),
      search_cached: summarize(measured.cached),
      full_text: summarize(measured.fullText),
      item_vectors: summarize(measured.vectors),
      query_embedding: summarize(embedMs),
      mean_hits: round(measured.hits / count, 1),
      mean_text_hits: round(measured.textHits / count, 1),
    };
  });
}
