import { describe, expect, it } from 'vitest';

import { NotFoundError, StorageError } from '../../spec/errors.js';
import type { StorageAreas } from '../../spec/storage.js';
import { guardedAreas } from './guarded-areas.js';

/** Areas whose methods do what each test needs; the rest are never called. */
function areas(overrides: Record<string, Record<string, unknown>>): StorageAreas {
  const empty = { events: {}, sessions: {}, items: {}, reviews: {}, runs: {}, service: {}, maintenance: {} };
  return { ...empty, ...overrides } as unknown as StorageAreas;
}

describe('guardedAreas', () => {
  it('turns a driver error into a StorageError naming the method, with the cause kept', async () => {
    const driver = new Error('SQLITE_CORRUPT: database disk image is malformed');
    const guarded = guardedAreas(
      areas({
        items: {
          get: () => {
            throw driver;
          },
        },
      }),
      { guard: () => undefined },
    );
    const failure = await guarded.items.get('t1', 'itm_1').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(StorageError);
    expect(failure).toMatchObject({
      code: 'STORAGE_FAILED',
      message: 'items.get failed: SQLITE_CORRUPT: database disk image is malformed',
      cause: driver,
    });
  });

  it('passes Engram errors through and types rejected promises too', async () => {
    const missing = new NotFoundError('job_id', 'j1');
    const guarded = guardedAreas(
      areas({
        service: {
          completeJob: async () => Promise.reject(missing),
          listJobs: async () => Promise.reject(new Error('connection reset')),
        },
      }),
      { guard: () => undefined },
    );
    await expect(guarded.service.completeJob('t1', 'j1', 'done', null, 'now')).rejects.toBe(missing);
    await expect(guarded.service.listJobs({ tenant_id: 't1', limit: 1 })).rejects.toMatchObject({
      code: 'STORAGE_FAILED',
      message: 'service.listJobs failed: connection reset',
    });
  });

  it('rejects (never throws) once the guard refuses, without calling the method', async () => {
    let calls = 0;
    const closed = new StorageError('the store is closed', { field: 'store' });
    const guarded = guardedAreas(
      areas({
        events: {
          get: async () => {
            calls += 1;
            return null;
          },
        },
      }),
      {
        guard: () => {
          throw closed;
        },
      },
    );
    const pending = guarded.events.get('t1', 'evt_1', 'now');
    await expect(pending).rejects.toBe(closed);
    expect(calls).toBe(0);
  });

  it('guards an export when reading starts and types what its pages throw', async () => {
    let open = true;
    async function* records() {
      yield { kind: 'event' };
      throw new Error('cursor lost');
    }
    const guarded = guardedAreas(areas({ maintenance: { exportRecords: () => records() } }), {
      guard: () => {
        if (!open) throw new StorageError('the store is closed', { field: 'store' });
      },
    });
    const seen: unknown[] = [];
    await expect(
      (async () => {
        for await (const record of guarded.maintenance.exportRecords({ tenant_id: 't1' })) seen.push(record);
      })(),
    ).rejects.toMatchObject({ message: 'maintenance.exportRecords failed: cursor lost' });
    expect(seen).toEqual([{ kind: 'event' }]);
    open = false;
    const iterator = guarded.maintenance.exportRecords({ tenant_id: 't1' })[Symbol.asyncIterator]();
    await expect(iterator.next()).rejects.toMatchObject({ code: 'STORAGE_FAILED', field: 'store' });
  });

  it('wraps the methods a class instance inherits', async () => {
    class Runs {
      async getState(): Promise<null> {
        return null;
      }
    }
    const guarded = guardedAreas(areas({ runs: new Runs() as unknown as Record<string, unknown> }), {
      guard: () => undefined,
    });
    expect(await guarded.runs.getState({ tenant_id: 't1', user_id: 'u1', agent_id: 'a1', run_id: 'r1' })).toBeNull();
  });
});
