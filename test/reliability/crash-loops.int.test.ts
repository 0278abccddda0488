// Crash loops on both stores. A real `engram serve` under commit load is killed with SIGKILL at a
// random moment, again and again (quick: 3 kills a store; ENGRAM_RELIABILITY_LONG=1: 25); afterwards
// the store opens, every acknowledged turn is there whole, no turn is half-written, and the search
// index rebuilt from the items answers as the one the crashes left. An
// `engram import` is killed the same way: its transaction unit is a batch of 500 records, so what it
// left is exactly the first whole batches of the file, and the derived indexes rebuilt from it
// (reindex) answer searches as the import's own did.

import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createEngram, type CommitTurnRequest } from '../../src/index.js';
import { startEngram } from '../helpers/engram-process.js';
import { POSTGRES_URL } from '../helpers/postgres.js';
import { postgresStore, sqliteStore, type StoreUnderTest } from '../helpers/stores.js';
import { recordOutcome } from './results.js';

const LONG = process.env['ENGRAM_RELIABILITY_LONG'] === '1';
const SERVER_KILLS = LONG ? 25 : 3;
const IMPORT_KILLS = LONG ? 10 : 2;
const IMPORT_BATCH = 500;
const CLIENTS = 8;
const figures: Record<string, Record<string, unknown>> = {};

/** Rows of the events table of a store (read beside a running writer). */
async function eventRows(store: StoreUnderTest): Promise<number> {
  if (store.name === 'sqlite') {
    if (!existsSync(store.path!)) return 0;
    const db = new Database(store.path!, { readonly: true, fileMustExist: true });
    try {
      return db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'events'").pluck().get() === 0 ? 0 : (db.prepare('SELECT count(*) FROM events').pluck().get() as number);
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_tables WHERE schemaname = $1 AND tablename = $2', [store.schema, 'events']);
    if (exists.rowCount === 0) return 0;
    return Number((await client.query(`SELECT count(*) AS n FROM "${store.schema!}".events`)).rows[0].n);
  } finally {
    await client.end();
  }
}

afterAll(() => recordOutcome('crash-loops', figures));

/** Commits turns from several clients until the server dies; returns what it acknowledged. */
async function commitUntilKilled(base: string, key: string, round: number, killAfterMs: number, kill: () => void): Promise<Map<string, string[]>> {
  const acknowledged = new Map<string, string[]>();
  let alive = true;
  const timer = setTimeout(() => {
    alive = false;
    kill();
  }, killAfterMs);
  const client = async (index: number) => {
    for (let turn = 0; alive; turn += 1) {
      const turnId = `r${round}-c${index}-t${turn}`;
      const body = {
        scope: { user_id: `crash-u${index}`, agent_id: 'assistant', session_id: 's1', run_id: 'r1' },
        turn_id: turnId,
        messages: [{ role: 'user', content: `Round ${round} turn ${turn}: I prefer oolong tea.` }, { role: 'assistant', content: `Noted ${turnId}.` }],
      };
      try {
        const response = await fetch(`${base}/v1/turns`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
        if (response.ok) acknowledged.set(turnId, ((await response.json()) as { events: Array<{ event_id: string }> }).events.map((event) => event.event_id));
      } catch {
        // The server died with this request in flight: not acknowledged, so it may or may not be there.
        return;
      }
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, (_, index) => client(index)));
  clearTimeout(timer);
  return acknowledged;
}

function crashLoops(store: StoreUnderTest): void {
  afterAll(() => store.cleanup());

  it(`keeps every acknowledged turn whole across ${SERVER_KILLS} SIGKILLs of engram serve under load`, async () => {
    const acknowledged = new Map<string, string[]>();
    let key = '';
    for (let round = 0; round < SERVER_KILLS; round += 1) {
      const server = startEngram(['--store', store.address(), 'serve', '--port', '0', '--quiet', '--no-worker', '--rate-limit', '1000000']);
      const [, base] = await server.waitFor(/API\s+(http:\S+)\/v1/);
      if (round === 0) key = (await server.waitFor(/admin key \(shown once, tenant "default"\): (\S+)/))[1]!;
      const killAfter = 400 + Math.floor(Math.random() * 1600);
      const acks = await commitUntilKilled(base!, key, round, killAfter, () => server.child.kill('SIGKILL'));
      expect(await server.exited).toBeNull();
      for (const [turnId, events] of acks) acknowledged.set(turnId, events);
    }
    const engram = await createEngram({ store: store.address(), embeddings: { provider: 'none' } });
    try {
      const perTurn = new Map<string, number>();
      const stored = new Set<string>();
      for (let index = 0; index < CLIENTS; index += 1) {
        const events = await engram.listEvents({ scope: { user_id: `crash-u${index}` }, kinds: ['message'], limit: 1000 });
        for (let page = events; page.length > 0; ) {
          for (const event of page) {
            stored.add(event.id);
            perTurn.set(event.turn_id!, (perTurn.get(event.turn_id!) ?? 0) + 1);
          }
          page = page.length < 1000 ? [] : await engram.listEvents({ scope: { user_id: `crash-u${index}` }, kinds: ['message'], limit: 1000, cursor: page.at(-1)!.id });
        }
      }
      const missing = [...acknowledged.values()].flat().filter((id) => !stored.has(id));
      const halfWritten = [...perTurn.entries()].filter(([, count]) => count !== 2);
      expect(acknowledged.size).toBeGreaterThan(SERVER_KILLS);
      expect(missing).toEqual([]);
      expect(halfWritten).toEqual([]);
      // The derived search index, rebuilt from the items alone, answers as the one the crashes left.
      const search = { scope: { user_id: 'crash-u0', agent_id: 'assistant' }, query: 'oolong tea' };
      const before = (await engram.search(search)).map((hit) => hit.item.id);
      expect(before.length).toBeGreaterThan(0);
      await engram.reindex();
      expect((await engram.search(search)).map((hit) => hit.item.id)).toEqual(before);
      figures[store.name] = { ...figures[store.name], server_kills: SERVER_KILLS, turns_acknowledged: acknowledged.size, turns_stored: perTurn.size, acknowledged_missing: missing.length, half_written_turns: halfWritten.length };
    } finally {
      await engram.close();
    }
  }, (SERVER_KILLS * 15 + 60) * 1000);
}

describe('crash loops: sqlite', () => crashLoops(sqliteStore('crashloop')));
describe('crash loops: postgres', () => crashLoops(postgresStore('crashloop')));

describe('a killed import leaves whole batches', () => {
  const source = sqliteStore('crashsource');
  let file: string;
  let records: string[];

  beforeAll(async () => {
    const engram = await createEngram({ store: source.address(), embeddings: { provider: 'none' } });
    try {
      const turns: CommitTurnRequest[] = [];
      for (let user = 0; user < 30; user += 1) {
        for (let turn = 0; turn < 60; turn += 1) {
          turns.push({ scope: { user_id: `imp-u${user}`, agent_id: 'assistant', session_id: `s${turn % 3}`, run_id: 'r1' }, turn_id: `t${turn}`, messages: [{ role: 'user', content: `I prefer tea number ${turn}; we ship Atlas ${user} on day ${turn}.` }, { role: 'assistant', content: 'Noted.' }] });
        }
      }
      for (let start = 0; start < turns.length; start += 200) await engram.commitTurns(turns.slice(start, start + 200));
      const lines: string[] = [];
      for await (const line of engram.exportData()) lines.push(line.trimEnd());
      file = join(source.path!, '..', 'export.jsonl');
      writeFileSync(file, `${lines.join('\n')}\n`);
      records = lines.slice(1);
    } finally {
      await engram.close();
    }
  }, 120_000);

  afterAll(() => source.cleanup());

  for (const make of [sqliteStore, postgresStore]) {
    it(`on ${make === sqliteStore ? 'sqlite' : 'postgres'}: the store holds the file's first whole batches, and reindexing agrees with it`, async () => {
      const outcomes: Array<{ killed_ms_after_first_batch: number; records: number; batches: number }> = [];
      for (let round = 0; round < IMPORT_KILLS; round += 1) {
        const target = make('crashimport');
        try {
          const importer = startEngram(['--store', target.address(), 'import', file, '--json']);
          // Kill it at a random moment once its first batch is in (start-up takes longer than a batch).
          let running = true;
          void importer.exited.then(() => (running = false));
          while (running && (await eventRows(target)) === 0) await new Promise((resolve) => setTimeout(resolve, 20));
          const killAfter = Math.floor(Math.random() * 400);
          await new Promise((resolve) => setTimeout(resolve, killAfter));
          importer.child.kill('SIGKILL');
          await importer.exited;
          const engram = await createEngram({ store: target.address(), embeddings: { provider: 'none' } });
          try {
            const lines: string[] = [];
            for await (const line of engram.exportData()) lines.push(line.trimEnd());
            const imported = lines.slice(1);
            // The unit is a batch of 500 records, in file order: a prefix of the file, in whole batches (or all of it).
            expect(imported.length === records.length || imported.length % IMPORT_BATCH === 0, `${imported.length} records`).toBe(true);
            expect(new Set(imported)).toEqual(new Set(records.slice(0, imported.length)));
            const search = { scope: { user_id: 'imp-u3', agent_id: 'assistant' }, query: 'tea Atlas' };
            const before = (await engram.search(search)).map((hit) => hit.item.id);
            await engram.reindex();
            expect((await engram.search(search)).map((hit) => hit.item.id)).toEqual(before);
            outcomes.push({ killed_ms_after_first_batch: killAfter, records: imported.length, batches: Math.ceil(imported.length / IMPORT_BATCH) });
          } finally {
            await engram.close();
          }
        } finally {
          await target.cleanup();
        }
      }
      const name = make === sqliteStore ? 'sqlite' : 'postgres';
      figures[name] = { ...figures[name], import_kills: IMPORT_KILLS, import_records_in_file: records.length, imports: outcomes };
    }, (IMPORT_KILLS * 30 + 60) * 1000);
  }
});
