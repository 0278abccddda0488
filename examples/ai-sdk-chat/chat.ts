// A terminal chat agent on the Vercel AI SDK with Engram's memory: what Engram recalls about the
// user goes into every call's system prompt, every turn is committed, and the model can search,
// remember and forget with memory tools. Run it twice: the second session knows the first.
//
//   npx tsx --tsconfig examples/ai-sdk-chat/tsconfig.json examples/ai-sdk-chat/chat.ts [--user ID] [--session ID] [--store sqlite:PATH]
//   … chat.ts --script    two sessions played for you; prints the second's system prompt
//
// The model: any OpenAI-compatible endpoint from ENGRAM_LLM_BASE_URL and ENGRAM_LLM_MODEL (with
// ENGRAM_LLM_API_KEY if it needs one); without them, the AI SDK's mock model answering with what
// its system prompt remembers. The tsconfig maps 'engram' and 'engram/ai-sdk' to this checkout's source.

import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import {
  simulateReadableStream,
  stepCountIs,
  streamText,
  wrapLanguageModel,
  type LanguageModelMiddleware,
  type ModelMessage,
} from 'ai';
import { MockLanguageModelV3 } from 'ai/test';

import { engramMiddleware, memoryTools } from 'engram/ai-sdk';

import { offlineAnswer, runChat, type LlmSettings, type Reply, type SessionContext } from '../shared/terminal-chat.js';

type Model = Parameters<typeof wrapLanguageModel>[0]['model'];

const SYSTEM =
  'You are a friendly assistant. Keep answers short. Use what you remember about the user; call remember when they ask you to remember something.';

/** The configured OpenAI-compatible model, or the offline one when none is configured. */
function chatModel(llm: LlmSettings | undefined): Model {
  if (llm === undefined) return offlineModel();
  return createOpenAICompatible({
    name: 'llm',
    baseURL: llm.baseURL,
    ...(llm.apiKey === undefined ? {} : { apiKey: llm.apiKey }),
  }).chatModel(llm.model);
}

/** The AI SDK's mock model, answering with the preferences and facts its system prompt holds. */
function offlineModel(): Model {
  return new MockLanguageModelV3({
    provider: 'offline',
    modelId: 'memory-echo',
    doStream: async ({ prompt }) => {
      const text = offlineAnswer(
        prompt.flatMap((message) => (message.role === 'system' ? [message.content] : [])).join('\n'),
      );
      const usage = {
        inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
        outputTokens: { total: 0, text: 0, reasoning: 0 },
      };
      return {
        stream: simulateReadableStream({
          chunks: [
            { type: 'stream-start', warnings: [] },
            { type: 'text-start', id: 'reply' },
            ...text.split(/(?<= )/u).map((delta) => ({ type: 'text-delta' as const, id: 'reply', delta })),
            { type: 'text-end', id: 'reply' },
            { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
          ],
        }),
      };
    },
  });
}

/** A middleware that shows the system prompt of every call it sees (placed after Engram's). */
function showSystemPrompts(show: (text: string) => void): LanguageModelMiddleware {
  return {
    specificationVersion: 'v3',
    transformParams: async ({ params }) => {
      show(params.prompt.flatMap((message) => (message.role === 'system' ? [message.content] : [])).join('\n\n'));
      return params;
    },
  };
}

/** One chat session: the model with Engram's middleware and memory tools, and the conversation so far. */
function session({ engram, userId, sessionId, agentId, llm, showSystemPrompt }: SessionContext): Reply {
  const model = wrapLanguageModel({
    model: chatModel(llm),
    middleware: [
      engramMiddleware({ engram, scope: { user_id: userId, agent_id: agentId, session_id: sessionId } }),
      showSystemPrompts(showSystemPrompt),
    ],
  });
  const tools = memoryTools({ engram, scope: { user_id: userId, agent_id: agentId } });
  const messages: ModelMessage[] = [];
  return async (text, write) => {
    messages.push({ role: 'user', content: text });
    const result = streamText({ model, system: SYSTEM, messages, tools, stopWhen: stepCountIs(4) });
    for await (const delta of result.textStream) write(delta);
    messages.push(...(await result.response).messages);
  };
}

await runChat({ name: 'ai-sdk-chat', session });
