import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { createEngram, type Engram } from '../index.js';
import { replacementPatch } from './replacement-value.js';

describe('replacementPatch', () => {
  it('sets what the new value leaves out to null, nested objects included', () => {
    expect(
      replacementPatch(
        'tasks',
        { title: 'Ship', status: 'todo', due: '2026-05-01', meta: { a: 1, b: 2 } },
        { title: 'Ship', status: 'done', meta: { a: 1 } },
      ),
    ).toEqual({
      title: 'Ship',
      status: 'done',
      meta: { a: 1, b: null },
      due: null,
    });
  });

  it('ends the profile facts the new value leaves out', () => {
    const patch = replacementPatch(
      'profile',
      {
        subject: 'user',
        facts: [
          { k: 'location', v: 'Berlin' },
          { k: 'employer', v: 'Acme' },
        ],
      },
      { subject: 'user', facts: [{ k: 'location', v: 'Lisbon' }] },
    );
    expect(patch).toEqual({
      subject: 'user',
      facts: [
        { k: 'location', v: 'Lisbon' },
        { k: 'employer', v: null },
      ],
    });
  });
});

describe('remember with replace, restore, and forget with dry_run', () => {
  const scope = { user_id: 'mira', agent_id: 'assistant' };
  let engram: Engram;
  let tick = Date.parse('2026-06-01T12:00:00.000Z');

  beforeEach(async () => {
    engram = await createEngram({ store: 'sqlite::memory:', clock: { now: () => new Date((tick += 1000)) } });
  });
  afterEach(async () => {
    await engram?.close();
  });

  const current = async (key: string) => (await engram.items.list({ scope })).filter((item) => item.key === key);

  it('replaces a value whole where remember would merge', async () => {
    const key = 'task:life:passport';
    await engram.items.remember({
      scope,
      type: 'tasks',
      key,
      value: { task_id: 'passport', title: 'Renew passport', status: 'todo', due: '2026-07-01' },
    });
    await engram.items.remember({
      scope,
      type: 'tasks',
      key,
      value: { task_id: 'passport', title: 'Renew passport', status: 'todo' },
    });
    expect((await current(key))[0]!.value['due']).toBe('2026-07-01');
    const diffs = await engram.items.remember({
      scope,
      type: 'tasks',
      key,
      value: { task_id: 'passport', title: 'Renew passport', status: 'done' },
      replace: true,
      rule: 'inspector:ops',
    });
    expect(diffs.map((diff) => diff.action)).toEqual(['updated', 'superseded']);
    const [item] = await current(key);
    expect(item!.value).toEqual({ task_id: 'passport', title: 'Renew passport', status: 'done' });
    expect(item!.provenance).toEqual({ extractor: 'explicit', rule: 'inspector:ops' });
  });

  it('restores a superseded version as a new version with exactly its value, and a retracted one too', async () => {
    const key = 'profile:user';
    await engram.items.remember({
      scope,
      type: 'profile',
      key,
      value: { subject: 'user', facts: [{ k: 'location', v: 'Berlin' }] },
    });
    await engram.items.remember({
      scope,
      type: 'profile',
      key,
      value: {
        subject: 'user',
        facts: [
          { k: 'location', v: 'Lisbon' },
          { k: 'employer', v: 'Acme' },
        ],
      },
    });
    const [first] = await engram.items.history({ scope, key });
    const diffs = await engram.items.restore({ scope, item_id: first!.id, rule: 'inspector:ops' });
    expect(diffs[0]).toMatchObject({ action: 'updated', version: 3, rule: 'inspector:ops' });
    const [restored] = await current(key);
    expect(restored!.value).toEqual({ subject: 'user', facts: [{ k: 'location', v: 'Berlin' }] });
    expect(restored!.valid_from).toBe(first!.valid_from);
    expect((await engram.items.history({ scope, key })).map((item) => item.status)).toEqual([
      'superseded',
      'superseded',
      'active',
    ]);
    // Restoring the current version changes nothing.
    expect((await engram.items.restore({ scope, item_id: restored!.id }))[0]!.action).toBe('unchanged');
    await engram.items.forget({ scope, key });
    expect(await current(key)).toEqual([]);
    await engram.items.restore({ scope, item_id: restored!.id });
    expect((await current(key))[0]!.value).toEqual(restored!.value);
  });

  it('refuses to restore an item the scope cannot see', async () => {
    await engram.items.remember({
      scope: { user_id: 'ana', agent_id: 'assistant' },
      type: 'preferences',
      key: 'pref:food:diet',
      value: { scope: 'food', name: 'diet', value: 'vegetarian' },
    });
    const [item] = await engram.items.list({ scope: { user_id: 'ana' } });
    await expect(engram.items.restore({ scope, item_id: item!.id })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      field: 'item_id',
    });
  });

  it('answers what a forget would delete, and deletes nothing on a dry run', async () => {
    const key = 'pref:writing:tone';
    await engram.items.remember({
      scope,
      type: 'preferences',
      key,
      value: { scope: 'writing', name: 'tone', value: 'concise' },
    });
    await engram.items.remember({
      scope,
      type: 'preferences',
      key,
      value: { scope: 'writing', name: 'tone', value: 'plain' },
    });
    const planned = await engram.items.forget({ scope, key, mode: 'delete', dry_run: true });
    expect(planned.map((diff) => [diff.action, diff.version])).toEqual([
      ['deleted', 1],
      ['deleted', 2],
    ]);
    expect(await engram.items.history({ scope, key })).toHaveLength(2);
    await engram.items.forget({ scope, key, mode: 'delete' });
    expect(await engram.items.history({ scope, key })).toHaveLength(0);
  });
});
