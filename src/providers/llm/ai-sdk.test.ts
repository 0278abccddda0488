import { APICallError } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { EngramError } from '../../spec/errors.js';
import { fromAiSdkModel } from './ai-sdk.js';
import { generateStructured } from './generate-structured.js';

type GenerateResult = Extract<
  NonNullable<ConstructorParameters<typeof MockLanguageModelV3>[0]>['doGenerate'],
  { content: unknown }
>;

const schema = {
  type: 'object',
  properties: { name: { type: 'string' } },
  required: ['name'],
  additionalProperties: false,
};
const input = { system: 'Answer in JSON.', prompt: 'Name the project.', schema, schemaName: 'project' };

function textResult(text: string): GenerateResult {
  return {
    content: [{ type: 'text', text }],
    finishReason: { unified: 'stop', raw: 'stop' },
    usage: {
      inputTokens: { total: 12, noCache: 12, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: 4, text: 4, reasoning: undefined },
    },
    warnings: [],
  };
}

async function failureOf(run: () => Promise<unknown>): Promise<EngramError> {
  try {
    await run();
  } catch (error) {
    expect(EngramError.isInstance(error)).toBe(true);
    return error as EngramError;
  }
  throw new Error('expected an EngramError');
}

afterEach(() => {
  vi.doUnmock('ai');
  vi.resetModules();
});

describe('fromAiSdkModel', () => {
  it("goes through the SDK's generateObject with the JSON Schema as the response format", async () => {
    const mock = new MockLanguageModelV3({
      provider: 'mock-provider',
      modelId: 'mock-1',
      doGenerate: textResult('{"name": "atlas"}'),
    });
    const model = fromAiSdkModel(mock);
    expect(model).toMatchObject({
      specificationVersion: 'v1',
      provider: 'ai-sdk:mock-provider',
      modelId: 'mock-1',
      remote: true,
    });
    const answer = await model.doGenerateObject(input);
    expect(answer).toEqual({
      object: { name: 'atlas' },
      raw: '{"name":"atlas"}',
      usage: { inputTokens: 12, outputTokens: 4 },
    });
    const call = mock.doGenerateCalls[0]!;
    expect(call.responseFormat).toEqual({ type: 'json', schema, name: 'project' });
    expect(call.prompt[0]).toEqual({ role: 'system', content: input.system });
    expect(JSON.stringify(call.prompt[1])).toContain(input.prompt);
  });

  it('returns text that is not JSON as object undefined with the raw text, so the wrapper retries', async () => {
    const mock = new MockLanguageModelV3({
      doGenerate: [textResult('The project is Atlas.'), textResult('{"name": "atlas"}')],
    });
    const model = fromAiSdkModel(mock, { remote: false });
    expect(model.remote).toBe(false);
    expect(await model.doGenerateObject(input)).toMatchObject({ object: undefined, raw: 'The project is Atlas.' });
    const validate = (value: unknown) =>
      typeof value === 'object' && value !== null ? [] : [{ field: '', rule: 'type', message: 'must be an object' }];
    const again = new MockLanguageModelV3({
      doGenerate: [textResult('The project is Atlas.'), textResult('{"name": "atlas"}')],
    });
    expect(await generateStructured(fromAiSdkModel(again), { ...input, validate })).toEqual({
      ok: true,
      object: { name: 'atlas' },
      attempts: 2,
    });
    expect(again.doGenerateCalls).toHaveLength(2);
  });

  it('maps API errors: 401 to CONFIG_INVALID, 500 to INTERNAL, with the status', async () => {
    const failing = (statusCode: number) =>
      new MockLanguageModelV3({
        doGenerate: () => {
          throw new APICallError({
            message: `HTTP ${statusCode} from provider`,
            url: 'https://llm.example/v1',
            requestBodyValues: {},
            statusCode,
            isRetryable: statusCode >= 500,
          });
        },
      });
    const unauthorized = await failureOf(() => fromAiSdkModel(failing(401)).doGenerateObject(input));
    expect(unauthorized).toMatchObject({ code: 'CONFIG_INVALID', field: 'llm' });
    expect(unauthorized.details['status']).toBe(401);
    const unavailable = await failureOf(() => fromAiSdkModel(failing(500), { maxRetries: 0 }).doGenerateObject(input));
    expect(unavailable).toMatchObject({ code: 'INTERNAL', field: 'llm' });
    expect(unavailable.message).toContain('500');
  });

  it("says to install the SDK when 'ai' cannot be loaded", async () => {
    vi.resetModules();
    vi.doMock('ai', () => {
      throw Object.assign(new Error("Cannot find package 'ai'"), { code: 'ERR_MODULE_NOT_FOUND' });
    });
    const { fromAiSdkModel: fresh } = await import('./ai-sdk.js');
    const error = await failureOf(() => fresh(new MockLanguageModelV3()).doGenerateObject(input));
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain('npm install ai');
  });
});
