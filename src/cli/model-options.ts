// The model settings of every command that opens a store: an OpenAI-compatible chat endpoint
// (--llm-base-url and --llm-model, or ENGRAM_LLM_BASE_URL and ENGRAM_LLM_MODEL; its key only in
// ENGRAM_LLM_API_KEY, so it never shows in a process list or a shell history), which reflection uses,
// and what extracts a turn's items (--extract or ENGRAM_EXTRACTION: `rules`, or `rules+llm`, where the
// model reads each turn in a background job). A bad value is CONFIG_INVALID naming the flag or variable.

import { Option, type Command } from 'commander';

import { EngramError, type EngramConfig, type LlmEndpointConfig } from '../index.js';

/** What may extract a turn's items from the command line. */
export const EXTRACTIONS = ['rules', 'rules+llm'] as const;

interface ModelFlags {
  extract: string;
  llmBaseUrl?: string;
  llmModel?: string;
}

/** The flag and the variable of each setting. */
const NAMES = {
  extract: { flag: '--extract', variable: 'ENGRAM_EXTRACTION' },
  llmBaseUrl: { flag: '--llm-base-url', variable: 'ENGRAM_LLM_BASE_URL' },
  llmModel: { flag: '--llm-model', variable: 'ENGRAM_LLM_MODEL' },
} as const;

/**
 * Adds the global model options to the root command.
 *
 * @example
 * addModelOptions(new Command('engram'));
 */
export function addModelOptions(program: Command): Command {
  return program
    .addOption(
      new Option(
        '--extract <sources>',
        `what extracts a turn's items: ${EXTRACTIONS.join(' or ')} (the model reads each turn in a background job)`,
      )
        .env(NAMES.extract.variable)
        .default('rules'),
    )
    .addOption(
      new Option(
        '--llm-base-url <url>',
        'an OpenAI-compatible chat endpoint for reflection and --extract rules+llm (its key: ENGRAM_LLM_API_KEY)',
      ).env(NAMES.llmBaseUrl.variable),
    )
    .addOption(new Option('--llm-model <name>', 'the model at --llm-base-url').env(NAMES.llmModel.variable));
}

/** CONFIG_INVALID for a setting: `field` names it as given (a flag or a variable), `label` as the message shows it. */
function invalid(field: string, rule: string, message: string, label = field): EngramError {
  return new EngramError('CONFIG_INVALID', `${label}: ${message} [rule: ${rule}]`, { field, details: { rule } });
}

/**
 * The createEngram options the model settings give: the endpoint for reflection and, with
 * `rules+llm`, for extraction too; none without an endpoint. Throws CONFIG_INVALID naming the flag (or
 * the variable, when the value came from one) and the rule it broke.
 *
 * @example
 * const engram = await createEngram({ store, ...modelConfig(program) });
 */
export function modelConfig(program: Command): Pick<EngramConfig, 'extraction' | 'reflection'> {
  const flags = program.opts<ModelFlags>();
  const named = (setting: keyof typeof NAMES) =>
    program.getOptionValueSource(setting) === 'env' ? NAMES[setting].variable : NAMES[setting].flag;
  const either = (setting: keyof typeof NAMES) => `${NAMES[setting].flag} (or ${NAMES[setting].variable})`;
  if (!(EXTRACTIONS as readonly string[]).includes(flags.extract)) {
    throw invalid(
      named('extract'),
      'enum',
      `must be ${EXTRACTIONS.map((value) => JSON.stringify(value)).join(' or ')}, got ${JSON.stringify(flags.extract)}`,
    );
  }
  const baseUrl = flags.llmBaseUrl === '' ? undefined : flags.llmBaseUrl;
  const model = flags.llmModel === '' ? undefined : flags.llmModel;
  if (baseUrl === undefined && model !== undefined)
    throw invalid(NAMES.llmBaseUrl.flag, 'required', `is needed with ${named('llmModel')}`, either('llmBaseUrl'));
  if (model === undefined && baseUrl !== undefined)
    throw invalid(NAMES.llmModel.flag, 'required', `is needed with ${named('llmBaseUrl')}`, either('llmModel'));
  if (baseUrl === undefined || model === undefined) {
    if (flags.extract === 'rules+llm')
      throw invalid(
        named('extract'),
        'model',
        `"rules+llm" needs a model: ${either('llmBaseUrl')} and ${either('llmModel')}`,
      );
    return {};
  }
  if (!isHttpUrl(baseUrl))
    throw invalid(
      named('llmBaseUrl'),
      'url',
      `must be an http(s) URL such as http://localhost:11434/v1, got ${JSON.stringify(baseUrl)}`,
    );
  const apiKey = process.env['ENGRAM_LLM_API_KEY'];
  const llm: LlmEndpointConfig = {
    provider: 'openai-compatible',
    baseUrl,
    model,
    ...(apiKey === undefined || apiKey === '' ? {} : { apiKey }),
  };
  return flags.extract === 'rules+llm' ? { extraction: { llm }, reflection: { llm } } : { reflection: { llm } };
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
