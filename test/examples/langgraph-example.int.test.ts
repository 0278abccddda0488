// Runs examples/langgraph/graph.ts as a user would (tsx), its model a loopback OpenAI-compatible
// server: the second thread's system prompt must carry what the first thread stored.

import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { afterEach, describe, expect, it } from 'vitest';

import { chatReply, startOpenAiCompatibleServer, type OpenAiCompatibleServer } from '../helpers/openai-compatible-server.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
let server: OpenAiCompatibleServer | undefined;

afterEach(async () => {
  await server?.close();
});

describe('examples/langgraph', () => {
  it('remembers in one thread and answers with it in the next', async () => {
    server = await startOpenAiCompatibleServer({ chat: (_body, call) => chatReply(`reply ${call}`) });
    const { stdout } = await promisify(execFile)(
      join(root, 'node_modules', '.bin', 'tsx'),
      ['--tsconfig', 'examples/langgraph/tsconfig.json', 'examples/langgraph/graph.ts'],
      { cwd: root, env: { ...process.env, OPENAI_BASE_URL: server.baseUrl, OPENAI_API_KEY: 'test-key', ENGRAM_STORE: 'sqlite::memory:' }, timeout: 60_000 },
    );
    expect(stdout).toContain('[thread-2] assistant: reply 2');
    const chats = server.requests.filter((request) => request.path === '/v1/chat/completions');
    expect(chats).toHaveLength(2);
    const [, second] = chats.map((request) => (request.body as { messages: Array<{ role: string; content: string }> }).messages);
    expect(second![0]!.role).toBe('system');
    expect(second![0]!.content).toContain('I am vegetarian and allergic to peanuts.');
    expect(second![1]!.content).toBe('Suggest a dinner recipe with peanuts or tofu for tonight.');
  });
});
