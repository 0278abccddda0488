// Composing a packet inside a LangGraph node: the store the graph was compiled with is Engram, the
// user and thread come from the run's `configurable`, and the rendered packet goes into the prompt.

import { ValidationError } from '../../index.js';
import type { ComposedMemory } from '../memory-port.js';
import { EngramStore, type StoreComposeRequest } from './engram-store.js';

/** The part of a node's LangGraphRunnableConfig the helper reads. */
export interface GraphNodeConfig {
  store?: unknown;
  configurable?: Record<string, unknown>;
}

export interface ComposeInNodeOptions extends Partial<Omit<StoreComposeRequest, 'userId' | 'sessionId' | 'runId'>> {
  /** The user (default `configurable.user_id`). */
  userId?: string;
  /** The Engram session (default `configurable.thread_id`). */
  sessionId?: string;
  /** The Engram run (default `configurable.run_id`, else the session). */
  runId?: string;
  /** The store, when the graph was compiled without one (default `config.store`). */
  store?: EngramStore;
}

/**
 * The EngramStore a node was given: LangGraph hands nodes the compiled store wrapped in an
 * AsyncBatchedStore, which keeps it as its `store` member.
 */
function engramStoreOf(store: unknown): EngramStore | undefined {
  if (store instanceof EngramStore) return store;
  const inner = typeof store === 'object' && store !== null ? (store as { store?: unknown }).store : undefined;
  return inner instanceof EngramStore ? inner : undefined;
}

function configured(config: GraphNodeConfig, name: string): string | undefined {
  const value = config.configurable?.[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * Composes a packet for the node's user and thread and renders it: `text` goes into the system
 * prompt, `packet` carries the ids it cites.
 *
 * @example
 * async function respond(state: typeof MessagesAnnotation.State, config: LangGraphRunnableConfig) {
 *   const { text } = await composeInNode(config, { query: String(state.messages.at(-1)?.content ?? '') });
 *   return { messages: [await model.invoke([new SystemMessage(text), ...state.messages])] };
 * }
 */
export async function composeInNode(
  config: GraphNodeConfig,
  options: ComposeInNodeOptions = {},
): Promise<ComposedMemory> {
  const store = options.store ?? engramStoreOf(config.store);
  if (store === undefined) {
    throw ValidationError.of(
      'store',
      'engram_store',
      'the graph has no EngramStore: compile it with { store: new EngramStore({ engram, agentId }) } or pass options.store',
    );
  }
  const userId = options.userId ?? configured(config, 'user_id');
  if (userId === undefined)
    throw ValidationError.of(
      'configurable.user_id',
      'required',
      'name the user: invoke the graph with { configurable: { user_id } } or pass options.userId',
    );
  const sessionId = options.sessionId ?? configured(config, 'thread_id');
  if (sessionId === undefined)
    throw ValidationError.of(
      'configurable.thread_id',
      'required',
      'name the thread: invoke the graph with { configurable: { thread_id } } or pass options.sessionId',
    );
  const { store: _store, userId: _user, sessionId: _session, runId, ...rest } = options;
  return store.compose({ ...rest, userId, sessionId, runId: runId ?? configured(config, 'run_id') ?? sessionId });
}
