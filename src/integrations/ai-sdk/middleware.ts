// Memory for any AI SDK model, as a language-model middleware: before a call it composes a packet
// from the conversation's last user message into the system prompt; after it (a stream when it
// ends) it commits the turn. Engram's failures are reported and the call goes on without them.

import { wrapLanguageModel, type LanguageModelMiddleware } from 'ai';

import type { CommitTurnRequest, ComposeRequest, Purpose, RenderFormat, ScopeInput } from '../../index.js';
import { composeForPrompt, memoryPort, type EngramSource } from '../memory-port.js';
import { resolveCall, type ResolvedCall } from './call-scope.js';
import { deriveTurnId, lastUserText, newInput, replyParts, streamReply, type TurnParts } from './conversation.js';
import type { CalledModel, CallParams, Prompt, ResponsePart, StreamPart } from './sdk-types.js';

/** Where a failure happened: composing before the call (with resolving its scope), or committing after it. */
export type EngramPhase = 'compose' | 'commit';

export interface EngramMiddlewareOptions {
  /** An Engram (`createEngram`) or a client of an Engram server (`createClient` from engram/client). */
  engram: EngramSource;
  /**
   * Whose memory: `user_id`, `agent_id` and `session_id` (here or per call), `run_id` (default: the
   * session id), `tenant_id` (default: the store's, or the API key's). Per call,
   * `providerOptions: { engram: { … } }` overrides any of them.
   */
  scope?: Partial<ScopeInput>;
  /** What the packet is composed for (default `responder`; per call `providerOptions.engram.purpose`). */
  purpose?: Purpose;
  /** More of the compose request: a budget, a named policy, a task type, a conversation window. */
  compose?: Pick<ComposeRequest, 'budget' | 'policy_id' | 'task_type' | 'conversation_window'>;
  /** How the packet is written into the system prompt (default `markdown`). */
  format?: RenderFormat;
  /**
   * Called when Engram fails; the model call then goes on without memory (or without its commit).
   * The default emits a process warning. To fail the call instead, throw from here: a stream then
   * ends with that error after its last part.
   */
  onError?: (error: unknown, context: { phase: EngramPhase; turn_id?: string }) => void;
}

/**
 * A middleware for `wrapLanguageModel` that gives a model Engram's memory: the packet for the
 * call's purpose in its system prompt, and every call's input and reply committed as a turn.
 *
 * @example
 * import { wrapLanguageModel } from 'ai';
 * const model = wrapLanguageModel({
 *   model: openai('gpt-4o-mini'),
 *   middleware: engramMiddleware({ engram, scope: { user_id: 'mira', agent_id: 'chat', session_id: chatId } }),
 * });
 */
export function engramMiddleware(options: EngramMiddlewareOptions): LanguageModelMiddleware {
  const memory = callMemory(options);
  return {
    specificationVersion: 'v3',
    transformParams: async ({ params }) => memory.prepare(params),
    async wrapGenerate({ doGenerate, params, model }) {
      const result = await doGenerate();
      await memory.commit(params, result.content, model);
      return result;
    },
    async wrapStream({ doStream, params, model }) {
      const result = await doStream();
      if (!memory.prepared(params)) return result;
      return { ...result, stream: committedAtEnd(result.stream, (reply) => memory.commit(params, reply, model)) };
    },
  };
}

/** Composing before a call and committing after it, with what `prepare` learned kept for `commit`. */
function callMemory(options: EngramMiddlewareOptions) {
  const { format = 'markdown', onError = warn } = options;
  const port = memoryPort(options.engram);
  const defaults = { scope: options.scope ?? {}, purpose: options.purpose ?? 'responder' };
  // What prepare resolved for a call, found again by its params in wrapGenerate/wrapStream.
  const calls = new WeakMap<CallParams, CallTurn>();
  const report = (error: unknown, phase: EngramPhase, turnId?: string) =>
    onError(error, turnId === undefined ? { phase } : { phase, turn_id: turnId });

  return {
    prepared: (params: CallParams) => calls.has(params),
    /** The call's params with the packet in its system prompt (unchanged when Engram fails). */
    async prepare(params: CallParams): Promise<CallParams> {
      let call: CallTurn;
      try {
        call = readCall(resolveCall(defaults, params), params.prompt);
      } catch (error) {
        report(error, 'compose');
        return params;
      }
      let prompt = params.prompt;
      try {
        const { text } = await composeForPrompt(port, {
          ...options.compose,
          scope: call.scope,
          purpose: call.purpose,
          query: lastUserText(params.prompt),
          format,
        });
        prompt = withMemory(params.prompt, text);
      } catch (error) {
        report(error, 'compose', call.turnId);
      }
      const transformed = { ...params, prompt };
      calls.set(transformed, call);
      return transformed;
    },
    /** Commits a prepared call's input with the model's reply as one turn. */
    async commit(params: CallParams, reply: readonly ResponsePart[], model: CalledModel): Promise<void> {
      const call = calls.get(params);
      const turn = call === undefined ? undefined : turnOf(call, replyParts(reply), model);
      if (turn === undefined) return;
      try {
        await port.commitTurn(turn);
      } catch (error) {
        report(error, 'commit', turn.turn_id);
      }
    },
  };
}

/** The stream, passed on part by part; when it ends, `commit` gets the reply before the stream closes. */
function committedAtEnd(
  stream: ReadableStream<StreamPart>,
  commit: (reply: ResponsePart[]) => Promise<void>,
): ReadableStream<StreamPart> {
  const reply = streamReply();
  return stream.pipeThrough(
    new TransformStream<StreamPart, StreamPart>({
      transform(part, controller) {
        reply.add(part);
        controller.enqueue(part);
      },
      // Closing only once the turn is committed means a caller that awaits the end of the stream
      // (or a serverless function that returns then) never loses the commit. A failed or
      // cancelled stream commits nothing.
      async flush() {
        if (!reply.failed) await commit(reply.content());
      },
    }),
  );
}

/**
 * A model with Engram's memory: `wrapLanguageModel` with `engramMiddleware(options)`.
 *
 * @example
 * const model = withEngram(openai('gpt-4o-mini'), { engram, scope: { user_id: 'mira', agent_id: 'chat', session_id: chatId } });
 * const { text } = await generateText({ model, messages });
 */
export function withEngram(model: CalledModel, options: EngramMiddlewareOptions): CalledModel {
  return wrapLanguageModel({ model, middleware: engramMiddleware(options) });
}

/** A call's scope and purpose with what its prompt adds to the conversation. */
interface CallTurn extends ResolvedCall {
  turnId: string;
  input: TurnParts;
}

function readCall(resolved: ResolvedCall, prompt: Prompt): CallTurn {
  const { tenant_id: tenant = '', user_id: user, agent_id: agent, session_id: session } = resolved.scope;
  return {
    ...resolved,
    turnId: resolved.turnId ?? deriveTurnId([tenant, user, agent, session], prompt),
    input: newInput(prompt),
  };
}

function turnOf(call: CallTurn, reply: TurnParts, model: CalledModel): CommitTurnRequest | undefined {
  const messages = [...call.input.messages, ...reply.messages];
  const toolResults = [...call.input.tool_results, ...reply.tool_results];
  if (messages.length === 0 && toolResults.length === 0) return undefined;
  return {
    scope: call.scope,
    turn_id: call.turnId,
    ...(messages.length === 0 ? {} : { messages }),
    ...(toolResults.length === 0 ? {} : { tool_results: toolResults }),
    metadata: { source: 'ai-sdk', model: `${model.provider}/${model.modelId}` },
  };
}

/** The prompt with the memory text after the app's own system prompt (or as the system prompt). */
function withMemory(prompt: Prompt, memory: string): Prompt {
  const [first, ...rest] = prompt;
  if (first?.role === 'system') return [{ ...first, content: `${first.content}\n\n${memory}` }, ...rest];
  return [{ role: 'system', content: memory }, ...prompt];
}

function warn(error: unknown, context: { phase: EngramPhase; turn_id?: string }): void {
  const message = error instanceof Error ? error.message : String(error);
  process.emitWarning(`engram/ai-sdk: ${context.phase} failed, the model call went on without it: ${message}`, {
    type: 'EngramWarning',
    code: `ENGRAM_${context.phase.toUpperCase()}_FAILED`,
  });
}
