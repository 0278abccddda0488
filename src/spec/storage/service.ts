// The service area of the storage contract: what the running service keeps for itself rather than
// for a tenant's memory: the background job queue, API keys, and the queue of texts to embed.

import type { ApiKeyRecord } from '../auth.js';
import type { EventRecord } from '../event.js';

/**
 * A unit of background work: `reflect` a run that ended, or `extract` a turn's items with the LLM.
 * Its payload's `scope` names the user, agent and run it belongs to (an erase deletes it with them).
 */
export interface Job {
  tenant_id: string;
  /**
   * Deterministic from the work, so the same work is queued once (`reflect:<user>/<agent>/<run>`,
   * `extract:<first event id of the turn>`).
   */
  id: string;
  kind: 'reflect' | 'extract';
  payload: Record<string, unknown>;
  status: 'pending' | 'running' | 'done' | 'failed';
  attempts: number;
  /** Running: when the claim's lease ends. Pending: not claimed before this time (a retry's backoff), or null. */
  lease_until: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

/** Every kind of job. */
export const JOB_KINDS: readonly Job['kind'][] = ['reflect', 'extract'];
/** Every status of a job. */
export const JOB_STATUSES: readonly Job['status'][] = ['pending', 'running', 'done', 'failed'];

/** Jobs of a tenant, newest first. */
export interface JobQuery {
  tenant_id: string;
  kinds?: readonly Job['kind'][];
  statuses?: readonly Job['status'][];
  limit: number;
}

/** Work for the embedding worker: the text of an item chunk, or an event (the domain reads its text). */
export type EmbeddingWork =
  | { target: 'chunk'; tenant_id: string; id: string; text: string }
  | { target: 'event'; tenant_id: string; id: string; event: EventRecord };

export interface EmbeddingResult {
  target: 'chunk' | 'event';
  tenant_id: string;
  id: string;
  /** The vector, or null when the text is skipped (for example private text and a remote model). */
  vector: Float32Array | null;
}

/**
 * The job queue, API keys and embedding queue of a service.
 *
 * @example
 * const jobs = await storage.service.claimJobs(['reflect'], 4, now, leaseUntil);
 */
/** How many stored vectors one embedding model made: of events, and of item chunks. */
export interface VectorModelCount {
  /** The model's key as vectors are stored under it (`provider:modelId`). */
  model: string;
  events: number;
  chunks: number;
}

export interface ServiceStorage {
  /**
   * Claims up to `limit` jobs of these kinds (pending and past any backoff, or running with a lease
   * that ended), oldest first: they become `running` with `leaseUntil` and one more attempt. One transaction, so two
   * workers never claim the same job.
   */
  claimJobs(kinds: readonly Job['kind'][], limit: number, now: string, leaseUntil: string): Promise<Job[]>;
  /**
   * Finishes a claimed job: `done`, `failed`, or back to `pending` for another attempt, which is not
   * claimed before `retryAt` when given (a backoff). NOT_FOUND when the job is not running.
   */
  completeJob(
    tenantId: string,
    jobId: string,
    status: 'done' | 'failed' | 'pending',
    error: string | null,
    now: string,
    retryAt?: string,
  ): Promise<void>;
  /** A tenant's jobs, newest first, of some kinds and statuses (all when not given). */
  listJobs(query: JobQuery): Promise<Job[]>;
  /** The key with this hash, whichever tenant it belongs to (the tenant comes from the key). */
  findApiKey(hash: string): Promise<ApiKeyRecord | null>;
  /** A tenant's keys (every tenant's with `undefined`), oldest first, revoked ones included. */
  listApiKeys(tenantId: string | undefined): Promise<ApiKeyRecord[]>;
  /**
   * Claims up to `limit` texts waiting for an embedding (chunks first, then events): their status
   * becomes `processing` until `leaseUntil`, after which unfinished work can be claimed again.
   */
  claimEmbeddingWork(limit: number, now: string, leaseUntil: string): Promise<EmbeddingWork[]>;
  /** Stores vectors (status `done`, stored at `now`), or marks skipped ones (`skipped`). */
  completeEmbeddingWork(results: readonly EmbeddingResult[], model: string, now: string): Promise<void>;
  /** How much embedding work is pending or in progress. */
  embeddingBacklog(): Promise<number>;
  /**
   * The stored vectors by the model that made them, by model key: of the whole store, or of one
   * tenant. After the configured model changes, those of another model are the ones meaning can no
   * longer compare.
   */
  vectorModels(tenantId?: string): Promise<VectorModelCount[]>;
}
