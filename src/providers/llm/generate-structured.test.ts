import { describe, expect, it } from 'vitest';

import { EngramError, type ValidationIssue } from '../../spec/errors.js';
import type { StructuredModel } from '../../spec/providers.js';
import { generateStructured } from './generate-structured.js';

type Input = Parameters<StructuredModel['doGenerateObject']>[0];

/** A StructuredModel that answers from a list of raw texts (parsed as JSON when they are) and records every call. */
function scriptedModel(answers: string[]): StructuredModel & { calls: Input[] } {
  const calls: Input[] = [];
  return {
    specificationVersion: 'v1',
    provider: 'scripted',
    modelId: 'scripted-1',
    remote: false,
    calls,
    doGenerateObject(input) {
      calls.push(input);
      const raw = answers[calls.length - 1] ?? '';
      let object: unknown;
      try {
        object = JSON.parse(raw) as unknown;
      } catch {
        object = undefined;
      }
      return Promise.resolve({ object, raw });
    },
  };
}

const schema = {
  type: 'object',
  properties: { name: { type: 'string' } },
  required: ['name'],
  additionalProperties: false,
};
const validate = (value: unknown): ValidationIssue[] =>
  typeof value === 'object' && value !== null && typeof (value as Record<string, unknown>)['name'] === 'string'
    ? []
    : [{ field: 'name', rule: 'required', message: 'is required' }];
const request = { system: 'Answer in JSON.', prompt: 'Name the project.', schema, schemaName: 'project', validate };

describe('generateStructured', () => {
  it('returns a valid first answer after one call', async () => {
    const model = scriptedModel(['{"name": "atlas"}']);
    expect(await generateStructured(model, request)).toEqual({ ok: true, object: { name: 'atlas' }, attempts: 1 });
    expect(model.calls).toHaveLength(1);
    expect(model.calls[0]).toEqual({ system: request.system, prompt: request.prompt, schema, schemaName: 'project' });
  });

  it('retries an invalid answer once, telling the model what was wrong', async () => {
    const model = scriptedModel(['{"title": "atlas"}', '{"name": "atlas"}']);
    expect(await generateStructured(model, request)).toEqual({ ok: true, object: { name: 'atlas' }, attempts: 2 });
    const retry = model.calls[1]!;
    expect(retry.system).toBe(request.system);
    expect(retry.schema).toBe(schema);
    expect(retry.prompt.startsWith(request.prompt)).toBe(true);
    expect(retry.prompt).toContain('name: is required');
  });

  it('reports two invalid answers as a failure with the last raw answer, truncated to 2,000 characters', async () => {
    const long = `{"title": "${'x'.repeat(3_000)}"}`;
    const model = scriptedModel(['{"title": 1}', long]);
    const result = await generateStructured(model, request);
    expect(result).toEqual({
      ok: false,
      failure: {
        reason: 'invalid',
        attempts: 2,
        raw: long.slice(0, 2_000),
        issues: [{ field: 'name', rule: 'required', message: 'is required' }],
      },
    });
    expect(model.calls).toHaveLength(2);
  });

  it('retries content that is not JSON and reports it as not_json when it happens twice', async () => {
    const model = scriptedModel(['Sure, the project is Atlas.', 'It is Atlas!']);
    const result = await generateStructured(model, request);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.failure.reason).toBe('not_json');
    expect(result.failure.attempts).toBe(2);
    expect(result.failure.raw).toBe('It is Atlas!');
    expect(model.calls[1]!.prompt).toContain('not a JSON object');
  });

  it('recovers when the answer after non-JSON content is valid', async () => {
    const model = scriptedModel(['not json', '{"name": "atlas"}']);
    expect(await generateStructured(model, request)).toMatchObject({ ok: true, attempts: 2 });
  });

  it('lets transport errors through, typed, without retrying', async () => {
    const model = scriptedModel([]);
    model.doGenerateObject = () => Promise.reject(new EngramError('INTERNAL', 'llm: HTTP 503', { field: 'llm' }));
    await expect(generateStructured(model, request)).rejects.toMatchObject({ code: 'INTERNAL', field: 'llm' });
  });

  it('passes the abort signal to the model', async () => {
    const model = scriptedModel(['{"name": "atlas"}']);
    const controller = new AbortController();
    await generateStructured(model, { ...request, signal: controller.signal });
    expect(model.calls[0]!.signal).toBe(controller.signal);
  });
});
