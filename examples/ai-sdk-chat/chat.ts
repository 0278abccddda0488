// A terminal chat agent on the Vercel AI SDK with Engram's memory: what Engram recalls about the
// user goes into every call's system prompt, every turn is committed, and the model can search,
// remember and forget with memory tools. Run it twice: the second session knows the first.
//
//   npx tsx --tsconfig examples/ai-sdk-chat/tsconfig.json examples/ai-sdk-chat/chat.ts [--user ID] [--session ID] [--store sqlite:PATH]
//   … chat.ts --script    two sessions played for you; prints the second's system prompt
//
// The model: any OpenAI-compatible endpoint from ENGRAM_LLM_BASE_URL and ENGRAM_LLM_MODEL (with
// ENGRAM_LLM_API_KEY if it needs one); without them, an offline mock model that answers with what
// its system prompt remembers. The tsconfig maps 'engram' and 'engram/ai-sdk' to this checkout's source.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';

import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { simulateReadableStream, stepCountIs, streamText, wrapLanguageModel, type LanguageModelMiddleware, type ModelMessage } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';

import { createEngram, type Engram } from 'engram';
import { engramMiddleware, memoryTools } from 'engram/ai-sdk';

type Model = Parameters<typeof wrapLanguageModel>[0]['model'];

const SYSTEM = 'You are a friendly assistant. Keep answers short. Use what you remember about the user; call remember when they ask you to remember something.';
const AGENT = 'ai-sdk-chat';

/** The two sessions of --script: the first tells, the second asks. */
const SCRIPT = [
  ["Hi! I'm Mira. I'm allergic to peanuts and I live in Lisbon.", 'Remember that my favourite snack is rice crackers.'],
  ['Can you suggest a snack for my hike tomorrow?'],
];

/** A setting the example cannot run with: printed without a stack trace. */
class ConfigError extends Error {}

/** The configured OpenAI-compatible model, or the offline one when none is configured. */
function chatModel(env: NodeJS.ProcessEnv): Model {
  const baseURL = env['ENGRAM_LLM_BASE_URL'];
  const modelId = env['ENGRAM_LLM_MODEL'];
  if (baseURL === undefined && modelId === undefined) return offlineModel();
  if (baseURL === undefined || modelId === undefined) throw new ConfigError('Set both ENGRAM_LLM_BASE_URL and ENGRAM_LLM_MODEL, or neither for the offline model.');
  const apiKey = env['ENGRAM_LLM_API_KEY'];
  return createOpenAICompatible({ name: 'llm', baseURL, ...(apiKey === undefined ? {} : { apiKey }) }).chatModel(modelId);
}

/** The lines of the packet's long-term sections (preferences and facts), without their citation handles. */
function rememberedFacts(system: string): string[] {
  let section = '';
  const facts: string[] = [];
  for (const line of system.split('\n')) {
    if (line.startsWith('## ')) section = line.slice(3);
    else if ((section === 'Preferences' || section === 'Facts') && line.startsWith('- ')) facts.push(line.slice(2).replace(/^\[\w+\] /u, ''));
  }
  return facts;
}

/** The AI SDK's mock model, answering with the preferences and facts its system prompt holds. */
function offlineModel(): Model {
  return new MockLanguageModelV3({
    provider: 'offline',
    modelId: 'memory-echo',
    doStream: async ({ prompt }) => {
      const remembered = rememberedFacts(prompt.flatMap((message) => (message.role === 'system' ? [message.content] : [])).join('\n'));
      const text =
        remembered.length === 0
          ? '(offline model) I remember nothing about you yet. Set ENGRAM_LLM_BASE_URL and ENGRAM_LLM_MODEL to talk to a real model.'
          : `(offline model) What I remember: ${remembered.join('; ')}`;
      const usage = { inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 0, text: 0, reasoning: 0 } };
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

/** A middleware that keeps the system prompt of every call it sees (placed after Engram's). */
function recordSystemPrompts(prompts: string[]): LanguageModelMiddleware {
  return {
    specificationVersion: 'v3',
    transformParams: async ({ params }) => {
      prompts.push(params.prompt.flatMap((message) => (message.role === 'system' ? [message.content] : [])).join('\n\n'));
      return params;
    },
  };
}

/** One chat session: the conversation so far, and a reply to each new user message. */
function session(engram: Engram, model: Model, scope: { user_id: string; session_id: string }, prompts: string[]) {
  const memory = wrapLanguageModel({
    model,
    middleware: [engramMiddleware({ engram, scope: { ...scope, agent_id: AGENT } }), recordSystemPrompts(prompts)],
  });
  const tools = memoryTools({ engram, scope: { user_id: scope.user_id, agent_id: AGENT } });
  const messages: ModelMessage[] = [];
  return async function reply(text: string, write: (delta: string) => void): Promise<void> {
    messages.push({ role: 'user', content: text });
    const result = streamText({ model: memory, system: SYSTEM, messages, tools, stopWhen: stepCountIs(4) });
    for await (const delta of result.textStream) write(delta);
    messages.push(...(await result.response).messages);
  };
}

async function chat(engram: Engram, model: Model, scope: { user_id: string; session_id: string }): Promise<void> {
  const reply = session(engram, model, scope, []);
  const terminal = createInterface({ input: process.stdin, output: process.stdout });
  console.log(`Session ${scope.session_id} with ${scope.user_id}, model ${model.provider}/${model.modelId}. An empty line or Ctrl-D ends it.`);
  try {
    for (;;) {
      const text = (await terminal.question('you> ').catch(() => '')).trim();
      if (text === '') return;
      process.stdout.write('assistant> ');
      await reply(text, (delta) => process.stdout.write(delta));
      process.stdout.write('\n');
    }
  } finally {
    terminal.close();
  }
}

async function script(engram: Engram, model: Model, user: string): Promise<void> {
  const prompts: string[] = [];
  for (const [index, lines] of SCRIPT.entries()) {
    console.log(`── session ${index + 1} ──`);
    const reply = session(engram, model, { user_id: user, session_id: `script-${index + 1}` }, prompts);
    for (const line of lines) {
      console.log(`you> ${line}`);
      process.stdout.write('assistant> ');
      await reply(line, (delta) => process.stdout.write(delta));
      process.stdout.write('\n');
    }
  }
  console.log(`── the system prompt of session ${SCRIPT.length}'s last call ──\n${prompts.at(-1) ?? ''}`);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { script: { type: 'boolean', default: false }, user: { type: 'string', default: 'mira' }, session: { type: 'string' }, store: { type: 'string' } },
  });
  // A script plays on a store of its own, so every run shows the same two sessions.
  const scratch = values.script && values.store === undefined ? mkdtempSync(join(tmpdir(), 'ai-sdk-chat-')) : undefined;
  const store = values.store ?? (scratch === undefined ? 'sqlite:./.engram/ai-sdk-chat.db' : `sqlite:${join(scratch, 'engram.db')}`);
  const model = chatModel(process.env);
  const engram = await createEngram({ store });
  try {
    if (values.script) await script(engram, model, values.user);
    else await chat(engram, model, { user_id: values.user, session_id: values.session ?? `chat-${new Date().toISOString()}` });
  } finally {
    await engram.close();
    if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
  }
}

await main().catch((error: unknown) => {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exitCode = 2;
});
