// Runs examples/ai-sdk-chat/chat.ts --script against a loopback OpenAI-compatible server that
// streams: session 2's system prompt must carry what session 1 told, including what the model
// wrote with the remember tool.

import { describe, expect, it } from 'vitest';

import { runChatScript } from '../helpers/chat-example.js';
import { chatReply, said, systemOf, toolCallsReply, type ChatRequest } from '../helpers/openai-compatible-server.js';

/** A model that answers the script: a tool call when asked to remember, a reply otherwise. */
function answer(body: ChatRequest) {
  const last = body.messages.at(-1)!;
  if (last.role === 'tool') return chatReply('Saved: rice crackers.');
  if (last.content.startsWith('Remember that')) {
    return toolCallsReply([
      {
        id: 'call-1',
        name: 'remember',
        arguments: {
          type: 'preferences',
          key: 'pref:food:snack',
          value: { scope: 'food', name: 'snack', value: 'rice crackers' },
        },
      },
    ]);
  }
  if (last.content.includes('hike')) return chatReply('Rice crackers travel well, and none of them hold peanuts.');
  return chatReply('Nice to meet you, Mira. No peanuts, noted.');
}

describe('examples/ai-sdk-chat --script against a loopback OpenAI-compatible model', () => {
  it('streams both sessions, and what session 1 told reaches the system prompt of session 2', async () => {
    const { stdout, chats, lastSystemPrompt } = await runChatScript('ai-sdk-chat', answer);

    expect(stdout).toContain('assistant> Nice to meet you, Mira. No peanuts, noted.');
    expect(stdout).toContain('assistant> Saved: rice crackers.');
    expect(stdout).toContain('assistant> Rice crackers travel well, and none of them hold peanuts.');
    expect(
      chats.every(
        (body) =>
          body.stream === true &&
          body.tools?.map((entry) => entry.function.name).join() === 'searchMemory,remember,forget',
      ),
    ).toBe(true);
    expect(chats).toHaveLength(4);

    const hike = chats.at(-1)!;
    expect(said(hike)).toEqual([['user', 'Can you suggest a snack for my hike tomorrow?']]);
    expect(systemOf(hike)).toContain('allergic to peanuts');
    expect(systemOf(hike)).toContain('pref:food:snack');
    expect(lastSystemPrompt).toContain('allergic to peanuts');
  });
});
