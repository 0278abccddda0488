import { Command } from 'commander';
import { afterEach, describe, expect, it } from 'vitest';

import { addModelOptions, modelConfig } from './model-options.js';

const VARIABLES = ['ENGRAM_EXTRACTION', 'ENGRAM_LLM_BASE_URL', 'ENGRAM_LLM_MODEL', 'ENGRAM_LLM_API_KEY'];
const saved = Object.fromEntries(VARIABLES.map((name) => [name, process.env[name]]));

/** The settings of `engram <args>` with these variables (and no others of the model's). */
function configOf(args: string[], env: Record<string, string> = {}) {
  for (const name of VARIABLES) delete process.env[name];
  Object.assign(process.env, env);
  const program = addModelOptions(new Command('engram').exitOverride());
  program.parse(args, { from: 'user' });
  return modelConfig(program);
}

afterEach(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

describe('modelConfig', () => {
  const endpoint = { provider: 'openai-compatible', baseUrl: 'http://localhost:11434/v1', model: 'qwen2.5' };

  it('gives reflection the model, and extraction too with rules+llm; the key comes from its variable only', () => {
    expect(configOf([])).toEqual({});
    expect(configOf(['--llm-base-url', endpoint.baseUrl, '--llm-model', 'qwen2.5'])).toEqual({
      reflection: { llm: endpoint },
    });
    const both = configOf(['--extract', 'rules+llm'], {
      ENGRAM_LLM_BASE_URL: endpoint.baseUrl,
      ENGRAM_LLM_MODEL: 'qwen2.5',
      ENGRAM_LLM_API_KEY: 'sk-1',
    });
    expect(both).toEqual({
      extraction: { llm: { ...endpoint, apiKey: 'sk-1' } },
      reflection: { llm: { ...endpoint, apiKey: 'sk-1' } },
    });
    // A flag wins over its variable; an empty variable counts as unset.
    expect(
      configOf(['--extract', 'rules'], {
        ENGRAM_EXTRACTION: 'rules+llm',
        ENGRAM_LLM_BASE_URL: '',
        ENGRAM_LLM_MODEL: '',
      }),
    ).toEqual({});
  });

  it('names the flag or the variable a bad value came from, and the rule', () => {
    expect(() => configOf(['--extract', 'llm'])).toThrow(
      expect.objectContaining({ code: 'CONFIG_INVALID', field: '--extract', details: { rule: 'enum' } }),
    );
    expect(() => configOf([], { ENGRAM_EXTRACTION: 'rules+llm' })).toThrow(
      expect.objectContaining({ field: 'ENGRAM_EXTRACTION', details: { rule: 'model' } }),
    );
    expect(() => configOf(['--llm-base-url', endpoint.baseUrl])).toThrow(
      expect.objectContaining({ field: '--llm-model', details: { rule: 'required' } }),
    );
    expect(() => configOf(['--llm-base-url', 'localhost:11434', '--llm-model', 'qwen2.5'])).toThrow(
      expect.objectContaining({
        field: '--llm-base-url',
        details: { rule: 'url' },
        message: expect.stringContaining('[rule: url]'),
      }),
    );
  });
});
