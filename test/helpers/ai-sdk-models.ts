// Results for the AI SDK's own mock language model (MockLanguageModelV3 from ai/test): a generated
// response or a simulated stream of one, a tool call, and the system prompt a call was given.

import { simulateReadableStream } from 'ai';

import type {
  CallParams,
  GenerateResult,
  ResponsePart,
  StreamPart,
  StreamResult,
} from '../../src/integrations/ai-sdk/sdk-types.js';

const usage = {
  inputTokens: { total: 20, noCache: 20, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 8, text: 8, reasoning: undefined },
};

/**
 * A generate result with this content; it finishes with tool-calls when the content calls a tool.
 *
 * @example
 * new MockLanguageModelV3({ doGenerate: generated([{ type: 'text', text: 'Noted.' }]) })
 */
export function generated(content: ResponsePart[]): GenerateResult {
  const calls = content.some((part) => part.type === 'tool-call');
  return {
    content,
    finishReason: { unified: calls ? 'tool-calls' : 'stop', raw: calls ? 'tool_calls' : 'stop' },
    usage,
    warnings: [],
  };
}

/**
 * A stream result: the text in word-sized deltas, then the tool calls, then the finish part.
 *
 * @example
 * new MockLanguageModelV3({ doStream: streamed('Sure thing.') })
 */
export function streamed(
  text: string,
  toolCalls: Array<Extract<ResponsePart, { type: 'tool-call' }>> = [],
): StreamResult {
  const deltas: StreamPart[] =
    text === ''
      ? []
      : [
          { type: 'text-start', id: 'text-1' },
          ...text.split(/(?<= )/u).map((delta): StreamPart => ({ type: 'text-delta', id: 'text-1', delta })),
          { type: 'text-end', id: 'text-1' },
        ];
  const finish: StreamPart = {
    type: 'finish',
    finishReason: { unified: toolCalls.length > 0 ? 'tool-calls' : 'stop', raw: undefined },
    usage,
  };
  return {
    stream: simulateReadableStream<StreamPart>({
      chunks: [{ type: 'stream-start', warnings: [] }, ...deltas, ...toolCalls, finish],
      chunkDelayInMs: 1,
    }),
  };
}

/**
 * A tool call part with its input as the JSON text a model writes.
 *
 * @example
 * toolCall('call-1', 'weather', { city: 'Lisbon' })
 */
export function toolCall(
  toolCallId: string,
  toolName: string,
  input: Record<string, unknown>,
): Extract<ResponsePart, { type: 'tool-call' }> {
  return { type: 'tool-call', toolCallId, toolName, input: JSON.stringify(input) };
}

/**
 * The system prompt a recorded call was given (its system messages, joined).
 *
 * @example
 * systemPromptOf(model.doGenerateCalls[1]!) // 'You are a cook.\n\n# Memory for the responder …'
 */
export function systemPromptOf(call: CallParams): string {
  return call.prompt.flatMap((message) => (message.role === 'system' ? [message.content] : [])).join('\n\n');
}
