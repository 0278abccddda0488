// What one model call adds to a conversation, read from its prompt and its response: the input
// since the model last spoke (user messages, tool results), the reply (text and tool calls), the
// query compose searches with, and a turn id that the same call, sent again, derives again.

import { createHash } from 'node:crypto';

import type { TurnMessage, TurnToolResult } from '../../index.js';
import type { Prompt, PromptMessage, ResponsePart, StreamPart, ToolOutput } from './sdk-types.js';

/** Messages and tool results, as a commit takes them. */
export interface TurnParts {
  messages: TurnMessage[];
  tool_results: TurnToolResult[];
}

/**
 * The text of the prompt's last user message (its text parts); undefined when the prompt has no
 * user text. Compose cuts it to the length it reads.
 *
 * @example
 * lastUserText([{ role: 'user', content: [{ type: 'text', text: 'Any snack ideas?' }] }]) // 'Any snack ideas?'
 */
export function lastUserText(prompt: Prompt): string | undefined {
  const message = prompt.findLast((entry) => entry.role === 'user');
  const text = message === undefined ? '' : userText(message);
  return text === '' ? undefined : text;
}

/**
 * What the prompt holds after its last assistant message: the user's new messages and the results
 * of the tools the model called. Earlier messages were the input or reply of earlier calls.
 *
 * @example
 * newInput(prompt).messages // [{ role: 'user', content: "I'm allergic to peanuts" }]
 */
export function newInput(prompt: Prompt): TurnParts {
  const parts: TurnParts = { messages: [], tool_results: [] };
  for (const message of prompt.slice(prompt.findLastIndex((entry) => entry.role === 'assistant') + 1)) {
    if (message.role === 'user') {
      const text = userText(message);
      if (text !== '') parts.messages.push({ role: 'user', content: text });
    } else if (message.role === 'tool') {
      for (const part of message.content) {
        if (part.type === 'tool-result')
          parts.tool_results.push({ tool_name: part.toolName, call_id: part.toolCallId, ...outputOf(part.output) });
      }
    }
  }
  return parts;
}

/**
 * The model's response as the log keeps it: its text as one assistant message, each tool call as
 * an assistant command `name(input)` (the input as the model wrote it, the call id in its
 * metadata), and results of provider-run tools. Reasoning is not kept.
 *
 * @example
 * replyParts([{ type: 'text', text: 'Noted.' }]).messages // [{ role: 'assistant', content: 'Noted.' }]
 */
export function replyParts(content: readonly ResponsePart[]): TurnParts {
  const text = content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
  const parts: TurnParts = {
    messages: text.trim() === '' ? [] : [{ role: 'assistant', content: text }],
    tool_results: [],
  };
  for (const part of content) {
    if (part.type === 'tool-call') {
      parts.messages.push({
        role: 'assistant',
        content_type: 'command',
        content: `${part.toolName}(${part.input})`,
        metadata: { call_id: part.toolCallId },
      });
    } else if (part.type === 'tool-result') {
      parts.tool_results.push({
        tool_name: part.toolName,
        call_id: part.toolCallId,
        content: recordOrText(part.result),
        status: part.isError === true ? 'error' : 'ok',
      });
    }
  }
  return parts;
}

/**
 * A turn id for a call: the number of conversation messages in its prompt and a digest of them
 * with the session they belong to. System messages (where memory goes) and provider options are
 * left out, so the same call sent again, by a retry, derives the same id and commits nothing new.
 *
 * @example
 * deriveTurnId(['default', 'mira', 'chat', 's1'], prompt) // 'ai-sdk:3:5d41402abc4b2a76b9719d911017c592'
 */
export function deriveTurnId(session: readonly string[], prompt: Prompt): string {
  const conversation = prompt.filter((message) => message.role !== 'system');
  const digest = createHash('sha256')
    .update(JSON.stringify([session, conversation], identityOnly))
    .digest('hex');
  return `ai-sdk:${conversation.length}:${digest.slice(0, 32)}`;
}

/**
 * Collects a streamed response into the parts a generate call returns: text deltas joined per
 * text block, tool calls and tool results as they come. `failed` is true once an error part came.
 *
 * @example
 * const reply = streamReply(); reply.add({ type: 'text-delta', id: 't', delta: 'Hi' }); reply.content() // [{ type: 'text', text: 'Hi' }]
 */
export function streamReply(): { add(part: StreamPart): void; readonly failed: boolean; content(): ResponsePart[] } {
  const content: ResponsePart[] = [];
  const texts = new Map<string, { type: 'text'; text: string }>();
  let failed = false;
  return {
    add(part) {
      if (part.type === 'text-delta') {
        let text = texts.get(part.id);
        if (text === undefined) {
          text = { type: 'text', text: '' };
          texts.set(part.id, text);
          content.push(text);
        }
        text.text += part.delta;
      } else if (part.type === 'tool-call' || part.type === 'tool-result') {
        content.push(part);
      } else if (part.type === 'error') {
        failed = true;
      }
    },
    get failed() {
      return failed;
    },
    content: () => content,
  };
}

function userText(message: PromptMessage): string {
  if (message.role !== 'user') return '';
  return message.content
    .flatMap((part) => (part.type === 'text' ? [part.text] : []))
    .join('\n')
    .trim();
}

/** A tool output as a tool result's content and status. */
function outputOf(output: ToolOutput): Pick<TurnToolResult, 'content' | 'status'> {
  switch (output.type) {
    case 'text':
      return { content: output.value, status: 'ok' };
    case 'json':
      return { content: recordOrText(output.value), status: 'ok' };
    case 'error-text':
      return { content: output.value, status: 'error' };
    case 'error-json':
      return { content: recordOrText(output.value), status: 'error' };
    case 'execution-denied':
      return {
        content: output.reason === undefined ? 'execution denied' : `execution denied: ${output.reason}`,
        status: 'error',
      };
    case 'content':
      return {
        content: output.value
          .map((part) => (part.type === 'text' ? part.text : `[${part.type}${'url' in part ? `: ${part.url}` : ''}]`))
          .join('\n'),
        status: 'ok',
      };
  }
}

/** A log record's content is a string or an object: other JSON values go under `value`. */
function recordOrText(value: unknown): string | Record<string, unknown> {
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  return { value };
}

// What identifies a message for its turn id: provider options (cache hints and the like) may
// differ between two sends of the same call; file bytes count by their base64 text.
function identityOnly(key: string, value: unknown): unknown {
  if (key === 'providerOptions') return undefined;
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  return value;
}
