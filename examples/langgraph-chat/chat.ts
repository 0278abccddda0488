// A terminal chat agent on LangGraph.js with Engram's memory. The graph is compiled with
// EngramStore as its store: `remember` writes what the user asks to remember into the user's
// `memories` namespace, `respond` composes the packet for the message with composeInNode and
// answers with it in the system prompt, and `record` commits the exchange to Engram's log, so its
// extraction learns from the conversation too. Run it twice: the second session knows the first.
//
//   npx tsx --tsconfig examples/langgraph-chat/tsconfig.json examples/langgraph-chat/chat.ts [--user ID] [--session ID] [--store sqlite:PATH]
//   … chat.ts --script    two sessions played for you; prints the second's system prompt
//
// The model: any OpenAI-compatible endpoint from ENGRAM_LLM_BASE_URL and ENGRAM_LLM_MODEL (with
// ENGRAM_LLM_API_KEY if it needs one); without them, an offline answer from what the system
// prompt remembers. The tsconfig maps 'engram' and 'engram/langgraph' to this checkout's source.

import { Annotation, END, MemorySaver, START, StateGraph, type LangGraphRunnableConfig } from '@langchain/langgraph';

import { composeInNode, EngramStore } from 'engram/langgraph';

import { runChat, type Reply, type SessionContext } from '../shared/terminal-chat.js';
import { chat, type ChatMessage } from './chat-model.js';

const SYSTEM = 'You are a friendly assistant. Keep answers short. Use what you remember about the user.';

/** The thread's conversation, which the checkpointer keeps between invocations. */
const State = Annotation.Root({
  messages: Annotation<ChatMessage[]>({ reducer: (all, added) => [...all, ...added], default: () => [] }),
});
type ChatState = typeof State.State;

const lastUserText = (state: ChatState) => state.messages.findLast((message) => message.role === 'user')?.content ?? '';

/** The user and thread a run was invoked for. */
function thread(config: LangGraphRunnableConfig): { user: string; thread: string } {
  return { user: String(config.configurable?.['user_id']), thread: String(config.configurable?.['thread_id']) };
}

/** "Remember that …" becomes an item of the user's `memories` namespace, keyed by its first words. */
async function remember(state: ChatState, config: LangGraphRunnableConfig) {
  const note = /^remember(?: that)?\s+(.+)$/iu.exec(lastUserText(state).trim())?.[1];
  if (note !== undefined) {
    const key = note.toLowerCase().split(/\W+/u).filter(Boolean).slice(0, 4).join('-');
    await config.store!.put([thread(config).user, 'memories'], key, { text: note });
  }
  return {};
}

/** One chat session: the graph, invoked once per message in the session's thread. */
function session({ engram, userId, sessionId, agentId, llm, showSystemPrompt }: SessionContext): Reply {
  async function respond(state: ChatState, config: LangGraphRunnableConfig) {
    const { text } = await composeInNode(config, { query: lastUserText(state) });
    const system = `${SYSTEM}\n\n${text}`;
    showSystemPrompt(system);
    return {
      messages: [
        {
          role: 'assistant' as const,
          content: await chat(llm, [{ role: 'system', content: system }, ...state.messages]),
        },
      ],
    };
  }

  // The turn id counts the thread's messages, so an exchange committed again writes nothing new.
  async function record(state: ChatState, config: LangGraphRunnableConfig) {
    const { user, thread: id } = thread(config);
    const exchange = state.messages.slice(-2);
    await engram.commitTurn({
      scope: { user_id: user, agent_id: agentId, session_id: id, run_id: id },
      turn_id: `${id}:${state.messages.length}`,
      messages: exchange,
    });
    return {};
  }

  const graph = new StateGraph(State)
    .addNode('remember', remember)
    .addNode('respond', respond)
    .addNode('record', record)
    .addEdge(START, 'remember')
    .addEdge('remember', 'respond')
    .addEdge('respond', 'record')
    .addEdge('record', END)
    .compile({ store: new EngramStore({ engram, agentId }), checkpointer: new MemorySaver() });

  return async (text, write) => {
    const { messages } = await graph.invoke(
      { messages: [{ role: 'user', content: text }] },
      { configurable: { thread_id: sessionId, user_id: userId } },
    );
    write(messages.at(-1)?.content ?? '');
  };
}

await runChat({ name: 'langgraph-chat', session });
