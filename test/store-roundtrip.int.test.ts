// Moving a tenant between stores loses nothing and changes nothing. A rich tenant is built on a
// SQLite file through the library (the quickstart conversation, a superseded and a retracted
// preference, a compacted run with a snapshot, reflections with pending, approved and rejected
// candidates, insights live, validated, promoted and expired, context builds of every purpose),
// exported, imported into a fresh PostgreSQL schema, exported again, and then moved back into a
// fresh SQLite file. Every export reads the same record for record; the same reads (events, event
// and item search, items with their history, review queue, insights, runs and snapshots, builds)
// answer the same on every store; and every stored context build replays byte for byte everywhere.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  createEngram,
  EXPORT_KINDS,
  openStore,
  words,
  type CommitTurnRequest,
  type CommitTurnResult,
  type ComposeRequest,
  type EmbeddingModel,
  type Engram,
  type EventRecord,
  type ExportRecord,
  type Marker,
  type SearchHit,
  type StorageAdapter,
} from '../src/index.js';
import { storeOptionsOf } from '../src/runtime/config.js';
import { POSTGRES_URL } from './helpers/postgres.js';

const TENANT = 'demo';
const PLANNING = {
  tenant_id: TENANT,
  user_id: 'mira',
  agent_id: 'launch-assistant',
  session_id: 'atlas-planning',
  run_id: 'run-1',
};
const FOLLOW_UP = { ...PLANNING, session_id: 'atlas-followup', run_id: 'run-2' };
const RESEARCH = {
  tenant_id: TENANT,
  user_id: 'ravi',
  agent_id: 'researcher',
  session_id: 'atlas-date-s1',
  run_id: 'atlas-date',
};
const SUPPORT = { tenant_id: TENANT, user_id: 'li', agent_id: 'support', session_id: 'zh-1', run_id: 'zh-run' };
const SESSIONS = [PLANNING, FOLLOW_UP, RESEARCH, SUPPORT];
const STEP: Marker[] = ['PLAN_DONE', 'ACT_DONE', 'OBSERVE_DONE', 'STEP_DONE'];
const SCHEMA = `engram_rt_${process.pid}`;

/** A deterministic embedding model (hashed words), so item search also ranks by vectors on every store. */
const hashedWords: EmbeddingModel = {
  specificationVersion: 'v1',
  provider: 'test',
  modelId: 'hashed-words',
  dimensions: 32,
  maxBatchSize: 64,
  remote: false,
  doEmbed: async ({ values }) => ({
    embeddings: values.map((text) => {
      const vector = new Float32Array(32);
      vector[0] = 1;
      for (const word of words(text)) {
        let hash = 7;
        for (const char of word) hash = (hash * 31 + char.codePointAt(0)!) % 9973;
        vector[1 + (hash % 31)]! += 1;
      }
      const length = Math.hypot(...vector);
      return vector.map((value) => value / length);
    }),
  }),
};

let now = Date.parse('2026-11-02T08:59:00.000Z');
const clock = { now: () => new Date(now) };
const at = (iso: string) => {
  now = Date.parse(iso);
};
const tick = (ms = 60_000) => {
  now += ms;
};

const open = (store: string | StorageAdapter) =>
  createEngram({ store, clock, debug: true, embeddings: hashedWords, reflection: { llm: false } });

async function collect(lines: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const line of lines) out.push(line);
  return out;
}

/** The records of an export (its header aside) and the header without its time. */
async function exportOf(engram: Engram): Promise<{ header: Record<string, unknown>; records: string[] }> {
  const [header, ...records] = await collect(engram.maintenance.exportData({ tenant_id: TENANT }));
  const { exported_at: _time, ...rest } = JSON.parse(header!) as Record<string, unknown>;
  return { header: rest, records };
}

function kindCounts(records: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const line of records) {
    const { kind } = JSON.parse(line) as ExportRecord;
    counts[kind] = (counts[kind] ?? 0) + 1;
  }
  return counts;
}

/** Writes to the source store on an advancing clock, keeping the JSON of every packet composed, by build id. */
interface Writer {
  engram: Engram;
  packets: Map<string, string>;
  compose(request: ComposeRequest): Promise<void>;
  commit(turn: CommitTurnRequest): Promise<CommitTurnResult>;
}

function writer(engram: Engram): Writer {
  const packets = new Map<string, string>();
  return {
    engram,
    packets,
    compose: async (request) => {
      tick(1000);
      const packet = await engram.compose(request);
      packets.set(String(packet.explain.determinism!['context_build_id']), JSON.stringify(packet));
    },
    commit: (turn) => {
      tick();
      return engram.commitTurn(turn);
    },
  };
}

/** The quickstart conversation: a secret message, Chinese, a tool result, state patches, markers. */
async function planning({ engram, compose }: Writer): Promise<void> {
  const turns = JSON.parse(
    readFileSync(join(import.meta.dirname, '..', 'examples', 'quickstart', 'turns.json'), 'utf8'),
  ) as CommitTurnRequest[];
  for (const turn of turns) {
    at(turn.ts!);
    tick(1000);
    await engram.commitTurn(turn);
    if (turn.turn_id === 'turn-003')
      await compose({ scope: PLANNING, purpose: 'planner', cues: { query: 'webinar slots on launch day' } });
  }
  await compose({ scope: PLANNING, purpose: 'responder', cues: { query: '中文公告什么时候发布' } });
  await compose({
    scope: PLANNING,
    purpose: 'tool',
    task_type: 'publish',
    cues: { keywords: ['changelog'], entities: ['docs/changelog/atlas-2.md'] },
    budget: { max_tokens: 800 },
  });
}

/**
 * A follow-up session: the length preference changes (v1 superseded), deploys repeat a tool
 * sequence, a hunch is tested, a tone is remembered and then retracted, the run ends; then the
 * rules reflect on both runs (candidates approved, rejected, left pending; a contradiction open).
 */
async function followUp({ engram, compose, commit }: Writer): Promise<void> {
  const before = clock.now().toISOString();
  await commit({
    scope: FOLLOW_UP,
    turn_id: 'f1',
    messages: [{ role: 'user', content: 'Actually, I prefer long, detailed announcements with examples.' }],
  });
  for (const [turnId, content] of [
    ['d1', 'Deploy billing. I prefer dark mode in the dashboard.'],
    ['d2', 'Now deploy auth. Remember I prefer dark mode in the dashboard.'],
  ] as const) {
    const tools = [
      { tool_name: 'build_image', content: { ok: true } },
      { tool_name: 'push_image', content: { ok: true } },
    ];
    await commit({ scope: FOLLOW_UP, turn_id: turnId, messages: [{ role: 'user', content }], tool_results: tools });
  }
  await engram.sessions.updateWorkingState({
    scope: FOLLOW_UP,
    expected_version: 0,
    set: { goal: 'Publish the Atlas 2.0 announcements' },
  });
  tick();
  const hunch = await engram.insights.add({
    scope: FOLLOW_UP,
    type: 'hypothesis',
    statement: 'Long announcements get fewer clicks',
    tests_suggested: ['compare the click rate of two posts'],
  });
  await engram.insights.update({
    insight_id: hunch.id,
    tenant_id: TENANT,
    state: 'testing',
    by: 'mira',
    note: 'trying it',
  });
  tick();
  await engram.items.remember({
    scope: FOLLOW_UP,
    type: 'preferences',
    key: 'pref:writing:tone',
    value: { scope: 'writing', name: 'tone', value: 'friendly' },
  });
  await compose({
    scope: FOLLOW_UP,
    purpose: 'planner',
    cues: { query: 'announcement length and tone', tags: ['writing'] },
  });
  await compose({
    scope: FOLLOW_UP,
    purpose: 'responder',
    policy_id: 'with-insights',
    cues: { query: 'dark mode dashboard' },
  });
  tick();
  await engram.items.forget({ scope: FOLLOW_UP, key: 'pref:writing:tone', reason: 'no tone rule after all' });
  await commit({
    scope: FOLLOW_UP,
    turn_id: 'end',
    messages: [{ role: 'user', content: 'No, the launch date is 2026-12-08, not 2026-12-01.' }],
    markers: ['RUN_END'],
  });

  tick();
  const deploys = await engram.reflect({
    scope: { tenant_id: TENANT, user_id: 'mira', agent_id: 'launch-assistant', run_id: 'run-2' },
    use: 'rules',
  });
  const procedure = deploys.candidates.find((candidate) => candidate.memory_type === 'procedural')!;
  const episode = deploys.candidates.find((candidate) => candidate.kind === 'episode')!;
  await engram.review.approve({ candidate_id: procedure.id, tenant_id: TENANT, by: 'mira' });
  await engram.review.reject({ candidate_id: episode.id, tenant_id: TENANT, by: 'mira', reason: 'routine deploys' });
  tick();
  const launch = await engram.reflect({
    scope: { tenant_id: TENANT, user_id: 'mira', agent_id: 'launch-assistant', run_id: 'run-1' },
    use: 'rules',
  });
  expect(launch.candidates.some((candidate) => candidate.kind === 'contradiction')).toBe(true);
  await compose({
    scope: FOLLOW_UP,
    purpose: 'tool',
    task_type: 'deploy',
    cues: { query: 'deploy build_image push_image' },
  });
  await compose({ scope: FOLLOW_UP, purpose: 'responder', cues: { query: 'launch date' }, as_of: before });
}

/** The run payload of compaction.md's example, citing the tool result `toolEvent`. */
function runRecord(toolEvent: string): CommitTurnRequest['run'] {
  return {
    objective: 'Find the Atlas launch date',
    done_definition: { answer: 'a date with a source', confirmed_by: 'release manager' },
    evidence: [
      { corpus_id: 'wiki', chunk_id: 'atlas-plan#3', span: [0, 64], source_id: 'https://wiki.example/atlas-plan' },
    ],
    claims: [
      {
        claim_id: 'launch-date',
        status: 'verified',
        statement: 'Atlas launches on 2026-06-12.',
        evidence: [{ event_id: toolEvent, quote: 'Atlas launches on 2026-06-12' }],
      },
      { claim_id: 'qa-signoff', status: 'candidate', statement: 'QA signs off a week before launch.' },
    ],
    conflicts: [
      {
        conflict_id: 'plan-vs-calendar',
        description: 'The release plan says June 12, the team calendar June 19.',
        side_a: [{ event_id: toolEvent, quote: '2026-06-12' }],
        side_b: [
          {
            corpus_id: 'calendar',
            chunk_id: 'team-2026-06',
            span: [120, 143],
            quote: 'Atlas launch 2026-06-19',
            source_id: 'calendar:team',
          },
        ],
      },
    ],
    failures: [
      { failure_id: 'jira-timeout', category: 'tool_error', where: 'search(jira)', why: 'timed out after 30 s' },
    ],
    open_questions: { add: ['Which date does the release manager confirm?'] },
    sources_seen: [
      { source_id: 'https://wiki.example/atlas-plan', chunk_ids: ['atlas-plan#1', 'atlas-plan#3'] },
      { source_id: 'calendar:team' },
    ],
  };
}

/** A research run long enough for a compaction snapshot (18 terminal markers), a validated and promoted strategy, its end and reflection. */
async function research({ engram, compose, commit }: Writer): Promise<void> {
  const search = await commit({
    scope: RESEARCH,
    turn_id: 'r1',
    messages: [{ role: 'user', content: 'Find the Atlas launch date.' }],
    tool_results: [{ tool_name: 'search', content: 'Atlas launches on 2026-06-12 according to the release plan.' }],
  });
  const toolEvent = search.events.find((event) => event.kind === 'tool_result')!.event_id;
  await commit({
    scope: RESEARCH,
    turn_id: 'r2',
    messages: [{ role: 'assistant', content: 'The release plan says June 12; the team calendar disagrees.' }],
    markers: STEP,
    run: runRecord(toolEvent),
  });
  const outcomes = [];
  for (let step = 2; step <= 7; step += 1) {
    const result = await commit({
      scope: RESEARCH,
      turn_id: `r${step + 1}`,
      messages: [{ role: 'assistant', content: `Checked source ${step} for the launch date.` }],
      markers: STEP,
    });
    if (result.compaction !== undefined) outcomes.push(result.compaction.status);
    if (step === 4) await compose({ scope: RESEARCH, purpose: 'planner', cues: { query: 'release calendar' } });
  }
  expect(outcomes).toEqual(['PASS']);
  await compose({ scope: RESEARCH, purpose: 'planner', cues: { query: 'launch date source' } });
  tick();
  const strategy = await engram.insights.add({
    scope: RESEARCH,
    type: 'strategy',
    statement: 'Check the team calendar before quoting a release date',
    trigger: 'conflict',
    confidence: 0.6,
    expires_at: null,
  });
  await engram.insights.update({ insight_id: strategy.id, tenant_id: TENANT, state: 'testing', by: 'ravi' });
  tick();
  await engram.insights.update({
    insight_id: strategy.id,
    tenant_id: TENANT,
    state: 'validated',
    by: 'ravi',
    note: 'the calendar was right twice',
  });
  const steps = ['read the release plan', 'read the team calendar'];
  await engram.insights.promote({
    insight_id: strategy.id,
    tenant_id: TENANT,
    type: 'procedure',
    key: 'procedure:research:date_check',
    value: { task_type: 'research', name: 'date_check', steps },
  });
  await compose({
    scope: RESEARCH,
    purpose: 'responder',
    cues: { query: 'Atlas launch', time_range: { start: '2026-11-02T00:00:00.000Z' } },
  });
  const resolve = ['Which date does the release manager confirm?'];
  await commit({
    scope: RESEARCH,
    turn_id: 'r-end',
    messages: [{ role: 'assistant', content: 'The release manager confirmed June 12.' }],
    markers: ['RUN_END'],
    run: { open_questions: { resolve } },
  });
  tick();
  await engram.reflect({
    scope: { tenant_id: TENANT, user_id: 'ravi', agent_id: 'researcher', run_id: 'atlas-date' },
    use: 'rules',
  });
}

/** A Chinese support conversation with a private message, and another tenant that must not move. */
async function support({ compose, commit }: Writer): Promise<void> {
  await commit({
    scope: SUPPORT,
    turn_id: 'z1',
    messages: [
      { role: 'user', content: '我想申请退款，订单号是 A-1029。' },
      { role: 'assistant', content: '好的，退款申请已经提交，三个工作日内到账。' },
    ],
  });
  await commit({
    scope: SUPPORT,
    turn_id: 'z2',
    messages: [
      { role: 'user', content: '我的地址是上海市浦东新区。', sensitivity: 'private' },
      { role: 'user', content: '我更喜欢用中文沟通。' },
    ],
  });
  await compose({ scope: SUPPORT, purpose: 'responder', cues: { query: '退款什么时候到账' } });
  await commit({
    scope: { ...PLANNING, tenant_id: 'acme' },
    turn_id: 'a1',
    messages: [{ role: 'user', content: 'The acme-only codename is Bluebird.' }],
  });
}

/** Builds the tenant on `engram` (embeddings done); returns the JSON of every packet composed, by build id. */
async function buildTenant(engram: Engram): Promise<Map<string, string>> {
  engram.registerPolicy({
    policy_id: 'with-insights',
    purposes: { responder: { allow_insights_in_responder: true, budget: { per_section: { insights: 200 } } } },
  });
  const w = writer(engram);
  for (const part of [planning, followUp, research, support]) await part(w);
  await engram.maintenance.runEmbeddings();
  return w.packets;
}

/**
 * An event as an export carries it: a secret event leaves the source without its content (which
 * listEvents withholds too) and marked not embeddable (which listEvents leaves as stored).
 */
const asExported = (event: EventRecord): EventRecord =>
  event.sensitivity === 'secret' ? { ...event, embeddable: false } : event;

/** The same reads through the library, on any store. */
async function reads(engram: Engram): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const scope of SESSIONS) {
    const name = `${scope.user_id}/${scope.session_id}`;
    out[`events ${name}`] = (await engram.events.list({ scope, limit: 1000 })).map(asExported);
    out[`working state ${name}`] = await engram.sessions.workingState(scope);
    out[`summary ${name}`] = await engram.sessions.summary(scope);
  }
  out['events of mira, newest first, messages'] = (
    await engram.events.list({
      scope: { tenant_id: TENANT, user_id: 'mira' },
      kinds: ['message', 'tool_result'],
      order: 'desc',
      limit: 1000,
    })
  ).map(asExported);
  const users = [
    { user_id: 'mira', agent_id: 'launch-assistant' },
    { user_id: 'ravi', agent_id: 'researcher' },
    { user_id: 'li', agent_id: 'support' },
  ];
  const queries = [
    'webinar slots',
    '中文公告',
    '退款',
    'launch date',
    'dark mode dashboard',
    'Atlas 2.0 changelog superlatives',
    'release plan calendar',
    'deploy push_image',
  ];
  for (const user of users) {
    const scope = { tenant_id: TENANT, ...user };
    for (const query of queries) {
      out[`search events ${user.user_id} "${query}"`] = await engram.events.search({
        scope: { tenant_id: TENANT, user_id: user.user_id },
        query,
        limit: 50,
      });
      out[`search items ${user.user_id} "${query}"`] = await engram.items.search({
        scope,
        query,
        k: 20,
        filters: { status: ['active', 'superseded', 'retracted'] },
      });
    }
    out[`items ${user.user_id}`] = await engram.items.list({
      scope,
      status: ['active', 'superseded', 'retracted'],
      limit: 1000,
    });
    out[`review ${user.user_id}`] = await engram.review.list({
      scope: { tenant_id: TENANT, user_id: user.user_id },
      status: ['pending', 'approved', 'edited', 'rejected'],
      limit: 1000,
    });
    out[`insights ${user.user_id}`] = await engram.insights.list({ scope, include_expired: true, limit: 1000 });
  }
  for (const key of ['pref:writing:length', 'pref:writing:tone'])
    out[`history ${key}`] = await engram.items.history({
      scope: { tenant_id: TENANT, user_id: 'mira', agent_id: 'launch-assistant' },
      key,
    });
  const run = { tenant_id: TENANT, user_id: 'ravi', agent_id: 'researcher', run_id: 'atlas-date' };
  out['run'] = await engram.runs.get(run);
  const snapshots = await engram.runs.snapshots({ scope: { tenant_id: TENANT, user_id: 'ravi' } });
  out['snapshots'] = snapshots;
  out['narratives'] = await Promise.all(
    snapshots.map((record) => engram.runs.narrative(record.snapshot.snapshot_id, TENANT)),
  );
  out['builds'] = await engram.builds.list({ tenant_id: TENANT, limit: 1000 });
  return out;
}

/** Replays every stored build on each store: identical to the stored packet, the same bytes everywhere. */
async function expectReplays(stores: Engram[], originals: ReadonlyMap<string, string>): Promise<void> {
  const builds = await stores[0]!.builds.list({ tenant_id: TENANT, limit: 1000 });
  expect(builds.map((build) => build.id).sort()).toEqual([...originals.keys()].sort());
  for (const build of builds) {
    for (const store of stores) {
      const stored = await store.builds.get(build.id, TENANT);
      expect(JSON.stringify(stored.packet), `stored packet of ${build.id}`).toBe(originals.get(build.id));
      const replayed = await store.builds.replay(build.id, TENANT);
      expect(JSON.stringify(replayed.packet), `replay of ${build.id} (${build.purpose})`).toBe(originals.get(build.id));
      expect(replayed).toMatchObject({
        identical: true,
        original_hash: build.packet_hash,
        replay_hash: build.packet_hash,
      });
    }
  }
}

describe('an export → import round trip between SQLite and PostgreSQL', () => {
  const folder = mkdtempSync(join(tmpdir(), 'engram-roundtrip-'));
  const admin = new pg.Pool({ connectionString: POSTGRES_URL, max: 1 });
  let source: Engram;
  /** The store under `source`, opened here to read what it keeps that no export shows. */
  let sourceStore: StorageAdapter;
  let postgres: Engram;
  let back: Engram;
  let originals: Map<string, string>;
  let exported: { header: Record<string, unknown>; records: string[] };

  beforeAll(async () => {
    await admin.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
    sourceStore = await openStore(`sqlite:${join(folder, 'source.db')}`, storeOptionsOf({}));
    source = await open(sourceStore);
    originals = await buildTenant(source);
    exported = await exportOf(source);
    postgres = await open(`${POSTGRES_URL}?schema=${SCHEMA}`);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([source?.close(), postgres?.close(), back?.close()]);
    await admin.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
    await admin.end();
    rmSync(folder, { recursive: true, force: true });
  });

  it('exports every kind of record of the tenant, and nothing of another tenant', () => {
    const counts = kindCounts(exported.records);
    expect(Object.keys(counts)).toEqual(EXPORT_KINDS);
    expect(exported.header).toEqual({
      kind: 'header',
      format: 'engram-export',
      version: 1,
      tenant_id: TENANT,
      user_id: null,
    });
    const items = exported.records.flatMap((line) => {
      const record = JSON.parse(line) as ExportRecord;
      return record.kind === 'item' ? [`${record.item.key} v${record.item.version} ${record.item.status}`] : [];
    });
    expect(items).toEqual(
      expect.arrayContaining([
        'pref:writing:length v1 superseded',
        'pref:writing:length v2 active',
        'pref:writing:tone v1 retracted',
      ]),
    );
    expect(counts['context_build']).toBe(originals.size);
    const of = <K extends ExportRecord['kind']>(kind: K) =>
      exported.records
        .map((line) => JSON.parse(line) as ExportRecord)
        .filter((record): record is Extract<ExportRecord, { kind: K }> => record.kind === kind);
    expect(new Set(of('candidate').map((record) => record.candidate.status))).toEqual(
      new Set(['pending', 'approved', 'rejected']),
    );
    expect(
      of('insight').map((record) => [
        record.insight.validation_state,
        record.insight.expired_at !== null,
        record.insight.promoted_to !== null,
      ]),
    ).toEqual([
      ['testing', true, false],
      ['validated', false, true],
    ]);
    expect(of('snapshot').map((record) => record.record.snapshot.validation.status)).toEqual(['PASS']);
    expect(exported.records.join('\n')).not.toContain('Bluebird');
    expect(exported.records.join('\n')).not.toContain('sk-demo-DO-NOT-STORE');
  });

  it('leaves out the counts summary sentences keep in the store, which an import never takes on trust', async () => {
    const stored = await sourceStore.sessions.getSummary({
      tenant_id: TENANT,
      user_id: PLANNING.user_id,
      agent_id: PLANNING.agent_id,
      session_id: PLANNING.session_id,
    });
    expect(stored!.sentences.length).toBeGreaterThan(0);
    expect(stored!.sentences.every((sentence) => sentence.spaced_tokens !== undefined)).toBe(true);
    expect(exported.records.join('\n')).not.toContain('spaced_tokens');
  });

  it('imports into PostgreSQL, which exports the same records in the same order', async () => {
    const counts = await postgres.maintenance.importData(
      [JSON.stringify({ ...exported.header, exported_at: clock.now().toISOString() }), ...exported.records],
      { tenant_id: TENANT },
    );
    expect(counts).toEqual(kindCounts(exported.records));
    await postgres.maintenance.runEmbeddings();
    expect(await postgres.maintenance.embeddingBacklog()).toBe(0);
    const again = await exportOf(postgres);
    expect(again.header).toEqual(exported.header);
    expect(again.records).toEqual(exported.records);
  });

  it('answers the same reads on both stores', async () => {
    // An hour after the last write, the same moment for both stores.
    tick(3_600_000);
    const [expected, actual] = [await reads(source), await reads(postgres)];
    expect(Object.keys(actual)).toEqual(Object.keys(expected));
    for (const [name, value] of Object.entries(expected)) expect.soft(actual[name], name).toStrictEqual(value);
    // The reads are not vacuous: text and vectors both rank, in English and in Chinese.
    expect((expected['search items mira "dark mode dashboard"'] as SearchHit[])[0]).toMatchObject({
      item: { key: 'pref:ui:theme' },
      signals: { full_text: expect.anything(), vector: expect.anything() },
    });
    expect(JSON.stringify((expected['search items mira "中文公告"'] as SearchHit[])[0]!.item.value)).toContain(
      '中文公告',
    );
    expect(expected['search events li "退款"']).toHaveLength(2);
    expect(expected['history pref:writing:length']).toHaveLength(2);
  });

  it('replays every stored context build byte for byte on both stores', async () => {
    await expectReplays([postgres, source], originals);
  });

  it('moves back into a fresh SQLite file without a difference', async () => {
    const fromPostgres = await collect(postgres.maintenance.exportData({ tenant_id: TENANT }));
    back = await open(`sqlite:${join(folder, 'back.db')}`);
    await back.maintenance.importData(fromPostgres, { tenant_id: TENANT });
    await back.maintenance.runEmbeddings();
    const returned = await exportOf(back);
    expect(returned.records).toEqual(exported.records);
    const [expected, actual] = [await reads(source), await reads(back)];
    for (const [name, value] of Object.entries(expected)) expect.soft(actual[name], name).toStrictEqual(value);
    await expectReplays([back, postgres, source], originals);
  });

  // Identifiers, numbers with a suffix and non-English words: SQLite's Porter tokenizer stems
  // `api_keys` to `api_key`, `h100s` to `h100`, `1990s` to `1990`, `œuvres` to `œuvre`. A
  // tenant that moves must find them with the same queries on the other store.
  it('finds the same events and items, and replays the same packet, for words beyond plain English ones', async () => {
    const scope = { tenant_id: 'demo-words', user_id: 'ana', agent_id: 'ops', session_id: 'w1', run_id: 'w' };
    tick();
    await source.commitTurn({
      scope,
      turn_id: 'w1',
      messages: [
        {
          role: 'user',
          content: 'Rotate the api_keys of the H100s cluster monthly. Music of the 1990s, les œuvres complètes.',
        },
      ],
    });
    await source.items.remember({
      scope,
      type: 'procedure',
      key: 'procedure:ops:rotation',
      value: { task_type: 'ops', name: 'rotation', steps: ['revoke the old api_keys', 'drain the H100s'] },
    });
    await source.items.remember({
      scope,
      type: 'decisions',
      key: 'decision:ops:keys',
      value: { topic: 'keys', decision: 'api_keys live 30 days' },
    });
    await source.commitTurn({
      scope: { ...scope, session_id: 'w2' },
      turn_id: 'w2',
      messages: [{ role: 'user', content: 'Which cluster do we rent next?' }],
    });
    tick(1000);
    const packet = await source.compose({
      scope: { ...scope, session_id: 'w2' },
      purpose: 'responder',
      cues: { query: 'api_key h100' },
    });
    await source.maintenance.runEmbeddings();
    await postgres.maintenance.importData(
      await collect(source.maintenance.exportData({ tenant_id: scope.tenant_id })),
      {
        tenant_id: scope.tenant_id,
      },
    );
    await postgres.maintenance.runEmbeddings();
    for (const query of ['api_key', 'h100', '1990', 'œuvre']) {
      const request = { scope: { tenant_id: scope.tenant_id, user_id: 'ana' }, query };
      expect
        .soft(await postgres.events.search(request), `search events "${query}"`)
        .toStrictEqual(await source.events.search(request));
      const items = { scope: { tenant_id: scope.tenant_id, user_id: 'ana', agent_id: 'ops' }, query };
      expect
        .soft(await postgres.items.search(items), `search items "${query}"`)
        .toStrictEqual(await source.items.search(items));
    }
    const buildId = String(packet.explain.determinism!['context_build_id']);
    expect((await source.builds.replay(buildId, scope.tenant_id)).identical).toBe(true);
    expect
      .soft(JSON.stringify((await postgres.builds.replay(buildId, scope.tenant_id)).packet), 'replay on PostgreSQL')
      .toBe(JSON.stringify(packet));
  });
});
