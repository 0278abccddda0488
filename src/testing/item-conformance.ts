// The storage conformance suite for long-term item versions: every field round-trips whoever owns it,
// a status changes only from the expected one, a version is deleted with its chunk, and lists filter
// by owner, type, status, key, id and time. Registered by describeStorageConformance.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { StorageAdapter, WriteOp } from '../index.js';
import { newId } from '../index.js';
import type { MemoryItem } from '../spec/items.js';
import type { ItemQuery, ItemSearchQuery } from '../spec/storage.js';
import { expectCode } from './expect-code.js';
import { agentItem, ids, item, put, sorted, VISIBLE } from './item-records.js';
import type { ConformanceInitializer } from './conformance-initializer.js';

// The other suites, their tests and `engram/testing` take `item` from here, where it was first defined.
export { item } from './item-records.js';

const T1 = '2026-06-01T10:00:00.000Z';
const T2 = '2026-06-01T10:30:00.000Z';
const T3 = '2026-06-01T11:00:00.000Z';
const T4 = '2026-06-01T11:30:00.000Z';
const NOW = '2026-06-01T12:00:00.000Z';
const LEASE_END = '2026-06-01T12:05:00.000Z';

function setStatus(
  record: MemoryItem,
  expected_status: MemoryItem['status'],
  status: MemoryItem['status'],
  at: string | null,
): WriteOp {
  return {
    op: 'set_item_status',
    tenant_id: record.tenant_id,
    item_id: record.id,
    expected_status,
    status,
    ended_at: at,
    updated_at: at ?? NOW,
  };
}

/**
 * Registers the long-term item tests for one adapter: versions, status changes, deletion, lists.
 *
 * @example
 * describeItemConformance('sqlite', init);
 */
export function describeItemConformance(name: string, init: ConformanceInitializer): void {
  describe(`storage conformance: ${name}: long-term items`, () => {
    let storage: StorageAdapter;
    beforeEach(async () => {
      storage = await init.create();
    });
    afterEach(async () => {
      await init.destroy(storage);
    });

    const list = (query: Partial<ItemQuery> = {}) =>
      storage.items.list({ tenant_id: 't1', owners: VISIBLE, limit: 10, ...query }).then(ids);
    const search = (terms: string[], query: Partial<ItemSearchQuery> = {}) =>
      storage.items
        .search({ tenant_id: 't1', owners: VISIBLE, terms, limit: 10, ...query })
        .then((hits) => hits.map((hit) => hit.item.id));

    it('round-trips every field of an item version, whoever owns it', async () => {
      const full = item({
        key: 'pref:editor:ünïcødé',
        value: { name: 'vim', 说明: '我更喜欢用中文 \u{1F600}', nested: { list: [1, 'two', null, { deep: true }] } },
        confidence: 0.37,
        sensitivity: 'private',
        valid_from: '2026-01-01T00:00:00.000Z',
        valid_to: '2027-01-01T00:00:00.000Z',
        salience: { consequence: 0.123456789, emotional_charge: 0.1, reusability: 0.7 },
        version: 3,
        supersedes: newId('mem'),
        source_event_ids: ['evt_a', 'evt_b'],
        evidence_refs: [
          { kind: 'event', ref: 'evt_a', span: [3, 17], evidence_id: 'evd_1', note: 'quoted' },
          { kind: 'url', ref: 'https://example.test/a?b=c' },
        ],
        provenance: { extractor: 'llm', rule: 'prompt-7', model: 'small-model' },
        tags: ['tools', 'ünï'],
        entities: ['Vim', '编辑器'],
        updated_at: T2,
      });
      const agentLevel = agentItem({ value: {}, confidence: 1 });
      const tenantLevel = item({
        scope_level: 'tenant',
        user_id: null,
        agent_id: null,
        type: 'profile',
        key: 'policy',
        confidence: 0,
        status: 'retracted',
        ended_at: T3,
        updated_at: T3,
      });
      await storage.write([full, agentLevel, tenantLevel].map((record): WriteOp => ({ op: 'put_item', item: record })));
      expect(await storage.items.get('t1', full.id)).toEqual(full);
      expect((await storage.items.get('t1', full.id))!.confidence).toBe(0.37);
      expect(await storage.items.get('t1', agentLevel.id)).toEqual(agentLevel);
      expect(await storage.items.get('t1', tenantLevel.id)).toEqual(tenantLevel);
      // The owner follows the scope level: u:<user>, a:<agent>, t.
      expect(await list({ owners: ['u:u1'] })).toEqual([full.id]);
      expect(await list({ owners: ['a:a1'] })).toEqual([agentLevel.id]);
      expect(await list({ owners: ['t'] })).toEqual([tenantLevel.id]);
      expect(await storage.items.get('t1', newId('mem'))).toBeNull();
      expect(await storage.items.get('t2', full.id)).toBeNull();
    });

    it('changes a status only from the expected one, and a failing change rolls back the whole write', async () => {
      const first = item();
      await storage.write([{ op: 'put_item', item: first }]);
      await storage.write([setStatus(first, 'active', 'superseded', T3)]);
      expect(await storage.items.get('t1', first.id)).toEqual({
        ...first,
        status: 'superseded',
        ended_at: T3,
        updated_at: T3,
      });
      // A second writer that read the version while it was active loses, and its new version is not kept.
      const second = item({ version: 2, supersedes: first.id, recorded_at: T3 });
      const conflict = await expectCode(
        storage.write([{ op: 'put_item', item: second }, setStatus(first, 'active', 'superseded', T4)]),
        'STATE_VERSION_CONFLICT',
      );
      expect(conflict.field).toBe('item_id');
      expect(await storage.items.get('t1', second.id)).toBeNull();
      expect((await storage.items.get('t1', first.id))!.ended_at).toBe(T3);
      await expectCode(
        storage.write([{ op: 'put_item', item: second }, setStatus(item(), 'active', 'retracted', T4)]),
        'NOT_FOUND',
      );
      await expectCode(
        storage.write([setStatus({ ...first, tenant_id: 't2' }, 'superseded', 'retracted', T4)]),
        'NOT_FOUND',
      );
      expect(await storage.items.get('t1', second.id)).toBeNull();
      await storage.write([setStatus(first, 'superseded', 'retracted', T4)]);
      expect(await storage.items.get('t1', first.id)).toMatchObject({
        status: 'retracted',
        ended_at: T4,
        updated_at: T4,
      });
    });

    it('deletes an item version with its chunk, in its tenant only', async () => {
      const gone = item();
      const kept = item();
      const twin = { ...gone, tenant_id: 't2' };
      await storage.write([...put(gone, 'kumquat gone'), ...put(kept, 'kumquat kept'), ...put(twin, 'kumquat twin')]);
      await storage.write([{ op: 'delete_item', tenant_id: 't1', item_id: gone.id }]);
      expect(await storage.items.get('t1', gone.id)).toBeNull();
      expect(await list()).toEqual([kept.id]);
      expect(await search(['kumquat'])).toEqual([kept.id]);
      expect(await storage.items.get('t2', gone.id)).toEqual(twin);
      expect(await search(['kumquat'], { tenant_id: 't2' })).toEqual([twin.id]);
      // Its chunk's embedding is no longer work.
      expect(
        sorted(
          (await storage.service.claimEmbeddingWork(10, NOW, LEASE_END)).map((work) => `${work.tenant_id}/${work.id}`),
        ),
      ).toEqual(sorted([`t1/${kept.id}`, `t2/${twin.id}`]));
    });

    it('lists item versions by owner, type, status, key and id, in creation order either way', async () => {
      const editor1 = item({ status: 'superseded', ended_at: T3 });
      const shell = item({ key: 'shell', type: 'profile' });
      const deploy = agentItem();
      const policy = item({
        scope_level: 'tenant',
        user_id: null,
        agent_id: null,
        type: 'profile',
        key: 'policy',
        status: 'retracted',
        ended_at: T3,
      });
      const editor2 = item({ version: 2, supersedes: editor1.id, recorded_at: T3 });
      const theirs = item({ user_id: 'u2' });
      const otherTenant = item({ tenant_id: 't2' });
      await storage.write(
        [editor1, shell, deploy, policy, editor2, theirs, otherTenant].map((record): WriteOp => ({
          op: 'put_item',
          item: record,
        })),
      );
      const all = ids([editor1, shell, deploy, policy, editor2]);
      expect(await list()).toEqual(all);
      expect(await list({ order: 'desc' })).toEqual([...all].reverse());
      expect(await list({ owners: ['u:u1'] })).toEqual(ids([editor1, shell, editor2]));
      expect(await list({ owners: ['u:u2'] })).toEqual([theirs.id]);
      expect(await list({ types: ['profile'] })).toEqual(ids([shell, policy]));
      expect(await list({ statuses: ['active'] })).toEqual(ids([shell, deploy, editor2]));
      expect(await list({ statuses: ['superseded', 'retracted'], order: 'desc' })).toEqual(ids([policy, editor1]));
      expect(await list({ keys: ['editor'] })).toEqual(ids([editor1, editor2]));
      expect(await list({ keys: ['editor', 'shell'], statuses: ['active'], order: 'desc' })).toEqual(
        ids([editor2, shell]),
      );
      expect(await list({ ids: [editor2.id, deploy.id, theirs.id, otherTenant.id] })).toEqual(ids([deploy, editor2]));
      expect(await list({ ids: [] })).toEqual([]);
      expect(await list({ keys: [] })).toEqual([]);
      expect(await list({ tenant_id: 't2', owners: ['u:u1'] })).toEqual([otherTenant.id]);
    });

    it('lists the newest versions across hundreds of owners, every status and several types', async () => {
      // 250 owners × 3 statuses × 2 types: more index ranges than one SQL statement may hold.
      const records = Array.from({ length: 250 }, (_, index) =>
        item({
          user_id: `u${index}`,
          key: `k${index}`,
          type: index % 2 === 0 ? 'preferences' : 'profile',
          ...(index % 5 === 0 ? { status: 'superseded' as const, ended_at: T3 } : {}),
        }),
      );
      await storage.write(records.map((record): WriteOp => ({ op: 'put_item', item: record })));
      const owners = records.map((record) => `u:${record.user_id}`);
      const all = ids(records);
      expect(await list({ owners, types: ['preferences', 'profile'], order: 'desc', limit: 7 })).toEqual(
        [...all].reverse().slice(0, 7),
      );
      expect(await list({ owners, types: ['preferences', 'profile'], limit: 300 })).toEqual(all);
      expect(await list({ owners, types: ['profile'], statuses: ['superseded'], limit: 300 })).toEqual(
        ids(records.filter((_, index) => index % 2 === 1 && index % 5 === 0)),
      );
    });

    it('pages item versions with a cursor both ways and honours the limit', async () => {
      const records = Array.from({ length: 5 }, (_, index) => item({ key: `k${index}` }));
      await storage.write(records.map((record): WriteOp => ({ op: 'put_item', item: record })));
      const pages = async (query: Partial<ItemQuery>): Promise<string[][]> => {
        const out: string[][] = [];
        for (let cursor: string | undefined; ;) {
          const page = await list({ ...query, limit: 2, ...(cursor === undefined ? {} : { cursor }) });
          if (page.length === 0) return out;
          out.push(page);
          cursor = page[page.length - 1];
        }
      };
      const [k0, k1, k2, k3, k4] = ids(records);
      expect(await pages({})).toEqual([[k0, k1], [k2, k3], [k4]]);
      expect(await pages({ order: 'desc' })).toEqual([[k4, k3], [k2, k1], [k0]]);
      expect(await pages({ keys: ['k1', 'k2', 'k3'], order: 'desc' })).toEqual([[k3, k2], [k1]]);
      expect(await pages({ ids: [k0!, k2!, k4!] })).toEqual([[k0, k2], [k4]]);
      expect(await list({ limit: 3 })).toEqual([k0, k1, k2]);
    });

    it('lists the versions recorded by a time, and the versions current at a time whatever their status now', async () => {
      const v1 = item({ recorded_at: T1, status: 'superseded', ended_at: T3, updated_at: T3 });
      const v2 = item({ version: 2, supersedes: v1.id, recorded_at: T3, updated_at: T3 });
      const shell = item({ key: 'shell', recorded_at: T2, status: 'retracted', ended_at: T4, updated_at: T4 });
      await storage.write([v1, v2, shell].map((record): WriteOp => ({ op: 'put_item', item: record })));
      expect(await list({ as_of: T1 })).toEqual([v1.id]);
      expect(await list({ as_of: T2 })).toEqual(ids([v1, shell]));
      expect(await list({ active_at: T2 })).toEqual(ids([v1, shell]));
      // At the moment v2 replaced v1, v2 is current and v1 is not.
      expect(await list({ active_at: T3 })).toEqual(ids([v2, shell]));
      expect(await list({ active_at: T4, keys: ['editor', 'shell'] })).toEqual([v2.id]);
      expect(await list({ active_at: '2026-06-01T09:00:00.000Z' })).toEqual([]);
      // Today's status does not decide, whatever statuses are asked; types, order and limit apply.
      expect(await list({ active_at: T2, statuses: ['active'] })).toEqual(ids([v1, shell]));
      expect(await list({ active_at: T3, order: 'desc', limit: 1 })).toEqual([shell.id]);
      expect(await list({ active_at: T3, types: ['profile'] })).toEqual([]);
      expect(await list({ active_at: T3, types: ['preferences'], owners: ['u:u1'] })).toEqual(ids([v2, shell]));
    });

    it('lists the keys of active items of some owners, newest first', async () => {
      const at = (minute: number) => `2026-06-01T10:0${minute}:00.000Z`;
      const records = [
        item({ key: 'editor', recorded_at: at(0), status: 'superseded', ended_at: at(4) }),
        item({ key: 'shell', recorded_at: at(1) }),
        agentItem({ key: 'deploy', recorded_at: at(2) }),
        item({ key: 'theme', recorded_at: at(3), status: 'retracted', ended_at: at(4) }),
        item({ key: 'editor', version: 2, recorded_at: at(4) }),
        item({ user_id: 'u2', key: 'not-mine', recorded_at: at(5) }),
        item({ tenant_id: 't2', key: 'other-tenant', recorded_at: at(6) }),
      ];
      await storage.write(records.map((record): WriteOp => ({ op: 'put_item', item: record })));
      expect(await storage.items.activeKeys('t1', VISIBLE, 10)).toEqual(['editor', 'deploy', 'shell']);
      expect(await storage.items.activeKeys('t1', ['u:u1'], 10)).toEqual(['editor', 'shell']);
      expect(await storage.items.activeKeys('t1', VISIBLE, 2)).toEqual(['editor', 'deploy']);
      expect(await storage.items.activeKeys('t1', ['u:u9'], 10)).toEqual([]);
      expect(await storage.items.activeKeys('t2', VISIBLE, 10)).toEqual(['other-tenant']);
    });
  });
}
