// An Agents SDK Session over Engram's episodic log: the history is the session's logged items in
// order, less what edits took out. The log stays append-only: popItem and clearSession end the
// current run with a RUN_END marker saying how many items the history keeps, and later items go
// to the next run (`<run>.2`, `<run>.3`, …), so each version of the conversation is a run.

import { randomUUID } from 'node:crypto';

import type { AgentInputItem, Session } from '@openai/agents-core';

import type { ComposeRequest, RenderFormat } from '../../index.js';
import {
  allPages,
  composeForPrompt,
  memoryPort,
  type ComposedMemory,
  type EngramSource,
  type MemoryPort,
} from '../memory-port.js';
import { loggedEntry, METADATA_KEY, turnParts } from './agent-items.js';

const PAGE = 1000;
/** Events read at a time, newest first, to find the run the history writes to. */
const LATEST_PAGE = 50;

export interface EngramSessionOptions {
  /** An Engram instance (`createEngram`) or an HTTP client (`createClient` from `engram/client`). */
  engram: EngramSource;
  /** The user the conversation is with: long-term memory is theirs, across sessions. */
  userId: string;
  /** The agent answering (Engram's agent_id). */
  agentId: string;
  /** The conversation (Engram's session_id; default a new UUID). */
  sessionId?: string;
  /** The first run of the conversation (default the session id). */
  runId?: string;
  /** The tenant (default `default`). Over HTTP the API key's tenant applies: leave it out, or name that tenant (another is refused with FORBIDDEN). */
  tenantId?: string;
}

/** What to compose for the agent's instructions. */
export interface SessionComposeRequest {
  /** The question the packet is for: the user's new input. */
  query?: string;
  purpose?: ComposeRequest['purpose'];
  budget?: ComposeRequest['budget'];
  format?: RenderFormat;
}

/**
 * A conversation's history kept in Engram, for `run(agent, input, { session })`. Every item added is
 * committed as a turn, so Engram's extraction learns from it and later sessions of the same user
 * can compose what it learned.
 *
 * @example
 * const session = new EngramSession({ engram, userId: 'mira', agentId: 'assistant', sessionId: 'chat-1' });
 * const result = await run(agent, 'I am vegetarian.', { session });
 */
export class EngramSession implements Session {
  readonly port: MemoryPort;
  readonly userId: string;
  readonly agentId: string;
  readonly sessionId: string;
  readonly runId: string;
  readonly tenantId: string | undefined;

  constructor(options: EngramSessionOptions) {
    this.port = memoryPort(options.engram);
    this.userId = options.userId;
    this.agentId = options.agentId;
    this.sessionId = options.sessionId ?? randomUUID();
    this.runId = options.runId ?? this.sessionId;
    this.tenantId = options.tenantId;
  }

  async getSessionId(): Promise<string> {
    return this.sessionId;
  }

  async getItems(limit?: number): Promise<AgentInputItem[]> {
    const { items } = await this.read();
    return limit === undefined ? items : items.slice(Math.max(0, items.length - limit));
  }

  async addItems(items: AgentInputItem[]): Promise<void> {
    if (items.length === 0) return;
    const run = await this.currentRun();
    await this.port.commitTurn({ scope: this.scope(run), turn_id: `agents-${randomUUID()}`, ...turnParts(items) });
  }

  async popItem(): Promise<AgentInputItem | undefined> {
    const { items, run } = await this.read();
    const last = items.at(-1);
    if (last !== undefined) await this.edit(run, items.length - 1);
    return last;
  }

  async clearSession(): Promise<void> {
    const { items, run } = await this.read();
    if (items.length > 0) await this.edit(run, 0);
  }

  /**
   * Composes a packet for this user and session and renders it for the agent's instructions.
   *
   * @example
   * const { text } = await session.compose({ query: input });
   */
  async compose(request: SessionComposeRequest = {}): Promise<ComposedMemory> {
    const { purpose, query, budget, format } = request;
    return composeForPrompt(this.port, { scope: this.scope(await this.currentRun()), purpose, query, budget, format });
  }

  private scope(run: string) {
    return {
      ...(this.tenantId === undefined ? {} : { tenant_id: this.tenantId }),
      user_id: this.userId,
      agent_id: this.agentId,
      session_id: this.sessionId,
      run_id: run,
    };
  }

  private logScope() {
    const { run_id: _run, ...scope } = this.scope(this.runId);
    return scope;
  }

  /** Ends a run: the history keeps its first `keep` items and continues in the next run. */
  private async edit(run: string, keep: number): Promise<void> {
    await this.port.commitTurn({
      scope: this.scope(run),
      turn_id: `agents-edit-${randomUUID()}`,
      markers: [{ marker: 'RUN_END', metadata: { [METADATA_KEY]: { keep, next_run: this.nextRun(run) } } }],
    });
  }

  private nextRun(run: string): string {
    const suffix = run.startsWith(`${this.runId}.`) ? run.slice(this.runId.length + 1) : '';
    return `${this.runId}.${/^\d+$/u.test(suffix) ? Number(suffix) + 1 : 2}`;
  }

  /** The history and the run it continues in, from the whole log of the session. */
  private async read(): Promise<{ items: AgentInputItem[]; run: string }> {
    const events = await allPages((cursor) =>
      this.port.listEvents({ scope: this.logScope(), order: 'asc', limit: PAGE, ...cursor }),
    );
    let items: AgentInputItem[] = [];
    let run = this.runId;
    // A turn logs its messages before its tool results: its items are put back in their own order.
    let turn: { id: string | null; entries: Array<{ index: number; item: AgentInputItem }> } = {
      id: null,
      entries: [],
    };
    const flush = () => {
      items.push(...turn.entries.sort((a, b) => a.index - b.index).map((entry) => entry.item));
      turn = { id: null, entries: [] };
    };
    for (const event of events) {
      const entry = loggedEntry(event);
      if (entry === undefined) continue;
      if (entry.kind === 'edit') {
        flush();
        items = items.slice(0, entry.edit.keep);
        run = entry.edit.next_run;
        continue;
      }
      if (turn.id !== event.turn_id) flush();
      turn.id = event.turn_id;
      turn.entries.push(entry);
      run = event.run_id;
    }
    flush();
    return { items, run };
  }

  /** The run the history writes to: that of its newest event, or after an edit the run it names. */
  private async currentRun(): Promise<string> {
    let cursor: string | undefined;
    for (;;) {
      const page = await this.port.listEvents({
        scope: this.logScope(),
        order: 'desc',
        limit: LATEST_PAGE,
        ...(cursor === undefined ? {} : { cursor }),
      });
      for (const event of page.items) {
        const entry = loggedEntry(event);
        if (entry !== undefined) return entry.kind === 'edit' ? entry.edit.next_run : event.run_id;
      }
      if (page.next_cursor === null) return this.runId;
      cursor = page.next_cursor;
    }
  }
}
