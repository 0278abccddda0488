// createEngram(config): the one place that wires a store, a tokenizer and a clock to the domain,
// and the Engram object every interface (library, CLI, HTTP, MCP) goes through.

import { EngramError, NotFoundError } from '../spec/errors.js';
import type { EventRecord } from '../spec/event.js';
import type { MemoryPacket } from '../spec/packet.js';
import type {
  CommitTurnRequest,
  CommitTurnResult,
  ComposeRequest,
  ListEventsRequest,
  SearchEventsRequest,
  SessionScopeInput,
} from '../spec/requests.js';
import { DEFAULT_TENANT } from '../spec/scope.js';
import type { EventSearchHit, StorageAdapter } from '../spec/storage.js';
import type { Tokenizer } from '../spec/tokenizer.js';
import {
  validateListEventsRequest,
  validateSearchEventsRequest,
  validateSessionScope,
} from '../spec/validators.js';
import { emptyWorkingState, type WorkingState } from '../spec/working-state.js';
import { NEVER_SHARED } from '../events/sensitivity.js';
import { compose } from '../composer/compose.js';
import { cutSummary } from '../working-memory/summary.js';
import { systemClock, toIso, type Clock } from '../util/clock.js';
import { o200kTokenizer } from '../util/tokenizer.js';
import { queryTerms } from '../util/segment.js';
import { contentTerms } from '../util/stopwords.js';
import { commitTurns } from './commit-turn.js';
import { openStore, DEFAULT_STORE } from './store-url.js';

/** Options of createEngram. */
export interface EngramConfig {
  /** `sqlite:PATH` (default `sqlite:./.engram/engram.db`), `sqlite::memory:`, or an opened adapter. */
  store?: string | StorageAdapter;
  tokenizer?: Tokenizer;
  clock?: Clock;
  /** Validate every composed packet against MemoryPacket v1 (also on with ENGRAM_DEBUG=1). */
  debug?: boolean;
  /** SQLite durability: `full` (default) survives power loss, `normal` survives a process crash. */
  sqliteSynchronous?: 'full' | 'normal';
}

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

  constructor(
    readonly storage: StorageAdapter,
    readonly tokenizer: Tokenizer,
    private readonly clock: Clock,
    private readonly debug: boolean,
  ) {}

  private guard(): void {
    if (this.closed) throw new EngramError('CONFIG_INVALID', 'this Engram is closed', { field: 'engram' });
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
    const [result] = await commitTurns(this.context(), [turn]);
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
    if (!Array.isArray(turns)) throw new EngramError('VALIDATION_FAILED', 'turns: must be an array', { field: 'turns' });
    return commitTurns(this.context(), turns);
  }

  /**
   * Composes a token-budgeted MemoryPacket for the next LLM call.
   *
   * @example
   * const packet = await engram.compose({ scope, purpose: 'planner', budget: { max_tokens: 1500 } });
   */
  async compose(request: ComposeRequest): Promise<MemoryPacket> {
    this.guard();
    return compose({ ...this.context(), validatePackets: this.debug }, request);
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
    const state = await this.storage.getWorkingState({ ...valid, tenant_id: valid.tenant_id ?? DEFAULT_TENANT });
    return state ?? emptyWorkingState();
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
    const summary = await this.storage.getSummary({ ...valid, tenant_id: valid.tenant_id ?? DEFAULT_TENANT });
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
   * A page of events in log order. Secret events appear with their content withheld unless
   * `include_secret_content` is set.
   *
   * @example
   * const page = await engram.listEvents({ scope: { user_id: 'u1', agent_id: 'a1', session_id: 's1' }, limit: 50 });
   */
  async listEvents(request: ListEventsRequest): Promise<EventRecord[]> {
    this.guard();
    const valid = validateListEventsRequest(request);
    const events = await this.storage.listEvents({
      ...valid.scope,
      tenant_id: valid.scope.tenant_id ?? DEFAULT_TENANT,
      kinds: valid.kinds,
      order: valid.order,
      cursor: valid.cursor,
      limit: valid.limit ?? 100,
      now: this.now(),
    });
    return valid.include_secret_content === true ? events : events.map(withheld);
  }

  /**
   * One event by id, with secret content withheld.
   *
   * @example
   * const event = await engram.getEvent('evt_01J…');
   */
  async getEvent(eventId: string, tenantId = DEFAULT_TENANT): Promise<EventRecord> {
    this.guard();
    const event = await this.storage.getEvent(tenantId, eventId, this.now());
    if (event === null) throw new NotFoundError('event_id', eventId);
    return withheld(event);
  }

  /**
   * Full-text search over a user's events, best first. Never returns secret events.
   *
   * @example
   * const hits = await engram.searchEvents({ scope: { user_id: 'u1' }, query: '中文文档' });
   */
  async searchEvents(request: SearchEventsRequest): Promise<EventSearchHit[]> {
    this.guard();
    const valid = validateSearchEventsRequest(request);
    return this.storage.searchEvents({
      ...valid.scope,
      tenant_id: valid.scope.tenant_id ?? DEFAULT_TENANT,
      terms: contentTerms(queryTerms(valid.query)),
      now: this.now(),
      ts_from: valid.time_range?.start === undefined ? undefined : toIso(valid.time_range.start),
      ts_to: valid.time_range?.end === undefined ? undefined : toIso(valid.time_range.end),
      exclude_sensitivity: [...NEVER_SHARED],
      limit: valid.limit ?? 20,
    });
  }

  /**
   * Deletes events past their `expires_at`; returns how many.
   *
   * @example
   * const purged = await engram.purgeExpired();
   */
  async purgeExpired(): Promise<number> {
    this.guard();
    return this.storage.purgeExpired(this.now());
  }

  /** Closes the store. Further calls fail. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.storage.close();
  }

  private context() {
    return { storage: this.storage, tokenizer: this.tokenizer, clock: this.clock };
  }
}

function withheld(event: EventRecord): EventRecord {
  return NEVER_SHARED.includes(event.sensitivity) ? { ...event, content: '[secret content withheld]' } : event;
}

/**
 * Opens a store and returns a ready Engram.
 *
 * @example
 * const engram = await createEngram({ store: 'sqlite:./.engram/engram.db' });
 */
export async function createEngram(config: EngramConfig = {}): Promise<Engram> {
  const storage =
    typeof config.store === 'object'
      ? config.store
      : await openStore(config.store ?? DEFAULT_STORE, { sqliteSynchronous: config.sqliteSynchronous });
  const debug = config.debug ?? process.env['ENGRAM_DEBUG'] === '1';
  return new Engram(storage, config.tokenizer ?? o200kTokenizer, config.clock ?? systemClock, debug);
}
