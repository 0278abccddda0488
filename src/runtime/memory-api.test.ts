import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import {
  assertPacket,
  createEngram,
  openStore,
  storedTextTokens,
  textTokenCounter,
  type Engram,
  type RememberRequest,
  type StorageAdapter,
} from '../index.js';
import { storeOptionsOf } from './config.js';
import {
  startOpenAiCompatibleServer,
  type OpenAiCompatibleServer,
} from '../../test/helpers/openai-compatible-server.js';

const scope = { user_id: 'mira', agent_id: 'assistant' };
let folder: string;
let engram: Engram;
/** The store under `engram`, for the tests that write rows as another version would have. */
let storage: StorageAdapter;
let server: OpenAiCompatibleServer;
let now = Date.parse('2026-06-01T12:00:00.000Z');

// A tiny bag-of-concepts embedding: paraphrases that share a concept share a dimension, so the
// vector signal can be checked without a real model (the local model has its own tests).
const CONCEPTS = [/tea|drink|beverage|coffee/, /tone|voice|style|sound/, /launch|release|ship/, /webinar|meeting|call/];
function conceptVector(text: string): number[] {
  const lower = text.toLowerCase();
  const vector: number[] = [...CONCEPTS.map((pattern) => (pattern.test(lower) ? 1 : 0)), 0.05];
  const norm = Math.hypot(...vector);
  return vector.map((value) => value / norm);
}

beforeEach(async () => {
  folder = mkdtempSync(join(tmpdir(), 'engram-memory-'));
  server = await startOpenAiCompatibleServer({
    embeddings: (body) => {
      const values = Array.isArray(body.input) ? body.input : [body.input];
      return {
        body: {
          object: 'list',
          data: values.map((text, index) => ({ object: 'embedding', index, embedding: conceptVector(text) })),
        },
      };
    },
  });
  storage = await openStore(`sqlite:${join(folder, 'engram.db')}`, storeOptionsOf({}));
  engram = await createEngram({
    store: storage,
    clock: { now: () => new Date(now) },
    embeddings: { provider: 'openai-compatible', baseUrl: server.baseUrl, model: 'concepts', dimensions: 5 },
  });
});

afterEach(async () => {
  await engram.close();
  await server.close();
  rmSync(folder, { recursive: true, force: true });
});

function preference(value: string, extra: Partial<RememberRequest> = {}): RememberRequest {
  return {
    scope,
    type: 'preferences',
    key: 'pref:other:drink',
    value: { scope: 'other', name: 'drink', value },
    ...extra,
  };
}

describe('remember, history and forget', () => {
  it('overwrites with history, and history returns every version with its provenance', async () => {
    const [created] = await engram.items.remember(preference('green tea'));
    now += 1000;
    const diffs = await engram.items.remember(preference('black coffee', { rule: 'settings.page' }));
    expect(diffs.map((diff) => diff.action)).toEqual(['updated', 'superseded']);
    const versions = await engram.items.history({ scope: { user_id: 'mira' }, key: 'pref:other:drink' });
    expect(versions.map((item) => [item.version, item.status, item.value['value']])).toEqual([
      [1, 'superseded', 'green tea'],
      [2, 'active', 'black coffee'],
    ]);
    expect(versions[1]!.supersedes).toBe(created!.item_id);
    expect(versions[1]!.provenance).toEqual({ extractor: 'explicit', rule: 'settings.page' });
    expect(versions[0]!.ended_at).not.toBeNull();
    const current = await engram.items.list({ scope });
    expect(current.map((item) => item.value['value'])).toEqual(['black coffee']);
  });

  it('retracts (history kept) or deletes (gone, with chunks and vectors)', async () => {
    await engram.items.remember(preference('green tea'));
    await engram.maintenance.runEmbeddings();
    expect((await engram.items.forget({ scope, key: 'pref:other:drink' })).map((diff) => diff.action)).toEqual([
      'retracted',
    ]);
    expect(await engram.items.list({ scope })).toEqual([]);
    expect(await engram.items.search({ scope, query: 'tea' })).toEqual([]);
    expect((await engram.items.history({ scope, key: 'pref:other:drink' }))[0]!.status).toBe('retracted');
    const deleted = await engram.items.forget({ scope, key: 'pref:other:drink', mode: 'delete' });
    expect(deleted.map((diff) => diff.action)).toEqual(['deleted']);
    expect(await engram.items.history({ scope, key: 'pref:other:drink' })).toEqual([]);
  });

  it('keeps user items to their user, agent items to their agent, tenant items to everyone', async () => {
    await engram.items.remember(preference('green tea'));
    await engram.items.remember({
      scope,
      type: 'procedure',
      key: 'procedure:release:announce',
      value: { task_type: 'release', name: 'announce', steps: ['draft', 'review'] },
    });
    await engram.items.remember({
      scope,
      scope_level: 'tenant',
      type: 'decisions',
      key: 'decision:company:release_day',
      value: { topic: 'release day', decision: 'Tuesdays' },
    });
    const keys = async (reader: { user_id: string; agent_id?: string; tenant_id?: string }) =>
      (await engram.items.list({ scope: reader })).map((item) => item.key).sort();
    expect(await keys(scope)).toEqual([
      'decision:company:release_day',
      'pref:other:drink',
      'procedure:release:announce',
    ]);
    expect(await keys({ user_id: 'ada', agent_id: 'assistant' })).toEqual([
      'decision:company:release_day',
      'procedure:release:announce',
    ]);
    expect(await keys({ user_id: 'ada', agent_id: 'other' })).toEqual(['decision:company:release_day']);
    expect(await keys({ user_id: 'mira', agent_id: 'assistant', tenant_id: 'elsewhere' })).toEqual([]);
  });

  it('refuses malformed keys and values with the field and the rule, and writes nothing', async () => {
    await expect(engram.items.remember(preference('x', { key: 'pref:Mood:drink' }))).rejects.toMatchObject({
      field: 'key',
      rule: 'key_rule',
    });
    await expect(
      engram.items.remember({
        scope,
        type: 'tasks',
        key: 'task:a:b',
        value: { title: 'x', task_id: 'b', status: 'someday' },
      }),
    ).rejects.toMatchObject({
      field: 'value.status',
      rule: 'enum',
    });
    await expect(engram.items.remember({ ...preference('x'), confidence: 2 })).rejects.toMatchObject({
      field: 'confidence',
      rule: 'maximum',
    });
    await expect(engram.items.forget({ scope } as never)).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(await engram.items.list({ scope, status: ['active', 'superseded', 'retracted'] })).toEqual([]);
  });

  it('refuses a value nested thousands deep for a key that exists (it once overflowed the stack merging it)', async () => {
    await engram.items.remember(preference('formal'));
    let value: Record<string, unknown> = { leaf: true };
    for (let level = 0; level < 5_000; level += 1) value = { nested: value };
    await expect(engram.items.remember({ ...preference('x'), value })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      field: 'value.nested',
      rule: 'max_depth',
    });
    expect(await engram.items.list({ scope })).toHaveLength(1);
  });

  it('composes a packet holding a value nested as deep as a request may nest', async () => {
    let extra: Record<string, unknown> = { leaf: true };
    // The request is one level, value a second: the deepest value remember accepts.
    for (let level = 0; level < 61; level += 1) extra = { nested: extra };
    await engram.items.remember({
      ...preference('formal'),
      value: { scope: 'other', name: 'drink', value: 'formal', extra },
    });
    const packet = await engram.compose({
      scope: { ...scope, session_id: 's1', run_id: 'r1' },
      purpose: 'responder',
      budget: { max_tokens: 8_000 },
    });
    expect(JSON.stringify(packet.long_term.preferences?.[0])).toContain(JSON.stringify(extra));
    expect(() => assertPacket(packet)).not.toThrow();
  });
});

describe('hybrid search', () => {
  beforeEach(async () => {
    await engram.items.remember(preference('green tea in the morning'));
    await engram.items.remember({
      scope,
      type: 'preferences',
      key: 'pref:writing:tone',
      value: { scope: 'writing', name: 'tone', value: 'short and concrete' },
    });
    await engram.items.remember({
      scope,
      type: 'decisions',
      key: 'decision:atlas:webinar',
      value: { topic: 'webinar', decision: '16:00 CET on 2026-12-01' },
    });
  });

  it('works before embeddings exist, with full text only, and never chokes on query syntax', async () => {
    const hits = await engram.items.search({ scope, query: 'tone' });
    expect(hits[0]!.item.key).toBe('pref:writing:tone');
    expect(hits[0]!.signals.full_text).toMatchObject({ rank: 1 });
    expect(hits[0]!.signals.vector).toBeNull();
    expect(server.requests.filter((request) => request.path === '/v1/embeddings')).toHaveLength(0);
    for (const query of ['"unbalanced', 'NEAR(tone', 'tone AND OR', '*', "'; DROP TABLE memory_items; --"]) {
      await expect(engram.items.search({ scope, query })).resolves.toBeInstanceOf(Array);
    }
  });

  it('finds paraphrases through vectors once embedded, with per-signal scores', async () => {
    expect(await engram.items.search({ scope, query: 'what beverage do I like?' })).toEqual([]);
    expect(await engram.maintenance.embeddingBacklog()).toBe(3);
    expect(await engram.maintenance.runEmbeddings()).toEqual({ embedded: 3, skipped: 0 });
    expect(await engram.maintenance.embeddingBacklog()).toBe(0);
    const hits = await engram.items.search({ scope, query: 'what beverage do I like?', k: 2 });
    expect(hits[0]!.item.key).toBe('pref:other:drink');
    expect(hits[0]!.signals.vector!.rank).toBe(1);
    expect(hits[0]!.signals.full_text).toBeNull();
    expect(hits[0]!.signals.recency.rank).toBeGreaterThan(0);
    expect(hits[0]!.signals.salience.value).toBeGreaterThan(0);
    expect(hits).toHaveLength(2);
  });

  it('filters by type, status, tags, entities and scope level', async () => {
    expect(
      (await engram.items.search({ scope, query: 'webinar tone tea', types: ['decisions'] })).map(
        (hit) => hit.item.key,
      ),
    ).toEqual(['decision:atlas:webinar']);
    await engram.items.remember({
      scope,
      type: 'entities',
      key: 'entity:repo:github.com/acme/atlas',
      value: { kind: 'repo', canonical: 'github.com/acme/atlas' },
      tags: ['code'],
      entities: ['Atlas'],
    });
    expect(
      (await engram.items.search({ scope, query: 'atlas', filters: { tags: ['code'] } })).map((hit) => hit.item.key),
    ).toEqual(['entity:repo:github.com/acme/atlas']);
    expect((await engram.items.search({ scope, query: 'atlas repo', filters: { entities: ['atlas'] } })).length).toBe(
      1,
    );
    expect(await engram.items.search({ scope, query: 'tone', filters: { scope_levels: ['tenant'] } })).toEqual([]);
    await engram.items.forget({ scope, key: 'pref:writing:tone' });
    expect(
      (await engram.items.search({ scope, query: 'tone', filters: { status: ['retracted'] } }))[0]!.item.status,
    ).toBe('retracted');
  });

  it("rebuilds each event's full-text entry from its text, speaker included", async () => {
    const turn = await engram.commitTurn({
      scope: { ...scope, session_id: 's9', run_id: 'r9' },
      turn_id: 't9',
      messages: [{ role: 'user', speaker: 'Ottoline', content: 'The quarterly figures look fine.' }],
    });
    const eventId = turn.events[0]!.event_id;
    const found = async (query: string) =>
      (await engram.events.search({ scope, query, limit: 5 })).map((hit) => hit.event.id);
    expect(await found('Ottoline')).toEqual([eventId]);
    // An entry written by another version (here: none at all) is rebuilt by reindex.
    await storage.write([{ op: 'index_event', tenant_id: 'default', event_id: eventId, search_text: null }]);
    expect(await found('quarterly')).toEqual([]);
    const rebuilt = await engram.maintenance.reindex();
    expect(rebuilt).toEqual({ items: 3, events: 1 });
    expect(await found('Ottoline')).toEqual([eventId]);
    expect(await found('quarterly')).toEqual([eventId]);
  });

  it('counts again the tokens kept with each event and item row, for rows written without them', async () => {
    const turn = await engram.commitTurn({
      scope: { ...scope, session_id: 's9', run_id: 'r9' },
      turn_id: 't9',
      messages: [{ role: 'user', content: 'The quarterly figures look fine.' }],
    });
    const eventId = turn.events[0]!.event_id;
    const [item] = await engram.items.list({ scope, limit: 1 });
    const kept = async () => [
      storedTextTokens((await storage.events.get('default', eventId, new Date(now).toISOString()))!),
      storedTextTokens((await storage.items.get('default', item!.id))!),
    ];
    const written = await kept();
    expect(written).toEqual([
      textTokenCounter().event((await storage.events.get('default', eventId, new Date(now).toISOString()))!),
      textTokenCounter().item(item!),
    ]);
    // As a store written before counts were kept: no count on either row.
    await storage.write([
      { op: 'put_text_tokens', tenant_id: 'default', target: 'event', id: eventId, text_tokens: null },
      { op: 'put_text_tokens', tenant_id: 'default', target: 'item', id: item!.id, text_tokens: null },
    ]);
    expect(await kept()).toEqual([undefined, undefined]);
    await engram.maintenance.reindex();
    expect(await kept()).toEqual(written);
  });

  it('queues the events embedded under another model for a vector again, and only those', async () => {
    await engram.commitTurn({
      scope: { ...scope, session_id: 's8', run_id: 'r8' },
      turn_id: 't8',
      messages: [
        { role: 'user', content: 'Shall we move the webinar to Friday?' },
        { role: 'assistant', content: 'Yes, Friday works.' },
      ],
    });
    await engram.maintenance.runEmbeddings();
    await engram.maintenance.reindex();
    // The same model: every event still has its vector; only the items' chunks are queued again.
    expect(await engram.maintenance.embeddingBacklog()).toBe(3);
    await engram.maintenance.runEmbeddings();
    await engram.close();
    // The model changed (another name, as after an upgrade that ships a new table).
    engram = await createEngram({
      store: `sqlite:${join(folder, 'engram.db')}`,
      clock: { now: () => new Date(now) },
      embeddings: { provider: 'openai-compatible', baseUrl: server.baseUrl, model: 'concepts-v2', dimensions: 5 },
    });
    expect(await engram.maintenance.embeddingBacklog()).toBe(0);
    await engram.maintenance.reindex();
    expect(await engram.maintenance.embeddingBacklog()).toBe(3 + 2);
    expect(await engram.maintenance.runEmbeddings()).toEqual({ embedded: 5, skipped: 0 });
    await engram.maintenance.reindex();
    expect(await engram.maintenance.embeddingBacklog()).toBe(3);
  });

  it('rebuilds the derived index from the items alone', async () => {
    await engram.maintenance.runEmbeddings();
    expect((await engram.maintenance.reindex()).items).toBe(3);
    expect(await engram.maintenance.embeddingBacklog()).toBe(3);
    expect((await engram.items.search({ scope, query: 'tone' }))[0]!.item.key).toBe('pref:writing:tone');
    await engram.maintenance.runEmbeddings();
    expect((await engram.items.search({ scope, query: 'what beverage do I like?' }))[0]!.item.key).toBe(
      'pref:other:drink',
    );
  });
});
