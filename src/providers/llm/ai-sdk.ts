// Adapts any Vercel AI SDK language model (ai@6: LanguageModelV3, or V2) to Engram's StructuredModel
// through the SDK's own `generateObject`. The SDK is an optional dependency: it is loaded on first
// use, and a missing package is a CONFIG_INVALID error that says what to install.

import { EngramError } from '../../spec/errors.js';
import type { StructuredModel } from '../../spec/providers.js';

// Type-only: erased at run time, and kept out of the exported signatures so that users without the
// SDK installed can still compile against Engram.
import type * as AiSdk from 'ai';
import type { JSONSchema7, LanguageModel } from 'ai';

/** What Engram needs to see of an AI SDK model object; any `LanguageModelV3` or `V2` fits. */
export interface AiSdkLanguageModel {
  readonly specificationVersion: string;
  readonly provider: string;
  readonly modelId: string;
  doGenerate(options: never): PromiseLike<unknown>;
}

/** What Engram cannot learn from an SDK model object. */
export interface AiSdkModelOptions {
  /**
   * True when prompts leave this machine. Engram cannot tell from an SDK model where it runs, so
   * the default is true, the safe side: private events are then not sent unless allowed.
   */
  remote?: boolean;
  /** Retries of failed API calls inside the SDK (its default is 2). Bad output is retried by `generateStructured`. */
  maxRetries?: number;
}

type AiModule = typeof AiSdk;
type GenerateInput = Parameters<StructuredModel['doGenerateObject']>[0];
type GenerateOutput = Awaited<ReturnType<StructuredModel['doGenerateObject']>>;

/**
 * A StructuredModel that calls an AI SDK model through `generateObject` with `jsonSchema(schema)`.
 *
 * @example
 * import { openai } from '@ai-sdk/openai';
 * const model = fromAiSdkModel(openai('gpt-4o-mini'));
 * const { object } = await model.doGenerateObject({ system, prompt, schema, schemaName: 'items' });
 */
export function fromAiSdkModel(model: AiSdkLanguageModel, options: AiSdkModelOptions = {}): StructuredModel {
  let loading: Promise<AiModule> | undefined;
  return {
    specificationVersion: 'v1',
    provider: `ai-sdk:${model.provider}`,
    modelId: model.modelId,
    remote: options.remote ?? true,
    async doGenerateObject(input: GenerateInput): Promise<GenerateOutput> {
      loading ??= loadAiSdk();
      const ai = await loading.catch((error: unknown) => {
        loading = undefined;
        throw error;
      });
      try {
        const result = await ai.generateObject({
          // The structural type above is what Engram reads; the SDK checks the rest at run time.
          model: model as unknown as LanguageModel,
          schema: ai.jsonSchema(input.schema as JSONSchema7),
          schemaName: input.schemaName,
          system: input.system,
          prompt: input.prompt,
          ...(input.signal === undefined ? {} : { abortSignal: input.signal }),
          ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
        });
        return { object: result.object, raw: JSON.stringify(result.object), usage: usageOf(result.usage) };
      } catch (error) {
        // Output that is not JSON is the wrapper's to retry, not a fault.
        if (ai.NoObjectGeneratedError.isInstance(error))
          return { object: undefined, raw: error.text ?? '', usage: usageOf(error.usage) };
        throw toEngramError(ai, error, model);
      }
    },
  };
}

async function loadAiSdk(): Promise<AiModule> {
  try {
    return await import('ai');
  } catch (cause) {
    throw new EngramError(
      'CONFIG_INVALID',
      'llm: the Vercel AI SDK is not installed; run `npm install ai` to use fromAiSdkModel',
      {
        field: 'llm',
        cause,
      },
    );
  }
}

function usageOf(
  usage: { inputTokens?: number | undefined; outputTokens?: number | undefined } | undefined,
): GenerateOutput['usage'] {
  if (usage === undefined) return undefined;
  return { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens };
}

function toEngramError(ai: AiModule, error: unknown, model: AiSdkLanguageModel): EngramError {
  if (EngramError.isInstance(error)) return error;
  const where = `llm: ${model.provider}/${model.modelId}`;
  // After the SDK's own retries, the last API error is wrapped in a RetryError.
  const apiError = ai.RetryError.isInstance(error) ? error.lastError : error;
  if (ai.APICallError.isInstance(apiError)) {
    const status = apiError.statusCode;
    const code = status === 401 || status === 403 || status === 404 ? 'CONFIG_INVALID' : 'INTERNAL';
    return new EngramError(code, `${where} answered HTTP ${status ?? 'error'}: ${apiError.message}`, {
      field: 'llm',
      cause: error,
      details: { status, provider_message: apiError.message },
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new EngramError('INTERNAL', `${where} failed: ${message}`, { field: 'llm', cause: error });
}
