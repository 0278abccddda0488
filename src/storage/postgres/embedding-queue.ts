// The embedding queue on PostgreSQL: item chunks and events waiting for a vector, claimed with
// FOR UPDATE SKIP LOCKED (so workers in several processes share it), and the vectors they come back
// with. A chunk vector also goes to pgvector's column when the extension is there.

import type { EmbeddingResult, EmbeddingWork, VectorModelCount } from '../../spec/storage.js';
import { toBlob } from '../../util/vectors.js';
import { EVENT_SELECT } from '../shared/event-rows.js';
import {
  chunkWork,
  EMBEDDING_BACKLOG,
  EMBEDDING_CLAIMABLE as CLAIMABLE,
  eventWork,
  vectorModelCounts,
  vectorModelsSql,
} from '../shared/embedding-sql.js';
import type { SqlPool } from './client.js';
import { vectorLiteral, type PgItemStore } from './item-store.js';

export class PgEmbeddingQueue {
  constructor(
    private readonly pool: SqlPool,
    /** pgvector is installed: a chunk's vector is also stored in its `embedding` column. */
    private readonly pgvector: boolean,
    /** Makes sure of the HNSW index of each dimension stored. */
    private readonly items: PgItemStore,
  ) {}

  /** Claims up to `limit` texts, chunks first; rows another worker holds are skipped (SKIP LOCKED). */
  async claim(limit: number, now: string, leaseUntil: string): Promise<EmbeddingWork[]> {
    return this.pool.transaction(async (tx) => {
      const work: EmbeddingWork[] = [];
      const chunks = await tx.rows(
        `UPDATE memory_chunks SET embedding_status = 'processing', embedding_lease = ?
         WHERE (tenant_id, item_id) IN (
           SELECT tenant_id, item_id FROM memory_chunks WHERE ${CLAIMABLE} ORDER BY seq LIMIT ? FOR UPDATE SKIP LOCKED)
         RETURNING seq, tenant_id, item_id, text`,
        [leaseUntil, now, limit],
      );
      chunks.sort((a, b) => Number(a['seq']) - Number(b['seq']));
      work.push(...chunks.map(chunkWork));
      if (work.length >= limit) return work;
      const events = await tx.arrays(
        `UPDATE events SET embedding_status = 'processing', embedding_lease = ?
         WHERE (tenant_id, id) IN (
           SELECT tenant_id, id FROM events WHERE ${CLAIMABLE} ORDER BY seq LIMIT ? FOR UPDATE SKIP LOCKED)
         RETURNING seq, ${EVENT_SELECT}`,
        [leaseUntil, now, limit - work.length],
      );
      events.sort((a, b) => Number(a[0]) - Number(b[0]));
      work.push(...events.map((row) => eventWork(row)));
      return work;
    });
  }

  /** Stores finished work (vectors stored at `now`); work whose lease was lost (no longer `processing`) is ignored. */
  async complete(results: readonly EmbeddingResult[], model: string, now: string): Promise<void> {
    const dimensions = new Set<number>();
    await this.pool.transaction(async (tx) => {
      for (const result of results) {
        const status = result.vector === null ? 'skipped' : 'done';
        const blob = result.vector === null ? null : toBlob(result.vector);
        if (result.target === 'chunk') {
          const embedding = this.pgvector && result.vector !== null ? vectorLiteral(result.vector) : null;
          await tx.run(
            `UPDATE memory_chunks SET embedding_status = ?, embedding_lease = NULL, vector = ?, vector_model = ?, vector_at = ?${this.pgvector ? ', embedding = ?::vector' : ''}
             WHERE tenant_id = ? AND item_id = ? AND embedding_status = 'processing'`,
            [
              status,
              blob,
              result.vector === null ? null : model,
              result.vector === null ? null : now,
              ...(this.pgvector ? [embedding] : []),
              result.tenant_id,
              result.id,
            ],
          );
          if (result.vector !== null) dimensions.add(result.vector.length);
          continue;
        }
        const changed = await tx.run(
          "UPDATE events SET embedding_status = ?, embedding_lease = NULL WHERE tenant_id = ? AND id = ? AND embedding_status = 'processing'",
          [status, result.tenant_id, result.id],
        );
        if (changed === 1 && blob !== null) {
          // A vector stored again (another model) takes a new vid: readers that keep vectors pick it up.
          await tx.run('DELETE FROM event_vectors WHERE tenant_id = ? AND event_id = ?', [result.tenant_id, result.id]);
          await tx.run(
            `INSERT INTO event_vectors (tenant_id, user_id, agent_id, event_id, event_seq, vector, vector_model, embedded_at)
             SELECT tenant_id, user_id, agent_id, id, seq, ?, ?, ? FROM events WHERE tenant_id = ? AND id = ?`,
            [blob, model, now, result.tenant_id, result.id],
          );
        }
      }
    });
    if (this.pgvector) for (const size of dimensions) await this.items.ensureVectorIndex(size);
  }

  async backlog(): Promise<number> {
    const rows = await this.pool.arrays(EMBEDDING_BACKLOG);
    return Number(rows[0]![0]);
  }

  async models(tenantId: string | undefined): Promise<VectorModelCount[]> {
    const rows =
      tenantId === undefined
        ? await this.pool.arrays(vectorModelsSql(false))
        : await this.pool.arrays(vectorModelsSql(true), [tenantId, tenantId]);
    return vectorModelCounts(rows);
  }
}
