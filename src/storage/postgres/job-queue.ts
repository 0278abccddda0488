// Background jobs on PostgreSQL. Jobs are claimed with FOR UPDATE SKIP LOCKED, so any number of
// workers on any number of machines share the queue.

import { NotFoundError } from '../../spec/errors.js';
import type { EnqueueJobOp, Job, JobQuery } from '../../spec/storage.js';
import { jobList } from '../shared/list-queries.js';
import { placeholders } from '../shared/rows.js';
import { JOB_CLAIMABLE, JOB_COLUMNS, JOB_FINISH, jobFromRow, jobNotBefore } from '../shared/service-rows.js';
import { JOB_INSERT, jobValues } from '../shared/service-sql.js';
import type { Sql } from './client.js';

export class PgJobQueue {
  constructor(private readonly sql: Sql) {}

  async enqueueJob(tx: Sql, op: EnqueueJobOp): Promise<void> {
    await tx.run(JOB_INSERT, jobValues(op.job));
  }

  /**
   * Claims jobs oldest first in one statement: rows another worker has locked are skipped, so two
   * workers never claim the same job, and a job whose lease ended is claimed again.
   */
  async claimJobs(
    tx: Sql,
    kinds: readonly Job['kind'][],
    limit: number,
    now: string,
    leaseUntil: string,
  ): Promise<Job[]> {
    if (kinds.length === 0 || limit < 1) return [];
    const rows = await tx.rows(
      `UPDATE jobs SET status = 'running', attempts = attempts + 1, lease_until = ?, updated_at = ?
       WHERE (tenant_id, id) IN (
         SELECT tenant_id, id FROM jobs WHERE kind IN (${placeholders(kinds)})
           AND ${JOB_CLAIMABLE}
         ORDER BY seq LIMIT ? FOR UPDATE SKIP LOCKED)
       RETURNING seq, ${JOB_COLUMNS.join(', ')}`,
      [leaseUntil, now, ...kinds, now, now, limit],
    );
    return rows.sort((a, b) => Number(a['seq']) - Number(b['seq'])).map(jobFromRow);
  }

  async completeJob(
    tx: Sql,
    tenantId: string,
    jobId: string,
    status: 'done' | 'failed' | 'pending',
    error: string | null,
    now: string,
    retryAt?: string,
  ): Promise<void> {
    const changed = await tx.run(JOB_FINISH, [status, jobNotBefore(status, retryAt), error, now, tenantId, jobId]);
    if (changed === 0) throw new NotFoundError('job_id', jobId);
  }

  async listJobs(query: JobQuery): Promise<Job[]> {
    const { sql, params } = jobList(query);
    return (await this.sql.rows(sql, params)).map(jobFromRow);
  }
}
