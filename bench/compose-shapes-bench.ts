// Compose latency in two store shapes (issue 4): a tenant of many users (1M events, 100k items) and
// one heavy user (100k items), beside the raw full-text reads of the same queries, compose without
// storing its context build, and the build write alone, all in the same run on the embedded store.
// Compose is measured right after the import, on the store file as the import left it, and again
// once the full-text indexes are merged, as the background worker of a served store leaves them,
// with the file read into the OS page cache first; every other figure is of the merged store.

import { SingleBar } from 'cli-progress';

import type { ContextBuild, Engram, Purpose, ScopeInput, StorageAdapter } from '../src/index.js';
import { newId, systemClock, visibleOwners } from '../src/index.js';
import { compose } from '../src/composer/compose.js';
import { episodeReadLimit } from '../src/composer/episodes-section.js';
import { FACT_SLACK } from '../src/composer/long-term-section.js';
import { procedureReadLimit } from '../src/composer/procedures-section.js';
import { DEFAULTS } from '../src/composer/policy.js';
import { NEVER_SHARED } from '../src/events/sensitivity.js';
import { DEFAULT_TENANT } from '../src/spec/scope.js';
import { searchTerms } from '../src/util/word-forms.js';
import { cueQuery, planSessions, seededRandom, sessionsHolding, turnsOf, type SessionPlan } from './corpus.js';
import {
  plannedItems,
  storeCounts,
  withStoreWithoutEmbeddings,
  writeItems,
  type BulkItemsResult,
  type StoreCounts,
} from './compose-shapes-data.js';
import { median, memoryProbeMs, nowMs, round, summarize, timed, type LatencySummary } from './stats.js';
import { keepingNothing, readIntoPageCache, reopened, storeOf, storeSizeMiB } from './temp-store.js';
import { BatchImporter, type BatchImportResult } from './write-bench.js';

export interface ShapeSizes {
  name: string;
  users: number;
  /** Events written through commitTurns (batches of 500 turns), at least this many. */
  events: number;
  itemsPerUser: number;
  /** Agent-level procedures every user of the agent sees. */
  procedures: number;
  warmup: number;
  samples: number;
}

export interface ComposeShapeResult {
  shape: string;
  users: number;
  sessions: number;
  store_mib: number;
  counts: StoreCounts;
  events_import: BatchImportResult;
  items_import: BulkItemsResult;
  /** engram.compose right after the import, before any index merge (the same requests). */
  compose_before_merge: LatencySummary;
  /** The median of memoryProbeMs taken every PROBE_EVERY composes of that pass, and of the merged pass. */
  memory_probe_before_merge_ms: number;
  memory_probe_ms: number;
  /** The merge steps (engram.maintenance.mergeIndexes, the worker's step) until nothing was left, and their time. */
  index_merge: { steps: number; seconds: number };
  /** Seconds to read the store file once into the OS page cache, before the measurements that follow the merge. */
  page_cache_read_s: number;
  /** engram.compose as a user calls it: reads, packet, and the stored context build. */
  compose: LatencySummary;
  /** The same requests on a store that keeps nothing between reads (keptSearchTerms 0, keptItems 0). */
  compose_nothing_kept: LatencySummary;
  compose_with_query: LatencySummary;
  compose_without_query: LatencySummary;
  by_purpose: Record<Purpose, LatencySummary>;
  /** The same requests through the composer with `persist: false` (what a replay runs). */
  compose_no_persist: LatencySummary;
  compose_no_persist_with_query: LatencySummary;
  /** One put_context_build write of a stored build (a packet of this run), on its own. */
  build_write: LatencySummary;
  /** engram.builds.replay of builds of this run (every tenth), and how many came back byte-identical. */
  replay: LatencySummary;
  replays_identical: number;
  mean_build_kib: number;
  /** The raw full-text reads compose makes for a cue query, with its terms and limits. */
  search_events: LatencySummary;
  search_items: LatencySummary;
  full_text_total: LatencySummary;
  /** The three listItems reads of compose's long-term section (always, procedures, episodes), every sample. */
  item_lists: LatencySummary;
  mean_listed_items: number;
  mean_event_hits: number;
  mean_item_hits: number;
  mean_packet_tokens: number;
  /** compose-with-query p50 over the p50 of searchEvents + searchItems. */
  compose_over_full_text_p50: number;
}

/** Issue 4's two shapes: a tenant of 1,000 users (1M events, 100k items) and one user with 100k items. */
export const SHAPES_FULL: readonly ShapeSizes[] = [
  { name: 'tenant', users: 1_000, events: 1_000_000, itemsPerUser: 100, procedures: 100, warmup: 90, samples: 600 },
  { name: 'heavy user', users: 1, events: 1_000, itemsPerUser: 100_000, procedures: 100, warmup: 90, samples: 600 },
];
export const SHAPES_QUICK: readonly ShapeSizes[] = [
  { name: 'tenant', users: 100, events: 30_000, itemsPerUser: 100, procedures: 100, warmup: 30, samples: 150 },
  { name: 'heavy user', users: 1, events: 1_000, itemsPerUser: 10_000, procedures: 100, warmup: 30, samples: 150 },
];

const PURPOSES: readonly Purpose[] = ['planner', 'tool', 'responder'];
const BATCH_TURNS = 500;
const ITEM_BATCH = 500;
const SEED = 20_261_201;
/** One build in this many is replayed. */
const REPLAY_STRIDE = 10;

export interface Sample {
  scope: ScopeInput;
  purpose: Purpose;
  query: string | undefined;
}

function planSamples(sessions: readonly SessionPlan[], count: number, seed: number): Sample[] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, (_, index) => ({
    scope: sessions[Math.floor(random() * sessions.length)]!.scope,
    purpose: PURPOSES[index % PURPOSES.length]!,
    query: index % 2 === 0 ? cueQuery(random) : undefined,
  }));
}

/** The warm-up requests of a shape's passes. */
export const warmupSamples = (sessions: readonly SessionPlan[], sizes: ShapeSizes): Sample[] =>
  planSamples(sessions, sizes.warmup, SEED + 1);

/** The measured requests of a shape's passes: the same ones in every pass and every run. */
export const measuredSamples = (sessions: readonly SessionPlan[], sizes: ShapeSizes): Sample[] =>
  planSamples(sessions, sizes.samples, SEED);

export function requestOf(sample: Sample) {
  return {
    scope: sample.scope,
    purpose: sample.purpose,
    ...(sample.query === undefined ? {} : { cues: { query: sample.query } }),
  };
}

/** The composer without storing the build; the same context Engram.compose passes, debug off. */
function composeWithoutPersist(engram: Engram, sample: Sample) {
  return compose(
    { storage: storeOf(engram), tokenizer: engram.tokenizer, clock: systemClock, validatePackets: false },
    requestOf(sample),
    { persist: false },
  );
}

/** searchEvents and searchItems as compose calls them for this sample's cue query (on a store that keeps nothing between reads: FTS5 each time). */
async function fullTextReads(
  storage: StorageAdapter,
  sample: Sample,
  query: string,
  times: { events: number[]; items: number[]; total: number[] },
) {
  const { user_id, agent_id } = sample.scope;
  const agent = agent_id!;
  const terms = searchTerms(query);
  const now = new Date().toISOString();
  const start = nowMs();
  const events = await timed(
    () =>
      storage.events.search({
        tenant_id: DEFAULT_TENANT,
        user_id,
        agent_id: agent,
        terms,
        now,
        exclude_sensitivity: [...NEVER_SHARED],
        limit: DEFAULTS[sample.purpose].query_quotes,
      }),
    times.events,
  );
  const items = await timed(
    () =>
      storage.items.search({
        tenant_id: DEFAULT_TENANT,
        owners: visibleOwners(user_id, agent),
        statuses: ['active'],
        terms,
        limit: DEFAULTS[sample.purpose].facts + FACT_SLACK,
      }),
    times.items,
  );
  times.total.push(nowMs() - start);
  return { events: events.length, items: items.length };
}

/**
 * The listItems reads gatherLongTerm makes (src/composer/long-term-section.ts) with its types and
 * limits, as for a compose without a query (with one, the always-relevant read is smaller), on a
 * store that keeps nothing between reads (every row built).
 */
async function itemLists(engram: Engram, sample: Sample, into: number[]): Promise<number> {
  const { user_id, agent_id } = sample.scope;
  const policy = DEFAULTS[sample.purpose];
  const base = {
    tenant_id: DEFAULT_TENANT,
    owners: visibleOwners(user_id, agent_id),
    statuses: ['active' as const],
    order: 'desc' as const,
  };
  const storage = storeOf(engram);
  const start = nowMs();
  let listed = (
    await storage.items.list({
      ...base,
      types: ['profile', 'preferences', 'goals', 'tasks'],
      limit: policy.facts + FACT_SLACK,
    })
  ).length;
  if (sample.purpose !== 'responder')
    listed += (
      await storage.items.list({ ...base, types: ['procedure', 'patterns'], limit: procedureReadLimit(policy) })
    ).length;
  listed += (await storage.items.list({ ...base, types: ['events', 'cases'], limit: episodeReadLimit(policy) })).length;
  into.push(nowMs() - start);
  return listed;
}

/** A memory probe between every this many composes of a measured pass (outside their timings). */
const PROBE_EVERY = 100;

/** Warm-up, then the measured requests through engram.compose, as a user calls it. */
async function composeOnly(
  engram: Engram,
  sessions: readonly SessionPlan[],
  sizes: ShapeSizes,
): Promise<{ compose: LatencySummary; probe_ms: number }> {
  for (const sample of warmupSamples(sessions, sizes)) await engram.compose(requestOf(sample));
  const times: number[] = [];
  const probes: number[] = [];
  for (const [index, sample] of measuredSamples(sessions, sizes).entries()) {
    if (index % PROBE_EVERY === 0) probes.push(memoryProbeMs());
    await timed(() => engram.compose(requestOf(sample)), times);
  }
  return { compose: summarize(times), probe_ms: median(probes) };
}

/** Merge steps of the worker's size until one finds nothing left to merge. */
export async function mergeAll(engram: Engram): Promise<{ steps: number; seconds: number }> {
  const start = nowMs();
  let steps = 1;
  while (await engram.maintenance.mergeIndexes()) steps += 1;
  return { steps, seconds: round((nowMs() - start) / 1000, 1) };
}

/**
 * One pass of `body` over the samples on a new connection to the store file (with `keepNothing`,
 * one that keeps nothing between reads), after the warm-up samples; the time of each sample.
 */
async function passOnNewConnection(
  path: string,
  keepNothing: boolean,
  warmup: readonly Sample[],
  samples: readonly Sample[],
  body: (engram: Engram, sample: Sample) => Promise<unknown>,
): Promise<number[]> {
  const engram = await reopened(path, keepNothing);
  try {
    for (const sample of warmup) await body(engram, sample);
    const times: number[] = [];
    for (const sample of samples) await timed(() => body(engram, sample), times);
    return times;
  } finally {
    await engram.close();
  }
}

/**
 * Each pass over the same samples: compose, compose on a store that keeps nothing between reads, compose
 * without persisting, the raw reads, the build writes, the replays. The compose passes each run on a
 * new connection after the warm-up requests, so no pass starts with the words the one before it
 * searched (the shape of many users; one user composed for again and again keeps its words within
 * a pass, as a served store would).
 */
async function measure(path: string, sessions: readonly SessionPlan[], sizes: ShapeSizes) {
  const ignore = { events: [] as number[], items: [] as number[], total: [] as number[] };
  const unkept = await keepingNothing(path);
  const raw = storeOf(unkept);
  const engram = await reopened(path);
  for (const sample of warmupSamples(sessions, sizes)) {
    await engram.compose(requestOf(sample));
    if (sample.query !== undefined) await fullTextReads(raw, sample, sample.query, ignore);
    await itemLists(unkept, sample, ignore.total);
  }
  const samples = measuredSamples(sessions, sizes);
  const all: number[] = [];
  const withQuery: number[] = [];
  const withoutQuery: number[] = [];
  const byPurpose: Record<Purpose, number[]> = { planner: [], tool: [], responder: [] };
  const buildIds: string[] = [];
  let tokens = 0;
  const probes: number[] = [];
  for (const [index, sample] of samples.entries()) {
    if (index % PROBE_EVERY === 0) probes.push(memoryProbeMs());
    const start = nowMs();
    const packet = await engram.compose(requestOf(sample));
    const ms = nowMs() - start;
    all.push(ms);
    (sample.query === undefined ? withoutQuery : withQuery).push(ms);
    byPurpose[sample.purpose].push(ms);
    tokens += packet.budget_report.used_tokens_est;
    buildIds.push(String(packet.explain.determinism?.['context_build_id']));
  }

  const warmup = warmupSamples(sessions, sizes);
  const nothingKept = await passOnNewConnection(path, true, warmup, samples, (other, sample) =>
    other.compose(requestOf(sample)),
  );
  const noPersist = await passOnNewConnection(path, false, warmup, samples, composeWithoutPersist);
  const noPersistWithQuery = noPersist.filter((_, index) => samples[index]!.query !== undefined);

  const reads = { events: [] as number[], items: [] as number[], total: [] as number[] };
  let eventHits = 0;
  let itemHits = 0;
  for (const sample of samples) {
    if (sample.query === undefined) continue;
    const hits = await fullTextReads(raw, sample, sample.query, reads);
    eventHits += hits.events;
    itemHits += hits.items;
  }

  const lists: number[] = [];
  let listed = 0;
  for (const sample of samples) listed += await itemLists(unkept, sample, lists);

  // The builds this run stored, written again under new ids: the write compose ends with, alone.
  const builds: ContextBuild[] = [];
  for (const id of buildIds) builds.push(await engram.builds.get(id));
  const writes: number[] = [];
  const storage = storeOf(engram);
  let bytes = 0;
  for (const build of builds) {
    const copy = { ...build, id: newId('ctx'), created_at: new Date().toISOString() };
    bytes += JSON.stringify(copy.packet).length + JSON.stringify(copy.request).length;
    await timed(() => storage.write([{ op: 'put_context_build', build: copy }]), writes);
  }
  // Replays of every tenth build stored above: the store as of each build's time, rebuilt and compared.
  const replays: number[] = [];
  let identical = 0;
  for (const id of buildIds.filter((_, index) => index % REPLAY_STRIDE === 0)) {
    const replayed = await timed(() => engram.builds.replay(id), replays);
    if (replayed.identical) identical += 1;
  }
  const queries = Math.max(1, reads.total.length);
  await unkept.close();
  await engram.close();
  return {
    compose: summarize(all),
    compose_nothing_kept: summarize(nothingKept),
    memory_probe_ms: median(probes),
    compose_with_query: summarize(withQuery),
    compose_without_query: summarize(withoutQuery),
    by_purpose: {
      planner: summarize(byPurpose.planner),
      tool: summarize(byPurpose.tool),
      responder: summarize(byPurpose.responder),
    },
    compose_no_persist: summarize(noPersist),
    compose_no_persist_with_query: summarize(noPersistWithQuery),
    build_write: summarize(writes),
    replay: summarize(replays),
    replays_identical: identical,
    mean_build_kib: round(bytes / Math.max(1, builds.length) / 1024, 1),
    search_events: summarize(reads.events),
    search_items: summarize(reads.items),
    full_text_total: summarize(reads.total),
    item_lists: summarize(lists),
    mean_listed_items: Math.round(listed / samples.length),
    mean_event_hits: round(eventHits / queries, 1),
    mean_item_hits: round(itemHits / queries, 1),
    mean_packet_tokens: Math.round(tokens / samples.length),
  };
}

/** What fillShape wrote: the sessions that hold turns, and the import figures. */
export interface FilledShape {
  sessions: SessionPlan[];
  importer: BatchImporter;
  items: BulkItemsResult;
}

/**
 * Fills a store with one shape: events through commitTurns (batches of 500 turns), then items
 * through storage.write, from seeded data (the same store for the same sizes).
 */
export async function fillShape(
  engram: Engram,
  path: string,
  sizes: ShapeSizes,
  log: (message: string) => void,
): Promise<FilledShape> {
  const random = seededRandom(SEED + sizes.users);
  const prefix = sizes.name.slice(0, 1);
  // ~50 turns of ~2.3 events a session: plan more sessions than the events need.
  const plans = planSessions(random, Math.ceil(sizes.events / 80) + 10, sizes.users, prefix);
  const importer = new BatchImporter(engram, BATCH_TURNS, turnsOf(plans, random));
  const started = nowMs();
  // On a terminal, a bar with the rate and time left; piped, a line every tenth.
  const bar =
    process.stderr.isTTY === true
      ? new SingleBar({
          format: `import ${sizes.name} |{bar}| {value}/{total} events | {rate}/s | ETA {eta_formatted}`,
          stream: process.stderr,
          etaBuffer: 20,
        })
      : null;
  bar?.start(sizes.events, 0, { rate: 0 });
  for (let step = 1; step <= (bar === null ? 10 : 100) && importer.events < sizes.events; step += 1) {
    await importer.growTo(Math.ceil((sizes.events * step) / (bar === null ? 10 : 100)));
    const seconds = (nowMs() - started) / 1000;
    if (bar !== null)
      bar.update(Math.min(importer.events, sizes.events), {
        rate: Math.round(importer.events / Math.max(0.001, seconds)),
      });
    else log(`compose-shapes ${sizes.name}: ${importer.events} events after ${seconds.toFixed(1)} s`);
  }
  bar?.stop();
  const users = Array.from({ length: sizes.users }, (_, index) => `${prefix}u${index}`);
  const items = await writeItems(
    engram,
    plannedItems({
      users,
      itemsPerUser: sizes.itemsPerUser,
      agents: ['agent0', 'agent1'],
      procedures: sizes.procedures,
      seed: SEED,
    }),
    ITEM_BATCH,
  );
  const sessions = sessionsHolding(plans, importer.turnsWritten);
  log(
    `compose-shapes ${sizes.name}: ${items.items} items in ${items.seconds} s; ${sessions.length} sessions, ${storeSizeMiB(path)} MiB`,
  );
  return { sessions, importer, items };
}

/**
 * Fills one store of this shape (fillShape) and measures compose and the raw reads on random
 * existing sessions.
 */
export async function benchComposeShape(
  sizes: ShapeSizes,
  log: (message: string) => void,
): Promise<ComposeShapeResult> {
  return withStoreWithoutEmbeddings(async (engram, path) => {
    const { sessions, importer, items } = await fillShape(engram, path, sizes, log);
    const beforeMerge = await composeOnly(engram, sessions, sizes);
    const merge = await mergeAll(engram);
    // The passes below run with the store file in the OS page cache, as on a machine that keeps the
    // store it serves in memory: the pass above ran on the file as the import left it, of which
    // some virtual machines (this one: DAMON pageout) have already paged out what sat idle.
    const pageCacheRead = readIntoPageCache(path);
    log(
      `compose-shapes ${sizes.name}: indexes merged in ${merge.steps} steps, ${merge.seconds} s; store read into the page cache in ${pageCacheRead} s; measuring again`,
    );
    const measured = await measure(path, sessions, sizes);
    const counts = storeCounts(path);
    return {
      shape: sizes.name,
      users: sizes.users,
      sessions: sessions.length,
      store_mib: storeSizeMiB(path),
      counts,
      events_import: importer.result(),
      items_import: items,
      compose_before_merge: beforeMerge.compose,
      memory_probe_before_merge_ms: beforeMerge.probe_ms,
      index_merge: merge,
      page_cache_read_s: pageCacheRead,
      ...measured,
      compose_over_full_text_p50: round(measured.compose_with_query.p50_ms / measured.full_text_total.p50_ms, 1),
    };
  });
}
