// The SQL of the embedding queue whose text is the same on SQLite and PostgreSQL, written once.
// Claiming stays per dialect (PostgreSQL locks with FOR UPDATE SKIP LOCKED and updates in one
// statement; SQLite's writer is alone and leases row by row), as does storing a chunk's vector
// (PostgreSQL also fills pgvector's column when the extension is there). Claimed rows read back
// as work the same way in both.

import type { EmbeddingWork } from '../../spec/storage.js';
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
