// The configuration of createEngram and its resolution into the parts the runtime wires: the
// store, tokenizer, clock, extraction (rules, optional LLM), conflict policies, the retention gate's
// threshold, and the embedding model (local by default, loaded only when first used).

import { EngramError } from '../spec/errors.js';
import type { ConflictPolicy, Extractor, MemoryType } from '../spec/items.js';
import type { EmbeddingModel, StructuredModel } from '../spec/providers.js';
import type { CompactionConfig } from '../spec/compaction.js';
import { REFLECTION_MEMORY_TYPES } from '../spec/reflection.js';
import { resolveCompactionConfig } from '../compaction/run-state.js';
import type { StorageAdapter } from '../spec/storage.js';
import type { TextTokenCounter } from '../spec/text-tokens.js';
import type { Tokenizer } from '../spec/tokenizer.js';
import { DEFAULT_GATE } from '../items/gate.js';
import { resolvePolicies } from '../items/policies.js';
import { createRuleExtractor } from '../items/rules/index.js';
import { createEmbeddingModel, type EmbeddingConfig } from '../providers/embeddings/embed.js';
import { createOpenAiCompatibleChat } from '../providers/llm/openai-compatible.js';
import { systemClock, type Clock } from '../util/clock.js';
import { o200kTokenizer } from '../util/tokenizer.js';
import type { LongTermConfig } from './long-term-writer.js';
import type { LlmMode } from './llm-extraction.js';

export type { LlmMode } from './llm-extraction.js';
import type { NamedPolicy } from '../composer/named-policies.js';
import { textTokenCounter } from '../composer/text-tokens.js';
import type { AutoApproveRule } from '../reflection/candidates.js';
import { DEFAULT_STORE, openStore, type StoreOptions } from './store-url.js';

/** An OpenAI-compatible chat endpoint for LLM extraction (OpenAI, Ollama, vLLM, LM Studio, …). */
export interface LlmEndpointConfig {
  provider: 'openai-compatible';
  baseUrl: string;
  model: string;
  apiKey?: string;
}

/** Options of createEngram. */
export interface EngramConfig {
  /** `sqlite:PATH` (default `sqlite:./.engram/engram.db`), `sqlite::memory:`, or an opened adapter. */
  store?: string | StorageAdapter;
  tokenizer?: Tokenizer;
  clock?: Clock;
  /** Validate every composed packet against MemoryPacket v1 (also on with ENGRAM_DEBUG=1). */
  debug?: boolean;
  /** SQLite durability: `full` (default) survives power loss, `normal` survives a process crash. */
  sqliteSynchronous?: 'full' | 'normal';
  /**
   * The embedding model: `{ provider: 'local' }` (default `use-lite-glove-static-v4`: a static table
   * distilled from the Universal Sentence Encoder lite with GloVe word vectors, shipped in the package;
   * `model: 'use-lite-static-v3'` is the distilled table alone, `model: 'universal-sentence-encoder-lite'`
   * runs the transformer itself), `{ provider: 'openai-compatible', baseUrl, model, apiKey? }`,
   * `{ provider: 'none' }`, or any EmbeddingModel.
   */
  embeddings?: EmbeddingConfig | EmbeddingModel;
  /** Run the embedding worker in the background of this process (default off; see `maintenance.runEmbeddings`). */
  worker?: { intervalMs?: number } | false;
  /** Extraction of a turn's items: rules (default on, at commit), an optional LLM (off by default). */
  extraction?: {
    rules?: boolean;
    /** The project name used in keys when a turn names none (default `general`). */
    project?: string;
    llm?: StructuredModel | LlmEndpointConfig;
    /**
     * When the LLM reads a turn: `background` (default) in a job the commit queues with the turn,
     * run by the background worker (`maintenance.runJobs`), so a commit never waits for the model; `inline`
     * inside the commit, whose result then lists the model's items and failures.
     */
    llmMode?: LlmMode;
    /** Send private events to a remote model (LLM or embeddings); off by default. */
    allowPrivateRemote?: boolean;
  };
  /** Conflict policy per memory type (`overwrite` or `versioned`). */
  conflictPolicies?: Partial<Record<MemoryType, ConflictPolicy>>;
  /** Least confidence for a may-write candidate to be written (default 0.6). */
  mayWriteThreshold?: number;
  /** Named budget policies that compose requests pick with `policy_id`. */
  policies?: NamedPolicy[];
  /**
   * Reflection over runs: the model (default: `extraction.llm`; `false` for rules only) and an
   * auto-approve policy (default none: every candidate waits for a person). Contradictions and
   * doctrine suggestions are never auto-approved, and a model's proposals only when a rule says `llm`.
   */
  reflection?: {
    llm?: StructuredModel | LlmEndpointConfig | false;
    autoApprove?: AutoApproveRule[];
    /** Queue a reflection of each run at its RUN_END marker for the background worker (default true). */
    onRunEnd?: boolean;
  };
  /**
   * Compaction of long runs: a snapshot every `eventThreshold` terminal markers (PLAN_DONE, ACT_DONE,
   * OBSERVE_DONE; default 18) or `stepFallback` steps (STEP_DONE markers; default 8), whichever
   * comes first.
   */
  compaction?: Partial<CompactionConfig>;
}

export interface ResolvedConfig {
  storage: StorageAdapter;
  tokenizer: Tokenizer;
  /** Counts kept with event and item rows (composer/text-tokens.ts); none for a tokenizer other than the built-in one. */
  textTokens: TextTokenCounter | undefined;
  clock: Clock;
  debug: boolean;
  longTerm: LongTermConfig;
  embeddings: EmbeddingModel | null;
  /** True when the model came from the configuration (not given as an object): the Engram closes it. */
  ownsEmbeddings: boolean;
  allowPrivateRemote: boolean;
  workerIntervalMs: number | null;
  policies: NamedPolicy[];
  reflection: { llm: StructuredModel | null; autoApprove: AutoApproveRule[]; project: string; onRunEnd: boolean };
  compaction: CompactionConfig;
}

function isEmbeddingModel(value: EngramConfig['embeddings']): value is EmbeddingModel {
  return typeof value === 'object' && value !== null && 'doEmbed' in value;
}

function isStructuredModel(value: StructuredModel | LlmEndpointConfig): value is StructuredModel {
  return 'doGenerateObject' in value;
}

function llmOf(llm: StructuredModel | LlmEndpointConfig | undefined, field: string): StructuredModel | null {
  if (llm === undefined) return null;
  if (isStructuredModel(llm)) return llm;
  if (llm.provider !== 'openai-compatible') {
    throw new EngramError('CONFIG_INVALID', `${field}.provider: must be "openai-compatible" (or pass a model object)`, {
      field: `${field}.provider`,
    });
  }
  return createOpenAiCompatibleChat({
    baseUrl: llm.baseUrl,
    model: llm.model,
    ...(llm.apiKey === undefined ? {} : { apiKey: llm.apiKey }),
  });
}

/**
 * The options createEngram opens a store address with: the SQLite durability asked for, and the
 * token counts kept with each row when the tokenizer is the built-in one. Code that opens the store
 * itself, to hand it over as `store`, opens it with the same.
 *
 * @example
 * const storage = await openStore('sqlite:./engram.db', storeOptionsOf({}));
 */
export function storeOptionsOf(config: EngramConfig): StoreOptions {
  const tokenizer = config.tokenizer ?? o200kTokenizer;
  // Rows keep the built-in tokenizer's counts of what compose shows of them (composer/text-tokens.ts).
  return {
    sqliteSynchronous: config.sqliteSynchronous,
    textTokens: tokenizer === o200kTokenizer ? textTokenCounter() : undefined,
  };
}

/**
 * Resolves the configuration, opening the store last so a bad option never leaves a file open.
 *
 * @example
 * const resolved = await resolveConfig({ store: 'sqlite::memory:' });
 */
export async function resolveConfig(config: EngramConfig): Promise<ResolvedConfig> {
  const threshold = config.mayWriteThreshold ?? DEFAULT_GATE.mayThreshold;
  if (!(threshold >= 0 && threshold <= 1)) {
    throw new EngramError('CONFIG_INVALID', 'mayWriteThreshold: must be a number from 0 to 1', {
      field: 'mayWriteThreshold',
    });
  }
  const policies = resolvePolicies(config.conflictPolicies);
  const embeddings = isEmbeddingModel(config.embeddings)
    ? config.embeddings
    : createEmbeddingModel(config.embeddings ?? { provider: 'local' });
  const llm = llmOf(config.extraction?.llm, 'extraction.llm');
  const llmMode = config.extraction?.llmMode ?? 'background';
  if (llmMode !== 'background' && llmMode !== 'inline') {
    throw new EngramError('CONFIG_INVALID', 'extraction.llmMode: must be "background" or "inline"', {
      field: 'extraction.llmMode',
    });
  }
  const reflectionLlm =
    config.reflection?.llm === false
      ? null
      : config.reflection?.llm === undefined
        ? llm
        : llmOf(config.reflection.llm, 'reflection.llm');
  const autoApprove = checkAutoApprove(config.reflection?.autoApprove ?? []);
  const allowPrivateRemote = config.extraction?.allowPrivateRemote === true;
  const rules: Extractor | null =
    config.extraction?.rules === false
      ? null
      : createRuleExtractor(config.extraction?.project === undefined ? {} : { project: config.extraction.project });
  const interval = config.worker === undefined || config.worker === false ? null : (config.worker.intervalMs ?? 1000);
  const storeOptions = storeOptionsOf(config);
  const storage =
    typeof config.store === 'object' ? config.store : await openStore(config.store ?? DEFAULT_STORE, storeOptions);
  return {
    storage,
    tokenizer: config.tokenizer ?? o200kTokenizer,
    textTokens: storeOptions.textTokens,
    clock: config.clock ?? systemClock,
    debug: config.debug ?? process.env['ENGRAM_DEBUG'] === '1',
    longTerm: {
      rules,
      llm: llm === null ? null : { model: llm, allowPrivateRemote, mode: llmMode },
      policies,
      gate: { mayThreshold: threshold },
    },
    embeddings,
    ownsEmbeddings: !isEmbeddingModel(config.embeddings),
    allowPrivateRemote,
    workerIntervalMs: interval,
    policies: config.policies ?? [],
    reflection: {
      llm: reflectionLlm,
      autoApprove,
      project: config.extraction?.project ?? 'general',
      onRunEnd: config.reflection?.onRunEnd !== false,
    },
    compaction: resolveCompactionConfig(config.compaction),
  };
}
/** Checks the auto-approve rules; a bad rule is a CONFIG_INVALID naming it. */
function checkAutoApprove(rules: readonly AutoApproveRule[]): AutoApproveRule[] {
  if (!Array.isArray(rules))
    throw new EngramError('CONFIG_INVALID', 'reflection.autoApprove: must be an array of rules', {
      field: 'reflection.autoApprove',
    });
  rules.forEach((rule, index) => {
    const field = `reflection.autoApprove[${index}]`;
    const fail = (what: string) => {
      throw new EngramError('CONFIG_INVALID', `${field}.${what}`, { field });
    };
    const types: unknown = rule.memory_types;
    const sources: unknown = rule.sources;
    if (!Array.isArray(types) || types.some((type) => !(REFLECTION_MEMORY_TYPES as readonly unknown[]).includes(type)))
      fail(`memory_types: must list ${REFLECTION_MEMORY_TYPES.join(', ')}`);
    if (!(typeof rule.min_confidence === 'number' && rule.min_confidence >= 0 && rule.min_confidence <= 1))
      fail('min_confidence: must be a number from 0 to 1');
    if (
      sources !== undefined &&
      (!Array.isArray(sources) || sources.some((source) => source !== 'rules' && source !== 'llm'))
    )
      fail('sources: must list "rules" and/or "llm"');
  });
  return [...rules];
}
