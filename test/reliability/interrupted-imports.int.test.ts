// Interrupted imports, on both stores. `engram import` is killed with SIGKILL at a random moment once
// its first batch is in (quick: 2 kills a store; ENGRAM_RELIABILITY_LONG=1: 10): what it left is a
// prefix of the file with every turn whole (a turn's events never without its `turns` row); the same
// command run again skips what is there and finishes, leaving every record of the file exactly once,
// in the file's order; an imported turn committed again is a replay that writes nothing; and the
// derived indexes rebuilt from the result (reindex) answer searches as the import's own did. Then an
// import streamed to a server for longer than its request deadline (and than Node's check of slow
// requests) completes.

import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createEngram, type CommitTurnRequest, type Engram } from '../../src/index.js';
import { createServer, listen } from '../../src/server/index.js';
import { startEngram } from '../helpers/engram-process.js';
import { POSTGRES_URL } from '../helpers/postgres.js';
import { postgresStore, sqliteStore, type StoreUnderTest } from '../helpers/stores.js';
import { streamUpload } from '../helpers/stream-upload.js';
import { recordOutcome } from './results.js';

const LONG = process.env['ENGRAM_RELIABILITY_LONG'] === '1';
const IMPORT_KILLS = LONG ? 10 : 2;
/**
 * How long the slow import is sent for: five times its request deadline, and many times the
 * interval at which Node checks requests still being received (a quarter of the deadline).
 */
const SLOW_IMPORT_MS = 5000;
const figures: Record<string, Record<string, unknown>> = {};

afterAll(() => recordOutcome('interrupted-imports', figures));

const turnRequest = (user: number, turn: number): CommitTurnRequest => ({
  scope: { user_id: `imp-u${user}`, agent_id: 'assistant', session_id: `s${turn % 3}`, run_id: 'r1' },
  turn_id: `t${turn}`,
  messages: [
    { role: 'user', content: `I prefer tea number ${turn}; we ship Atlas ${user} on day ${turn}.` },
    { role: 'assistant', content: 'Noted.' },
  ],
});

async function exportOf(engram: Engram): Promise<string[]> {
  const lines: string[] = [];
  for await (const line of engram.maintenance.exportData()) lines.push(line.trimEnd());
  return lines.slice(1);
}

/** Turns of an export whose events are there without the turn's record. */
function halfWritten(lines: readonly string[]): string[] {
  const withEvents = new Set<string>();
  const recorded = new Set<string>();
  for (const line of lines) {
    const record = JSON.parse(line) as {
      kind: string;
      event?: { user_id: string; turn_id: string | null };
      key?: { user_id: string };
      turn_id?: string;
    };
    if (record.kind === 'event' && record.event!.turn_id !== null)
      withEvents.add(`${record.event!.user_id}/${record.event!.turn_id}`);
    if (record.kind === 'turn') recorded.add(`${record.key!.user_id}/${record.turn_id!}`);
  }
  return [...withEvents].filter((turn) => !recorded.has(turn));
}

/** Rows of the events table of a store, read beside the import writing it. */
async function eventRows(store: StoreUnderTest): Promise<number> {
  if (store.name === 'sqlite') {
    if (!existsSync(store.path!)) return 0;
    const db = new Database(store.path!, { readonly: true, fileMustExist: true });
    try {
      return db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'events'").pluck().get() === 0
        ? 0
        : (db.prepare('SELECT count(*) FROM events').pluck().get() as number);
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_tables WHERE schemaname = $1 AND tablename = $2', [
      store.schema,
      'events',
    ]);
    if (exists.rowCount === 0) return 0;
    return Number((await client.query(`SELECT count(*) AS n FROM "${store.schema!}".events`)).rows[0].n);
  } finally {
    await client.end();
  }
}

describe('interrupted imports', () => {
  const source = sqliteStore('interruptsource');
  let file: string;
  let records: string[];

  beforeAll(async () => {
    const engram = await createEngram({ store: source.address(), embeddings: { provider: 'none' } });
    try {
      const turns: CommitTurnRequest[] = [];
      for (let user = 0; user < 30; user += 1)
        for (let turn = 0; turn < 60; turn += 1) turns.push(turnRequest(user, turn));
      for (let start = 0; start < turns.length; start += 200) await engram.commitTurns(turns.slice(start, start + 200));
      records = await exportOf(engram);
      file = join(source.path!, '..', 'export.jsonl');
      const header = (await engram.maintenance.exportData().next()).value as string;
      writeFileSync(file, `${[header, ...records].join('\n')}\n`);
    } finally {
      await engram.close();
    }
  }, 180_000);

  afterAll(() => source.cleanup());

  for (const make of [sqliteStore, postgresStore]) {
    const name = make === sqliteStore ? 'sqlite' : 'postgres';
    it(
      `on ${name}: a killed engram import leaves whole turns, and the same command run again finishes it exactly`,
      async () => {
        const rounds: Array<Record<string, unknown>> = [];
        let halfWrittenTurns = 0;
        let missing = 0;
        let duplicated = 0;
        let recommitsThatWrote = 0;
        for (let round = 0; round < IMPORT_KILLS; round += 1) {
          const target = make('interruptimport');
          try {
            const importer = startEngram(['--store', target.address(), 'import', file, '--json']);
            let running = true;
            void importer.exited.then(() => (running = false));
            // Kill it at a random moment once its first batch is in (start-up takes longer than a batch).
            while (running && (await eventRows(target)) === 0) await new Promise((resolve) => setTimeout(resolve, 20));
            const killAfter = Math.floor(Math.random() * 400);
            await new Promise((resolve) => setTimeout(resolve, killAfter));
            importer.child.kill('SIGKILL');
            await importer.exited;
            const engram = await createEngram({ store: target.address(), embeddings: { provider: 'none' } });
            try {
              const left = await exportOf(engram);
              // A prefix of the file, in its order, with no turn half written.
              expect(left).toEqual(records.slice(0, left.length));
              halfWrittenTurns += halfWritten(left).length;
              expect(halfWritten(left)).toEqual([]);

              const again = startEngram(['--store', target.address(), 'import', file, '--json']);
              expect(await again.exited, again.stderr()).toBe(0);
              const outcome = JSON.parse(again.stdout()) as {
                counts: Record<string, number>;
                skipped: Record<string, number>;
              };
              const sum = (counts: Record<string, number>) => Object.values(counts).reduce((total, n) => total + n, 0);
              expect(sum(outcome.skipped)).toBe(left.length);
              expect(sum(outcome.counts)).toBe(records.length - left.length);
              const finished = await exportOf(engram);
              missing += records.filter((line) => !finished.includes(line)).length;
              duplicated += finished.length - new Set(finished).size;
              expect(finished).toEqual(records);

              // An imported turn committed again is replayed: no event is added.
              const replay = await engram.commitTurn(turnRequest(3, 7));
              expect(replay.replayed).toBe(true);
              const after = await exportOf(engram);
              recommitsThatWrote += after.length === records.length ? 0 : 1;
              expect(after).toEqual(records);

              const search = { scope: { user_id: 'imp-u3', agent_id: 'assistant' }, query: 'tea Atlas' };
              const before = (await engram.items.search(search)).map((hit) => hit.item.id);
              expect(before.length).toBeGreaterThan(0);
              await engram.maintenance.reindex();
              expect((await engram.items.search(search)).map((hit) => hit.item.id)).toEqual(before);
              rounds.push({
                killed_ms_after_first_batch: killAfter,
                records_left: left.length,
                records_skipped_on_rerun: sum(outcome.skipped),
                records_written_on_rerun: sum(outcome.counts),
              });
            } finally {
              await engram.close();
            }
          } finally {
            await target.cleanup();
          }
        }
        figures[name] = {
          ...figures[name],
          import_kills: IMPORT_KILLS,
          records_in_file: records.length,
          half_written_turns: halfWrittenTurns,
          missing_records: missing,
          duplicated_records: duplicated,
          recommits_that_wrote: recommitsThatWrote,
          rounds,
        };
      },
      (IMPORT_KILLS * 60 + 60) * 1000,
    );
  }

  it(`an import streamed to a server for ${SLOW_IMPORT_MS / 1000} s, past its 1 s request deadline, completes`, async () => {
    const target = await createEngram({ store: 'sqlite::memory:', embeddings: { provider: 'none' } });
    const app = await createServer(target, { auth: 'keys', logger: false, requestTimeoutMs: 1000 });
    try {
      const url = await listen(app, { port: 0 });
      // Node applies the smaller of its header and request limits to headers and the larger to the
      // whole request: with the header limit below 1 s, requests still being received are cut at 1 s
      // by the check Node runs every 250 ms here, as a server with its defaults cuts them at 60 s.
      app.server.headersTimeout = 500;
      const { key } = await target.keys.create({ tenant_id: 'default', role: 'admin' });
      const lines = [(await target.maintenance.exportData().next()).value as string, ...records.slice(0, 2000)].map(
        (line) => `${line}\n`,
      );
      const pieces = 100;
      const size = Math.ceil(lines.length / pieces);
      const chunks = Array.from({ length: pieces }, (_, index) =>
        lines.slice(index * size, (index + 1) * size).join(''),
      ).filter((chunk) => chunk !== '');
      const result = await streamUpload(`${url}/v1/import`, chunks, { key, pauseMs: SLOW_IMPORT_MS / chunks.length });
      figures['slow-import'] = {
        request_deadline_ms: 1000,
        sent_for_ms: result.elapsedMs,
        status: result.status,
        imports_cut: result.status === 200 ? 0 : 1,
      };
      expect(result.status, JSON.stringify(result.body)).toBe(200);
      expect(result.elapsedMs).toBeGreaterThan(SLOW_IMPORT_MS - 1000);
      expect(await exportOf(target)).toEqual(records.slice(0, 2000));
    } finally {
      await app.close();
      await target.close();
    }
  }, 90_000);
});
