// Background jobs on SQLite: queued once per id, claimed oldest first with a lease (a job whose
// worker died is claimed again when its lease ends), finished as done, failed or pending again (not
// claimed before its backoff ends), and listed newest first.

import type Database from 'better-sqlite3';

import { NotFoundError } from '../../spec/errors.js';
import type { CompleteJobOp, EnqueueJobOp, Job, JobQuery } from '../../spec/storage.js';
import { jobList } from '../shared/list-queries.js';
import { BOUND_LIMIT, type Row } from '../shared/rows.js';
import { JOB_CLAIMABLE, JOB_COLUMNS, JOB_FINISH, jobFromRow, jobNotBefore } from '../shared/service-rows.js';
import { JOB_INSERT, jobValues } from '../shared/service-sql.js';

export class JobQueue {
  private readonly s;

  constructor(private readonly db: Database.Database) {
    this.s = {
      insert: db.prepare(JOB_INSERT),
      lease: db.prepare(
        "UPDATE jobs SET status = 'running', attempts = attempts + 1, lease_until = ?, updated_at = ? WHERE seq = ?",
      ),
      finish: db.prepare(JOB_FINISH),
    };
  }

  enqueue(op: EnqueueJobOp): void {
    this.s.insert.run(...jobValues(op.job));
  }

  /** Claims jobs inside the caller's transaction. */
  claim(kinds: readonly Job['kind'][], limit: number, now: string, leaseUntil: string): Job[] {
    if (kinds.length === 0 || limit < 1) return [];
    const sql = `SELECT seq, ${JOB_COLUMNS.join(', ')} FROM jobs WHERE kind IN (${kinds.map(() => '?').join(', ')})
      AND ${JOB_CLAIMABLE} ORDER BY seq ${BOUND_LIMIT}`;
    const rows = this.db.prepare(sql).all(...kinds, now, now, limit) as Row[];
    return rows.map((row) => {
      this.s.lease.run(leaseUntil, now, row['seq']);
      return {
        ...jobFromRow(row),
        status: 'running' as const,
        attempts: (row['attempts'] as number) + 1,
        lease_until: leaseUntil,
        updated_at: now,
      };
    });
  }

  complete(
    tenantId: string,
    jobId: string,
    status: 'done' | 'failed' | 'pending',
    error: string | null,
    now: string,
    retryAt?: string,
  ): void {
    if (this.s.finish.run(status, jobNotBefore(status, retryAt), error, now, tenantId, jobId).changes === 0)
      throw new NotFoundError('job_id', jobId);
  }

  /** Finishes a job inside the caller's write transaction. */
  completeInWrite(op: CompleteJobOp): void {
    this.complete(op.tenant_id, op.job_id, op.status, op.error, op.now);
  }

  list(query: JobQuery): Job[] {
    const { sql, params } = jobList(query);
    return (this.db.prepare(sql).all(...params) as Row[]).map(jobFromRow);
  }
}
