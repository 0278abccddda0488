// Correcting memory over HTTP, as the inspector does: an edit that replaces a value whole with the
// key's label in its provenance, a restore of a superseded version, a dry-run forget that says what
// goes, each write refused to a read key; items and candidates read as the line a packet shows;
// a stored build rendered as prompt text; and reflecting over the same run twice adds nothing.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createClient } from '../../src/client/index.js';
import type { ItemDiff, MemoryItem, MemoryPacket, ReflectResult, ReviewCandidate } from '../../src/index.js';
import { startHarness, type Harness, type Page } from './harness.js';

const scope = { user_id: 'mira', agent_id: 'assistant' };
const key = 'pref:writing:tone';
const tone = (value: string) => ({ scope: 'writing', name: 'tone', value });

describe('correcting memory over HTTP', () => {
  let h: Harness;
  const diffs = (body: unknown) => (body as { diffs: ItemDiff[] }).diffs;
  const versions = async () =>
    (
      await h.call<Page<MemoryItem & { text: string }>>(
        'GET',
        `/v1/items/history?user_id=mira&agent_id=assistant&key=${key}`,
        { key: h.keys.a.read },
      )
    ).body.items;

  beforeAll(async () => {
    h = await startHarness();
    await h.call('POST', '/v1/items', {
      key: h.keys.a.write,
      body: { scope, type: 'preferences', key, value: { ...tone('concise'), note: 'from a chat' } },
    });
  });
  afterAll(() => h.close());

  it('edits a value whole as a new version whose provenance names the key’s label', async () => {
    // A claim to be another key is overwritten with this key's label.
    const edit = await h.call('POST', '/v1/items', {
      key: h.keys.a.write,
      body: { scope, type: 'preferences', key, value: tone('plain'), replace: true, rule: 'inspector:someone-else' },
    });
    expect(edit.status).toBe(200);
    expect(diffs(edit.body).map((diff) => [diff.action, diff.rule])).toEqual([
      ['updated', 'inspector:tenant-a write'],
      ['superseded', 'inspector:tenant-a write'],
    ]);
    const [first, second] = await versions();
    expect(first).toMatchObject({ status: 'superseded', text: 'Prefers concise (writing tone)' });
    expect(second).toMatchObject({
      status: 'active',
      version: 2,
      value: tone('plain'),
      provenance: { extractor: 'explicit', rule: 'inspector:tenant-a write' },
      text: 'Prefers plain (writing tone)',
    });
    // Any other rule is kept as sent.
    const other = await h.call('POST', '/v1/items', {
      key: h.keys.a.write,
      body: {
        scope,
        type: 'preferences',
        key: 'pref:food:diet',
        value: { scope: 'food', name: 'diet', value: 'vegetarian' },
        rule: 'crm-sync',
      },
    });
    expect(diffs(other.body)[0]!.rule).toBe('crm-sync');
  });

  it('restores a superseded version as a new version, visible in the history', async () => {
    const [first] = await versions();
    const restored = await h.call('POST', '/v1/items/restore', {
      key: h.keys.a.write,
      body: { scope, item_id: first!.id, rule: 'inspector' },
    });
    expect(restored.status).toBe(200);
    expect(diffs(restored.body)[0]).toMatchObject({ action: 'updated', version: 3, rule: 'inspector:tenant-a write' });
    const all = await versions();
    expect(all.map((item) => [item.version, item.status])).toEqual([
      [1, 'superseded'],
      [2, 'superseded'],
      [3, 'active'],
    ]);
    expect(all[2]!.value).toEqual(first!.value);
    const item = await h.call<MemoryItem & { text: string }>('GET', `/v1/items/${all[2]!.id}`, { key: h.keys.a.read });
    expect(item.body.text).toBe('Prefers concise (writing tone)');
  });

  it('refuses every correction to a read key, and restores nothing of another tenant', async () => {
    const [first] = await versions();
    for (const [path, body] of [
      ['/v1/items', { scope, type: 'preferences', key, value: tone('loud'), replace: true }],
      ['/v1/items/restore', { scope, item_id: first!.id }],
      ['/v1/items/forget', { scope, key }],
    ] as const) {
      const refused = await h.call<{ code: string }>('POST', path, { key: h.keys.a.read, body });
      expect(refused.status, path).toBe(403);
      expect(refused.body.code).toBe('FORBIDDEN');
    }
    const elsewhere = await h.call<{ code: string; field: string }>('POST', '/v1/items/restore', {
      key: h.keys.b.write,
      body: { scope, item_id: first!.id },
    });
    expect([elsewhere.status, elsewhere.body.field]).toEqual([404, 'item_id']);
    const malformed = await h.call<{ field: string }>('POST', '/v1/items/restore', {
      key: h.keys.a.write,
      body: { scope, item_id: 'mem_x' },
    });
    expect([malformed.status, malformed.body.field]).toEqual([400, 'item_id']);
  });

  it('answers what a delete would remove without removing it, then removes it', async () => {
    const planned = await h.call('POST', '/v1/items/forget', {
      key: h.keys.a.write,
      body: { scope, key, mode: 'delete', dry_run: true },
    });
    expect(diffs(planned.body).map((diff) => [diff.action, diff.version])).toEqual([
      ['deleted', 1],
      ['deleted', 2],
      ['deleted', 3],
    ]);
    expect(await versions()).toHaveLength(3);
    await h.call('POST', '/v1/items/forget', { key: h.keys.a.write, body: { scope, key, mode: 'delete' } });
    expect(await versions()).toHaveLength(0);
  });

  it('tells a key what it is', async () => {
    const me = await h.call('GET', '/v1/whoami', { key: h.keys.a.read });
    expect(me.body).toMatchObject({ tenant_id: 'tenant-a', role: 'read', label: 'tenant-a read' });
    expect(String(me.body['key_id'])).toMatch(/^key_/);
  });

  it('restores through engram/client, and the client tells its key', async () => {
    const client = createClient({ baseUrl: h.url, apiKey: h.keys.a.write });
    expect(await client.keys.whoami()).toMatchObject({ role: 'write', label: 'tenant-a write' });
    const diet = { user_id: 'mira', agent_id: 'assistant', key: 'pref:food:diet' };
    await client.items.remember({
      scope,
      type: 'preferences',
      key: diet.key,
      value: { scope: 'food', name: 'diet', value: 'vegan' },
    });
    const [first] = (await client.items.history(diet)).items;
    expect((await client.items.restore({ scope, item_id: first!.id, rule: 'inspector' }))[0]).toMatchObject({
      action: 'updated',
      rule: 'inspector:tenant-a write',
    });
  });

  it('renders a stored build as prompt text on request', async () => {
    const run = { ...scope, session_id: 's1', run_id: 'r1' };
    await h.call('POST', '/v1/turns', {
      key: h.keys.a.write,
      body: { scope: run, turn_id: 't1', messages: [{ role: 'user', content: 'I live in Lisbon.' }] },
    });
    const composed = await h.call<{ packet: MemoryPacket; text: string }>('POST', '/v1/compose?render=markdown', {
      key: h.keys.a.read,
      body: { scope: run, purpose: 'responder' },
    });
    const id = composed.body.packet.explain.determinism!['context_build_id'] as string;
    const build = await h.call<{ text?: string }>('GET', `/v1/builds/${id}?render=markdown`, { key: h.keys.a.read });
    expect(build.body.text).toBe(composed.body.text);
    expect(
      (await h.call<{ text?: string }>('GET', `/v1/builds/${id}`, { key: h.keys.a.read })).body.text,
    ).toBeUndefined();
  });

  it('adds nothing when the same run is reflected twice, and lists candidates with the line they write', async () => {
    const run = { user_id: 'ana', agent_id: 'assistant', session_id: 's9', run_id: 'r9' };
    await h.call('POST', '/v1/turns', {
      key: h.keys.a.write,
      body: {
        scope: run,
        turn_id: 'u1',
        messages: [{ role: 'user', content: 'I prefer a concise tone. Can you outline the Atlas launch plan?' }],
      },
    });
    await h.call('POST', '/v1/turns', {
      key: h.keys.a.write,
      body: {
        scope: run,
        turn_id: 'u2',
        messages: [{ role: 'user', content: 'Please keep a concise tone in the outline.' }],
      },
    });
    const reflect = async () =>
      (
        await h.call<ReflectResult>('POST', '/v1/reflections', {
          key: h.keys.a.write,
          body: { scope: { user_id: 'ana', agent_id: 'assistant', run_id: 'r9' } },
        })
      ).body;
    const first = await reflect();
    expect(first.candidates.length).toBeGreaterThan(0);
    expect((await reflect()).candidates).toEqual([]);
    const listed = (
      await h.call<Page<ReviewCandidate & { text: string | null }>>('GET', '/v1/review?user_id=ana&status=pending', {
        key: h.keys.a.read,
      })
    ).body.items;
    expect(listed.map((candidate) => candidate.id).sort()).toEqual(
      first.candidates.map((candidate) => candidate.id).sort(),
    );
    const preference = listed.find((candidate) => candidate.target.write === 'item' && candidate.target.key === key);
    expect(preference?.text).toBe('Prefers concise (writing tone)');
  });
});
