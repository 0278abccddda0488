// Runs a chat example of examples/ as a user would (tsx, the example's tsconfig): with --script
// against a loopback OpenAI-compatible server, gathering what it printed and what it sent, or
// offline with lines typed on its standard input.

import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import {
  startOpenAiCompatibleServer,
  type ChatRequest,
  type OpenAiCompatibleServerOptions,
} from './openai-compatible-server.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The chat example's output; it fails (rejects) when the example exits with an error. */
async function runExample(name: string, args: string[], env: NodeJS.ProcessEnv, input = ''): Promise<string> {
  const running = promisify(execFile)(
    join(root, 'node_modules', '.bin', 'tsx'),
    ['--tsconfig', `examples/${name}/tsconfig.json`, `examples/${name}/chat.ts`, ...args],
    {
      cwd: root,
      env,
      timeout: 60_000,
    },
  );
  running.child.stdin?.end(input);
  return (await running).stdout;
}

export interface ScriptRun {
  stdout: string;
  /** The chat completion requests of the run, in order. */
  chats: ChatRequest[];
  /** What the script printed as the system prompt of session 2's last call. */
  lastSystemPrompt: string;
}

/**
 * Runs `examples/<name>/chat.ts --script` against a loopback server answering with `chat`: ENGRAM_LLM_*
 * name the server, model `test-model` and a key the server requires.
 *
 * @example
 * const { chats, lastSystemPrompt } = await runChatScript('ai-sdk-chat', (_body, call) => chatReply(`reply ${call}`));
 */
export async function runChatScript(
  name: string,
  chat: NonNullable<OpenAiCompatibleServerOptions['chat']>,
): Promise<ScriptRun> {
  const server = await startOpenAiCompatibleServer({ chat, apiKey: 'test-key' });
  try {
    const env = {
      ...process.env,
      ENGRAM_LLM_BASE_URL: server.baseUrl,
      ENGRAM_LLM_MODEL: 'test-model',
      ENGRAM_LLM_API_KEY: 'test-key',
    };
    const stdout = await runExample(name, ['--script'], env);
    const marker = "── the system prompt of session 2's last call ──\n";
    return {
      stdout,
      chats: server.chats(),
      lastSystemPrompt: stdout.includes(marker) ? stdout.slice(stdout.indexOf(marker) + marker.length) : '',
    };
  } finally {
    await server.close();
  }
}

/**
 * Chats one session with `examples/<name>/chat.ts` offline (no ENGRAM_LLM_* set), typing `lines`
 * and then ending the input, on the store given.
 *
 * @example
 * const stdout = await chatOffline('openai-agents-chat', `sqlite:${path}`, ['I live in Porto.']);
 */
export async function chatOffline(name: string, store: string, lines: string[]): Promise<string> {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([variable]) => !variable.startsWith('ENGRAM_LLM_')),
  );
  return runExample(name, ['--store', store, '--user', 'mira'], env, lines.map((line) => `${line}\n`).join(''));
}
