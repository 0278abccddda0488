// The SQL of the embedding queue whose text is the same on SQLite and PostgreSQL, written once.
// Claiming stays per dialect (PostgreSQL locks with FOR UPDATE SKIP LOCKED and updates in one
// statement; SQLite's writer is alone and leases row by row), as does storing a chunk's vector
// (PostgreSQL also fills pgvector's column when the extension is there). Claimed rows read back
// as work the same way in both.

import type { EmbeddingWork, VectorModelCount } from '../../spec/storage.js';
import { eventFromValues } from './event-rows.js';
import type { Row } from './rows.js';

/**
 * The rows a worker may claim at a time (the `?` is that time): pending ones, and those whose
 * processing lease ended (their worker died).
 *
 * @example
 * const sql = `SELECT seq FROM events WHERE ${EMBEDDING_CLAIMABLE} ORDER BY seq`;
 */
export const EMBEDDING_CLAIMABLE =
  "(embedding_status = 'pending' OR (embedding_status = 'processing' AND embedding_lease < ?))";

/**
 * How many chunks and events wait for a vector or are being embedded, as one number `n`.
 *
 * @example
 * const [[n]] = await pool.arrays(EMBEDDING_BACKLOG);
 */
export const EMBEDDING_BACKLOG = `SELECT (SELECT count(*) FROM memory_chunks WHERE embedding_status IN ('pending', 'processing'))
  + (SELECT count(*) FROM events WHERE embedding_status IN ('pending', 'processing')) AS n`;

/**
 * The stored vectors by the model that made them (model, target, count), as vectorModelCounts reads
 * them: of the whole store, or of one tenant (`byTenant`: the tenant id is bound twice).
 *
 * @example
 * const counts = vectorModelCounts(await pool.arrays(vectorModelsSql(true), [tenant, tenant]));
 */
export function vectorModelsSql(byTenant: boolean): string {
  const tenant = byTenant ? ' AND tenant_id = ?' : '';
  return `SELECT vector_model, 'event', count(*) FROM event_vectors WHERE vector_model IS NOT NULL${tenant} GROUP BY vector_model
  UNION ALL SELECT vector_model, 'chunk', count(*) FROM memory_chunks WHERE vector_model IS NOT NULL${tenant} GROUP BY vector_model`;
}

/**
 * The rows of VECTOR_MODELS (model, target, count; a count may come as a string) as one count per model, by model.
 *
 * @example
 * vectorModelCounts([['local:a', 'event', 3], ['local:a', 'chunk', '1']]) // [{ model: 'local:a', events: 3, chunks: 1 }]
 */
export function vectorModelCounts(rows: readonly unknown[][]): VectorModelCount[] {
  const byModel = new Map<string, VectorModelCount>();
  for (const [model, target, count] of rows) {
    const entry = byModel.get(String(model)) ?? { model: String(model), events: 0, chunks: 0 };
    entry[target === 'event' ? 'events' : 'chunks'] += Number(count);
    byModel.set(entry.model, entry);
  }
  return [...byModel.values()].sort((a, b) => (a.model < b.model ? -1 : a.model > b.model ? 1 : 0));
}

/**
 * A claimed chunk (a row of seq, tenant_id, item_id, text) as work.
 *
 * @example
 * work.push(...rows.map(chunkWork));
 */
export function chunkWork(row: Row): EmbeddingWork {
  return {
    target: 'chunk',
    tenant_id: row['tenant_id'] as string,
    id: row['item_id'] as string,
    text: row['text'] as string,
  };
}

/**
 * A claimed event (a row of seq, then the event's columns) as work.
 *
 * @example
 * work.push(...rows.map((row) => eventWork(row)));
 */
export function eventWork(row: readonly unknown[]): EmbeddingWork {
  const event = eventFromValues(row, 1);
  return { target: 'event', tenant_id: event.tenant_id, id: event.id, event };
}
