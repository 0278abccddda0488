// The Agents SDK's own runner with an EngramSession, its model the SDK's chat completions model
// against a loopback OpenAI-compatible server that records every prompt: what the user said in
// session 1 reaches the instructions of session 2.

import { Agent, OpenAIProvider, Runner } from '@openai/agents';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import {
  chatReply,
  said,
  startOpenAiCompatibleServer,
  systemOf,
  type OpenAiCompatibleServer,
} from '../../../test/helpers/openai-compatible-server.js';
import { tempEngram, type TempEngram } from '../../../test/helpers/temp-engram.js';
import { EngramSession } from './engram-session.js';
import { memoryInstructions } from './memory-instructions.js';

describe('EngramSession in Runner.run', () => {
  let t: TempEngram;
  let server: OpenAiCompatibleServer;
  let runner: Runner;
  beforeEach(async () => {
    t = await tempEngram();
    server = await startOpenAiCompatibleServer({ chat: (_body, call) => chatReply(`answer ${call}`) });
    runner = new Runner({
      modelProvider: new OpenAIProvider({ apiKey: 'test-key', baseURL: server.baseUrl, useResponses: false }),
      tracingDisabled: true,
    });
  });
  afterEach(async () => {
    await server.close();
    await t.cleanup();
  });

  it('keeps the conversation in Engram and carries what session 1 taught into session 2', async () => {
    const first = new EngramSession({ engram: t.engram, userId: 'mira', agentId: 'assistant', sessionId: 'chat-1' });
    const agent = new Agent({ name: 'Assistant', instructions: 'You are a helpful assistant.', model: 'test-model' });
    const one = await runner.run(agent, 'I am vegetarian and I live in Porto.', { session: first });
    expect(one.finalOutput).toBe('answer 1');
    await runner.run(agent, 'What did I just tell you?', { session: first });
    // The second run of session 1 sends the history the session kept.
    expect(systemOf(server.chats()[1]!)).toBe('You are a helpful assistant.');
    expect(said(server.chats()[1]!)).toEqual([
      ['user', 'I am vegetarian and I live in Porto.'],
      ['assistant', 'answer 1'],
      ['user', 'What did I just tell you?'],
    ]);
    expect((await first.getItems()).map((item) => ('role' in item ? item.role : item.type))).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
    ]);

    const second = new EngramSession({ engram: t.engram, userId: 'mira', agentId: 'assistant', sessionId: 'chat-2' });
    const question = 'What should I cook for dinner tonight?';
    const instructions = await memoryInstructions(second, {
      instructions: 'You are a cooking assistant.',
      query: question,
    });
    const cook = new Agent({ name: 'Cook', instructions, model: 'test-model' });
    await runner.run(cook, question, { session: second });
    const memory = systemOf(server.chats()[2]!);
    expect(memory.startsWith('You are a cooking assistant.\n\n')).toBe(true);
    expect(memory).toContain('vegetarian');
    expect(memory).toContain('Porto');
    // Session 2 starts its own history: session 1's messages reach it only as memory.
    expect(said(server.chats()[2]!)).toEqual([['user', question]]);
  });
});
