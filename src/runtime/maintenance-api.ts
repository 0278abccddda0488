// The maintenance area (`engram.maintenance`): what an operator runs — export, import and erasure,
// expiry, index upkeep and rebuilds, and the background work (embeddings, jobs) run by hand.

import type { EraseCounts, ExportKind } from '../spec/export.js';
import { JOB_KINDS, JOB_STATUSES, type CompactResult, type Job } from '../spec/storage.js';
import { requireChoices, requireCount, requireTenant, tenantOrDefault } from './arguments.js';
import { modelKey, type WorkerRun } from './embedding-worker.js';
import { runExtractionJob } from './extraction-job.js';
import { runJobs, type JobRun } from './jobs.js';
import { reindex, type ReindexProgress, type ReindexResult } from './memory-api.js';
import { reflect } from './reflection-api.js';
import type { VectorModels } from './vector-models.js';
import type { Runtime } from './runtime.js';
import {
  erase,
  exportLines,
  importLines,
  type ImportInput,
  type ImportOptions,
  type TransferCounts,
} from './transfer-api.js';

/** Pages of index merging per mergeIndexes step: a few milliseconds of work on SQLite. */
export const DEFAULT_MERGE_PAGES = 64;

/** Which jobs `engram.maintenance.listJobs` returns. */
export interface ListJobsQuery {
  tenant_id?: string;
  kinds?: Job['kind'][];
  statuses?: Job['status'][];
  /** At most this many (1–1000, default 100). */
  limit?: number;
}

/** Export, import, erasure and the store's upkeep (`engram.maintenance`). */
export interface Maintenance {
  /**
   * The JSON Lines of an export of a tenant (or one user): a header, then every record (secret
   * content withheld). `engram import` (or `maintenance.importData`) reads it into any store.
   *
   * @example
   * for await (const line of engram.maintenance.exportData({ tenant_id: 'acme' })) out.write(`${line}\n`);
   */
  exportData(
    scope?: { tenant_id?: string; user_id?: string },
    onRecord?: (kind: ExportKind) => void,
  ): AsyncGenerator<string>;
  /**
   * Imports an export (its bytes, as a file stream, or its lines) into a tenant, a batch per
   * transaction with each turn beside its events; lines longer than `maxLineBytes` (16 MiB) stop it.
   * Run again over the same file, it skips the records the store holds already (an interrupted
   * import finishes); a record held with other content is RECORD_CONFLICT. Returns the records
   * written by kind.
   *
   * @example
   * await engram.maintenance.importData(fs.createReadStream('acme.jsonl'), { tenant_id: 'acme' });
   */
  importData(input: ImportInput, options?: ImportOptions): Promise<TransferCounts>;
  /**
   * Erases a user (or one of their sessions) with everything derived from it, in one transaction.
   *
   * @example
   * await engram.maintenance.erase({ user_id: 'mira' });
   */
  erase(scope: { tenant_id?: string; user_id: string; session_id?: string }): Promise<EraseCounts>;
  /**
   * Deletes events past their `expires_at`; returns how many.
   *
   * @example
   * const purged = await engram.maintenance.purgeExpired();
   */
  purgeExpired(): Promise<number>;
  /**
   * Compacts the store's files: the space of deleted rows is given back and nothing of what erase or
   * forget removed stays in them (SQLite: full-text merge, VACUUM, WAL checkpoint and truncation;
   * PostgreSQL: VACUUM FULL and ANALYZE of each table, each locked exclusively while rewritten).
   * `complete: false` with `not_done` says what other processes kept it from finishing (a live
   * server reading the SQLite file, an old PostgreSQL snapshot): run it again then. Reads are unchanged.
   *
   * @example
   * await engram.maintenance.erase({ user_id: 'mira' });
   * await engram.maintenance.compact();
   */
  compact(): Promise<CompactResult>;
  /**
   * One bounded step of full-text index upkeep (the background worker runs one a tick): merges
   * index segments, about `pages` pages of work (default 64). True when it did some work; reads
   * are the same either way, and faster once the index is merged.
   *
   * @example
   * while (await engram.maintenance.mergeIndexes()) {}
   */
  mergeIndexes(pages?: number): Promise<boolean>;
  /**
   * Rebuilds every derived index from what it derives from: each item chunk, its full-text entry
   * and (queued) embedding from the items alone, each event's full-text entry from its text, and
   * (with the built-in tokenizer) the token count kept with each event and item row (after an
   * upgrade that indexes events differently, to give rows written before counts were kept theirs,
   * or to check a store after a crash).
   *
   * @example
   * const { items, events } = await engram.maintenance.reindex();
   */
  reindex(tenantId?: string, onProgress?: ReindexProgress): Promise<ReindexResult>;
  /**
   * Embeds the texts waiting for a vector now (item chunks, then events); returns how many.
   *
   * @example
   * await engram.maintenance.runEmbeddings(); // { embedded: 12, skipped: 1 }
   */
  runEmbeddings(max?: number): Promise<WorkerRun>;
  /** How many texts wait for an embedding. */
  embeddingBacklog(): Promise<number>;
  /**
   * The stored vectors by the model that made them, and the configured model (`provider:modelId`;
   * null when none is). Vectors of another model are never compared with a query: after the model
   * changes (in the configuration, or the default in an upgrade), meaning finds none of the texts
   * they stand for until `reindex` has queued them and `runEmbeddings` has embedded them again
   * (`staleVectors` says how many and what to run).
   *
   * @example
   * const { configured, models } = await engram.maintenance.vectorModels();
   */
  vectorModels(): Promise<VectorModels>;
  /**
   * Runs queued background jobs, at most `max` (default 4): reflections of ended runs and, with an
   * LLM configured, the model's extraction of each committed turn (its items are written then, with
   * their own recorded time). A job that fails is tried again after 30 s, 2 min (and 8 min for an
   * extraction), then recorded as failed (`listJobs`); an extraction whose answer is invalid twice
   * fails at once, with memory untouched by the model.
   *
   * @example
   * await engram.maintenance.runJobs(); // { done: 1, failed: 0, retried: 0 }
   */
  runJobs(max?: number): Promise<JobRun>;
  /**
   * Background jobs of a tenant, newest first (default: every kind and status, at most 100): what
   * waits, and why one failed (`last_error`).
   *
   * @example
   * const failed = await engram.maintenance.listJobs({ statuses: ['failed'] });
   */
  listJobs(query?: ListJobsQuery): Promise<Job[]>;
}

export function maintenanceOf(runtime: Runtime): Maintenance {
  return {
    exportData: (scope = {}, onRecord) => exportLines(runtime.store(), scope, onRecord),
    importData: async (input, options = {}) => importLines(runtime.store(), input, options),
    erase: async (scope) => erase(runtime.store(), scope),
    purgeExpired: async () => {
      const { storage, now } = runtime.store();
      return storage.maintenance.purgeExpired(now());
    },
    compact: async () => runtime.store().storage.maintenance.compact(),
    mergeIndexes: async (pages = DEFAULT_MERGE_PAGES) => {
      const { storage } = runtime.store();
      requireCount(pages, 'pages', 1, 100_000);
      return storage.maintenance.mergeIndexes(pages);
    },
    reindex: async (tenantId, onProgress) => {
      const context = runtime.memory();
      if (tenantId !== undefined) requireTenant(tenantId);
      return reindex(context, tenantId, onProgress);
    },
    runEmbeddings: async (max) => {
      runtime.guard();
      if (max !== undefined) requireCount(max, 'max', 1, Number.MAX_SAFE_INTEGER);
      if (runtime.worker === null) return { embedded: 0, skipped: 0 };
      return runtime.worker.run(max);
    },
    embeddingBacklog: async () => runtime.store().storage.service.embeddingBacklog(),
    vectorModels: async () => {
      const { storage } = runtime.store();
      const model = runtime.config.embeddings;
      return { configured: model === null ? null : modelKey(model), models: await storage.service.vectorModels() };
    },
    runJobs: async (max = 4) => {
      const store = runtime.store();
      requireCount(max, 'max', 1, 1000);
      const longTerm = runtime.config.longTerm;
      return runJobs(
        {
          ...store,
          reflect: (request) => reflect(runtime.reflection(), request),
          extract: longTerm.llm === null ? null : (job) => runExtractionJob({ ...store, longTerm }, job),
        },
        max,
      );
    },
    listJobs: async (query = {}) => {
      const { storage } = runtime.store();
      const limit = query.limit ?? 100;
      requireCount(limit, 'limit', 1, 1000);
      requireChoices(query.kinds, JOB_KINDS, 'kinds');
      requireChoices(query.statuses, JOB_STATUSES, 'statuses');
      return storage.service.listJobs({
        tenant_id: tenantOrDefault(query.tenant_id),
        limit,
        ...(query.kinds === undefined ? {} : { kinds: query.kinds }),
        ...(query.statuses === undefined ? {} : { statuses: query.statuses }),
      });
    },
  };
}
