// The Engram object's own surface: what the transports may read (public methods grouped by area,
// never the store), every area failing typed once closed, and the readiness check.

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
    const [diff] = await t.engram.items.remember({
      scope,
      type: 'preferences',
      key: 'pref:writing:tone',
      value: { scope: 'writing', name: 'tone', value: 'concise' },
    });
    const id = diff!.item_id;
    expect(await t.engram.items.get(id)).toMatchObject({ id, key: 'pref:writing:tone', status: 'active' });
    expect(await t.engram.items.get(id, 'default')).toMatchObject({ id });
    await expect(t.engram.items.get(id, 'acme')).rejects.toMatchObject({ code: 'NOT_FOUND', field: 'item_id' });
    await expect(t.engram.items.get('mem_00000000000000000000000000')).rejects.toMatchObject({
      code: 'NOT_FOUND',
      field: 'item_id',
    });
    await expect(t.engram.items.get('evt_00000000000000000000000000')).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      field: 'item_id',
    });
    await expect(t.engram.items.get(id, '')).rejects.toMatchObject({ code: 'VALIDATION_FAILED', field: 'tenant_id' });
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

  it('closed: a call of any area fails with CONFIG_INVALID on `engram`, before it reads its arguments', async () => {
    const other = await tempEngram('2026-06-01T12:00:00.000Z', { embeddings: { provider: 'none' } });
    await other.cleanup();
    const { engram } = other;
    const closed = { code: 'CONFIG_INVALID', field: 'engram', message: 'this Engram is closed' };
    const calls: Array<[string, () => unknown]> = [
      ['commitTurn', () => engram.commitTurn({ scope, turn_id: 't1', messages: [] })],
      ['compose', () => engram.compose({ scope, purpose: 'responder' })],
      ['reflect', () => engram.reflect({ scope: { ...scope, run_id: 'r1' } })],
      ['sessions.workingState', () => engram.sessions.workingState(scope)],
      ['sessions.updateWorkingState', () => engram.sessions.updateWorkingState({ scope, expected_version: 0 })],
      ['sessions.summary', () => engram.sessions.summary(scope)],
      ['sessions.scopes', () => engram.sessions.scopes()],
      ['events.list', () => engram.events.list({ scope })],
      ['events.get', () => engram.events.get('not an id')],
      ['events.searchPage', () => engram.events.searchPage({ scope, query: 'tea' })],
      ['items.remember', () => engram.items.remember({} as never)],
      ['items.get', () => engram.items.get('not an id')],
      ['items.search', () => engram.items.search({ scope, query: 'tea' })],
      ['items.reextract', () => engram.items.reextract({ user_id: 'u' })],
      ['builds.get', () => engram.builds.get('not an id')],
      ['builds.list', () => engram.builds.list()],
      ['builds.replay', () => engram.builds.replay('not an id')],
      ['builds.explain', () => engram.builds.explain({ build_id: 'x', id: 'y' })],
      ['review.list', () => engram.review.list({ scope })],
      ['insights.list', () => engram.insights.list({ scope })],
      ['runs.get', () => engram.runs.get({ ...scope, run_id: 'r1' })],
      ['keys.list', () => engram.keys.list()],
      ['maintenance.exportData', () => engram.maintenance.exportData()],
      ['maintenance.erase', () => engram.maintenance.erase({ user_id: 'u' })],
      ['maintenance.runJobs', () => engram.maintenance.runJobs(0)],
      ['maintenance.runEmbeddings', () => engram.maintenance.runEmbeddings(0)],
      ['maintenance.listJobs', () => engram.maintenance.listJobs({ limit: 0 })],
      ['maintenance.mergeIndexes', () => engram.maintenance.mergeIndexes(0)],
      ['registerPolicy', () => engram.registerPolicy({ policy_id: 'p', purposes: {} })],
    ];
    // Only the two synchronous methods throw; every other one gives back a promise that rejects.
    const synchronous = new Set(['maintenance.exportData', 'registerPolicy']);
    for (const [name, call] of calls) {
      let thrown: unknown = null;
      let answer: unknown;
      try {
        answer = call();
      } catch (error) {
        thrown = error;
      }
      if (synchronous.has(name)) expect(thrown, name).toMatchObject(closed);
      else await expect(answer as Promise<unknown>, name).rejects.toMatchObject(closed);
    }
  });
});
