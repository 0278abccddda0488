// A terminal chat agent on the OpenAI Agents SDK with Engram's memory: the conversation is an
// EngramSession, so the runner's items are committed to Engram's log and the history comes back
// from it, and each run's instructions end with the packet memoryInstructions composes for the
// user's message. Run it twice: the second session knows what the first told.
//
//   npx tsx --tsconfig examples/openai-agents-chat/tsconfig.json examples/openai-agents-chat/chat.ts [--user ID] [--session ID] [--store sqlite:PATH]
//   … chat.ts --script    two sessions played for you; prints the second's instructions
//
// The model: any OpenAI-compatible endpoint from ENGRAM_LLM_BASE_URL and ENGRAM_LLM_MODEL (with
// ENGRAM_LLM_API_KEY if it needs one), through the SDK's Chat Completions model; without them, an
// offline model that answers with what its instructions remember. The tsconfig maps 'engram' and
// 'engram/openai-agents' to this checkout's source.

import {
  Agent,
  OpenAIProvider,
  Runner,
  Usage,
  type Model,
  type ModelProvider,
  type protocol,
  type StreamEvent,
} from '@openai/agents';

import { EngramSession, memoryInstructions } from 'engram/openai-agents';

import { offlineAnswer, runChat, type LlmSettings, type Reply, type SessionContext } from '../shared/terminal-chat.js';

const INSTRUCTIONS = 'You are a friendly assistant. Keep answers short. Use what you remember about the user.';

/** An assistant message as a model's output. */
function assistantMessage(text: string): protocol.AssistantMessageItem {
  return { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text }] };
}

/** A model of the SDK's Model interface that answers with the preferences and facts its instructions hold. */
const offlineModel: Model = {
  async getResponse(request) {
    return { usage: new Usage(), output: [assistantMessage(offlineAnswer(request.systemInstructions ?? ''))] };
  },
  async *getStreamedResponse(request): AsyncIterable<StreamEvent> {
    const text = offlineAnswer(request.systemInstructions ?? '');
    yield { type: 'response_started' };
    for (const delta of text.split(/(?<= )/u)) yield { type: 'output_text_delta', delta };
    yield {
      type: 'response_done',
      response: {
        id: 'offline',
        usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
        output: [assistantMessage(text)],
      },
    };
  },
};

/**
 * The configured endpoint through the SDK's OpenAI provider, on Chat Completions (which
 * OpenAI-compatible servers speak), or the offline model. The SDK's client needs a key: an
 * endpoint without one gets a placeholder.
 */
function modelProvider(llm: LlmSettings | undefined): ModelProvider {
  if (llm === undefined) return { getModel: () => offlineModel };
  return new OpenAIProvider({ baseURL: llm.baseURL, apiKey: llm.apiKey ?? 'unused', useResponses: false });
}

/** One chat session: an EngramSession for its history, and instructions composed per message. */
function session({ engram, userId, sessionId, agentId, llm, showSystemPrompt }: SessionContext): Reply {
  const runner = new Runner({ modelProvider: modelProvider(llm), tracingDisabled: true });
  const history = new EngramSession({ engram, userId, agentId, sessionId });
  const agent = new Agent({ name: 'Assistant', instructions: INSTRUCTIONS, model: llm?.model ?? 'offline' });
  return async (text, write) => {
    // The SDK hands an instructions function no input, so the packet is composed for the message here.
    const instructions = await memoryInstructions(history, { instructions: INSTRUCTIONS, query: text });
    showSystemPrompt(instructions);
    const result = await runner.run(agent.clone({ instructions }), text, { session: history, stream: true });
    for await (const delta of result.toTextStream()) write(delta);
    await result.completed;
  };
}

await runChat({ name: 'openai-agents-chat', session });
