// Several processes on one PostgreSQL schema: two `engram serve --no-worker` and two `engram worker`
// start at the same moment (racing to migrate), then sixteen clients commit turns over HTTP to both
// servers, every third turn sent to both at once with the same turn_id, and compose packets from the
// server they did not write to. Afterwards the database holds exactly the events the servers
// acknowledged, each turn once, every session's summary folded every turn once, every reflection job
// ran once (by one of the workers) and recorded one reflection of its whole run, every packet
// validated, and every process exits 0 on SIGTERM.

import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { assertPacket, type CommitTurnResult, type MemoryPacket, type Purpose, type StmSummary } from '../src/index.js';
import { migrations } from '../src/storage/postgres/migrations.js';
import { startEngram, type EngramProcess } from './helpers/engram-process.js';
import { POSTGRES_URL } from './helpers/postgres.js';

const CLIENTS = 16;
const TURNS = 12;
/** A client's runs are four turns long; the fourth carries RUN_END, which queues the run's reflection. */
const RUN_LENGTH = 4;
/** Every third turn goes to both servers at the same moment, with the same turn_id. */
const PAIR_EVERY = 3;
const AGENT = 'assistant';
const SAYINGS = [
  'I prefer concise answers in writing.',
  'We launch Atlas on June {n}.',
  'Please run the nightly Atlas build, attempt {n}.',
  'I prefer detailed answers in writing.',
];
const PURPOSES: Purpose[] = ['planner', 'responder', 'tool'];

const schema = `engram_mp_${process.pid}`;
const store = storeAddress(schema);
const db = new pg.Pool({ connectionString: POSTGRES_URL, max: 2, options: `-c search_path=${schema}` });

function storeAddress(name: string): string {
  const url = new URL(POSTGRES_URL);
  url.searchParams.set('schema', name);
  return url.toString();
}

interface Problem {
  code: string;
  detail: string;
}

interface TurnRequest {
  scope: { user_id: string; agent_id: string; session_id: string; run_id: string };
  turn_id: string;
  messages: Array<{ role: 'user' | 'assistant'; content: string }>;
  markers?: ['RUN_END'];
}

let servers: EngramProcess[] = [];
let workers: EngramProcess[] = [];
let apis: string[] = [];
let key = '';

/** What the clients saw: one acknowledged result per turn (by `user/session/turn`), the pairs, the packets. */
const acknowledged = new Map<string, CommitTurnResult>();
const pairs: Array<[CommitTurnResult, CommitTurnResult]> = [];
const packets: MemoryPacket[] = [];
const endedRuns = new Set<string>();
/** Every refused request, invalid packet or missing turn the clients ran into. */
const problems: string[] = [];

const turnKey = (scope: { user_id: string; session_id: string }, turnId: string) =>
  `${scope.user_id}/${scope.session_id}/${turnId}`;

async function request<T>(
  method: 'GET' | 'POST',
  url: string,
  secret: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const response = await fetch(url, {
    method,
    headers: {
      authorization: `Bearer ${secret}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as T };
}

async function rows<T>(sql: string): Promise<T[]> {
  return (await db.query(sql)).rows as T[];
}

function turnOf(client: number, index: number): TurnRequest {
  const run = `c${client}-r${Math.floor(index / RUN_LENGTH)}`;
  const saying = SAYINGS[(client + index) % SAYINGS.length]!.replace('{n}', String(index + 1));
  return {
    scope: { user_id: `u${client % 4}`, agent_id: AGENT, session_id: `s${client % 8}`, run_id: run },
    turn_id: `c${client}-t${index}`,
    messages: [
      { role: 'user', content: saying },
      { role: 'assistant', content: `Noted, client ${client}, turn ${index}.` },
    ],
    ...(index % RUN_LENGTH === RUN_LENGTH - 1 ? { markers: ['RUN_END'] as ['RUN_END'] } : {}),
  };
}

/**
 * The turn's result, or null (and a problem noted) when the server refused it. Nothing is sent
 * twice: commitTurn itself recomputes a turn (with a growing random pause) when other writers
 * change what it builds on (the session's summary, an item it supersedes), so even four clients
 * updating one user's preference at the same moment on two servers are all acknowledged.
 */
async function commit(api: string, turn: TurnRequest): Promise<CommitTurnResult | null> {
  const { status, body } = await request<CommitTurnResult & Problem>('POST', `${api}/v1/turns`, key, turn);
  if (status === 200) return body;
  problems.push(`commit ${turn.turn_id} on ${api}: ${status} ${body.code}: ${body.detail}`);
  return null;
}

/** Composes on `api`: the packet must validate and show the turn just committed (on either server). */
async function composeAfter(
  api: string,
  turn: TurnRequest,
  written: CommitTurnResult,
  purpose: Purpose,
): Promise<void> {
  const { status, body } = await request<{ packet: MemoryPacket } & Problem>('POST', `${api}/v1/compose`, key, {
    scope: turn.scope,
    purpose,
    conversation_window: 20,
    cues: { query: 'Atlas launch date' },
    // Room for the whole window: a tight budget may keep shorter, older messages over the newest.
    budget: { max_tokens: 40_000 },
  });
  if (status !== 200) {
    problems.push(`compose ${purpose} on ${api}: ${status} ${body.code}: ${body.detail}`);
    return;
  }
  try {
    packets.push(assertPacket(body.packet));
  } catch (error) {
    problems.push(`compose ${purpose} on ${api}: invalid packet: ${(error as Error).message}`);
    return;
  }
  const window = body.packet.short_term.conversation_window?.map((message) => message.evidence_id) ?? [];
  if (!window.includes(written.events[0]!.event_id))
    problems.push(`compose ${purpose} on ${api}: turn ${turn.turn_id} is not in the window`);
}

/** One turn: to the client's own server, or to both at the same moment; the result acknowledged, or null. */
async function send(turn: TurnRequest, home: number, paired: boolean): Promise<CommitTurnResult | null> {
  if (!paired) return commit(apis[home]!, turn);
  const [first, second] = await Promise.all(apis.map((api) => commit(api, turn)));
  if (first == null || second == null) return first ?? second ?? null; // the refusal is a noted problem
  pairs.push([first, second]);
  return first.replayed ? second : first;
}

/**
 * One client: its turns in order on its own server (every third one sent to both servers at once),
 * and a compose on the other server after every other turn. Problems are noted, not thrown, so the
 * other clients finish and the database holds only what the clients saw.
 */
async function client(index: number): Promise<void> {
  const home = index < CLIENTS / 2 ? 0 : 1;
  for (let turnIndex = 0; turnIndex < TURNS; turnIndex += 1) {
    const turn = turnOf(index, turnIndex);
    try {
      const written = await send(turn, home, turnIndex % PAIR_EVERY === PAIR_EVERY - 1);
      if (written === null) continue;
      acknowledged.set(turnKey(turn.scope, turn.turn_id), written);
      if (turn.markers !== undefined) endedRuns.add(`${turn.scope.user_id}/${turn.scope.run_id}`);
      if (turnIndex % 2 === 0)
        await composeAfter(apis[1 - home]!, turn, written, PURPOSES[(index + turnIndex) % PURPOSES.length]!);
    } catch (error) {
      problems.push(`client ${index}, turn ${turn.turn_id}: ${(error as Error).message}`);
    }
  }
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const byId = (a: { id: string }, b: { id: string }) => compare(a.id, b.id);

async function waitUntil(condition: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`still waiting after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The sum of one count over the tick lines a worker logged. */
function tickTotal(worker: EngramProcess, field: 'jobs' | 'merged'): number {
  return [...worker.stdout().matchAll(new RegExp(`^event=tick .*\\b${field}=(\\d+)`, 'gm'))].reduce(
    (sum, match) => sum + Number(match[1]),
    0,
  );
}

beforeAll(async () => {
  await db.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  // All four at once on an empty schema: each one migrates, under the schema's advisory lock.
  servers = [0, 1].map(() =>
    startEngram(['--store', store, 'serve', '--port', '0', '--quiet', '--no-worker', '--rate-limit', '1000000']),
  );
  workers = [0, 1].map(() => startEngram(['--store', store, 'worker', '--interval', '100']));
  await Promise.all([
    ...servers.map((server) => server.waitFor(/Stop with Ctrl-C/)),
    ...workers.map((worker) => worker.waitFor(/^event=started/m)),
  ]);
  apis = servers.map((server) => /API\s+(http:\/\/127\.0\.0\.1:\d+)\/v1/.exec(server.stdout())![1]!);
}, 60_000);

afterAll(async () => {
  for (const child of [...servers, ...workers]) {
    if (child.child.exitCode === null && child.child.signalCode === null) child.child.kill('SIGKILL');
  }
  await db.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await db.end();
});

describe('two engram serve processes and two workers on one PostgreSQL schema', () => {
  it('start at once on an empty schema, bring it to the latest version, and share its keys', async () => {
    const versions = await rows<{ version: number }>('SELECT version FROM engram_migrations ORDER BY version');
    expect(versions.map((row) => row.version)).toEqual(migrations.map((_, index) => index + 1));
    // A server that finds no key creates the first-start admin key and prints it. Racing on an empty
    // store, exactly one of them does; the key is stored once and works on both servers.
    const adminKeys = servers.flatMap(
      (server) => /admin key[^:]*: (egk_[A-Za-z0-9_-]+)/.exec(server.stdout())?.[1] ?? [],
    );
    expect(adminKeys).toHaveLength(1);
    const stored = await rows<{ role: string }>('SELECT role FROM api_keys');
    expect(stored).toEqual(adminKeys.map(() => ({ role: 'admin' })));
    for (const api of apis) {
      for (const admin of adminKeys) expect((await request('GET', `${api}/v1/keys`, admin)).status).toBe(200);
    }
    const created = await request<{ key: string }>('POST', `${apis[1]}/v1/keys`, adminKeys[0]!, {
      role: 'write',
      label: 'multiprocess clients',
    });
    expect(created.status).toBe(201);
    key = created.body.key;
  });

  it('take many concurrent clients: a turn sent to both servers at once is written once and replayed once, and every packet validates', async () => {
    await Promise.all(Array.from({ length: CLIENTS }, (_, index) => client(index)));
    expect(problems).toEqual([]);
    expect(acknowledged.size).toBe(CLIENTS * TURNS);
    expect(pairs.length).toBe(CLIENTS * Math.floor(TURNS / PAIR_EVERY));
    for (const [first, second] of pairs) {
      // commitTurn answers a repeat with the first result, marked replayed (docs/http.md, DUPLICATE_TURN).
      expect([first.replayed, second.replayed].sort()).toEqual([false, true]);
      expect(second.events).toEqual(first.events);
      expect(second.recorded_at).toBe(first.recorded_at);
    }
    expect(packets.length).toBe(CLIENTS * Math.ceil(TURNS / 2));
    // The servers counted the same: every turn written once between them, one replay per pair.
    const counted = { written: 0, replayed: 0 };
    for (const api of apis) {
      const metrics = await (await fetch(`${api}/metrics`)).text();
      for (const [, outcome, count] of metrics.matchAll(
        /^engram_turns_committed_total\{outcome="(written|replayed)"\} (\d+)$/gm,
      )) {
        counted[outcome as keyof typeof counted] += Number(count);
      }
    }
    expect(counted).toEqual({ written: CLIENTS * TURNS, replayed: pairs.length });
  }, 60_000);

  it('run every reflection job exactly once, each recording one reflection of its whole run', async () => {
    await waitUntil(
      async () =>
        (await rows<{ n: number }>("SELECT count(*)::int AS n FROM jobs WHERE status IN ('pending', 'running')"))[0]!
          .n === 0,
      45_000,
    );
    const runs = [...endedRuns].sort();
    const jobs = await rows<{ id: string }>('SELECT id, kind, status, attempts, last_error FROM jobs');
    expect(jobs.sort(byId)).toEqual(
      runs
        .map((run) => ({
          id: `reflect:${run.replace('/', `/${AGENT}/`)}`,
          kind: 'reflect',
          status: 'done',
          attempts: 1,
          last_error: null,
        }))
        .sort(byId),
    );

    // Each reflection read every event its run committed (the RUN_END turn came last).
    const committed = new Map<string, number>();
    for (const result of acknowledged.values()) {
      const run = `${result.scope.user_id}/${result.scope.run_id}`;
      committed.set(run, (committed.get(run) ?? 0) + result.events.length);
    }
    const reflections = await rows<{ user_id: string; run_id: string; status: string; event_count: number }>(
      'SELECT user_id, run_id, status, event_count FROM reflections',
    );
    expect(
      reflections
        .map((row) => ({ run: `${row.user_id}/${row.run_id}`, status: row.status, event_count: row.event_count }))
        .sort((a, b) => compare(a.run, b.run)),
    ).toEqual(runs.map((run) => ({ run, status: 'succeeded', event_count: committed.get(run) })));

    // Every job was reported by exactly one worker, and both workers took part.
    await waitUntil(
      async () => workers.reduce((sum, worker) => sum + tickTotal(worker, 'jobs'), 0) >= jobs.length,
      5_000,
    );
    expect(workers.reduce((sum, worker) => sum + tickTotal(worker, 'jobs'), 0)).toBe(jobs.length);
    for (const worker of workers) expect(tickTotal(worker, 'jobs')).toBeGreaterThan(0);
  }, 60_000);

  it('lose and duplicate nothing: events, turns and summaries are exactly what was acknowledged', async () => {
    const expectedEvents = new Map<string, string>();
    for (const [turn, result] of acknowledged)
      for (const event of result.events) expectedEvents.set(event.event_id, turn);
    const events = await rows<{
      tenant_id: string;
      id: string;
      user_id: string;
      session_id: string;
      turn_id: string | null;
      kind: string;
    }>('SELECT tenant_id, id, user_id, session_id, turn_id, kind FROM events');
    expect(new Set(events.map((event) => `${event.tenant_id}/${event.id}`)).size).toBe(events.length);
    const byReflection = events.filter((event) => event.turn_id?.startsWith('reflection:') === true);
    const byTurns = events.filter((event) => !byReflection.includes(event));
    expect(byTurns.length).toBe(expectedEvents.size);
    expect(new Map(byTurns.map((event) => [event.id, turnKey(event, event.turn_id ?? '')]))).toEqual(expectedEvents);
    // The rest: a question a reflection opened in the session's open loops, one state patch at most per reflection.
    const traces = new Set(
      (await rows<{ trace_id: string }>('SELECT trace_id FROM reflections')).map((row) => `reflection:${row.trace_id}`),
    );
    for (const event of byReflection)
      expect({ kind: event.kind, known: traces.has(event.turn_id!) }).toEqual({ kind: 'state_patch', known: true });
    expect(new Set(byReflection.map((event) => event.turn_id)).size).toBe(byReflection.length);

    const turns = await rows<{ user_id: string; session_id: string; turn_id: string; result: string }>(
      'SELECT user_id, session_id, turn_id, result FROM turns',
    );
    expect(turns.map((turn) => turnKey(turn, turn.turn_id)).sort()).toEqual([...acknowledged.keys()].sort());
    for (const turn of turns)
      expect((JSON.parse(turn.result) as CommitTurnResult).events).toEqual(
        acknowledged.get(turnKey(turn, turn.turn_id))!.events,
      );

    // Each written turn folded into its session's summary once: one version and its events per turn.
    const expectedSummaries = new Map<string, { version: number; events_folded: number }>();
    for (const result of acknowledged.values()) {
      const session = `${result.scope.user_id}/${result.scope.session_id}`;
      const summary = expectedSummaries.get(session) ?? { version: 0, events_folded: 0 };
      expectedSummaries.set(session, {
        version: summary.version + 1,
        events_folded: summary.events_folded + result.events.length,
      });
    }
    const summaries = await rows<{ user_id: string; session_id: string; version: number; summary: string }>(
      'SELECT user_id, session_id, version, summary FROM stm_summary',
    );
    expect(
      new Map(
        summaries.map((row) => [
          `${row.user_id}/${row.session_id}`,
          { version: row.version, events_folded: (JSON.parse(row.summary) as StmSummary).events_folded },
        ]),
      ),
    ).toEqual(expectedSummaries);

    // Every packet was stored as a context build, once.
    const builds = await rows<{ id: string }>('SELECT id FROM context_builds');
    expect(builds.map((build) => build.id).sort()).toEqual(
      packets.map((packet) => packet.explain.determinism!['context_build_id']).sort(),
    );
  });

  it('stop every process cleanly on SIGTERM', async () => {
    const codes = await Promise.all([...servers, ...workers].map((child) => child.stop()));
    expect(codes).toEqual([0, 0, 0, 0]);
    // A worker's last line sums what it did: the jobs its ticks reported, its index merge steps, and no failed tick.
    for (const worker of workers) {
      expect(worker.stdout()).toMatch(
        new RegExp(
          `^event=stopped signal=SIGTERM .*\\bjobs=${tickTotal(worker, 'jobs')} merged=${tickTotal(worker, 'merged')} errors=0$`,
          'm',
        ),
      );
      expect(worker.stdout()).not.toMatch(/^event=error/m);
    }
  }, 30_000);
});
