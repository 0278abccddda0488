// A LangGraph.js graph with Engram as its store: in one thread the user asks the assistant to
// remember something and a node writes it to the store; in a later thread the reply node composes
// a memory packet for the question, and what was remembered reaches the model's system prompt.
//
// Run: npx tsx --tsconfig examples/langgraph/tsconfig.json examples/langgraph/graph.ts

import { Annotation, END, MemorySaver, START, StateGraph, type LangGraphRunnableConfig } from '@langchain/langgraph';
import { createEngram } from 'engram';
import { EngramStore, composeInNode } from 'engram/langgraph';

import { chat } from './chat-model.js';

const State = Annotation.Root({
  input: Annotation<string>,
  reply: Annotation<string>,
});

/** "Remember that …" becomes an item in the user's `memories` namespace, keyed by its first words. */
async function remember(state: typeof State.State, config: LangGraphRunnableConfig) {
  const note = /^remember(?: that)?\s+(.+)$/iu.exec(state.input.trim())?.[1];
  if (note !== undefined) {
    const key = note.toLowerCase().split(/\W+/u).filter(Boolean).slice(0, 4).join('-');
    await config.store!.put([String(config.configurable!['user_id']), 'memories'], key, { text: note });
  }
  return {};
}

/** Composes the packet for the question and answers with it in the system prompt. */
async function respond(state: typeof State.State, config: LangGraphRunnableConfig) {
  const { text } = await composeInNode(config, { query: state.input, budget: { max_tokens: 600 } });
  const reply = await chat([
    { role: 'system', content: `You are a helpful assistant. Use what you remember about the user.\n\n${text}` },
    { role: 'user', content: state.input },
  ]);
  return { reply };
}

const engram = await createEngram({ store: process.env['ENGRAM_STORE'] ?? 'sqlite::memory:' });
const store = new EngramStore({ engram, agentId: 'langgraph-example' });
const graph = new StateGraph(State)
  .addNode('remember', remember)
  .addNode('respond', respond)
  .addEdge(START, 'remember')
  .addEdge('remember', 'respond')
  .addEdge('respond', END)
  .compile({ store, checkpointer: new MemorySaver() });

const sessions = [
  { thread_id: 'thread-1', input: 'Remember that I am vegetarian and allergic to peanuts.' },
  { thread_id: 'thread-2', input: 'Suggest a dinner recipe with peanuts or tofu for tonight.' },
];
for (const { thread_id, input } of sessions) {
  const { reply } = await graph.invoke({ input }, { configurable: { thread_id, user_id: 'mira' } });
  console.log(`[${thread_id}] user: ${input}\n[${thread_id}] assistant: ${reply}\n`);
}
console.log('stored:', JSON.stringify(await store.search(['mira', 'memories']), ['namespace', 'key', 'value', 'text']));
await engram.close();
