// The background embedding worker: claims texts waiting for a vector (item chunks, then events),
// embeds them in batches and stores the vectors. Private events are not sent to a remote model
// unless allowed; secret events never reach the queue. A crashed run's claims expire and are
// taken again. Search works before any of this has run.

import type { EmbeddingModel } from '../spec/providers.js';
import type { EmbeddingResult, StorageAdapter } from '../spec/storage.js';
import { contentText } from '../events/content-text.js';
import { chunkEmbeddingText } from '../items/chunk.js';
import { embedTexts } from '../providers/embeddings/embed.js';
import type { Clock } from '../util/clock.js';

const LEASE_MS = 5 * 60_000;

/**
 * The name vectors are stored under: provider and model id. Searches compare only vectors of the
 * model that embeds their query.
 *
 * @example
 * modelKey(model) // 'local-use-lite:universal-sentence-encoder-lite'
 */
export function modelKey(model: Pick<EmbeddingModel, 'provider' | 'modelId'>): string {
  return `${model.provider}:${model.modelId}`;
}

export interface WorkerRun {
  embedded: number;
  skipped: number;
}

export interface EmbeddingWorkerOptions {
  /** Send private events to a remote model (off by default). */
  allowPrivateRemote: boolean;
}

export class EmbeddingWorker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<WorkerRun> | undefined;

  constructor(
    private readonly storage: StorageAdapter,
    private readonly model: EmbeddingModel,
    private readonly clock: Clock,
    private readonly options: EmbeddingWorkerOptions,
  ) {}

  /** Embeds waiting texts until none are left (or `max` are done); one run at a time. */
  run(max = Number.POSITIVE_INFINITY): Promise<WorkerRun> {
    this.running ??= this.drain(max).finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async drain(max: number): Promise<WorkerRun> {
    const total: WorkerRun = { embedded: 0, skipped: 0 };
    const batch = Math.max(1, this.model.maxBatchSize);
    while (total.embedded + total.skipped < max) {
      const now = this.clock.now();
      const want = Math.min(batch, max - total.embedded - total.skipped);
      const work = await this.storage.service.claimEmbeddingWork(
        want,
        now.toISOString(),
        new Date(now.getTime() + LEASE_MS).toISOString(),
      );
      if (work.length === 0) break;
      const results: EmbeddingResult[] = [];
      const texts: string[] = [];
      const targets: Array<Omit<EmbeddingResult, 'vector'>> = [];
      for (const entry of work) {
        const refused =
          entry.target === 'event' &&
          entry.event.sensitivity === 'private' &&
          this.model.remote &&
          !this.options.allowPrivateRemote;
        const text = entry.target === 'chunk' ? chunkEmbeddingText(entry.text) : contentText(entry.event.content);
        const target = { target: entry.target, tenant_id: entry.tenant_id, id: entry.id };
        if (refused || text.trim() === '') results.push({ ...target, vector: null });
        else {
          texts.push(text);
          targets.push(target);
        }
      }
      // The backlog waits behind any caller on the request path (a query) that needs the same model.
      const vectors = await embedTexts(this.model, texts, { priority: 'background' });
      targets.forEach((target, index) => results.push({ ...target, vector: vectors[index]! }));
      await this.storage.service.completeEmbeddingWork(results, modelKey(this.model), this.clock.now().toISOString());
      total.embedded += targets.length;
      total.skipped += results.length - targets.length;
      // Back to the event loop between batches: a batch of short texts is embedded without a pause
      // and the store's calls settle at once, so a backlog would otherwise run as one long task.
      await new Promise((resolve) => setImmediate(resolve));
    }
    return total;
  }

  /** Runs in the background every `intervalMs` until stopped; errors wait for the next tick. */
  start(intervalMs: number, onError: (error: unknown) => void): void {
    if (this.timer !== undefined) return;
    const tick = () => {
      this.run()
        .catch(onError)
        .finally(() => {
          if (this.timer !== undefined) this.timer = setTimeout(tick, intervalMs);
        });
    };
    this.timer = setTimeout(tick, 0);
  }

  async stop(): Promise<void> {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    await this.running?.catch(() => undefined);
  }
}
