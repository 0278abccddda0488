// The AI SDK's language-model types this integration reads, taken from the `ai` package's own
// middleware type (ai 6: LanguageModelV3), so the integration needs no other package of the SDK.

import type { LanguageModelMiddleware } from 'ai';

type TransformParams = NonNullable<LanguageModelMiddleware['transformParams']>;
type WrapGenerate = NonNullable<LanguageModelMiddleware['wrapGenerate']>;
type WrapStream = NonNullable<LanguageModelMiddleware['wrapStream']>;

/** The options of one model call (LanguageModelV3CallOptions). */
export type CallParams = Parameters<TransformParams>[0]['params'];
/** The model being called. */
export type CalledModel = Parameters<TransformParams>[0]['model'];
/** The prompt of a call: system, user, assistant and tool messages. */
export type Prompt = CallParams['prompt'];
export type PromptMessage = Prompt[number];
/** What a generate call returns. */
export type GenerateResult = Awaited<ReturnType<WrapGenerate>>;
/** One part of a generated response: text, reasoning, a tool call, a tool result, … */
export type ResponsePart = GenerateResult['content'][number];
/** What a stream call returns. */
export type StreamResult = Awaited<ReturnType<WrapStream>>;
/** One part of a streamed response. */
export type StreamPart = StreamResult['stream'] extends ReadableStream<infer Part> ? Part : never;
/** A tool result's output as the prompt carries it. */
export type ToolOutput = Extract<
  Extract<PromptMessage, { role: 'tool' }>['content'][number],
  { type: 'tool-result' }
>['output'];
