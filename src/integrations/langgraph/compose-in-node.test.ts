import { Annotation, END, MemorySaver, START, StateGraph, type LangGraphRunnableConfig } from '@langchain/langgraph';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { tempEngram, type TempEngram } from '../../../test/helpers/temp-engram.js';
import { EngramError } from '../../index.js';
import { composeInNode } from './compose-in-node.js';
import { EngramStore } from './engram-store.js';

const State = Annotation.Root({
  input: Annotation<string>,
  memory: Annotation<string>,
});

/** A graph whose first node writes what the user asks to remember and whose second composes. */
function buildGraph(store: EngramStore) {
  return new StateGraph(State)
    .addNode('remember', async (state: typeof State.State, config: LangGraphRunnableConfig) => {
      const note = /^remember: (.+)$/iu.exec(state.input)?.[1];
      if (note !== undefined)
        await config.store!.put([String(config.configurable!['user_id']), 'memories'], `note-${note.length}`, {
          text: note,
        });
      return {};
    })
    .addNode('respond', async (state: typeof State.State, config: LangGraphRunnableConfig) => {
      const { text } = await composeInNode(config, { query: state.input });
      return { memory: text };
    })
    .addEdge(START, 'remember')
    .addEdge('remember', 'respond')
    .addEdge('respond', END)
    .compile({ store, checkpointer: new MemorySaver() });
}

describe('composeInNode in a compiled StateGraph', () => {
  let t: TempEngram;
  beforeEach(async () => {
    t = await tempEngram();
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it('composes, in a later thread, what a node stored in an earlier one', async () => {
    const store = new EngramStore({ engram: t.engram, agentId: 'assistant' });
    const graph = buildGraph(store);
    await graph.invoke(
      { input: 'Remember: I am allergic to peanuts' },
      { configurable: { thread_id: 'thread-1', user_id: 'mira' } },
    );
    const later = await graph.invoke(
      { input: 'Can I eat the peanuts satay?' },
      { configurable: { thread_id: 'thread-2', user_id: 'mira' } },
    );
    expect(later.memory).toContain('I am allergic to peanuts');
    const someoneElse = await graph.invoke(
      { input: 'Can I eat the peanuts satay?' },
      { configurable: { thread_id: 'thread-3', user_id: 'ana' } },
    );
    expect(someoneElse.memory).not.toContain('peanuts');
    const builds = await t.engram.builds.list({ user_id: 'mira' });
    expect(builds.map((build) => build.session_id)).toContain('thread-2');
  });

  it('says what is missing when the graph has no EngramStore or no user', async () => {
    const store = new EngramStore({ engram: t.engram, agentId: 'assistant' });
    await expect(composeInNode({ configurable: { thread_id: 't', user_id: 'mira' } })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      field: 'store',
    });
    await expect(composeInNode({ store, configurable: { thread_id: 't' } })).rejects.toBeInstanceOf(EngramError);
    await expect(composeInNode({ store, configurable: { user_id: 'mira' } })).rejects.toMatchObject({
      field: 'configurable.thread_id',
    });
    const { packet } = await composeInNode(
      { configurable: {} },
      { store, userId: 'mira', sessionId: 's', runId: 'r', purpose: 'planner', format: 'xml' },
    );
    expect(packet.meta.purpose).toBe('planner');
  });
});
