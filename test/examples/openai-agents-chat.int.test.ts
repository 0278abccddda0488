// Runs examples/openai-agents-chat/chat.ts --script, its model the Agents SDK's Chat Completions
// model against a loopback OpenAI-compatible server that streams: session 1's history comes back
// from Engram within the session, and what session 1 told reaches the instructions of session 2,
// whose own history starts empty.

import { describe, expect, it } from 'vitest';

import { runChatScript } from '../helpers/chat-example.js';
import { chatReply, said, systemOf, textOf, type ChatRequest } from '../helpers/openai-compatible-server.js';

function answer(body: ChatRequest) {
  const last = textOf(body.messages.at(-1)!);
  if (last.startsWith('Remember that')) return chatReply('Rice crackers, noted.');
  if (last.includes('hike')) return chatReply('Rice crackers travel well, and none of them hold peanuts.');
  return chatReply('Nice to meet you, Mira. No peanuts, noted.');
}

describe('examples/openai-agents-chat --script against a loopback OpenAI-compatible model', () => {
  it('streams both sessions, keeps each history in Engram, and carries session 1 into the instructions of session 2', async () => {
    const { stdout, chats, lastSystemPrompt } = await runChatScript('openai-agents-chat', answer);

    expect(stdout).toContain('assistant> Nice to meet you, Mira. No peanuts, noted.');
    expect(stdout).toContain('assistant> Rice crackers, noted.');
    expect(stdout).toContain('assistant> Rice crackers travel well, and none of them hold peanuts.');
    expect(chats).toHaveLength(3);
    expect(chats.every((body) => body.stream === true && body.model === 'test-model')).toBe(true);

    // Session 1's second message goes with the history its EngramSession read back from Engram.
    expect(said(chats[1]!)).toEqual([
      ['user', "Hi! I'm Mira. I'm allergic to peanuts and I live in Lisbon."],
      ['assistant', 'Nice to meet you, Mira. No peanuts, noted.'],
      ['user', 'Remember that my favourite snack is rice crackers.'],
    ]);
    // Session 2 starts its own history; session 1 reaches it as memory in the instructions.
    const hike = chats[2]!;
    expect(said(hike)).toEqual([['user', 'Can you suggest a snack for my hike tomorrow?']]);
    const instructions = systemOf(hike);
    expect(instructions.startsWith('You are a friendly assistant.')).toBe(true);
    for (const fact of ['allergic to peanuts', 'Lisbon', 'rice crackers']) expect(instructions).toContain(fact);
    expect(lastSystemPrompt).toContain('allergic to peanuts');
  });
});
