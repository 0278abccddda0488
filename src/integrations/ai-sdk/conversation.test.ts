import { describe, expect, it } from 'vitest';

import { deriveTurnId, lastUserText, newInput, replyParts } from './conversation.js';
import type { Prompt } from './sdk-types.js';

const session = ['default', 'mira', 'chef', 's1'];
const user = (text: string): Prompt[number] => ({ role: 'user', content: [{ type: 'text', text }] });

const toolLoop: Prompt = [
  { role: 'system', content: 'You are a cook.' },
  user('What can I cook tonight?'),
  {
    role: 'assistant',
    content: [
      { type: 'tool-call', toolCallId: 'c1', toolName: 'pantry', input: {} },
      { type: 'tool-call', toolCallId: 'c2', toolName: 'recipes', input: {} },
    ],
  },
  {
    role: 'tool',
    content: [
      { type: 'tool-result', toolCallId: 'c1', toolName: 'pantry', output: { type: 'json', value: ['rice', 'eggs'] } },
      {
        type: 'tool-result',
        toolCallId: 'c2',
        toolName: 'recipes',
        output: { type: 'execution-denied', reason: 'not approved' },
      },
      {
        type: 'tool-result',
        toolCallId: 'c3',
        toolName: 'photo',
        output: {
          type: 'content',
          value: [
            { type: 'text', text: 'a fridge' },
            { type: 'image-url', url: 'https://example.test/f.png' },
          ],
        },
      },
    ],
  },
];

describe('reading a call', () => {
  it('takes the last user message as the query, text parts only', () => {
    expect(lastUserText(toolLoop)).toBe('What can I cook tonight?');
    expect(
      lastUserText([{ role: 'user', content: [{ type: 'file', data: 'aGk=', mediaType: 'image/png' }] }]),
    ).toBeUndefined();
  });

  it('commits what came after the last assistant message: tool results with their status', () => {
    expect(newInput(toolLoop)).toEqual({
      messages: [],
      tool_results: [
        { tool_name: 'pantry', call_id: 'c1', content: { value: ['rice', 'eggs'] }, status: 'ok' },
        { tool_name: 'recipes', call_id: 'c2', content: 'execution denied: not approved', status: 'error' },
        {
          tool_name: 'photo',
          call_id: 'c3',
          content: 'a fridge\n[image-url: https://example.test/f.png]',
          status: 'ok',
        },
      ],
    });
    expect(newInput([user('Hi'), user('Are you there?')]).messages).toEqual([
      { role: 'user', content: 'Hi' },
      { role: 'user', content: 'Are you there?' },
    ]);
  });

  it('keeps the reply text as one message and each tool call as a command; reasoning is left out', () => {
    expect(
      replyParts([
        { type: 'reasoning', text: 'They want dinner.' },
        { type: 'text', text: 'Let me check ' },
        { type: 'text', text: 'the pantry.' },
        { type: 'tool-call', toolCallId: 'c1', toolName: 'pantry', input: '{}' },
        { type: 'tool-result', toolCallId: 's1', toolName: 'web_search', result: ['omelette'], isError: false },
      ]),
    ).toEqual({
      messages: [
        { role: 'assistant', content: 'Let me check the pantry.' },
        { role: 'assistant', content_type: 'command', content: 'pantry({})', metadata: { call_id: 'c1' } },
      ],
      tool_results: [{ tool_name: 'web_search', call_id: 's1', content: { value: ['omelette'] }, status: 'ok' }],
    });
  });

  it('derives the same turn id for the same conversation, whatever the system prompt and provider options', () => {
    const id = deriveTurnId(session, toolLoop);
    expect(id).toMatch(/^ai-sdk:3:[0-9a-f]{32}$/u);
    const resent: Prompt = [
      { role: 'system', content: 'Another system prompt, with memory.' },
      ...toolLoop
        .slice(1)
        .map((message) => ({ ...message, providerOptions: { anthropic: { cacheControl: { type: 'ephemeral' } } } })),
    ];
    expect(deriveTurnId(session, resent)).toBe(id);
    expect(deriveTurnId(['default', 'mira', 'chef', 's2'], toolLoop)).not.toBe(id);
    expect(deriveTurnId(session, [...toolLoop, user('And tomorrow?')])).not.toBe(id);
    const withFile = (data: Uint8Array): Prompt => [
      { role: 'user', content: [{ type: 'file', data, mediaType: 'image/png' }] },
    ];
    expect(deriveTurnId(session, withFile(new Uint8Array([1, 2])))).not.toBe(
      deriveTurnId(session, withFile(new Uint8Array([1, 3]))),
    );
  });
});
