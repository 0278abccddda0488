// Imports that are interrupted and run again, on SQLite and PostgreSQL: what an interrupted import
// leaves is whole turns (a turn's events never without its `turns` row); the same file run again
// skips what is there and finishes, every record exactly once and in the file's order; a re-commit of
// an imported turn_id is a replay that writes nothing; a record held with other content is
// RECORD_CONFLICT naming its line and id from the library, 409 over HTTP and exit code 3 from the
// CLI; a file from before turns followed their events (all turns last) still imports.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createEngram, EngramError, EXPORT_KINDS, type CommitTurnRequest, type Engram } from '../src/index.js';
import { createServer, listen } from '../src/server/index.js';
import { postgresStore, sqliteStore, type StoreUnderTest } from './helpers/stores.js';
import { engramCommand } from './helpers/engram-process.js';

const root = join(import.meta.dirname, '..');
const folder = mkdtempSync(join(tmpdir(), 'engram-resume-'));
const TURNS = 400;

/** What a line holds, for checks: its kind, and the turn of an event or turn record. */
function parsed(line: string): { kind: string; turn: string | null; user: string | null } {
  const record = JSON.parse(line) as {
    kind: string;
    event?: { turn_id: string | null; user_id: string };
    turn_id?: string;
    key?: { user_id: string };
  };
  if (record.kind === 'event') return { kind: 'event', turn: record.event!.turn_id, user: record.event!.user_id };
  if (record.kind === 'turn') return { kind: 'turn', turn: record.turn_id!, user: record.key!.user_id };
  return { kind: record.kind, turn: null, user: null };
}

async function exportOf(engram: Engram): Promise<string[]> {
  const lines: string[] = [];
  for await (const line of engram.maintenance.exportData()) lines.push(line);
  return lines.slice(1);
}

/** The turns of an export with events but no `turns` record, and the reverse. */
function brokenTurns(lines: readonly string[]): { eventsWithoutTurn: string[]; turnsWithoutEvents: string[] } {
  const withEvents = new Set<string>();
  const recorded = new Set<string>();
  for (const line of lines) {
    const { kind, turn, user } = parsed(line);
    if (kind === 'event' && turn !== null) withEvents.add(`${user}/${turn}`);
    if (kind === 'turn') recorded.add(`${user}/${turn}`);
  }
  return {
    eventsWithoutTurn: [...withEvents].filter((turn) => !recorded.has(turn)),
    turnsWithoutEvents: [...recorded].filter((turn) => !withEvents.has(turn)),
  };
}

const turn = (index: number): CommitTurnRequest => ({
  scope: { user_id: `u${index % 4}`, agent_id: 'assistant', session_id: `s${index % 3}`, run_id: 'r1' },
  turn_id: `t${index}`,
  messages: [
    { role: 'user', content: `Turn ${index}: I prefer green tea; we ship Atlas ${index} on Friday.` },
    { role: 'assistant', content: `Noted ${index}.` },
  ],
});

describe('interrupted and repeated imports', () => {
  let file: string[];

  beforeAll(async () => {
    const source = await createEngram({
      store: `sqlite:${join(folder, 'source.db')}`,
      embeddings: { provider: 'none' },
    });
    try {
      for (let start = 0; start < TURNS; start += 100)
        await source.commitTurns(Array.from({ length: 100 }, (_, offset) => turn(start + offset)));
      await source.compose({
        scope: { user_id: 'u1', agent_id: 'assistant', session_id: 's1', run_id: 'r1' },
        purpose: 'responder',
      });
      file = [];
      for await (const line of source.maintenance.exportData()) file.push(line);
    } finally {
      await source.close();
    }
  }, 120_000);

  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  for (const make of [sqliteStore, postgresStore]) {
    describe(make === sqliteStore ? 'sqlite' : 'postgres', () => {
      let store: StoreUnderTest;
      let engram: Engram;
      beforeAll(async () => {
        store = make('resume');
        engram = await createEngram({ store: store.address(), embeddings: { provider: 'none' } });
      });
      afterAll(async () => {
        await engram.close();
        await store.cleanup();
      });

      it('leaves whole turns when cut off, then finishes the same file with every record once, in order', async () => {
        expect(brokenTurns(file.slice(1))).toEqual({ eventsWithoutTurn: [], turnsWithoutEvents: [] });
        // The connection breaks two thirds of the way in, inside a turn (right after its first event).
        const cut =
          file.findIndex(
            (line, index) =>
              index > (file.length * 2) / 3 &&
              parsed(line).kind === 'event' &&
              parsed(file[index - 1]!).kind === 'turn',
          ) + 1;
        const broken = (async function* () {
          for (const line of file.slice(0, cut)) yield Buffer.from(`${line}\n`);
          throw new Error('connection lost');
        })();
        await expect(engram.maintenance.importData(broken)).rejects.toThrow('connection lost');
        const partial = await exportOf(engram);
        expect(partial.length).toBeGreaterThan(500);
        expect(partial.length).toBeLessThan(cut);
        expect(brokenTurns(partial)).toEqual({ eventsWithoutTurn: [], turnsWithoutEvents: [] });
        expect(partial).toEqual(file.slice(1, partial.length + 1));
        // The last turn that landed is whole: committing it again replays it and writes nothing.
        const landed = partial
          .map(parsed)
          .filter((line) => line.kind === 'turn')
          .at(-1)!.turn!;
        expect((await engram.commitTurn(turn(Number(landed.slice(1))))).replayed).toBe(true);
        expect(await exportOf(engram)).toEqual(partial);

        let skipped = 0;
        const counts = await engram.maintenance.importData(Readable.from(file.map((line) => `${line}\n`)), {
          onSkip: () => (skipped += 1),
        });
        expect(skipped).toBe(partial.length);
        expect(Object.values(counts).reduce((sum, n) => sum + (n ?? 0), 0)).toBe(file.length - 1 - partial.length);
        expect(await exportOf(engram)).toEqual(file.slice(1));

        // An imported turn committed again is its first result, replayed: nothing more is written.
        const replay = await engram.commitTurn(turn(7));
        expect(replay.replayed).toBe(true);
        const events = await engram.events.list({
          scope: { user_id: 'u3', agent_id: 'assistant', session_id: 's1' },
          limit: 1000,
        });
        expect(events.filter((event) => event.turn_id === 't7')).toHaveLength(2);
        expect(await exportOf(engram)).toEqual(file.slice(1));
      }, 120_000);

      it('answers a record held with other content with RECORD_CONFLICT naming its line and id: the library, HTTP (409) and the CLI (exit 3)', async () => {
        const at = file.findIndex((line) => parsed(line).kind === 'item');
        const item = JSON.parse(file[at]!) as { item: { id: string; value: Record<string, unknown> } };
        const changed = [...file];
        changed[at] = JSON.stringify({ ...item, item: { ...item.item, value: { ...item.item.value, changed: true } } });
        const error = await engram.maintenance.importData(changed).then(
          () => null,
          (caught: unknown) => caught,
        );
        expect(EngramError.isInstance(error)).toBe(true);
        expect(error).toMatchObject({
          code: 'RECORD_CONFLICT',
          field: `line ${at + 1}.item.id`,
          details: { line: at + 1, kind: 'item', id: item.item.id },
        });

        const app = await createServer(engram, { auth: 'keys', logger: false });
        try {
          const url = await listen(app, { port: 0 });
          const { key } = await engram.keys.create({ tenant_id: 'default', role: 'admin' });
          const response = await fetch(`${url}/v1/import`, {
            method: 'POST',
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-ndjson' },
            body: `${changed.join('\n')}\n`,
          });
          expect(response.status).toBe(409);
          expect(await response.json()).toMatchObject({ code: 'RECORD_CONFLICT', field: `line ${at + 1}.item.id` });
        } finally {
          await app.close();
        }

        const path = join(folder, `changed-${store.name}.jsonl`);
        writeFileSync(path, `${changed.join('\n')}\n`);
        const cli = spawnSync(process.execPath, [...engramCommand(), '--store', store.address(), 'import', path], {
          encoding: 'utf8',
          cwd: root,
        });
        expect(cli.status, cli.stderr).toBe(3);
        expect(cli.stderr).toContain(`RECORD_CONFLICT`);
        expect(cli.stderr).toContain(`line ${at + 1}`);
        expect(cli.stderr).toContain(item.item.id);
        // Nothing of it was written: the store exports what it held.
        expect(await exportOf(engram)).toEqual(file.slice(1));
      }, 120_000);

      it('imports a file from before turns followed their events (every turn after every event)', async () => {
        const records = file.slice(1);
        const rank = (line: string) => EXPORT_KINDS.indexOf(parsed(line).kind as (typeof EXPORT_KINDS)[number]);
        const old = [
          file[0]!,
          ...records
            .map((line, index) => ({ line, index }))
            .sort((a, b) => rank(a.line) - rank(b.line) || a.index - b.index)
            .map(({ line }) => line),
        ];
        expect(old).not.toEqual(file);
        const counts = await engram.maintenance.importData(old, { tenant_id: 'old-file' });
        expect(counts.turn).toBe(TURNS);
        const lines: string[] = [];
        for await (const line of engram.maintenance.exportData({ tenant_id: 'old-file' })) lines.push(line);
        expect(lines.slice(1).map((line) => line.replaceAll('"old-file"', '"default"'))).toEqual(records);
      }, 120_000);
    });
  }
});
