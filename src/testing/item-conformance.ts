// The storage conformance suite for long-term memory: item versions and their status changes, the
// derived chunks (full-text search, the embedding queue, stored vectors, nearest neighbours) and
// context builds. Registered by describeStorageConformance, so it runs against every adapter through
// the same initializer.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { StorageAdapter, WriteOp } from '../index.js';
import { newId } from '../index.js';
import { ownerOf, type MemoryItem } from '../spec/items.js';
import type { MemoryPacket } from '../spec/packet.js';
import type { BuildQuery, ContextBuild, EmbeddingResult, ItemQuery, ItemSearchQuery, NearestItemsQuery, PutChunkOp } from '../spec/storage.js';
import { queryTerms, searchText } from '../util/segment.js';
import { dot, normalise } from '../util/vectors.js';
import { eventRecord } from './event-record.js';
import { expectCode } from './expect-code.js';
import type { ConformanceInitializer } from './conformance-initializer.js';

const T1 = '2026-06-01T10:00:00.000Z';
const T2 = '2026-06-01T10:30:00.000Z';
const T3 = '2026-06-01T11:00:00.000Z';
const T4 = '2026-06-01T11:30:00.000Z';
const NOW = '2026-06-01T12:00:00.000Z';
const LEASE_END = '2026-06-01T12:05:00.000Z';
const AFTER_LEASE = '2026-06-01T12:06:00.000Z';
/** What user u1 talking to agent a1 sees: their items, the agent's, the tenant's. */
const VISIBLE = ['u:u1', 'a:a1', 't'];

/** An active user-level preference of t1/u1 (learned with agent a1), with any field overridden. */
export function item(overrides: Partial<MemoryItem> = {}): MemoryItem {
  return {
    id: newId('mem'), tenant_id: 't1', user_id: 'u1', agent_id: 'a1', scope_level: 'user', type: 'preferences',
    key: 'editor', value: { name: 'vim' }, confidence: 0.9, status: 'active', sensitivity: 'normal', valid_from: null,
    valid_to: null, salience: { consequence: 0.2, emotional_charge: 0.1, reusability: 0.8 }, version: 1, supersedes: null,
    source_event_ids: [], evidence_refs: [], provenance: { extractor: 'rules', rule: 'test' }, tags: [], entities: [],
    recorded_at: T1, updated_at: T1, ended_at: null, ...overrides,
  };
}

const agentItem = (overrides: Partial<MemoryItem> = {}) => item({ scope_level: 'agent', user_id: null, type: 'procedure', key: 'procedure:deploy:rollback', ...overrides });

/** The chunk of an item with `text` as its words (no chunk with `null`). */
function chunk(record: MemoryItem, text: string | null, embedding_status: PutChunkOp['embedding_status'] = 'pending'): PutChunkOp {
  const owner = ownerOf(record.scope_level, record.user_id, record.agent_id);
  return { op: 'put_chunk', tenant_id: record.tenant_id, item_id: record.id, owner, text, search_text: text === null ? null : searchText(text), embedding_status };
}

/** The item and its chunk (by default its key as text). */
const put = (record: MemoryItem, text: string = record.key): WriteOp[] => [{ op: 'put_item', item: record }, chunk(record, text)];

function setStatus(record: MemoryItem, expected_status: MemoryItem['status'], status: MemoryItem['status'], at: string | null): WriteOp {
  return { op: 'set_item_status', tenant_id: record.tenant_id, item_id: record.id, expected_status, status, ended_at: at, updated_at: at ?? NOW };
}

const ids = (rows: ReadonlyArray<{ id: string }>) => rows.map((row) => row.id);
const sorted = (values: readonly string[]) => [...values].sort();

/** A complete packet whose values exercise JSON: unicode, nesting, nulls, non-integer numbers. */
function packet(): MemoryPacket {
  const scope = { tenant_id: 't1', user_id: 'u1', agent_id: 'a1', session_id: 's1', run_id: 'r1' };
  return {
    meta: {
      schema_version: 'v1', scope, generated_at: T1, purpose: 'planner', cues: { query: 'which editor? 编辑器 \u{1F4DD}', keywords: ['editor'] },
      budget: { max_tokens: 800, per_section: { working_state: 100, facts: 300, procedures: 100, short_term_summary: 100, episodes: 100, insights: 100 } },
    },
    short_term: { working_state: { goal: 'pick an editor', state_version: 3 }, rolling_summary: 'Talked about editors.', key_quotes: [{ evidence_id: 'evt_a', quote: '“vim, always”', role: 'user' }] },
    long_term: {
      facts: [{ fact_id: 'mem_a', fact_key: 'editor', value: { name: 'vim', plugins: ['fzf', { lsp: null }] }, status: 'active', validity: { valid_from: T1, valid_to: null }, confidence: 0.37, sources: ['evt_a'] }],
      procedures: [], episodes: [],
    },
    insight: { usage_policy: { allow_in_responder: false }, hypotheses: [], strategy_sketches: [], patterns: [] },
    citations: [{ id: 'evt_a', type: 'event', ts: T1, summary: 'ünïcødé' }],
    budget_report: { max_tokens: 800, used_tokens_est: 123, section_usage: { facts: 61.5 }, degradations: [] },
    explain: { selected: ['mem_a'], omitted: [{ item: 'mem_b', reason: 'budget' }], filters: { nested: { depth: [1, 2] } }, conflicts: [] },
  };
}

/** A context build of t1/u1/a1/s1/r1, with any field overridden. */
function build(overrides: Partial<ContextBuild> = {}): ContextBuild {
  return {
    id: newId('ctx'), tenant_id: 't1', user_id: 'u1', agent_id: 'a1', session_id: 's1', run_id: 'r1', purpose: 'planner',
    request: { purpose: 'planner', cues: { query: 'editor' } }, as_of: T1, selected: ['mem_a'], packet_hash: 'sha256:0',
    packet: packet(), created_at: T1, ...overrides,
  };
}

/**
 * Registers the long-term memory part of the conformance suite: items, chunks, search, embeddings
 * and vectors, context builds.
 *
 * @example
 * describeItemConformance('sqlite', init);
 */
export function describeItemConformance(name: string, init: ConformanceInitializer): void {
  describe(`storage conformance: ${name}: long-term items, search, embeddings, context builds`, () => {
    let storage: StorageAdapter;
    beforeEach(async () => {
      storage = await init.create();
    });
    afterEach(async () => {
      await init.destroy(storage);
    });

    const list = (query: Partial<ItemQuery> = {}) => storage.items.list({ tenant_id: 't1', owners: VISIBLE, limit: 10, ...query }).then(ids);
    const search = (terms: string[], query: Partial<ItemSearchQuery> = {}) =>
      storage.items.search({ tenant_id: 't1', owners: VISIBLE, terms, limit: 10, ...query }).then((hits) => hits.map((hit) => hit.item.id));
    const nearest = (vector: number[], query: Partial<NearestItemsQuery> = {}) =>
      storage.items.nearest({ tenant_id: 't1', owners: VISIBLE, statuses: ['active'], vector: normalise(vector), limit: 10, ...query });

    /** Claims every queued chunk and stores the vector given for its item (skipped when there is none). */
    async function embed(vectors: Record<string, number[]>): Promise<void> {
      const work = await storage.service.claimEmbeddingWork(100, NOW, LEASE_END);
      const results = work.map((entry): EmbeddingResult => {
        const values = vectors[entry.id];
        return { target: entry.target, tenant_id: entry.tenant_id, id: entry.id, vector: values === undefined ? null : normalise(values) };
      });
      await storage.service.completeEmbeddingWork(results, 'test:model', NOW);
    }

    it('round-trips every field of an item version, whoever owns it', async () => {
      const full = item({
        key: 'pref:editor:ünïcødé', value: { name: 'vim', 说明: '我更喜欢用中文 \u{1F600}', nested: { list: [1, 'two', null, { deep: true }] } },
        confidence: 0.37, sensitivity: 'private', valid_from: '2026-01-01T00:00:00.000Z', valid_to: '2027-01-01T00:00:00.000Z',
        salience: { consequence: 0.123456789, emotional_charge: 0.1, reusability: 0.7 }, version: 3, supersedes: newId('mem'),
        source_event_ids: ['evt_a', 'evt_b'], evidence_refs: [{ kind: 'event', ref: 'evt_a', span: [3, 17], evidence_id: 'evd_1', note: 'quoted' }, { kind: 'url', ref: 'https://example.test/a?b=c' }],
        provenance: { extractor: 'llm', rule: 'prompt-7', model: 'small-model' }, tags: ['tools', 'ünï'], entities: ['Vim', '编辑器'], updated_at: T2,
      });
      const agentLevel = agentItem({ value: {}, confidence: 1 });
      const tenantLevel = item({ scope_level: 'tenant', user_id: null, agent_id: null, type: 'profile', key: 'policy', confidence: 0, status: 'retracted', ended_at: T3, updated_at: T3 });
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
      expect(await storage.items.get('t1', first.id)).toEqual({ ...first, status: 'superseded', ended_at: T3, updated_at: T3 });
      // A second writer that read the version while it was active loses, and its new version is not kept.
      const second = item({ version: 2, supersedes: first.id, recorded_at: T3 });
      const conflict = await expectCode(storage.write([{ op: 'put_item', item: second }, setStatus(first, 'active', 'superseded', T4)]), 'STATE_VERSION_CONFLICT');
      expect(conflict.field).toBe('item_id');
      expect(await storage.items.get('t1', second.id)).toBeNull();
      expect((await storage.items.get('t1', first.id))!.ended_at).toBe(T3);
      await expectCode(storage.write([{ op: 'put_item', item: second }, setStatus(item(), 'active', 'retracted', T4)]), 'NOT_FOUND');
      await expectCode(storage.write([setStatus({ ...first, tenant_id: 't2' }, 'superseded', 'retracted', T4)]), 'NOT_FOUND');
      expect(await storage.items.get('t1', second.id)).toBeNull();
      await storage.write([setStatus(first, 'superseded', 'retracted', T4)]);
      expect(await storage.items.get('t1', first.id)).toMatchObject({ status: 'retracted', ended_at: T4, updated_at: T4 });
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
      expect(sorted((await storage.service.claimEmbeddingWork(10, NOW, LEASE_END)).map((work) => `${work.tenant_id}/${work.id}`))).toEqual(sorted([`t1/${kept.id}`, `t2/${twin.id}`]));
    });

    it('lists item versions by owner, type, status, key and id, in creation order either way', async () => {
      const editor1 = item({ status: 'superseded', ended_at: T3 });
      const shell = item({ key: 'shell', type: 'profile' });
      const deploy = agentItem();
      const policy = item({ scope_level: 'tenant', user_id: null, agent_id: null, type: 'profile', key: 'policy', status: 'retracted', ended_at: T3 });
      const editor2 = item({ version: 2, supersedes: editor1.id, recorded_at: T3 });
      const theirs = item({ user_id: 'u2' });
      const otherTenant = item({ tenant_id: 't2' });
      await storage.write([editor1, shell, deploy, policy, editor2, theirs, otherTenant].map((record): WriteOp => ({ op: 'put_item', item: record })));
      const all = ids([editor1, shell, deploy, policy, editor2]);
      expect(await list()).toEqual(all);
      expect(await list({ order: 'desc' })).toEqual([...all].reverse());
      expect(await list({ owners: ['u:u1'] })).toEqual(ids([editor1, shell, editor2]));
      expect(await list({ owners: ['u:u2'] })).toEqual([theirs.id]);
      expect(await list({ types: ['profile'] })).toEqual(ids([shell, policy]));
      expect(await list({ statuses: ['active'] })).toEqual(ids([shell, deploy, editor2]));
      expect(await list({ statuses: ['superseded', 'retracted'], order: 'desc' })).toEqual(ids([policy, editor1]));
      expect(await list({ keys: ['editor'] })).toEqual(ids([editor1, editor2]));
      expect(await list({ keys: ['editor', 'shell'], statuses: ['active'], order: 'desc' })).toEqual(ids([editor2, shell]));
      expect(await list({ ids: [editor2.id, deploy.id, theirs.id, otherTenant.id] })).toEqual(ids([deploy, editor2]));
      expect(await list({ ids: [] })).toEqual([]);
      expect(await list({ keys: [] })).toEqual([]);
      expect(await list({ tenant_id: 't2', owners: ['u:u1'] })).toEqual([otherTenant.id]);
    });

    it('lists the newest versions across hundreds of owners, every status and several types', async () => {
      // 250 owners × 3 statuses × 2 types: more index ranges than one SQL statement may hold.
      const records = Array.from({ length: 250 }, (_, index) =>
        item({ user_id: `u${index}`, key: `k${index}`, type: index % 2 === 0 ? 'preferences' : 'profile', ...(index % 5 === 0 ? { status: 'superseded' as const, ended_at: T3 } : {}) }),
      );
      await storage.write(records.map((record): WriteOp => ({ op: 'put_item', item: record })));
      const owners = records.map((record) => `u:${record.user_id}`);
      const all = ids(records);
      expect(await list({ owners, types: ['preferences', 'profile'], order: 'desc', limit: 7 })).toEqual([...all].reverse().slice(0, 7));
      expect(await list({ owners, types: ['preferences', 'profile'], limit: 300 })).toEqual(all);
      expect(await list({ owners, types: ['profile'], statuses: ['superseded'], limit: 300 })).toEqual(ids(records.filter((_, index) => index % 2 === 1 && index % 5 === 0)));
    });

    it('pages item versions with a cursor both ways and honours the limit', async () => {
      const records = Array.from({ length: 5 }, (_, index) => item({ key: `k${index}` }));
      await storage.write(records.map((record): WriteOp => ({ op: 'put_item', item: record })));
      const pages = async (query: Partial<ItemQuery>): Promise<string[][]> => {
        const out: string[][] = [];
        for (let cursor: string | undefined; ; ) {
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

    it('finds items by the words of their chunk, scoped to owners and tenant, the item matching more words first', async () => {
      const both = item({ key: 'checklist' });
      const notes = item({ key: 'notes' });
      const plan = agentItem();
      const theirs = item({ user_id: 'u2' });
      const otherTenant = item({ tenant_id: 't2' });
      await storage.write([
        ...put(both, 'The release checklist lives in docs'), ...put(notes, 'release notes for the spring'), ...put(plan, 'the release plan'),
        ...put(theirs, 'release checklist of someone else'), ...put(otherTenant, 'release checklist elsewhere'),
      ]);
      const hits = await storage.items.search({ tenant_id: 't1', owners: VISIBLE, terms: queryTerms('release checklist'), limit: 10 });
      expect(hits.map((hit) => hit.item.id)[0]).toBe(both.id);
      expect(sorted(hits.slice(1).map((hit) => hit.item.id))).toEqual(sorted([notes.id, plan.id]));
      expect(hits[0]!.item).toEqual(both);
      expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
      expect(await search(queryTerms('release checklist'), { limit: 1 })).toEqual([both.id]);
      expect(sorted(await search(['release'], { owners: ['u:u1'] }))).toEqual(sorted([both.id, notes.id]));
      expect(await search(['release'], { owners: ['u:u2'] })).toEqual([theirs.id]);
      expect(await search(['release'], { tenant_id: 't2', owners: ['u:u1'] })).toEqual([otherTenant.id]);
      expect(await search(['release'], { owners: [] })).toEqual([]);
      expect(await search([])).toEqual([]);
    });

    it('ranks a search of items current at a past time by the chunks recorded by then', async () => {
      const walrus = item({ key: 'pet' });
      const pelicans = [item({ key: 'bird' }), item({ key: 'logo' })];
      // Chunks of equal length: only the rarity of their words sets them apart.
      await storage.write([...put(walrus, 'walrus ice'), ...put(pelicans[0]!, 'pelican one'), ...put(pelicans[1]!, 'pelican two')]);
      const scored = (query: Partial<ItemSearchQuery> = {}) =>
        storage.items.search({ tenant_id: 't1', owners: VISIBLE, terms: ['walrus', 'pelican'], limit: 10, ...query }).then((hits) => hits.map((hit) => [hit.item.id, hit.score]));
      const before = await scored();
      expect(before[0]![0]).toBe(walrus.id);
      // Later, the rarer word becomes the common one, in more chunks than a word's candidates.
      await storage.write(Array.from({ length: 230 }, (_, index) => put(item({ key: `walrus_${index}`, recorded_at: T3, updated_at: T3 }), `walrus ${index}`)).flat());
      expect((await scored())[0]![0]).not.toBe(walrus.id);
      expect(await scored({ active_at: T2 })).toEqual(before);
    });

    it('finds Chinese words', async () => {
      const chinese = item({ key: 'writing' });
      await storage.write([...put(chinese, '我更喜欢用中文写技术文档。'), ...put(item({ key: 'english' }), 'technical documents in English')]);
      expect(await search(queryTerms('中文'))).toEqual([chinese.id]);
      expect(await search(queryTerms('技术文档'))).toEqual([chinese.id]);
    });

    it('treats full-text and SQL syntax in search terms as plain words', async () => {
      const fox = item();
      await storage.write(put(fox, "the quick or slow fox, don't snake_case"));
      // A wildcard, a prefix, an operator or a quote is a word no chunk has, never a pattern.
      for (const terms of [['qui*'], ['%'], ['_'], ['"'], ["'"], ['\\'], ['near('], ['col:umn'], ["'; drop table memory_items; --"]]) {
        expect(await search(terms)).toEqual([]);
      }
      for (const terms of [['x" or "1"="1'], ['fox OR'], ['"fox"'], ['fox', 'AND', 'NOT'], ['é̈']]) {
        await expect(search(terms)).resolves.toBeInstanceOf(Array);
      }
      // A word the index would split in two (col:umn) matches nothing, and the other words still count.
      for (const terms of [['or'], ['snake_case'], ["don't"], ['fox', ';--', 'near(', '%', '\\'], ['col:umn', 'fox'], ['fox', 'e-mail']]) {
        expect(await search(terms)).toEqual([fox.id]);
      }
      expect(await storage.items.get('t1', fox.id)).toEqual(fox);
    });

    it('replaces an item chunk, and removes it when its text is null', async () => {
      const fruit = item();
      await storage.write(put(fruit, 'apple'));
      await storage.write([chunk(fruit, 'banana')]);
      expect(await search(['apple'])).toEqual([]);
      expect(await search(['banana'])).toEqual([fruit.id]);
      expect(await storage.service.embeddingBacklog()).toBe(1);
      await storage.write([chunk(fruit, null)]);
      expect(await search(['banana'])).toEqual([]);
      expect(await storage.service.embeddingBacklog()).toBe(0);
      expect(await storage.items.get('t1', fruit.id)).toEqual(fruit);
    });

    it('applies status, type and time filters to search', async () => {
      const old = item({ recorded_at: T1, status: 'superseded', ended_at: T3 });
      const current = item({ version: 2, supersedes: old.id, recorded_at: T3 });
      const procedure = agentItem({ key: 'procedure:fig:pick' });
      await storage.write([...put(old, 'fig jam'), ...put(current, 'fig tart'), ...put(procedure, 'pick a fig')]);
      expect(sorted(await search(['fig']))).toEqual(sorted([old.id, current.id, procedure.id]));
      expect(sorted(await search(['fig'], { statuses: ['active'] }))).toEqual(sorted([current.id, procedure.id]));
      expect(await search(['fig'], { statuses: ['superseded'] })).toEqual([old.id]);
      expect(await search(['fig'], { types: ['procedure'] })).toEqual([procedure.id]);
      expect(sorted(await search(['fig'], { active_at: T2 }))).toEqual(sorted([old.id, procedure.id]));
    });

    it('fills a search limit from lower-ranked matches when filters reject the best ones', async () => {
      // The best 40 matches (both words) are superseded: the store must read past them.
      const stale = Array.from({ length: 40 }, (_, index) => put(item({ key: `stale-${index}`, status: 'superseded', ended_at: T2 }), 'fig harvest'));
      const live = Array.from({ length: 5 }, (_, index) => item({ key: `live-${index}` }));
      await storage.write([...stale.flat(), ...live.flatMap((record) => put(record, 'fig'))]);
      const hits = await search(['fig', 'harvest'], { statuses: ['active'], limit: 3 });
      expect(hits).toHaveLength(3);
      expect(hits.every((id) => ids(live).includes(id))).toBe(true);
    });

    it('clears the item index of one tenant or of all, and lists every version to rebuild it', async () => {
      const v1 = item({ status: 'superseded', ended_at: T3 });
      const v2 = item({ version: 2, supersedes: v1.id, recorded_at: T3 });
      const theirs = item({ tenant_id: 't2' });
      await storage.write([...put(v1, 'plum'), ...put(v2, 'plum'), ...put(theirs, 'plum')]);
      await embed({ [v2.id]: [1, 0], [theirs.id]: [0, 1] });
      await storage.items.clearIndex('t1');
      expect(await search(['plum'])).toEqual([]);
      expect(await storage.items.vectors({ tenant_id: 't1', owners: VISIBLE })).toEqual([]);
      expect(await search(['plum'], { tenant_id: 't2' })).toEqual([theirs.id]);
      expect((await storage.items.vectors({ tenant_id: 't2', owners: VISIBLE })).map((entry) => entry.item_id)).toEqual([theirs.id]);
      // The items stay; rebuilding their chunks makes them searchable again.
      const versions = await storage.items.forReindex('t1');
      expect(sorted(ids(versions))).toEqual(sorted([v1.id, v2.id]));
      expect(versions.find((version) => version.id === v1.id)).toEqual(v1);
      await storage.write(versions.map((version) => chunk(version, 'plum')));
      expect(sorted(await search(['plum']))).toEqual(sorted([v1.id, v2.id]));
      await storage.items.clearIndex(undefined);
      expect(await search(['plum'])).toEqual([]);
      expect(await search(['plum'], { tenant_id: 't2' })).toEqual([]);
      expect(await storage.service.embeddingBacklog()).toBe(0);
      expect(sorted(ids(await storage.items.forReindex(undefined)))).toEqual(sorted([v1.id, v2.id, theirs.id]));
    });

    it('queues embeddings: chunks before events, one claim at a time until the lease ends, done when completed', async () => {
      const first = item({ key: 'first' });
      const second = item({ key: 'second' });
      const unembedded = item({ key: 'unembedded' });
      const event = eventRecord({ content: 'embed me' });
      await storage.write([
        { op: 'append_event', event, search_text: null },
        { op: 'append_event', event: eventRecord({ embeddable: false, embedding_status: 'skipped' }), search_text: null },
        ...put(first, 'first chunk'), ...put(second, 'second chunk'), { op: 'put_item', item: unembedded }, chunk(unembedded, 'not embedded', 'skipped'),
      ]);
      expect(await storage.service.embeddingBacklog()).toBe(3);
      const claimed = await storage.service.claimEmbeddingWork(2, NOW, LEASE_END);
      expect(claimed.map((work) => work.target)).toEqual(['chunk', 'chunk']);
      expect(sorted(claimed.map((work) => work.id))).toEqual(sorted([first.id, second.id]));
      expect(claimed.find((work) => work.id === first.id)).toMatchObject({ tenant_id: 't1', text: 'first chunk' });
      const rest = await storage.service.claimEmbeddingWork(5, NOW, LEASE_END);
      expect(rest).toHaveLength(1);
      expect(rest[0]).toMatchObject({ target: 'event', tenant_id: 't1', id: event.id, event: { id: event.id, content: 'embed me' } });
      // Claimed work is in progress: nobody else takes it before the lease ends, and it is still backlog.
      expect(await storage.service.claimEmbeddingWork(5, NOW, LEASE_END)).toEqual([]);
      expect(await storage.service.embeddingBacklog()).toBe(3);
      // The worker died: after its lease the same work is claimed again.
      const again = await storage.service.claimEmbeddingWork(5, AFTER_LEASE, '2026-06-01T12:15:00.000Z');
      expect(again.map((work) => work.target)).toEqual(['chunk', 'chunk', 'event']);
      await storage.service.completeEmbeddingWork(
        [
          { target: 'chunk', tenant_id: 't1', id: first.id, vector: normalise([1, 2, 3]) },
          { target: 'chunk', tenant_id: 't1', id: second.id, vector: null },
          { target: 'event', tenant_id: 't1', id: event.id, vector: normalise([3, 2, 1]) },
        ],
        'test:model',
        AFTER_LEASE,
      );
      expect(await storage.service.embeddingBacklog()).toBe(0);
      expect(await storage.service.claimEmbeddingWork(5, '2026-06-02T00:00:00.000Z', '2026-06-02T00:05:00.000Z')).toEqual([]);
      // Skipped text has no vector.
      expect((await storage.items.vectors({ tenant_id: 't1', owners: VISIBLE })).map((entry) => entry.item_id)).toEqual([first.id]);
    });

    it('returns the exact stored vectors of visible items only', async () => {
      const mine = item();
      const agents = agentItem();
      const old = item({ key: 'old', status: 'superseded', ended_at: T3 });
      const theirs = item({ user_id: 'u2' });
      const otherTenant = item({ tenant_id: 't2' });
      const records = [mine, agents, old, theirs, otherTenant];
      await storage.write(records.flatMap((record) => put(record)));
      const values = Object.fromEntries(records.map((record, index) => [record.id, [0.1 * (index + 1), -1 / 3, Math.PI, 1e-7]]));
      await embed(values);
      const vectors = async (query: Partial<Omit<ItemQuery, 'cursor' | 'limit' | 'keys' | 'ids' | 'as_of'>>) => {
        const found = await storage.items.vectors({ tenant_id: 't1', owners: VISIBLE, ...query });
        return Object.fromEntries(found.map((entry) => [entry.item_id, Array.from(entry.vector)]));
      };
      const stored = (record: MemoryItem) => [record.id, Array.from(normalise(values[record.id]!))];
      expect(await vectors({ statuses: ['active'] })).toEqual(Object.fromEntries([stored(mine), stored(agents)]));
      expect(await vectors({})).toEqual(Object.fromEntries([stored(mine), stored(agents), stored(old)]));
      expect(await vectors({ active_at: T4 })).toEqual(Object.fromEntries([stored(mine), stored(agents)]));
      expect(await vectors({ owners: ['u:u2'] })).toEqual(Object.fromEntries([stored(theirs)]));
      expect(await vectors({ tenant_id: 't2' })).toEqual(Object.fromEntries([stored(otherTenant)]));
      expect(await vectors({ types: ['procedure'] })).toEqual(Object.fromEntries([stored(agents)]));
    });

    it('finds the visible item versions nearest to a vector by cosine similarity, best first', async () => {
      const close = item({ key: 'close' });
      const diagonal = item({ key: 'diagonal' });
      const procedure = agentItem();
      const opposite = item({ key: 'opposite' });
      const old = item({ key: 'old', status: 'superseded', ended_at: T3 });
      const threeDimensions = item({ key: 'three-dimensions' });
      const theirs = item({ user_id: 'u2', key: 'theirs' });
      const otherTenant = item({ tenant_id: 't2', key: 'other-tenant' });
      const space = new Map<MemoryItem, number[]>([
        [close, [1, 0.3, 0, 0]],
        [diagonal, [1, 1, 0.2, 0]],
        [procedure, [0.2, 1, 0, 0]],
        [opposite, [-1, 0.2, 0, 0.1]],
        [old, [1, 0.05, 0, 0]],
        [threeDimensions, [1, 0, 0]],
        [theirs, [1, 0, 0, 0]],
        [otherTenant, [1, 0, 0, 0]],
      ]);
      await storage.write([...space.keys()].flatMap((record) => put(record)));
      await embed(Object.fromEntries([...space].map(([record, vector]) => [record.id, vector])));
      const expectNearest = async (vector: number[], query: Partial<NearestItemsQuery>, expected: MemoryItem[]) => {
        const hits = await nearest(vector, query);
        expect(hits.map((hit) => hit.item_id)).toEqual(ids(expected));
        hits.forEach((hit, index) => expect(hit.similarity).toBeCloseTo(dot(normalise(vector), normalise(space.get(expected[index]!)!)), 4));
      };
      const query = [1, 0, 0, 0];
      await expectNearest(query, {}, [close, diagonal, procedure, opposite]);
      await expectNearest(query, { statuses: undefined, limit: 2 }, [old, close]);
      await expectNearest(query, { types: ['procedure'] }, [procedure]);
      await expectNearest(query, { owners: ['u:u2'] }, [theirs]);
      await expectNearest(query, { tenant_id: 't2' }, [otherTenant]);
      // Only vectors of the query's dimension are compared.
      await expectNearest([0, 1, 0], {}, [threeDimensions]);
    });

    it('round-trips a context build with its packet, in its tenant only', async () => {
      const original = build({ request: { purpose: 'planner', budget: { max_tokens: 800 }, cues: { query: '中文 \u{1F600}', nested: [null, 0.37] } }, selected: ['mem_a', 'mem_b'] });
      await storage.write([{ op: 'put_context_build', build: original }]);
      expect(await storage.sessions.getBuild('t1', original.id)).toEqual(original);
      expect(await storage.sessions.getBuild('t2', original.id)).toBeNull();
      expect(await storage.sessions.getBuild('t1', newId('ctx'))).toBeNull();
    });

    it('lists context builds newest first, by user, agent, session and run, after a time, page by page', async () => {
      const at = (minute: number) => `2026-06-01T10:0${minute}:00.000Z`;
      const b0 = build({ created_at: at(0) });
      const b1 = build({ user_id: 'u2', created_at: at(1) });
      const b2 = build({ agent_id: 'a2', created_at: at(2) });
      const b3 = build({ session_id: 's2', created_at: at(3) });
      const b4 = build({ run_id: 'r2', created_at: at(4) });
      const theirs = build({ tenant_id: 't2', created_at: at(5) });
      await storage.write([b0, b1, b2, b3, b4, theirs].map((record): WriteOp => ({ op: 'put_context_build', build: record })));
      const listBuilds = (query: Partial<BuildQuery>) => storage.sessions.listBuilds({ tenant_id: 't1', limit: 10, ...query }).then(ids);
      expect(await listBuilds({})).toEqual(ids([b4, b3, b2, b1, b0]));
      expect(await listBuilds({ user_id: 'u1' })).toEqual(ids([b4, b3, b2, b0]));
      expect(await listBuilds({ user_id: 'u1', agent_id: 'a1' })).toEqual(ids([b4, b3, b0]));
      expect(await listBuilds({ user_id: 'u1', agent_id: 'a1', session_id: 's1' })).toEqual(ids([b4, b0]));
      expect(await listBuilds({ run_id: 'r1', session_id: 's1' })).toEqual(ids([b2, b1, b0]));
      expect(await listBuilds({ created_after: at(2) })).toEqual(ids([b4, b3]));
      expect(await listBuilds({ limit: 2 })).toEqual(ids([b4, b3]));
      expect(await listBuilds({ limit: 2, cursor: b3.id })).toEqual(ids([b2, b1]));
      expect(await listBuilds({ limit: 2, cursor: b1.id })).toEqual([b0.id]);
      expect(await listBuilds({ user_id: 'u1', cursor: b2.id })).toEqual([b0.id]);
      expect(await listBuilds({ tenant_id: 't2' })).toEqual([theirs.id]);
    });
  });
}
