// What the running service keeps in the in-memory store: background jobs (queued once per id,
// claimed under a lease, finished once), API keys (found by hash, revoked once) and the embedding
// queue (chunks first, then events, claimed under a lease; vectors stored when completed).

import {
  ConflictError,
  NotFoundError,
  type ApiKeyRecord,
  type CompleteJobOp,
  type EmbeddingResult,
  type EmbeddingWork,
  type EnqueueJobOp,
  type Job,
  type JobQuery,
  type PutApiKeyOp,
  type RevokeApiKeyOp,
  type ServiceStorage,
  type VectorModelCount,
} from '../../src/index.js';
import { copy, eventOut, keys, type MemoryState } from './state.js';

/** True when work (a chunk, an event) may be claimed at `now`: pending, or processing under a lease that ended. */
const claimable = (status: string, lease: string | null, now: string): boolean =>
  status === 'pending' || (status === 'processing' && lease !== null && lease < now);

/** True when a status is work still to finish. */
const backlogged = (status: string): boolean => status === 'pending' || status === 'processing';

/** Finishes a running job: done, failed, or pending again (not claimed before `retryAt`, when given). */
function finishJob(
  state: MemoryState,
  ...[tenantId, jobId, status, error, now, retryAt]: Parameters<ServiceStorage['completeJob']>
): void {
  const key = keys.byId(tenantId, jobId);
  const row = state.jobs.get(key);
  if (row === undefined || row.record.status !== 'running') throw new NotFoundError('job_id', jobId);
  // A job put back to pending keeps its backoff in lease_until.
  const lease_until = status === 'pending' ? (retryAt ?? null) : null;
  state.jobs.put(key, { ...row, record: { ...row.record, status, lease_until, last_error: error, updated_at: now } });
}

/** The writes of jobs and API keys (inside a write's transaction). */
export class ServiceWrites {
  constructor(private readonly state: MemoryState) {}

  /** Queues a job; one the tenant queued under the same id before (in any status) stays as it is. */
  enqueue(op: EnqueueJobOp): void {
    const key = keys.byId(op.job.tenant_id, op.job.id);
    if (!this.state.jobs.has(key)) this.state.jobs.put(key, { seq: this.state.nextSeq(), record: copy(op.job) });
  }

  completeInWrite(op: CompleteJobOp): void {
    finishJob(this.state, op.tenant_id, op.job_id, op.status, op.error, op.now);
  }

  putApiKey(op: PutApiKeyOp): void {
    const key = op.api_key;
    const taken =
      this.state.apiKeys.has(keys.byId(key.tenant_id, key.id)) ||
      this.state.apiKeys.values().some((row) => row.record.hash === key.hash);
    if (taken)
      throw new ConflictError(`key.id: a key ${key.id} (or with the same secret) exists`, {
        field: 'key.id',
        origin: 'concurrent',
      });
    this.state.apiKeys.put(keys.byId(key.tenant_id, key.id), { seq: this.state.nextSeq(), record: copy(key) });
  }

  /** Revokes a key; one revoked before keeps its first time. */
  revokeApiKey(op: RevokeApiKeyOp): void {
    const key = keys.byId(op.tenant_id, op.key_id);
    const row = this.state.apiKeys.get(key);
    if (row === undefined) throw new NotFoundError('key_id', op.key_id);
    this.state.apiKeys.put(key, {
      ...row,
      record: { ...row.record, revoked_at: row.record.revoked_at ?? op.revoked_at },
    });
  }
}

/** The service area: jobs claimed and finished, API keys, the embedding queue. */
export class ServiceArea implements ServiceStorage {
  constructor(private readonly state: MemoryState) {}

  async claimJobs(kinds: readonly Job['kind'][], limit: number, now: string, leaseUntil: string): Promise<Job[]> {
    return this.state.journal.run(() => {
      const claimed: Job[] = [];
      for (const row of this.state.jobs.values()) {
        if (claimed.length >= limit) break;
        const job = row.record;
        const ready =
          (job.status === 'pending' && (job.lease_until === null || job.lease_until <= now)) ||
          (job.status === 'running' && job.lease_until !== null && job.lease_until < now);
        if (!kinds.includes(job.kind) || !ready) continue;
        const running: Job = {
          ...job,
          status: 'running',
          attempts: job.attempts + 1,
          lease_until: leaseUntil,
          updated_at: now,
        };
        this.state.jobs.put(keys.byId(job.tenant_id, job.id), { ...row, record: running });
        claimed.push(copy(running));
      }
      return claimed;
    });
  }

  async completeJob(...finish: Parameters<ServiceStorage['completeJob']>): Promise<void> {
    this.state.journal.run(() => finishJob(this.state, ...finish));
  }

  async listJobs(query: JobQuery): Promise<Job[]> {
    return this.state.jobs
      .values()
      .map((row) => row.record)
      .filter(
        (job) =>
          job.tenant_id === query.tenant_id &&
          (query.kinds === undefined || query.kinds.includes(job.kind)) &&
          (query.statuses === undefined || query.statuses.includes(job.status)),
      )
      .reverse()
      .slice(0, query.limit)
      .map(copy);
  }

  async findApiKey(hash: string): Promise<ApiKeyRecord | null> {
    const row = this.state.apiKeys.values().find((entry) => entry.record.hash === hash);
    return row === undefined ? null : copy(row.record);
  }

  async listApiKeys(tenantId: string | undefined): Promise<ApiKeyRecord[]> {
    return this.state.apiKeys
      .values()
      .filter((row) => tenantId === undefined || row.record.tenant_id === tenantId)
      .map((row) => copy(row.record));
  }

  async claimEmbeddingWork(limit: number, now: string, leaseUntil: string): Promise<EmbeddingWork[]> {
    return this.state.journal.run(() => {
      const work: EmbeddingWork[] = [];
      for (const chunk of this.state.chunks.values()) {
        if (work.length >= limit) return work;
        if (!claimable(chunk.status, chunk.lease, now)) continue;
        this.state.chunks.put(keys.byId(chunk.tenant_id, chunk.item_id), {
          ...chunk,
          status: 'processing',
          lease: leaseUntil,
        });
        work.push({ target: 'chunk', tenant_id: chunk.tenant_id, id: chunk.item_id, text: chunk.text });
      }
      for (const row of this.state.events.values()) {
        if (work.length >= limit) return work;
        if (!claimable(row.event.embedding_status, row.lease, now)) continue;
        work.push({ target: 'event', tenant_id: row.event.tenant_id, id: row.event.id, event: eventOut(row) });
        const event = { ...row.event, embedding_status: 'processing' as const };
        this.state.events.put(keys.byId(event.tenant_id, event.id), { ...row, event, lease: leaseUntil });
      }
      return work;
    });
  }

  /** Stores finished work; work no longer processing (its lease was lost and it was claimed again) is passed over. */
  async completeEmbeddingWork(results: readonly EmbeddingResult[], model: string, now: string): Promise<void> {
    this.state.journal.run(() => {
      for (const result of results) {
        const key = keys.byId(result.tenant_id, result.id);
        const status = result.vector === null ? ('skipped' as const) : ('done' as const);
        const vector = result.vector === null ? null : { values: copy(result.vector), model, at: now };
        if (result.target === 'chunk') {
          const chunk = this.state.chunks.get(key);
          if (chunk?.status === 'processing') this.state.chunks.put(key, { ...chunk, status, lease: null, vector });
          continue;
        }
        const row = this.state.events.get(key);
        if (row?.event.embedding_status !== 'processing') continue;
        const event = { ...row.event, embedding_status: status };
        this.state.events.put(key, { ...row, event, lease: null, vector: vector ?? row.vector });
      }
    });
  }

  async vectorModels(tenantId?: string): Promise<VectorModelCount[]> {
    const byModel = new Map<string, VectorModelCount>();
    const count = (tenant: string, vector: { model: string } | null, target: 'events' | 'chunks') => {
      if (vector === null || (tenantId !== undefined && tenant !== tenantId)) return;
      const entry = byModel.get(vector.model) ?? { model: vector.model, events: 0, chunks: 0 };
      entry[target] += 1;
      byModel.set(vector.model, entry);
    };
    for (const chunk of this.state.chunks.values()) count(chunk.tenant_id, chunk.vector, 'chunks');
    for (const row of this.state.events.values()) count(row.event.tenant_id, row.vector, 'events');
    return [...byModel.values()].sort((a, b) => (a.model < b.model ? -1 : 1));
  }

  async embeddingBacklog(): Promise<number> {
    let count = 0;
    for (const chunk of this.state.chunks.values()) if (backlogged(chunk.status)) count += 1;
    for (const row of this.state.events.values()) if (backlogged(row.event.embedding_status)) count += 1;
    return count;
  }
}
