// createEngram(config): the one place that wires a store, a tokenizer and a clock to the domain,
// and the Engram object every interface (library, CLI, HTTP, MCP) goes through.

import { LRUCache } from 'lru-cache';

import { EngramError, NotFoundError, StorageError } from '../spec/errors.js';
import { requireChoices, requireCount, requireId, requireTenant, tenantOrDefault } from './arguments.js';
import type { EventRecord } from '../spec/event.js';
import type { MemoryPacket } from '../spec/packet.js';
import type {
  CommitTurnRequest,
  CommitTurnResult,
  ComposeRequest,
  ExplainBuildRequest,
  ForgetRequest,
  HistoryRequest,
  ItemDiff,
  ListEventsRequest,
  ListItemsRequest,
  RememberRequest,
  RestoreRequest,
  SearchEventsRequest,
  SearchMemoryRequest,
  SessionScopeInput,
} from '../spec/requests.js';
import { DEFAULT_TENANT } from '../spec/scope.js';
import {
  JOB_KINDS,
  JOB_STATUSES,
  type CompactResult,
  type ContextBuild,
  type EventSearchHit,
  type Job,
  type ScopeCounts,
  type StorageAdapter,
} from '../spec/storage.js';
import { diffBuilds, replay, type BuildDiff, type ReplayResult } from './builds.js';
import { explainBuild, type BuildExplanation } from './explain-build.js';
import { searchEventPage, type EventSearchPage } from './event-search.js';
import { assertNamedPolicy, type NamedPolicy } from '../composer/named-policies.js';
import type { Tokenizer } from '../spec/tokenizer.js';
import { validateListEventsRequest, validateSessionScope } from '../spec/validators.js';
import { emptyWorkingState, type WorkingState } from '../spec/working-state.js';
import { shownEvent } from '../events/sensitivity.js';
import { compose, type ReadPathContext } from '../composer/compose.js';
import { cutSummary } from '../working-memory/summary.js';
import { toIso, type Clock } from '../util/clock.js';
import { newId } from '../util/ids.js';
import { BATCH_PATHS, commitTurnBatch, commitTurns, LONE_TURN_PATHS } from './commit-turn.js';
import { resolveConfig, type EngramConfig, type ResolvedConfig } from './config.js';
import { EmbeddingWorker, modelKey, type WorkerRun } from './embedding-worker.js';
import {
  forget,
  history,
  listItems,
  remember,
  reindex,
  restore,
  search,
  type MemoryApiContext,
  type ReindexProgress,
  type ReindexResult,
} from './memory-api.js';
import { reflect, reviewQueue, type ReflectionApiContext, type ReviewQueue } from './reflection-api.js';
import { insightsOf, type Insights } from './insight-api.js';
import { runsOf, type Runs } from './run-api.js';
import { keysOf, type Keys } from './key-api.js';
import {
  erase,
  exportLines,
  importLines,
  type ImportInput,
  type ImportOptions,
  type TransferCounts,
} from './transfer-api.js';
import { runJobs, type JobRun } from './jobs.js';
import { runExtractionJob } from './extraction-job.js';
import { reextract, type ReextractRequest, type ReextractResult } from './reextract.js';
import {
  replayedUpdate,
  UPDATE_PATHS,
  workingStateTurn,
  type UpdateWorkingStateRequest,
  type WorkingStateUpdate,
} from './working-state-update.js';
import type { EraseCounts, ExportKind } from '../spec/export.js';
import { createRuleExtractor } from '../items/rules/index.js';
import type { ReflectRequest, ReflectResult } from '../spec/reflection.js';
import { embedTexts } from '../providers/embeddings/embed.js';
import type { SearchHit } from '../retrieval/hybrid-search.js';
import type { Extractor, MemoryItem } from '../spec/items.js';
import type { EmbeddingModel } from '../spec/providers.js';

export type { EngramConfig } from './config.js';

/** Pages of index merging per mergeIndexes step: a few milliseconds of work on SQLite. */
export const DEFAULT_MERGE_PAGES = 64;

/** What most area modules are given: the store, and the time now as the runtime's clock tells it. */
interface StoreContext {
  storage: StorageAdapter;
  now: () => string;
}

/** An id no item has: reading it is a primary-key lookup that touches the store and finds nothing. */
const PROBE_ITEM = 'mem_00000000000000000000000000';

/** The short-term memory of a session as the API shows it. */
export interface SessionSummary {
  rolling_summary: string;
  key_quotes: Array<{ evidence_id: string; quote: string; role: string; ts: string }>;
  version: number;
  events_folded: number;
}

/**
 * The memory runtime. Create one with `createEngram`, close it with `close()`.
 *
 * @example
 * const engram = await createEngram({ store: 'sqlite:./.engram/engram.db' });
 * await engram.commitTurn({ scope, turn_id: 't1', messages: [{ role: 'user', content: 'Hi' }] });
 * const packet = await engram.compose({ scope, purpose: 'responder' });
 * await engram.close();
 */
export class Engram {
  private closed = false;
  // Private so that every interface goes through the methods below, which check their arguments
  // and fill in the tenant; tests that need the store open it and hand it to createEngram.
  private readonly storage: StorageAdapter;
  private readonly store: StoreContext;
  readonly tokenizer: Tokenizer;
  private readonly clock: Clock;
  private readonly worker: EmbeddingWorker | null;
  private readonly queryCache = new LRUCache<string, Float32Array>({ max: 256 });
  /** Reads reflection claims into keys and values (the rule extractor, even when extraction is off). */
  private readonly claimReader: Extractor;
  private readonly policies = new Map<string, NamedPolicy>();
  /** The review queue: candidates that reflection proposed, approved or rejected by people. */
  readonly review: ReviewQueue;
  /** Hypotheses, strategy sketches and patterns, and their validation. */
  readonly insights: Insights;
  /** Runs: recorded state, compaction snapshots and their narrative, resuming a stopped run. */
  readonly runs: Runs;
  /** API keys of the service (HTTP, MCP): bound to a tenant and a role, stored hashed. */
  readonly keys: Keys;

  /** Use `createEngram`; the constructor takes an already resolved configuration. */
  constructor(private readonly config: ResolvedConfig) {
    this.storage = config.storage;
    this.store = { storage: config.storage, now: () => this.now() };
    this.tokenizer = config.tokenizer;
    this.clock = config.clock;
    this.worker =
      config.embeddings === null
        ? null
        : new EmbeddingWorker(config.storage, config.embeddings, config.clock, {
            allowPrivateRemote: config.allowPrivateRemote,
          });
    for (const policy of config.policies) this.registerPolicy(policy);
    this.claimReader = config.longTerm.rules ?? createRuleExtractor();
    this.review = reviewQueue(() => this.reflectionContext());
    this.keys = keysOf(this.guarded(this.store));
    this.runs = runsOf(this.guarded(this.store));
    this.insights = insightsOf(this.guarded({ ...this.store, policies: config.longTerm.policies }));
    if (this.worker !== null && config.workerIntervalMs !== null) {
      // Errors of a background run are retried on the next tick; a foreground runEmbeddings() reports them.
      this.worker.start(config.workerIntervalMs, () => undefined);
    }
  }

  private guard(): void {
    if (this.closed) throw new EngramError('CONFIG_INVALID', 'this Engram is closed', { field: 'engram' });
  }

  /** The context of an area object (keys, runs, insights), handed out only while this Engram is open. */
  private guarded<T>(context: T): () => T {
    return () => {
      this.guard();
      return context;
    };
  }

  private now(): string {
    return toIso(this.clock.now());
  }

  /**
   * Appends a turn (messages, tool results, state patch, markers) in one transaction. A repeated
   * `turn_id` in the same session writes nothing and returns the first result with `replayed: true`.
   *
   * @example
   * await engram.commitTurn({ scope, turn_id: 't1', messages: [{ role: 'user', content: 'I prefer tea.' }] });
   */
  async commitTurn(turn: CommitTurnRequest): Promise<CommitTurnResult> {
    this.guard();
    const [result] = await commitTurns(this.context(), [turn], LONE_TURN_PATHS);
    return result!;
  }

  /**
   * Commits many turns in one transaction (all or none): the fast path for imports.
   *
   * @example
   * await engram.commitTurns(turns);
   */
  async commitTurns(turns: readonly CommitTurnRequest[]): Promise<CommitTurnResult[]> {
    this.guard();
    if (!Array.isArray(turns))
      throw new EngramError('VALIDATION_FAILED', 'turns: must be an array', { field: 'turns' });
    return commitTurns(this.context(), turns, BATCH_PATHS);
  }

  /**
   * Composes a token-budgeted MemoryPacket for the next LLM call.
   *
   * @example
   * const packet = await engram.compose({ scope, purpose: 'planner', budget: { max_tokens: 1500 } });
   */
  async compose(request: ComposeRequest): Promise<MemoryPacket> {
    this.guard();
    return compose(this.readContext(), request);
  }

  /**
   * The working state of a session (version 0 and empty fields if it has none yet).
   *
   * @example
   * const { state_version } = await engram.getWorkingState({ user_id: 'u1', agent_id: 'a1', session_id: 's1' });
   */
  async getWorkingState(scope: SessionScopeInput): Promise<WorkingState> {
    this.guard();
    const valid = validateSessionScope(scope);
    const state = await this.storage.sessions.getWorkingState({
      ...valid,
      tenant_id: tenantOrDefault(valid.tenant_id),
    });
    return state ?? emptyWorkingState();
  }

  /**
   * Patches a session's working state at `expected_version` (JSON Merge Patch `set`, list `append`):
   * a turn holding only the patch, so the change is a `state_patch` event like any other. A stale
   * version is STATE_VERSION_CONFLICT. Returns the new state with `replayed: false`; the same update
   * sent again with its `turn_id` writes nothing and returns the state it recorded with
   * `replayed: true`, and another update under that `turn_id` is DUPLICATE_TURN.
   *
   * @example
   * await engram.updateWorkingState({ scope, expected_version: 0, set: { goal: 'Ship Atlas' } });
   */
  async updateWorkingState(request: UpdateWorkingStateRequest): Promise<WorkingStateUpdate> {
    this.guard();
    const turn = workingStateTurn(request, newId('trn'));
    // Recorded as a turn, with the patch's fields named as the request names them (UPDATE_PATHS).
    const { results, states } = await commitTurnBatch(this.context(), [turn], UPDATE_PATHS);
    // Its turn_id was recorded before: the same update answers as recorded, another one is a conflict.
    if (results[0]!.replayed) return await replayedUpdate(this.storage, turn, results[0]!, this.now());
    // The state this update wrote: a read after it may already hold another writer's next version.
    if (states[0] != null) return { ...states[0], replayed: false };
    const { user_id, agent_id, session_id } = results[0]!.scope;
    return {
      ...(await this.getWorkingState({
        ...(request.scope.tenant_id === undefined ? {} : { tenant_id: request.scope.tenant_id }),
        user_id,
        agent_id,
        session_id,
      })),
      replayed: false,
    };
  }

  /**
   * The rolling summary of a session cut to `maxTokens` (default 512), and its key quotes.
   *
   * @example
   * const { rolling_summary } = await engram.getSummary({ user_id: 'u1', agent_id: 'a1', session_id: 's1' });
   */
  async getSummary(scope: SessionScopeInput, maxTokens = 512): Promise<SessionSummary> {
    this.guard();
    const valid = validateSessionScope(scope);
    const summary = await this.storage.sessions.getSummary({ ...valid, tenant_id: tenantOrDefault(valid.tenant_id) });
    const now = this.now();
    const live = (entry: { expires_at: string | null }) => entry.expires_at === null || entry.expires_at > now;
    const cut = cutSummary(summary?.sentences ?? [], maxTokens, this.tokenizer, live);
    return {
      rolling_summary: cut.text,
      key_quotes: (summary?.key_quotes ?? []).filter(live).map((quote) => ({
        evidence_id: quote.event_id,
        quote: quote.text,
        role: quote.role,
        ts: quote.ts,
      })),
      version: summary?.version ?? 0,
      events_folded: summary?.events_folded ?? 0,
    };
  }

  /**
   * A page of events in log order. Secret events appear with only the fields that cannot describe
   * the secret (SECRET_SHOWN_FIELDS: ids, scope, kind, role, times) unless `include_secret_content` is set.
   *
   * @example
   * const page = await engram.listEvents({ scope: { user_id: 'u1', agent_id: 'a1', session_id: 's1' }, limit: 50 });
   */
  async listEvents(request: ListEventsRequest): Promise<EventRecord[]> {
    this.guard();
    const valid = validateListEventsRequest(request);
    const events = await this.storage.events.list({
      ...valid.scope,
      tenant_id: tenantOrDefault(valid.scope.tenant_id),
      kinds: valid.kinds,
      order: valid.order,
      cursor: valid.cursor,
      limit: valid.limit ?? 100,
      now: this.now(),
    });
    return valid.include_secret_content === true ? events : events.map(shownEvent);
  }

  /**
   * One event by id; a secret one with only the fields that cannot describe it (SECRET_SHOWN_FIELDS).
   *
   * @example
   * const event = await engram.getEvent('evt_01J…');
   */
  async getEvent(eventId: string, tenantId?: string): Promise<EventRecord> {
    this.guard();
    requireId('evt', eventId, 'event_id');
    const event = await this.storage.events.get(tenantOrDefault(tenantId), eventId, this.now());
    if (event === null) throw new NotFoundError('event_id', eventId);
    return shownEvent(event);
  }

  /**
   * Full-text search over a user's events (the episodic log), best first: one page of hits. Never
   * returns secret events. `searchEventsPage` also returns the cursor of the next page; long-term
   * memory items are `searchItems`.
   *
   * @example
   * const hits = await engram.searchEvents({ scope: { user_id: 'u1' }, query: '中文文档' });
   */
  async searchEvents(request: SearchEventsRequest): Promise<EventSearchHit[]> {
    return (await this.searchEventsPage(request)).hits;
  }

  /**
   * One page of a full-text search over a user's events, with the cursor of the next page (null at
   * the end). Later pages rank as the first did: events recorded since neither shift nor repeat hits.
   *
   * @example
   * const first = await engram.searchEventsPage({ scope: { user_id: 'u1' }, query: 'deploy', limit: 50 });
   * const next = await engram.searchEventsPage({ scope: { user_id: 'u1' }, query: 'deploy', limit: 50, cursor: first.next_cursor! });
   */
  async searchEventsPage(request: SearchEventsRequest): Promise<EventSearchPage> {
    this.guard();
    return searchEventPage(this.storage, request, this.now());
  }

  /**
   * Deletes events past their `expires_at`; returns how many.
   *
   * @example
   * const purged = await engram.purgeExpired();
   */
  async purgeExpired(): Promise<number> {
    this.guard();
    return this.storage.maintenance.purgeExpired(this.now());
  }

  /**
   * Registers (or replaces) a named budget policy that compose requests pick with `policy_id`.
   *
   * @example
   * engram.registerPolicy({ policy_id: 'tight', purposes: { responder: { budget: { max_tokens: 600 }, key_quotes: 3 } } });
   */
  registerPolicy(policy: NamedPolicy): void {
    this.guard();
    assertNamedPolicy(policy);
    this.policies.set(policy.policy_id, structuredClone(policy));
  }

  /**
   * A stored context build (every compose stores one; its id is in `explain.determinism.context_build_id`).
   *
   * @example
   * const build = await engram.getBuild(packet.explain.determinism.context_build_id);
   */
  async getBuild(buildId: string, tenantId?: string): Promise<ContextBuild> {
    this.guard();
    requireId('ctx', buildId, 'build_id');
    const build = await this.storage.sessions.getBuild(tenantOrDefault(tenantId), buildId);
    if (build === null) throw new NotFoundError('build_id', buildId);
    return build;
  }

  /**
   * Context builds, newest first, of a tenant (optionally one user, agent or session).
   *
   * @example
   * const builds = await engram.listBuilds({ user_id: 'mira', limit: 20 });
   */
  async listBuilds(
    query: {
      tenant_id?: string;
      user_id?: string;
      agent_id?: string;
      session_id?: string;
      cursor?: string;
      limit?: number;
    } = {},
  ): Promise<ContextBuild[]> {
    this.guard();
    const limit = query.limit ?? 50;
    requireCount(limit, 'limit', 1, 1000);
    if (query.cursor !== undefined) requireId('ctx', query.cursor, 'cursor');
    const tenant = tenantOrDefault(query.tenant_id);
    for (const field of ['user_id', 'agent_id', 'session_id'] as const)
      if (query[field] !== undefined) requireTenant(query[field], field);
    return this.storage.sessions.listBuilds({ ...query, tenant_id: tenant, limit });
  }

  /**
   * A tenant's scopes with counts: its sessions (with their run, events and time span, the most
   * recently active first, at most `limit`, default 200) and its users (current items, pending
   * review candidates).
   *
   * @example
   * const { sessions, users } = await engram.scopes({ limit: 50 });
   */
  async scopes(query: { tenant_id?: string; limit?: number } = {}): Promise<ScopeCounts> {
    this.guard();
    const limit = query.limit ?? 200;
    requireCount(limit, 'limit', 1, 1000);
    return this.storage.sessions.scopeCounts(tenantOrDefault(query.tenant_id), limit);
  }

  /**
   * Rebuilds a stored packet as of its time and tells whether it is byte-identical.
   *
   * @example
   * const { identical, packet } = await engram.replay('ctx_01J…');
   */
  async replay(buildId: string, tenantId?: string): Promise<ReplayResult> {
    this.guard();
    requireId('ctx', buildId, 'build_id');
    return replay(this.readContext(), tenantOrDefault(tenantId), buildId);
  }

  /**
   * What changed between two context builds: selection, request, section budgets.
   *
   * @example
   * const diff = await engram.diffBuilds('ctx_a…', 'ctx_b…');
   */
  async diffBuilds(a: string, b: string, tenantId?: string): Promise<BuildDiff> {
    this.guard();
    requireId('ctx', a, 'a');
    requireId('ctx', b, 'b');
    return diffBuilds(this.storage, tenantOrDefault(tenantId), a, b);
  }

  /**
   * Why an event or item version is, or is not, in a stored build's packet: where it was placed, or
   * the filter that left it out, the omission the packet recorded, and each signal's rank for it as
   * of the build's time.
   *
   * @example
   * const { verdict, signals } = await engram.explainBuild({ build_id: 'ctx_01J…', id: 'evt_01J…' });
   */
  async explainBuild(request: ExplainBuildRequest): Promise<BuildExplanation> {
    this.guard();
    return explainBuild(this.readContext(), request);
  }

  /**
   * Reflects over one run (its events are the trace): the configured LLM, else the rule-based
   * reflection, proposes episodes, memories, contradictions and doctrine; they wait in
   * `engram.review` until a person (or the auto-approve policy) decides.
   *
   * @example
   * const { candidates } = await engram.reflect({ scope: { user_id: 'mira', agent_id: 'assistant', run_id: 'r1' } });
   */
  async reflect(request: ReflectRequest): Promise<ReflectResult> {
    return reflect(this.reflectionContext(), request);
  }

  /**
   * The JSON Lines of an export of a tenant (or one user): a header, then every record (secret
   * content withheld). `engram import` (or `importData`) reads it into any store.
   *
   * @example
   * for await (const line of engram.exportData({ tenant_id: 'acme' })) out.write(`${line}\n`);
   */
  exportData(
    scope: { tenant_id?: string; user_id?: string } = {},
    onRecord?: (kind: ExportKind) => void,
  ): AsyncGenerator<string> {
    this.guard();
    return exportLines(this.store, scope, onRecord);
  }

  /**
   * Imports an export (its bytes, as a file stream, or its lines) into a tenant, a batch per
   * transaction with each turn beside its events; lines longer than `maxLineBytes` (16 MiB) stop it.
   * Run again over the same file, it skips the records the store holds already (an interrupted
   * import finishes); a record held with other content is RECORD_CONFLICT. Returns the records
   * written by kind.
   *
   * @example
   * await engram.importData(fs.createReadStream('acme.jsonl'), { tenant_id: 'acme' });
   */
  async importData(input: ImportInput, options: ImportOptions = {}): Promise<TransferCounts> {
    this.guard();
    return importLines(this.store, input, options);
  }

  /**
   * Erases a user (or one of their sessions) with everything derived from it, in one transaction.
   *
   * @example
   * await engram.erase({ user_id: 'mira' });
   */
  async erase(scope: { tenant_id?: string; user_id: string; session_id?: string }): Promise<EraseCounts> {
    this.guard();
    return erase(this.store, scope);
  }

  /**
   * Writes an item explicitly, merged under its type's conflict policy; returns what changed.
   *
   * @example
   * await engram.remember({ scope, type: 'preferences', key: 'pref:writing:tone', value: { scope: 'writing', name: 'tone', value: 'concise' } });
   */
  async remember(request: RememberRequest): Promise<ItemDiff[]> {
    this.guard();
    return remember(this.memoryContext(), request);
  }

  /**
   * Makes an earlier version of a key current again: a new version with exactly its value.
   *
   * @example
   * await engram.restore({ scope, item_id: 'mem_…' });
   */
  async restore(request: RestoreRequest): Promise<ItemDiff[]> {
    this.guard();
    return restore(this.memoryContext(), request);
  }

  /**
   * Retracts every current version of a key (history kept), or with `mode: 'delete'` removes its
   * versions, chunks and vectors for good.
   *
   * @example
   * await engram.forget({ scope, key: 'pref:writing:tone' });
   */
  async forget(request: ForgetRequest): Promise<ItemDiff[]> {
    this.guard();
    return forget(this.memoryContext(), request);
  }

  /**
   * One item version by id, in a tenant (default: the default tenant), whatever its status; an id
   * the tenant does not hold is NOT_FOUND.
   *
   * @example
   * const item = await engram.getItem('mem_01J…');
   */
  async getItem(itemId: string, tenantId?: string): Promise<MemoryItem> {
    this.guard();
    requireId('mem', itemId, 'item_id');
    const item = await this.storage.items.get(tenantOrDefault(tenantId), itemId);
    if (item === null) throw new NotFoundError('item_id', itemId);
    return item;
  }

  /**
   * Every version of a key, oldest first, each with its evidence and provenance.
   *
   * @example
   * const versions = await engram.history({ scope: { user_id: 'mira' }, key: 'pref:writing:tone' });
   */
  async history(request: HistoryRequest): Promise<MemoryItem[]> {
    this.guard();
    return history(this.memoryContext(), request);
  }

  /**
   * Items visible to a user (theirs, their agent's, the tenant's); current ones by default.
   *
   * @example
   * const items = await engram.listItems({ scope: { user_id: 'mira', agent_id: 'assistant' } });
   */
  async listItems(request: ListItemsRequest): Promise<MemoryItem[]> {
    this.guard();
    return listItems(this.memoryContext(), request);
  }

  /**
   * Hybrid search (full text, vectors, recency, salience) over long-term memory, with per-signal scores.
   *
   * @example
   * const hits = await engram.search({ scope: { user_id: 'mira', agent_id: 'assistant' }, query: 'tone for posts', k: 5 });
   */
  async search(request: SearchMemoryRequest): Promise<SearchHit[]> {
    this.guard();
    return search(this.memoryContext(), request);
  }

  /**
   * Hybrid search over long-term memory items (the same as `search`, named for what it returns);
   * the events of the conversation are `searchEvents`.
   *
   * @example
   * const hits = await engram.searchItems({ scope: { user_id: 'mira', agent_id: 'assistant' }, query: 'tone for posts', k: 5 });
   */
  async searchItems(request: SearchMemoryRequest): Promise<SearchHit[]> {
    return this.search(request);
  }

  /**
   * Compacts the store's files: the space of deleted rows is given back and nothing of what erase or
   * forget removed stays in them (SQLite: full-text merge, VACUUM, WAL checkpoint and truncation;
   * PostgreSQL: VACUUM FULL and ANALYZE of each table, each locked exclusively while rewritten).
   * `complete: false` with `not_done` says what other processes kept it from finishing (a live
   * server reading the SQLite file, an old PostgreSQL snapshot): run it again then. Reads are unchanged.
   *
   * @example
   * await engram.erase({ user_id: 'mira' });
   * await engram.compactStore();
   */
  async compactStore(): Promise<CompactResult> {
    this.guard();
    return this.storage.maintenance.compact();
  }

  /**
   * One bounded step of full-text index upkeep (the background worker runs one a tick): merges
   * index segments, about `pages` pages of work (default 64). True when it did some work; reads
   * are the same either way, and faster once the index is merged.
   *
   * @example
   * while (await engram.mergeIndexes()) {}
   */
  async mergeIndexes(pages = DEFAULT_MERGE_PAGES): Promise<boolean> {
    this.guard();
    requireCount(pages, 'pages', 1, 100_000);
    return this.storage.maintenance.mergeIndexes(pages);
  }

  /**
   * Rebuilds every derived index from what it derives from: each item chunk, its full-text entry
   * and (queued) embedding from the items alone, each event's full-text entry from its text, and
   * (with the built-in tokenizer) the token count kept with each event and item row (after an
   * upgrade that indexes events differently, to give rows written before counts were kept theirs,
   * or to check a store after a crash).
   *
   * @example
   * const { items, events } = await engram.reindex();
   */
  async reindex(tenantId?: string, onProgress?: ReindexProgress): Promise<ReindexResult> {
    this.guard();
    if (tenantId !== undefined) requireTenant(tenantId);
    return reindex(this.memoryContext(), tenantId, onProgress);
  }

  /**
   * Re-runs today's rule extraction over a user's whole log and brings their user-level items in
   * line with it: new versions where a value changed, new items the rules now find, and what earlier
   * rules wrote that they no longer find (an assistant's advice kept as the user's task) retracted.
   * Items written on purpose (remember, inspector, reflection, import, a model) and retracted keys
   * are left alone (listed in `kept`). One transaction; `dry_run` plans without writing.
   *
   * @example
   * const { items } = await engram.reextract({ user_id: 'noor', dry_run: true });
   */
  async reextract(request: ReextractRequest): Promise<ReextractResult> {
    this.guard();
    if (request.tenant_id !== undefined) requireTenant(request.tenant_id);
    return reextract({ ...this.store, longTerm: this.config.longTerm }, request);
  }

  /**
   * Embeds the texts waiting for a vector now (item chunks, then events); returns how many.
   *
   * @example
   * await engram.runEmbeddings(); // { embedded: 12, skipped: 1 }
   */
  async runEmbeddings(max?: number): Promise<WorkerRun> {
    this.guard();
    if (max !== undefined) requireCount(max, 'max', 1, Number.MAX_SAFE_INTEGER);
    if (this.worker === null) return { embedded: 0, skipped: 0 };
    return this.worker.run(max);
  }

  /**
   * Runs queued background jobs, at most `max` (default 4): reflections of ended runs and, with an
   * LLM configured, the model's extraction of each committed turn (its items are written then, with
   * their own recorded time). A job that fails is tried again after 30 s, 2 min (and 8 min for an
   * extraction), then recorded as failed (`listJobs`); an extraction whose answer is invalid twice
   * fails at once, with memory untouched by the model.
   *
   * @example
   * await engram.runJobs(); // { done: 1, failed: 0, retried: 0 }
   */
  async runJobs(max = 4): Promise<JobRun> {
    this.guard();
    requireCount(max, 'max', 1, 1000);
    const longTerm = this.config.longTerm;
    return runJobs(
      {
        ...this.store,
        reflect: (request) => this.reflect(request),
        extract: longTerm.llm === null ? null : (job) => runExtractionJob({ ...this.store, longTerm }, job),
      },
      max,
    );
  }

  /**
   * Background jobs of a tenant, newest first (default: every kind and status, at most 100): what
   * waits, and why one failed (`last_error`).
   *
   * @example
   * const failed = await engram.listJobs({ statuses: ['failed'] });
   */
  async listJobs(
    query: { tenant_id?: string; kinds?: Job['kind'][]; statuses?: Job['status'][]; limit?: number } = {},
  ): Promise<Job[]> {
    this.guard();
    const limit = query.limit ?? 100;
    requireCount(limit, 'limit', 1, 1000);
    const tenant = tenantOrDefault(query.tenant_id);
    requireChoices(query.kinds, JOB_KINDS, 'kinds');
    requireChoices(query.statuses, JOB_STATUSES, 'statuses');
    return this.storage.service.listJobs({
      tenant_id: tenant,
      limit,
      ...(query.kinds === undefined ? {} : { kinds: query.kinds }),
      ...(query.statuses === undefined ? {} : { statuses: query.statuses }),
    });
  }

  /** How many texts wait for an embedding. */
  async embeddingBacklog(): Promise<number> {
    this.guard();
    return this.storage.service.embeddingBacklog();
  }

  /**
   * Resolves once the store answers a read (a primary-key lookup that finds nothing), as a readiness
   * probe asks; a store that does not answer, or a closed Engram, is STORAGE_FAILED. The error
   * keeps the store's own in `cause` and never names the database in its message.
   *
   * @example
   * await engram.ready();
   */
  async ready(): Promise<void> {
    try {
      this.guard();
      await this.storage.items.get(DEFAULT_TENANT, PROBE_ITEM);
    } catch (error) {
      throw new StorageError('the store did not answer a read', { cause: error });
    }
  }

  /** Stops the worker, the embedding model it created (not one it was given) and the store. Further calls fail. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.worker?.stop();
    if (this.config.ownsEmbeddings) await this.config.embeddings?.close?.();
    await this.storage.close();
  }

  private context() {
    return {
      storage: this.storage,
      tokenizer: this.tokenizer,
      clock: this.clock,
      longTerm: this.config.longTerm,
      compaction: this.config.compaction,
      reflectOnRunEnd: this.config.reflection.onRunEnd,
    };
  }

  private readContext(): ReadPathContext {
    const model = this.config.embeddings;
    return {
      ...this.context(),
      validatePackets: this.config.debug,
      policies: this.policies,
      ...(model === null
        ? {}
        : { embedder: { embed: (text: string) => this.embedQuery(model, text), model: modelKey(model) } }),
    };
  }

  private reflectionContext(): ReflectionApiContext {
    this.guard();
    const llm = this.config.reflection.llm;
    return {
      ...this.store,
      policies: this.config.longTerm.policies,
      extractor: this.claimReader,
      llm: llm === null ? null : { model: llm, allowPrivateRemote: this.config.allowPrivateRemote },
      autoApprove: this.config.reflection.autoApprove,
      project: this.config.reflection.project,
    };
  }

  private memoryContext(): MemoryApiContext {
    const model = this.config.embeddings;
    return {
      ...this.store,
      policies: this.config.longTerm.policies,
      embedQuery: model === null ? undefined : (text) => this.embedQuery(model, text),
      vectorModel: model === null ? undefined : modelKey(model),
      textTokens: this.config.textTokens,
    };
  }

  /**
   * Query vectors, cached (bounded) because the same questions come back. A model too busy to take
   * the query in time (OVERLOADED) gives none: the search goes on by words alone.
   */
  private async embedQuery(model: EmbeddingModel, text: string): Promise<Float32Array | null> {
    const cached = this.queryCache.get(text);
    if (cached !== undefined) return cached;
    let vector: Float32Array | undefined;
    try {
      [vector] = await embedTexts(model, [text]);
    } catch (error) {
      if (EngramError.isInstance(error) && error.code === 'OVERLOADED') return null;
      throw error;
    }
    if (vector === undefined) return null;
    this.queryCache.set(text, vector);
    return vector;
  }
}

/**
 * Opens a store and returns a ready Engram.
 *
 * @example
 * const engram = await createEngram({ store: 'sqlite:./.engram/engram.db' });
 */
export async function createEngram(config: EngramConfig = {}): Promise<Engram> {
  return new Engram(await resolveConfig(config));
}
