// The one runtime context an Engram's areas share: its store, tokenizer, clock, configuration,
// embedding worker and query-vector cache. Every context it hands out checks first that the Engram
// is open, so an area called after close() fails typed, whichever area it is.

import { LRUCache } from 'lru-cache';

import { EngramError } from '../spec/errors.js';
import type { Extractor } from '../spec/items.js';
import type { EmbeddingModel } from '../spec/providers.js';
import type { StorageAdapter } from '../spec/storage.js';
import type { Tokenizer } from '../spec/tokenizer.js';
import type { NamedPolicy } from '../composer/named-policies.js';
import type { ReadPathContext } from '../composer/compose.js';
import { createRuleExtractor } from '../items/rules/index.js';
import { embedTexts, textCoverage } from '../providers/embeddings/embed.js';
import { toIso, type Clock } from '../util/clock.js';
import type { WritePathContext } from './commit-turn.js';
import type { ResolvedConfig } from './config.js';
import { EmbeddingWorker, modelKey } from './embedding-worker.js';
import type { MemoryApiContext } from './memory-api.js';
import type { ReflectionApiContext } from './reflection-api.js';

/** What most areas are given: the store, and the time now as the runtime's clock tells it. */
export interface StoreContext {
  storage: StorageAdapter;
  now: () => string;
}

/** The constructor of every `async` function: an area's async methods are told apart by it. */
const AsyncFunction = (async () => undefined).constructor;

/** Query vectors kept: the same questions come back, and embedding one costs milliseconds. */
const QUERY_CACHE_SIZE = 256;

export class Runtime {
  private closed = false;
  readonly storage: StorageAdapter;
  readonly tokenizer: Tokenizer;
  readonly clock: Clock;
  readonly worker: EmbeddingWorker | null;
  readonly policies = new Map<string, NamedPolicy>();
  /** Reads reflection claims into keys and values (the rule extractor, even when extraction is off). */
  private readonly claimReader: Extractor;
  private readonly queryCache = new LRUCache<string, Float32Array>({ max: QUERY_CACHE_SIZE });

  constructor(readonly config: ResolvedConfig) {
    this.storage = config.storage;
    this.tokenizer = config.tokenizer;
    this.clock = config.clock;
    this.claimReader = config.longTerm.rules ?? createRuleExtractor();
    this.worker =
      config.embeddings === null
        ? null
        : new EmbeddingWorker(config.storage, config.embeddings, config.clock, {
            allowPrivateRemote: config.allowPrivateRemote,
          });
  }

  /** Throws CONFIG_INVALID once the Engram is closed. */
  guard(): void {
    if (this.closed) throw new EngramError('CONFIG_INVALID', 'this Engram is closed', { field: 'engram' });
  }

  /**
   * An area whose every method first checks that the Engram is open, so a closed one says so
   * before any argument is read: an async method's promise rejects, a synchronous one throws.
   */
  opened<T extends object>(area: T): T {
    const guarded: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(area)) {
      if (typeof value !== 'function') {
        guarded[name] = value;
        continue;
      }
      const method = value as (...args: unknown[]) => unknown;
      guarded[name] =
        value instanceof AsyncFunction
          ? async (...args: unknown[]) => {
              this.guard();
              return method(...args);
            }
          : (...args: unknown[]) => {
              this.guard();
              return method(...args);
            };
    }
    return guarded as T;
  }

  now(): string {
    return toIso(this.clock.now());
  }

  /** The store and the clock. */
  store(): StoreContext {
    this.guard();
    return { storage: this.storage, now: () => this.now() };
  }

  /** What commit_turn (and a working-state update, which is a turn) writes with. */
  write(): WritePathContext {
    this.guard();
    return {
      storage: this.storage,
      tokenizer: this.tokenizer,
      clock: this.clock,
      longTerm: this.config.longTerm,
      compaction: this.config.compaction,
      reflectOnRunEnd: this.config.reflection.onRunEnd,
    };
  }

  /** What compose, replay and explain read with: the query embedder when a model is configured. */
  read(): ReadPathContext {
    this.guard();
    const model = this.config.embeddings;
    return {
      storage: this.storage,
      tokenizer: this.tokenizer,
      clock: this.clock,
      validatePackets: this.config.debug,
      policies: this.policies,
      ...(model === null
        ? {}
        : {
            embedder: {
              embed: (text: string) => this.embedQuery(model, text),
              model: modelKey(model),
              ...(model.coverage === undefined ? {} : { coverage: (text: string) => textCoverage(model, text) }),
            },
          }),
    };
  }

  /** What reflection and the review queue work with. */
  reflection(): ReflectionApiContext {
    const llm = this.config.reflection.llm;
    return {
      ...this.store(),
      policies: this.config.longTerm.policies,
      extractor: this.claimReader,
      llm: llm === null ? null : { model: llm, allowPrivateRemote: this.config.allowPrivateRemote },
      autoApprove: this.config.reflection.autoApprove,
      project: this.config.reflection.project,
    };
  }

  /** What the item operations (remember, forget, search, reindex) work with. */
  memory(): MemoryApiContext {
    const model = this.config.embeddings;
    return {
      ...this.store(),
      policies: this.config.longTerm.policies,
      embedQuery: model === null ? undefined : (text) => this.embedQuery(model, text),
      vectorModel: model === null ? undefined : modelKey(model),
      textTokens: this.config.textTokens,
    };
  }

  /** Stops the worker, the embedding model it created (not one it was given) and the store. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.worker?.stop();
    if (this.config.ownsEmbeddings) await this.config.embeddings?.close?.();
    await this.storage.close();
  }

  /**
   * A query's vector, cached (bounded). A model too busy to take the query in time (OVERLOADED)
   * gives none: the search goes on by words alone.
   */
  private async embedQuery(model: EmbeddingModel, text: string): Promise<Float32Array | null> {
    const cached = this.queryCache.get(text);
    if (cached !== undefined) return cached;
    let vector: Float32Array | undefined;
    try {
      [vector] = await embedTexts(model, [text]);
    } catch (error) {
      if (EngramError.isInstance(error) && error.code === 'OVERLOADED') return null;
      throw error;
    }
    if (vector === undefined) return null;
    this.queryCache.set(text, vector);
    return vector;
  }
}
