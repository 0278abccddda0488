// The Engram object's own surface: what the transports may read (public methods, never the store)
// and the getters and the readiness check they answer with.

import { afterEach, beforeEach, describe, expect, expectTypeOf, it } from 'vitest';

import type { Engram } from '../index.js';
import { scope, tempEngram, type TempEngram } from '../../test/helpers/temp-engram.js';

let t: TempEngram;
beforeEach(async () => {
  t = await tempEngram('2026-06-01T12:00:00.000Z', { embeddings: { provider: 'none' } });
});
afterEach(async () => {
  await t.cleanup();
});

describe('Engram', () => {
  it('keeps its store to itself: the HTTP server, MCP and the CLI reach it through methods only', () => {
    // Checked by the typechecker: a public `storage` would let a transport skip the checks of the methods.
    expectTypeOf<Engram>().not.toHaveProperty('storage');
  });

  it('getItem: any version of an item of the tenant by id; another tenant, or an id no item has, is NOT_FOUND', async () => {
    const [diff] = await t.engram.remember({
      scope,
      type: 'preferences',
      key: 'pref:writing:tone',
      value: { scope: 'writing', name: 'tone', value: 'concise' },
    });
    const id = diff!.item_id;
    expect(await t.engram.getItem(id)).toMatchObject({ id, key: 'pref:writing:tone', status: 'active' });
    expect(await t.engram.getItem(id, 'default')).toMatchObject({ id });
    await expect(t.engram.getItem(id, 'acme')).rejects.toMatchObject({ code: 'NOT_FOUND', field: 'item_id' });
    await expect(t.engram.getItem('mem_00000000000000000000000000')).rejects.toMatchObject({
      code: 'NOT_FOUND',
      field: 'item_id',
    });
    await expect(t.engram.getItem('evt_00000000000000000000000000')).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      field: 'item_id',
    });
    await expect(t.engram.getItem(id, '')).rejects.toMatchObject({ code: 'VALIDATION_FAILED', field: 'tenant_id' });
  });

  it('ready: resolves while the store answers; a closed store or a closed Engram is STORAGE_FAILED', async () => {
    await expect(t.engram.ready()).resolves.toBeUndefined();
    await t.storage.close();
    await expect(t.engram.ready()).rejects.toMatchObject({
      code: 'STORAGE_FAILED',
      message: 'the store did not answer a read',
    });
    const other = await tempEngram('2026-06-01T12:00:00.000Z', { embeddings: { provider: 'none' } });
    await other.cleanup();
    await expect(other.engram.ready()).rejects.toMatchObject({ code: 'STORAGE_FAILED' });
  });
});
