// Runs examples/ai-sdk-chat/chat.ts --script as a user would (tsx), its model a loopback
// OpenAI-compatible server that streams: session 2's system prompt must carry what session 1 told,
// including what the model wrote with the remember tool.

import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { chatReply, startOpenAiCompatibleServer, toolCallsReply, type ChatRequest, type OpenAiCompatibleServer } from '../helpers/openai-compatible-server.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));

/** A model that answers the script: a tool call when asked to remember, a reply otherwise. */
function answer(body: ChatRequest) {
  const last = body.messages.at(-1)!;
  if (last.role === 'tool') return chatReply('Saved: rice crackers.');
  if (last.content.startsWith('Remember that')) {
    return toolCallsReply([{ id: 'call-1', name: 'remember', arguments: { type: 'preferences', key: 'pref:food:snack', value: { scope: 'food', name: 'snack', value: 'rice crackers' } } }]);
  }
  if (last.content.includes('hike')) return chatReply('Rice crackers travel well, and none of them hold peanuts.');
  return chatReply('Nice to meet you, Mira. No peanuts, noted.');
}

const systemOf = (body: ChatRequest) => body.messages.filter((message) => message.role === 'system').map((message) => message.content).join('\n');

describe('examples/ai-sdk-chat --script against a loopback OpenAI-compatible model', () => {
  let server: OpenAiCompatibleServer;
  beforeAll(async () => {
    server = await startOpenAiCompatibleServer({ chat: answer });
  });
  afterAll(() => server.close());

  it('streams both sessions, and what session 1 told reaches the system prompt of session 2', async () => {
    const env = { ...process.env, ENGRAM_LLM_BASE_URL: server.baseUrl, ENGRAM_LLM_MODEL: 'test-model', ENGRAM_LLM_API_KEY: 'test-key' };
    const tsx = join(root, 'node_modules', '.bin', 'tsx');
    const { stdout } = await run(tsx, ['--tsconfig', 'examples/ai-sdk-chat/tsconfig.json', 'examples/ai-sdk-chat/chat.ts', '--script'], { cwd: root, env, timeout: 60_000 });

    expect(stdout).toContain('assistant> Nice to meet you, Mira. No peanuts, noted.');
    expect(stdout).toContain('assistant> Saved: rice crackers.');
    expect(stdout).toContain('assistant> Rice crackers travel well, and none of them hold peanuts.');
    const chats = server.requests.filter((request) => request.path === '/v1/chat/completions').map((request) => request.body as ChatRequest);
    expect(chats.every((body) => body.stream === true && body.tools?.map((entry) => entry.function.name).join() === 'searchMemory,remember,forget')).toBe(true);
    expect(chats).toHaveLength(4);

    const hike = chats.at(-1)!;
    expect(hike.messages.filter((message) => message.role === 'user').map((message) => message.content)).toEqual(['Can you suggest a snack for my hike tomorrow?']);
    expect(systemOf(hike)).toContain('allergic to peanuts');
    expect(systemOf(hike)).toContain('pref:food:snack');
    expect(stdout.slice(stdout.indexOf("── the system prompt of session 2's last call ──"))).toContain('allergic to peanuts');
  });
});
