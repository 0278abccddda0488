// createEngram(config): the one place that wires a store, a tokenizer and a clock to the domain,
// and the Engram object every interface (library, CLI, HTTP, MCP) goes through: the write and read
// paths at its root, everything else in areas over one runtime context.

import { EngramError, StorageError } from '../spec/errors.js';
import type { MemoryPacket } from '../spec/packet.js';
import type { CommitTurnRequest, CommitTurnResult, ComposeRequest } from '../spec/requests.js';
import type { ReflectRequest, ReflectResult } from '../spec/reflection.js';
import { DEFAULT_TENANT } from '../spec/scope.js';
import type { Tokenizer } from '../spec/tokenizer.js';
import { compose } from '../composer/compose.js';
import { assertNamedPolicy, type NamedPolicy } from '../composer/named-policies.js';
import { buildsOf, type Builds } from './build-api.js';
import { BATCH_PATHS, commitTurns, LONE_TURN_PATHS } from './commit-turn.js';
import { resolveConfig, type EngramConfig, type ResolvedConfig } from './config.js';
import { eventsOf, type Events } from './event-api.js';
import { insightsOf, type Insights } from './insight-api.js';
import { itemsOf, type Items } from './item-api.js';
import { keysOf, type Keys } from './key-api.js';
import { maintenanceOf, type Maintenance } from './maintenance-api.js';
import { reflect } from './reflection-api.js';
import { reviewQueue, type ReviewQueue } from './review-api.js';
import { runsOf, type Runs } from './run-api.js';
import { Runtime } from './runtime.js';
import { sessionsOf, type Sessions } from './session-api.js';

export type { EngramConfig } from './config.js';

/** An id no item has: reading it is a primary-key lookup that touches the store and finds nothing. */
const PROBE_ITEM = 'mem_00000000000000000000000000';

/**
 * The memory runtime. Create one with `createEngram`, close it with `close()`. Turns go in with
 * `commitTurn`, packets come out of `compose`; the rest is grouped by area (`engram.events`,
 * `engram.items`, `engram.builds`, …), each area's methods checking their arguments and filling in
 * the default tenant.
 *
 * @example
 * const engram = await createEngram({ store: 'sqlite:./.engram/engram.db' });
 * await engram.commitTurn({ scope, turn_id: 't1', messages: [{ role: 'user', content: 'Hi' }] });
 * const packet = await engram.compose({ scope, purpose: 'responder' });
 * await engram.close();
 */
export class Engram {
  // Private so that every interface goes through the areas, which check their arguments and fill in
  // the tenant; tests that need the store open it and hand it to createEngram.
  private readonly runtime: Runtime;
  readonly tokenizer: Tokenizer;
  /** A session's working state and rolling summary, and a tenant's scopes. */
  readonly sessions: Sessions;
  /** The episodic log: events listed, read and searched. */
  readonly events: Events;
  /** Long-term memory items: written, restored, forgotten, listed, searched, re-extracted. */
  readonly items: Items;
  /** Stored context builds: read, replayed, compared, explained. */
  readonly builds: Builds;
  /** The review queue: candidates that reflection proposed, approved or rejected by people. */
  readonly review: ReviewQueue;
  /** Hypotheses, strategy sketches and patterns, and their validation. */
  readonly insights: Insights;
  /** Runs: recorded state, compaction snapshots and their narrative, resuming a stopped run. */
  readonly runs: Runs;
  /** API keys of the service (HTTP, MCP): bound to a tenant and a role, stored hashed. */
  readonly keys: Keys;
  /** Export, import, erasure, expiry, index upkeep, and background work run by hand. */
  readonly maintenance: Maintenance;

  /** Use `createEngram`; the constructor takes an already resolved configuration. */
  constructor(config: ResolvedConfig) {
    const runtime = new Runtime(config);
    this.runtime = runtime;
    this.tokenizer = config.tokenizer;
    for (const policy of config.policies) this.registerPolicy(policy);
    this.sessions = runtime.opened(sessionsOf(runtime));
    this.events = runtime.opened(eventsOf(runtime));
    this.items = runtime.opened(itemsOf(runtime));
    this.builds = runtime.opened(buildsOf(runtime));
    this.review = runtime.opened(reviewQueue(() => runtime.reflection()));
    this.insights = runtime.opened(insightsOf(() => ({ ...runtime.store(), policies: config.longTerm.policies })));
    this.runs = runtime.opened(runsOf(() => runtime.store()));
    this.keys = runtime.opened(keysOf(() => runtime.store()));
    this.maintenance = runtime.opened(maintenanceOf(runtime));
    if (runtime.worker !== null && config.workerIntervalMs !== null) {
      // Errors of a background run are retried on the next tick; a foreground runEmbeddings() reports them.
      runtime.worker.start(config.workerIntervalMs, () => undefined);
    }
  }

  /**
   * Appends a turn (messages, tool results, state patch, markers) in one transaction. A repeated
   * `turn_id` in the same session writes nothing and returns the first result with `replayed: true`.
   *
   * @example
   * await engram.commitTurn({ scope, turn_id: 't1', messages: [{ role: 'user', content: 'I prefer tea.' }] });
   */
  async commitTurn(turn: CommitTurnRequest): Promise<CommitTurnResult> {
    const [result] = await commitTurns(this.runtime.write(), [turn], LONE_TURN_PATHS);
    return result!;
  }

  /**
   * Commits many turns in one transaction (all or none): the fast path for imports.
   *
   * @example
   * await engram.commitTurns(turns);
   */
  async commitTurns(turns: readonly CommitTurnRequest[]): Promise<CommitTurnResult[]> {
    const context = this.runtime.write();
    if (!Array.isArray(turns))
      throw new EngramError('VALIDATION_FAILED', 'turns: must be an array', { field: 'turns' });
    return commitTurns(context, turns, BATCH_PATHS);
  }

  /**
   * Composes a token-budgeted MemoryPacket for the next LLM call.
   *
   * @example
   * const packet = await engram.compose({ scope, purpose: 'planner', budget: { max_tokens: 1500 } });
   */
  async compose(request: ComposeRequest): Promise<MemoryPacket> {
    return compose(this.runtime.read(), request);
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
    return reflect(this.runtime.reflection(), request);
  }

  /**
   * Registers (or replaces) a named budget policy that compose requests pick with `policy_id`.
   *
   * @example
   * engram.registerPolicy({ policy_id: 'tight', purposes: { responder: { budget: { max_tokens: 600 }, key_quotes: 3 } } });
   */
  registerPolicy(policy: NamedPolicy): void {
    this.runtime.guard();
    assertNamedPolicy(policy);
    this.runtime.policies.set(policy.policy_id, structuredClone(policy));
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
      await this.runtime.store().storage.items.get(DEFAULT_TENANT, PROBE_ITEM);
    } catch (error) {
      throw new StorageError('the store did not answer a read', { cause: error });
    }
  }

  /** Stops the worker, the embedding model it created (not one it was given) and the store. Further calls fail. */
  async close(): Promise<void> {
    await this.runtime.close();
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
