// Writes enough to a SQLite store to start its background checkpoints (a write-ahead log of 1,000
// pages) and too little for the committing connection's own (4,000 pages): ~1,500 pages.

import type { StorageAdapter } from '../../src/index.js';
import { appendEvent, eventRecord } from '../../src/testing/event-record.js';

/** Writes of WRITE_EVENTS events of ~8 KiB each: ~2.5 pages an event. */
const WRITES = 128;
const WRITE_EVENTS = 5;

/** ~8 KiB of text made of a few words, so the full-text index stays small beside it. */
function longText(index: number): string {
  return `entry ${index} ${'quince jelly pear tart '.repeat(370)}`;
}

/**
 * Appends ~3 MiB of events of tenant t1, user u1, agent a1, session s1 in 128 writes; returns how
 * many events.
 *
 * @example
 * const written = await writeManyPages(storage);
 */
export async function writeManyPages(storage: StorageAdapter): Promise<number> {
  let written = 0;
  for (let write = 0; write < WRITES; write += 1) {
    const ops = Array.from({ length: WRITE_EVENTS }, () =>
      appendEvent(eventRecord({ content: longText((written += 1)) })),
    );
    await storage.write(ops);
  }
  return written;
}
