// Runs examples/langgraph-chat/chat.ts --script against a loopback OpenAI-compatible server:
// within a session the thread's checkpointer carries the conversation, and session 2's system
// prompt carries both what session 1 put in the store and what Engram learned from the exchanges
// the graph committed.

import { describe, expect, it } from 'vitest';

import { runChatScript } from '../helpers/chat-example.js';
import { chatReply, said, systemOf } from '../helpers/openai-compatible-server.js';

describe('examples/langgraph-chat --script against a loopback OpenAI-compatible model', () => {
  it('remembers in session 1 and answers with it in session 2', async () => {
    const { stdout, chats, lastSystemPrompt } = await runChatScript('langgraph-chat', (_body, call) =>
      chatReply(`reply ${call}`),
    );

    expect(stdout).toContain('assistant> reply 1');
    expect(stdout).toContain('assistant> reply 3');
    expect(chats).toHaveLength(3);
    expect(chats.every((body) => body.model === 'test-model')).toBe(true);

    // The second message of session 1 goes with the thread's conversation.
    expect(said(chats[1]!)).toEqual([
      ['user', "Hi! I'm Mira. I'm allergic to peanuts and I live in Lisbon."],
      ['assistant', 'reply 1'],
      ['user', 'Remember that my favourite snack is rice crackers.'],
    ]);
    const hike = chats[2]!;
    expect(said(hike)).toEqual([['user', 'Can you suggest a snack for my hike tomorrow?']]);
    // The store's note, and the facts extraction took from the committed exchanges.
    expect(systemOf(hike)).toContain('my favourite snack is rice crackers.');
    expect(systemOf(hike)).toContain('allergic to peanuts');
    expect(systemOf(hike)).toContain('Lisbon');
    expect(lastSystemPrompt).toContain('allergic to peanuts');
  });
});
