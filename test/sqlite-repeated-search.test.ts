// A SQLite store keeps the rows of the words it searched lately; a write through another connection
// to the same file (another process, the CLI beside a server) is seen by the next search all the same.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { openSqliteStorage, type StorageAdapter } from '../src/index.js';
import { appendEvent as append, eventRecord as event } from './helpers/event-record.js';
import { expectCode } from './helpers/expect-code.js';

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
    const search = () => reader.searchEvents({ tenant_id: 't1', user_id: 'u1', agent_id: 'a1', terms: ['quince', 'jelly'], now: NOW, limit: 10 }).then((hits) => hits.map((hit) => [hit.event.content, hit.score]));
    await writer.write([append(event({ content: 'quince jelly' }))]);
    const first = await search();
    expect(first.map(([content]) => content)).toEqual(['quince jelly']);
    await writer.write([append(event({ content: 'jelly beans', expires_at: '2026-06-01T12:30:00.000Z' }))]);
    const second = await search();
    expect(second.map(([content]) => content)).toEqual(['quince jelly', 'jelly beans']);
    expect(second[0]![1]).not.toBe(first[0]![1]);
    await writer.purgeExpired('2026-06-01T13:00:00.000Z');
    expect(await search()).toEqual(first);
  });

  it('refuses a number of kept words that is not a whole number of at least 0, naming the option', async () => {
    for (const keptSearchTerms of [-1, 1.5, Number.NaN]) {
      const error = await expectCode(openSqliteStorage({ path: join(folder, 'other.db'), keptSearchTerms }), 'VALIDATION_FAILED');
      expect(error.field).toBe('keptSearchTerms');
    }
  });

  it('keeps no words with keptSearchTerms 0 and finds the same', async () => {
    const plain = await openSqliteStorage({ path: join(folder, 'engram.db'), keptSearchTerms: 0 });
    try {
      await writer.write([append(event({ content: 'medlar jam' })), append(event({ content: 'medlar tart' }))]);
      const search = (storage: StorageAdapter) => storage.searchEvents({ tenant_id: 't1', user_id: 'u1', agent_id: 'a1', terms: ['medlar', 'tart'], now: NOW, limit: 10 });
      expect(await search(plain)).toEqual(await search(reader));
      expect((await search(plain)).map((hit) => hit.event.content)).toEqual(['medlar tart', 'medlar jam']);
    } finally {
      await plain.close();
    }
  });
});
