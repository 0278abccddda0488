// The embedding queue on SQLite: item chunks and events whose `embedding_status` is `pending` (or
// `processing` with an expired lease) are work. Claiming sets `processing` with a lease, so a
// crashed worker's claims are taken again; completing stores the vector and sets `done` or `skipped`.

import type Database from 'better-sqlite3';

import type { EmbeddingResult, EmbeddingWork, VectorModelCount } from '../../spec/storage.js';
import { toBlob } from '../../util/vectors.js';
import { EVENT_SELECT, type Row } from '../shared/event-rows.js';
import { BOUND_LIMIT } from '../shared/rows.js';
import {
  chunkWork,
  EMBEDDING_BACKLOG,
  EMBEDDING_CLAIMABLE as CLAIMABLE,
  eventWork,
  vectorModelCounts,
  vectorModelsSql,
} from '../shared/embedding-sql.js';

export class EmbeddingQueue {
  private readonly s;

  constructor(db: Database.Database) {
    this.s = {
      chunks: db.prepare(
        `SELECT seq, tenant_id, item_id, text FROM memory_chunks WHERE ${CLAIMABLE} ORDER BY seq ${BOUND_LIMIT}`,
      ),
      leaseChunk: db.prepare(
        "UPDATE memory_chunks SET embedding_status = 'processing', embedding_lease = ? WHERE seq = ?",
      ),
      events: db
        .prepare(`SELECT seq, ${EVENT_SELECT} FROM events WHERE ${CLAIMABLE} ORDER BY seq ${BOUND_LIMIT}`)
        .raw(),
      leaseEvent: db.prepare("UPDATE events SET embedding_status = 'processing', embedding_lease = ? WHERE seq = ?"),
      chunkDone: db.prepare(
        "UPDATE memory_chunks SET embedding_status = ?, embedding_lease = NULL, vector = ?, vector_model = ?, vector_at = ? WHERE tenant_id = ? AND item_id = ? AND embedding_status = 'processing'",
      ),
      eventSeq: db.prepare(
        "SELECT seq, user_id, agent_id FROM events WHERE tenant_id = ? AND id = ? AND embedding_status = 'processing'",
      ),
      eventDone: db.prepare('UPDATE events SET embedding_status = ?, embedding_lease = NULL WHERE seq = ?'),
      // A vector stored again (another model) takes a new vid: readers that keep vectors pick it up.
      eventVector: db.prepare(
        'INSERT OR REPLACE INTO event_vectors (tenant_id, user_id, agent_id, event_seq, vector, vector_model, embedded_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ),
      backlog: db.prepare(EMBEDDING_BACKLOG),
      models: db.prepare(vectorModelsSql(false)).raw(),
      tenantModels: db.prepare(vectorModelsSql(true)).raw(),
    };
  }

  /** Claims up to `limit` texts (chunks first); runs inside the caller's transaction. */
  claim(limit: number, now: string, leaseUntil: string): EmbeddingWork[] {
    const work: EmbeddingWork[] = [];
    for (const row of this.s.chunks.all(now, limit) as Row[]) {
      this.s.leaseChunk.run(leaseUntil, row['seq']);
      work.push(chunkWork(row));
    }
    if (work.length >= limit) return work;
    for (const row of this.s.events.all(now, limit - work.length) as unknown[][]) {
      this.s.leaseEvent.run(leaseUntil, row[0]);
      work.push(eventWork(row));
    }
    return work;
  }

  /** Stores finished work (vectors stored at `now`); work whose lease was lost (no longer `processing`) is ignored. */
  complete(results: readonly EmbeddingResult[], model: string, now: string): void {
    for (const result of results) {
      const status = result.vector === null ? 'skipped' : 'done';
      const blob = result.vector === null ? null : toBlob(result.vector);
      if (result.target === 'chunk') {
        this.s.chunkDone.run(
          status,
          blob,
          result.vector === null ? null : model,
          result.vector === null ? null : now,
          result.tenant_id,
          result.id,
        );
        continue;
      }
      const row = this.s.eventSeq.get(result.tenant_id, result.id) as Row | undefined;
      if (row === undefined) continue;
      this.s.eventDone.run(status, row['seq']);
      if (blob !== null)
        this.s.eventVector.run(result.tenant_id, row['user_id'], row['agent_id'], row['seq'], blob, model, now);
    }
  }

  backlog(): number {
    return (this.s.backlog.get() as Row)['n'] as number;
  }

  models(tenantId: string | undefined): VectorModelCount[] {
    const rows = tenantId === undefined ? this.s.models.all() : this.s.tenantModels.all(tenantId, tenantId);
    return vectorModelCounts(rows as unknown[][]);
  }
}
