// A SQLite store keeps the rows of the words it searched lately and the item versions it read lately;
// a write through another connection to the same file (another process, the CLI beside a server) is
// seen by the next search or read all the same.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { openSqliteStorage, type StorageAdapter } from '../src/index.js';
import { appendEvent as append, eventRecord as event } from '../src/testing/event-record.js';
import { item } from '../src/testing/item-conformance.js';
import { expectCode } from '../src/testing/expect-code.js';

const NOW = '2026-06-01T12:00:00.000Z';

describe('repeated searches on a SQLite file written by another connection', () => {
  let folder: string;
  let reader: StorageAdapter;
  let writer: StorageAdapter;
  beforeEach(async () => {
    folder = mkdtempSync(join(tmpdir(), 'engram-repeated-search-'));
    reader = await openSqliteStorage({ path: join(folder, 'engram.db') });
    writer = await openSqliteStorage({ path: join(folder, 'engram.db') });
  });
  afterEach(async () => {
    await reader.close();
    await writer.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('sees what the other connection appended and purged since its last search', async () => {
    const search = () =>
      reader.events
        .search({ tenant_id: 't1', user_id: 'u1', agent_id: 'a1', terms: ['quince', 'jelly'], now: NOW, limit: 10 })
        .then((hits) => hits.map((hit) => [hit.event.content, hit.score]));
    await writer.write([append(event({ content: 'quince jelly' }))]);
    const first = await search();
    expect(first.map(([content]) => content)).toEqual(['quince jelly']);
    await writer.write([append(event({ content: 'jelly beans', expires_at: '2026-06-01T12:30:00.000Z' }))]);
    const second = await search();
    expect(second.map(([content]) => content)).toEqual(['quince jelly', 'jelly beans']);
    expect(second[0]![1]).not.toBe(first[0]![1]);
    await writer.maintenance.purgeExpired('2026-06-01T13:00:00.000Z');
    expect(await search()).toEqual(first);
  });

  it('reads item versions as the other connection left them since its last read', async () => {
    const list = () =>
      reader.items
        .list({ tenant_id: 't1', owners: ['u:u1', 'a:a1', 't'], statuses: ['active'], order: 'desc', limit: 10 })
        .then((found) => found.map((record) => record.key));
    const tea = item({ key: 'tea' });
    const cup = item({ key: 'cup' });
    await writer.write([
      { op: 'put_item', item: tea },
      { op: 'put_item', item: cup },
    ]);
    expect(await list()).toEqual(['cup', 'tea']);
    expect((await reader.items.get('t1', tea.id))?.status).toBe('active');
    // The status lives in the index the listing reads and in the row it builds: both must be current.
    await writer.write([
      {
        op: 'set_item_status',
        tenant_id: 't1',
        item_id: tea.id,
        expected_status: 'active',
        status: 'superseded',
        ended_at: NOW,
        updated_at: NOW,
      },
    ]);
    expect((await reader.items.get('t1', tea.id))?.status).toBe('superseded');
    expect(await list()).toEqual(['cup']);
    await writer.maintenance.erase({ tenant_id: 't1', user_id: 'u1' });
    expect(await reader.items.get('t1', cup.id)).toBeNull();
    expect(await list()).toEqual([]);
  });

  it('refuses a number of kept words or items that is not a whole number of at least 0, naming the option', async () => {
    for (const value of [-1, 1.5, Number.NaN]) {
      for (const field of ['keptSearchTerms', 'keptItems'] as const) {
        const error = await expectCode(
          openSqliteStorage({ path: join(folder, 'other.db'), [field]: value }),
          'VALIDATION_FAILED',
        );
        expect(error.field).toBe(field);
      }
    }
  });

  it('keeps no item versions with keptItems 0 and reads the same', async () => {
    const plain = await openSqliteStorage({ path: join(folder, 'engram.db'), keptItems: 0 });
    try {
      await writer.write([
        { op: 'put_item', item: item({ key: 'tea' }) },
        { op: 'put_item', item: item({ key: 'cup' }) },
      ]);
      const list = (storage: StorageAdapter) =>
        storage.items.list({ tenant_id: 't1', owners: ['u:u1'], statuses: ['active'], limit: 10 });
      expect(await list(plain)).toEqual(await list(reader));
      expect(await list(reader)).toEqual(await list(plain));
      expect((await list(plain)).map((record) => record.key)).toEqual(['tea', 'cup']);
      // What the store keeps is read-only; with nothing kept, each read is the caller's own.
      expect(Object.isFrozen((await list(reader))[0])).toBe(true);
      expect(Object.isFrozen((await list(plain))[0])).toBe(false);
    } finally {
      await plain.close();
    }
  });

  it('keeps no words with keptSearchTerms 0 and finds the same', async () => {
    const plain = await openSqliteStorage({ path: join(folder, 'engram.db'), keptSearchTerms: 0 });
    try {
      await writer.write([append(event({ content: 'medlar jam' })), append(event({ content: 'medlar tart' }))]);
      const search = (storage: StorageAdapter) =>
        storage.events.search({
          tenant_id: 't1',
          user_id: 'u1',
          agent_id: 'a1',
          terms: ['medlar', 'tart'],
          now: NOW,
          limit: 10,
        });
      expect(await search(plain)).toEqual(await search(reader));
      expect((await search(plain)).map((hit) => hit.event.content)).toEqual(['medlar tart', 'medlar jam']);
    } finally {
      await plain.close();
    }
  });
});
