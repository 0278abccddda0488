// SQLite only: erasing a user or a session also empties the derived tables (full-text entries of
// events and chunks, event vectors, chunks). Through the adapter a stale entry is invisible (reads
// join back to the rows that are gone), so this test looks at the tables with a raw connection.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { EventRecord, StorageAdapter, WriteOp } from '../src/index.js';
import { openSqliteStorage } from '../src/index.js';
import { eventRecord } from '../src/testing/event-record.js';
import { item as itemRecord } from '../src/testing/item-records.js';

const AT = '2026-06-01T10:00:00.000Z';

function append(event: EventRecord, indexed = true): WriteOp {
  return { op: 'append_event', event, search_text: indexed ? `plum ${event.user_id}` : null };
}

/** A user-level item of `user` sourced from `events`, with a searchable chunk. */
function itemOps(user: string, events: readonly EventRecord[]): WriteOp[] {
  const item = itemRecord({
    user_id: user,
    source_event_ids: events.map((event) => event.id),
    recorded_at: AT,
    updated_at: AT,
  });
  const owner = `u:${user}`;
  return [
    { op: 'put_item', item },
    {
      op: 'put_chunk',
      tenant_id: 't1',
      item_id: item.id,
      owner,
      text: 'editor vim',
      search_text: `plum ${user}`,
      embedding_status: 'pending',
    },
  ];
}

describe('sqlite: erase empties the derived tables too', () => {
  let folder: string;
  let storage: StorageAdapter;
  let raw: Database.Database;
  const count = (sql: string) => raw.prepare(sql).pluck().get() as number;
  /** Derived rows whose source row is gone: none may be left. */
  const orphans = () => ({
    events_fts: count('SELECT count(*) FROM events_fts WHERE rowid NOT IN (SELECT seq FROM events)'),
    event_vectors: count('SELECT count(*) FROM event_vectors WHERE event_seq NOT IN (SELECT seq FROM events)'),
    items_fts: count('SELECT count(*) FROM items_fts WHERE rowid NOT IN (SELECT seq FROM memory_chunks)'),
    memory_chunks: count(
      'SELECT count(*) FROM memory_chunks c WHERE NOT EXISTS (SELECT 1 FROM memory_items i WHERE i.tenant_id = c.tenant_id AND i.id = c.item_id)',
    ),
  });

  beforeEach(async () => {
    folder = mkdtempSync(join(tmpdir(), 'engram-erase-'));
    storage = await openSqliteStorage({ path: join(folder, 'engram.db') });
    raw = new Database(join(folder, 'engram.db'), { readonly: true });
    const s1 = [eventRecord(), eventRecord()];
    const s2 = [eventRecord({ session_id: 's2' })];
    const other = [eventRecord({ user_id: 'u2' }), eventRecord({ user_id: 'u2' })];
    await storage.write([
      ...s1.map((event) => append(event)),
      append(eventRecord({ sensitivity: 'secret' }), false),
      ...s2.map((event) => append(event)),
      ...other.map((event) => append(event)),
      ...itemOps('u1', s1),
      ...itemOps('u1', [...s1, ...s2]),
      ...itemOps('u2', other),
    ]);
    // Every event and chunk gets a vector.
    const work = await storage.service.claimEmbeddingWork(100, AT, '2026-06-01T10:05:00.000Z');
    await storage.service.completeEmbeddingWork(
      work.map((w) => ({ target: w.target, tenant_id: w.tenant_id, id: w.id, vector: new Float32Array([1, 0]) })),
      'test-model',
      AT,
    );
  });
  afterEach(async () => {
    raw.close();
    await storage.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('erases a user with their full-text entries, vectors and chunks, and leaves no orphan', async () => {
    expect(count('SELECT count(*) FROM event_vectors')).toBe(6);
    const counts = await storage.maintenance.erase({ tenant_id: 't1', user_id: 'u1' });
    expect(counts).toMatchObject({
      events: 4,
      events_fts: 3,
      event_vectors: 4,
      memory_items: 2,
      memory_chunks: 2,
      items_fts: 2,
    });
    expect(orphans()).toEqual({ events_fts: 0, event_vectors: 0, items_fts: 0, memory_chunks: 0 });
    expect(count('SELECT count(*) FROM events_fts')).toBe(2);
    expect(count('SELECT count(*) FROM items_fts')).toBe(1);
    expect(count('SELECT count(*) FROM event_vectors')).toBe(2);
  });

  it("erases a session with its events' entries and vectors and the chunk of the item wholly sourced from it", async () => {
    const counts = await storage.maintenance.erase({ tenant_id: 't1', user_id: 'u1', session_id: 's1' });
    expect(counts).toMatchObject({
      events: 3,
      events_fts: 2,
      event_vectors: 3,
      memory_items: 1,
      memory_chunks: 1,
      items_fts: 1,
    });
    expect(orphans()).toEqual({ events_fts: 0, event_vectors: 0, items_fts: 0, memory_chunks: 0 });
    expect(count('SELECT count(*) FROM events_fts')).toBe(3);
    expect(count('SELECT count(*) FROM items_fts')).toBe(2);
  });
});
