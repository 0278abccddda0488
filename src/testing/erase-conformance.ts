// The storage conformance suite for what an erase reaches beyond the erased scope's own rows: the
// context builds of other users and sessions that quoted erased events, items or insights (redacted,
// with when and why), the records and builds of the runs an erased session took part in, queued
// jobs, and the sources of items that stay. Registered by describeStorageConformance, so it runs
// against every adapter through the same initializer.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { EventRecord, StorageAdapter, WriteOp } from '../index.js';
import type { ExportRecord } from '../spec/export.js';
import type { MemoryItem } from '../spec/items.js';
import type { MemoryPacket } from '../spec/packet.js';
import type { ContextBuild, Job } from '../spec/storage.js';
import { appendEvent, eventRecord } from './event-record.js';
import { insight, reflection } from './reflection-records.js';
import { item } from './item-conformance.js';
import { build } from './run-conformance.js';
import type { ConformanceInitializer } from './conformance-initializer.js';

const AT = '2026-06-01T10:00:00.000Z';
const ERASED_AT = '2026-06-02T09:00:00.000Z';

interface Cited {
  quotes?: EventRecord[];
  facts?: MemoryItem[];
  insights?: string[];
}

/** A packet shaped as compose makes them, quoting these events, items and insights by id (and their words). */
function packetCiting(cited: Cited): MemoryPacket {
  const quotes = cited.quotes ?? [];
  const facts = (cited.facts ?? []).map((fact) => ({
    fact_id: fact.id,
    fact_key: fact.key,
    value: fact.value,
    status: 'active',
    sources: fact.source_event_ids,
    scope_level: fact.scope_level,
  }));
  const insights = (cited.insights ?? []).map((id) => ({
    id,
    type: 'hypothesis',
    statement: `hunch ${id}`,
    validation_state: 'validated',
    sources: [],
  }));
  return {
    meta: { schema_version: 'v1', purpose: 'planner' },
    short_term: {
      working_state: { state_version: 0 },
      rolling_summary: 'what this session said',
      key_quotes: quotes.map((event) => ({ evidence_id: event.id, quote: String(event.content), role: 'user' })),
      open_loops: [],
    },
    long_term: { facts, preferences: [], procedures: [], episodes: [] },
    insight: { usage_policy: { allow_in_responder: false }, hypotheses: insights, strategy_sketches: [], patterns: [] },
    citations: quotes.map((event) => ({ id: event.id, type: 'message', ts: event.ts })),
    budget_report: { max_tokens: 1000, used_tokens_est: 100, section_usage: {}, degradations: [], omissions: [] },
    explain: {
      selected: [
        ...quotes.map((event) => `key_quotes:${event.id}: cue.full_text(rank 1)`),
        ...facts.map((fact) => `facts:${fact.fact_id}: ltm.always(preferences)`),
        ...insights.map((entry) => `insights:${entry.id}: validated`),
      ],
      omitted: [],
      filters: {},
      conflicts: [],
    },
  } as unknown as MemoryPacket;
}

/** A build of `scope` whose packet cites `cited`, with `selected` as compose records it. */
function citingBuild(scope: Partial<ContextBuild>, cited: Cited): ContextBuild {
  const selected = [...(cited.quotes ?? []).map((event) => event.id), ...(cited.facts ?? []).map((fact) => fact.id)];
  return build({
    tenant_id: 't1',
    user_id: 'u1',
    agent_id: 'a1',
    session_id: 's1',
    run_id: 'r1',
    ...scope,
    selected,
    packet: packetCiting(cited),
  });
}

function job(user: string, run: string): Job {
  return {
    tenant_id: 't1',
    id: `reflect:${user}/a1/${run}`,
    kind: 'reflect',
    payload: { scope: { user_id: user, agent_id: 'a1', run_id: run, session_id: 's1' } },
    status: 'done',
    attempts: 1,
    lease_until: null,
    last_error: null,
    created_at: AT,
    updated_at: AT,
  };
}

/**
 * User u1 talks in session s1 (run r1) and s2 (run r2); u2 in s9 (run r9). Events e1 (u1/s1) and
 * e2 (u1/s2) carry the word papaya; agent-level items learned from each (`learned1` from e1,
 * `learned2` from e2) are visible to u2; `both` (user level) is sourced from e1 and e2.
 */
function fixture() {
  const e1 = eventRecord({ content: 'papaya one', session_id: 's1', thread_id: 's1', run_id: 'r1' });
  const e2 = eventRecord({ content: 'papaya two', session_id: 's2', thread_id: 's2', run_id: 'r2' });
  const e9 = eventRecord({ user_id: 'u2', content: 'kiwi nine', session_id: 's9', thread_id: 's9', run_id: 'r9' });
  const learned1 = item({
    scope_level: 'agent',
    key: 'learned1',
    value: { name: 'papaya style one' },
    source_event_ids: [e1.id],
  });
  const learned2 = item({
    scope_level: 'agent',
    key: 'learned2',
    value: { name: 'papaya style two' },
    source_event_ids: [e2.id],
  });
  const both = item({
    key: 'both',
    source_event_ids: [e1.id, e2.id],
    evidence_refs: [
      { kind: 'event', ref: e1.id },
      { kind: 'event', ref: e2.id },
      { kind: 'url', ref: 'https://example.org' },
    ],
  });
  const hunch = insight({ user_id: 'u1', session_id: 's1', run_id: 'r1' });
  const builds = {
    // u2's packet quoting both agent-level items of u1, and its own event.
    other: citingBuild(
      { user_id: 'u2', session_id: 's9', run_id: 'r9' },
      { quotes: [e9], facts: [learned1, learned2] },
    ),
    // u1's packet in s2 quoting e1 (s1) and e2, the insight of run r1 and the item sourced from both sessions.
    second: citingBuild({ session_id: 's2', run_id: 'r2' }, { quotes: [e1, e2], facts: [both], insights: [hunch.id] }),
    // A packet of run r1 composed in session s2: a record of the run.
    ofRun: citingBuild({ session_id: 's2', run_id: 'r1' }, { quotes: [e2] }),
    // u2's packet citing nothing of u1.
    unrelated: citingBuild({ user_id: 'u2', session_id: 's9', run_id: 'r9' }, { quotes: [e9] }),
  };
  const ops: WriteOp[] = [
    ...[e1, e2, e9].map(appendEvent),
    ...[learned1, learned2, both].map((entry): WriteOp => ({ op: 'put_item', item: entry })),
    { op: 'put_insight', insight: hunch, expected_version: null },
    // A reflection of run r1 recorded while the user was in session s2.
    { op: 'put_reflection', record: reflection({ user_id: 'u1', session_id: 's2', run_id: 'r1' }) },
    ...Object.values(builds).map((entry): WriteOp => ({ op: 'put_context_build', build: entry })),
    ...[job('u1', 'r1'), job('u1', 'r2'), job('u2', 'r9')].map((entry): WriteOp => ({ op: 'enqueue_job', job: entry })),
  ];
  return { e1, e2, learned1, learned2, both, hunch, builds, ops };
}

/** The ids of the tenant's builds, in the order written. */
async function buildIds(storage: StorageAdapter): Promise<string[]> {
  const records: string[] = [];
  for await (const record of storage.maintenance.exportRecords({ tenant_id: 't1' }))
    if (record.kind === 'context_build') records.push(record.build.id);
  return records;
}

async function exported(storage: StorageAdapter): Promise<ExportRecord[]> {
  const records: ExportRecord[] = [];
  for await (const record of storage.maintenance.exportRecords({ tenant_id: 't1' })) records.push(record);
  return records;
}

/**
 * Registers the erasure-of-copies part of the conformance suite.
 *
 * @example
 * describeEraseConformance('sqlite', init);
 */
export function describeEraseConformance(name: string, init: ConformanceInitializer): void {
  describe(`storage conformance: ${name}: erasure reaches every copy`, () => {
    let storage: StorageAdapter;
    let data: ReturnType<typeof fixture>;
    beforeEach(async () => {
      storage = await init.create();
      data = fixture();
      await storage.write(data.ops);
    });
    afterEach(async () => {
      await init.destroy(storage);
    });
    const get = async (id: string) => storage.sessions.getBuild('t1', id);

    it("redacts another user's builds that quoted the erased user's items, and records when and why", async () => {
      const { builds, learned1, learned2 } = data;
      const unrelated = await get(builds.unrelated.id);
      const counts = await storage.maintenance.erase({ tenant_id: 't1', user_id: 'u1', at: ERASED_AT });
      expect(counts).toMatchObject({ context_builds: 2, memory_items: 3, context_builds_redacted: 1, jobs: 2 });
      const other = (await get(builds.other.id))!;
      // The two facts, their explain lines and their selected ids are gone; u2's own quote stays.
      expect(other.redactions).toEqual([{ at: ERASED_AT, erased: 'user', removed_entries: 4, removed_ids: 2 }]);
      expect(other.selected).toEqual(builds.other.selected.slice(0, 1));
      expect(other.packet.long_term.facts).toEqual([]);
      expect(other.packet.short_term.key_quotes).toEqual(builds.other.packet.short_term.key_quotes);
      expect(JSON.stringify(other)).not.toMatch(new RegExp(`${learned1.id}|${learned2.id}|papaya`));
      // A build that cited nothing erased is as it was, without a redaction.
      expect(await get(builds.unrelated.id)).toEqual(unrelated);
      expect(unrelated!.redactions).toBeUndefined();
      // The export holds nothing of the erased user, and the redaction travels with the build.
      const records = await exported(storage);
      expect(JSON.stringify(records)).not.toMatch(/papaya|"u1"/);
      expect(records.find((record) => record.kind === 'context_build' && record.build.id === builds.other.id)).toEqual({
        kind: 'context_build',
        build: other,
      });
    });

    it("deletes the erased user's jobs, whatever their state, and no one else's", async () => {
      await storage.maintenance.erase({ tenant_id: 't1', user_id: 'u1', at: ERASED_AT });
      // Queued again as new work: u1's jobs are new, u2's is still there (done) and stays as it is.
      const fresh = (user: string, run: string): WriteOp => ({
        op: 'enqueue_job',
        job: { ...job(user, run), status: 'pending', attempts: 0 },
      });
      await storage.write([fresh('u1', 'r1'), fresh('u1', 'r2'), fresh('u2', 'r9')]);
      const claimed = await storage.service.claimJobs(['reflect'], 10, AT, '2026-06-01T10:05:00.000Z');
      expect(claimed.map((entry) => entry.id).sort()).toEqual(['reflect:u1/a1/r1', 'reflect:u1/a1/r2']);
    });

    it('erases a session with the records and builds of its runs, and redacts the builds left that quoted it', async () => {
      const { builds, e1, e2, both, hunch } = data;
      const counts = await storage.maintenance.erase({
        tenant_id: 't1',
        user_id: 'u1',
        session_id: 's1',
        at: ERASED_AT,
      });
      // Run r1 (the run of e1) goes whole: its insight, its reflection recorded in s2, its build composed in s2, its job.
      expect(counts).toMatchObject({
        events: 1,
        memory_items: 1,
        insights: 1,
        reflections: 1,
        context_builds: 1,
        jobs: 1,
        context_builds_redacted: 2,
        memory_items_sources_trimmed: 1,
      });
      expect(await get(builds.ofRun.id)).toBeNull();
      expect(await storage.reviews.getInsight('t1', hunch.id)).toBeNull();
      expect(await storage.reviews.listReflections({ tenant_id: 't1', user_id: 'u1', limit: 10 })).toEqual([]);

      // The build of s2 keeps its quote of e2 and loses the quote of e1 with its citation and explain
      // line, and the insight with its line; the fact of the item that stays no longer lists e1.
      const second = (await get(builds.second.id))!;
      expect(second.packet.short_term.key_quotes).toEqual([{ evidence_id: e2.id, quote: 'papaya two', role: 'user' }]);
      expect(second.packet.citations.map((citation) => citation.id)).toEqual([e2.id]);
      expect(second.packet.insight.hypotheses).toEqual([]);
      expect(second.packet.long_term.facts).toEqual([{ ...builds.second.packet.long_term.facts[0], sources: [e2.id] }]);
      expect(second.packet.explain.selected).toEqual([
        `key_quotes:${e2.id}: cue.full_text(rank 1)`,
        `facts:${both.id}: ltm.always(preferences)`,
      ]);
      expect(second.selected).toEqual([e2.id, both.id]);
      expect(second.redactions).toEqual([{ at: ERASED_AT, erased: 'session', removed_entries: 6, removed_ids: 1 }]);
      expect(JSON.stringify(second)).not.toMatch(new RegExp(`${e1.id}|${hunch.id}|papaya one`));

      // The item sourced from both sessions stays, citing only e2.
      const kept = (await storage.items.get('t1', both.id))!;
      expect(kept.source_event_ids).toEqual([e2.id]);
      expect(kept.evidence_refs).toEqual([
        { kind: 'event', ref: e2.id },
        { kind: 'url', ref: 'https://example.org' },
      ]);
    });

    it('redacts a build that cites an erased event only among the sources of a fact it shows', async () => {
      const { e1, e2, both } = data;
      // Composed in s2: it quotes e2 only; the fact of `both` lists e1 among its sources, and the
      // citations name the source events read for it, as compose writes them.
      const viaFact = citingBuild({ session_id: 's2', run_id: 'r2' }, { quotes: [e2], facts: [both] });
      viaFact.packet.citations.push({ id: e1.id, type: 'message', ts: e1.ts });
      // A quote of e1 left out for the budget names it inside a text.
      viaFact.packet.budget_report.omissions = [{ item: `key_quotes:${e1.id}`, reason: 'over_budget' }];
      await storage.write([{ op: 'put_context_build', build: viaFact }]);
      const counts = await storage.maintenance.erase({
        tenant_id: 't1',
        user_id: 'u1',
        session_id: 's1',
        at: ERASED_AT,
      });
      expect(counts).toMatchObject({ context_builds_redacted: 3 });
      const redacted = (await get(viaFact.id))!;
      expect(JSON.stringify(redacted)).not.toContain(e1.id);
      expect(redacted.packet.long_term.facts.map((fact) => fact.sources)).toEqual([[e2.id]]);
      expect(redacted.packet.citations.map((citation) => citation.id)).toEqual([e2.id]);
      expect(redacted.packet.short_term.key_quotes).toEqual(viaFact.packet.short_term.key_quotes);
      expect(redacted.selected).toEqual(viaFact.selected);
      expect(redacted.packet.budget_report.omissions).toEqual([]);
      expect(redacted.redactions).toEqual([{ at: ERASED_AT, erased: 'session', removed_entries: 3, removed_ids: 0 }]);
    });

    it('records each erase that redacts a build, oldest first', async () => {
      const { builds, learned2 } = data;
      await storage.maintenance.erase({ tenant_id: 't1', user_id: 'u1', session_id: 's1', at: ERASED_AT });
      const later = '2026-06-03T09:00:00.000Z';
      await storage.maintenance.erase({ tenant_id: 't1', user_id: 'u1', session_id: 's2', at: later });
      const other = (await get(builds.other.id))!;
      expect(other.redactions).toEqual([
        { at: ERASED_AT, erased: 'session', removed_entries: 2, removed_ids: 1 },
        { at: later, erased: 'session', removed_entries: 2, removed_ids: 1 },
      ]);
      expect(JSON.stringify(other.packet)).not.toContain(learned2.id);
      expect(await buildIds(storage)).toEqual([builds.other.id, builds.unrelated.id]);
    });
  });
}
