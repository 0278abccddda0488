// Background jobs on SQLite: queued once per id, claimed oldest first with a lease (a job whose
// worker died is claimed again when its lease ends), finished as done, failed or pending again.

import type Database from 'better-sqlite3';

import { NotFoundError } from '../../spec/errors.js';
import type { EnqueueJobOp, Job } from '../../spec/storage.js';
import type { Row } from './event-rows.js';

const COLUMNS = ['tenant_id', 'id', 'kind', 'payload', 'status', 'attempts', 'lease_until', 'last_error', 'created_at', 'updated_at'] as const;

function jobFromRow(row: Row): Job {
  return {
    tenant_id: row['tenant_id'] as string,
    id: row['id'] as string,
    kind: row['kind'] as Job['kind'],
    payload: JSON.parse(row['payload'] as string) as Record<string, unknown>,
    status: row['status'] as Job['status'],
    attempts: row['attempts'] as number,
    lease_until: (row['lease_until'] as string | null) ?? null,
    last_error: (row['last_error'] as string | null) ?? null,
    created_at: row['created_at'] as string,
    updated_at: row['updated_at'] as string,
  };
}

export class JobQueue {
  private readonly s;

  constructor(private readonly db: Database.Database) {
    this.s = {
      insert: db.prepare(`INSERT INTO jobs (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map(() => '?').join(', ')}) ON CONFLICT (tenant_id, id) DO NOTHING`),
      lease: db.prepare("UPDATE jobs SET status = 'running', attempts = attempts + 1, lease_until = ?, updated_at = ? WHERE seq = ?"),
      finish: db.prepare("UPDATE jobs SET status = ?, lease_until = NULL, last_error = ?, updated_at = ? WHERE tenant_id = ? AND id = ? AND status = 'running'"),
    };
  }

  enqueue(op: EnqueueJobOp): void {
    const job = op.job;
    this.s.insert.run(job.tenant_id, job.id, job.kind, JSON.stringify(job.payload), job.status, job.attempts, job.lease_until, job.last_error, job.created_at, job.updated_at);
  }

  /** Claims jobs inside the caller's transaction. */
  claim(kinds: readonly Job['kind'][], limit: number, now: string, leaseUntil: string): Job[] {
    if (kinds.length === 0 || limit < 1) return [];
    const sql = `SELECT seq, ${COLUMNS.join(', ')} FROM jobs WHERE kind IN (${kinds.map(() => '?').join(', ')})
      AND (status = 'pending' OR (status = 'running' AND lease_until < ?)) ORDER BY seq LIMIT ?`;
    const rows = this.db.prepare(sql).all(...kinds, now, limit) as Row[];
    return rows.map((row) => {
      this.s.lease.run(leaseUntil, now, row['seq']);
      return { ...jobFromRow(row), status: 'running' as const, attempts: (row['attempts'] as number) + 1, lease_until: leaseUntil, updated_at: now };
    });
  }

  complete(tenantId: string, jobId: string, status: 'done' | 'failed' | 'pending', error: string | null, now: string): void {
    if (this.s.finish.run(status, error, now, tenantId, jobId).changes === 0) throw new NotFoundError('job_id', jobId);
  }
}
