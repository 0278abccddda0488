// `engram compact` on a SQLite file a live `engram serve` holds, as an operator runs it after an
// erase: real processes on one file. While another process reads the file the whole time, the log
// cannot be copied back and emptied, so compact must say what it could not do (exit 5, `complete`
// false) and the erased bytes are indeed still there; once the reader is gone, compact run again
// beside the serving (and committing) server finishes, and no byte of the erased user is left.

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createEngram } from '../src/index.js';
import { engramCommand, startEngram, type EngramProcess } from './helpers/engram-process.js';

const root = join(import.meta.dirname, '..');
const folder = mkdtempSync(join(tmpdir(), 'engram-compact-'));
const path = join(folder, 'engram.db');
const CANARY = `numbatgone${Date.now().toString(36)}`;
const KEEPER = `bilbykept${Date.now().toString(36)}`;

/** Runs `engram <args>` on the store to its end, without blocking this process (the server is answered meanwhile). */
function engram(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [...engramCommand(), '--store', `sqlite:${path}`, ...args], { cwd: root });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

/** How many times `word` occurs in the file and its write-ahead log. */
function occurrences(word: string): number {
  let found = 0;
  for (const file of [path, `${path}-wal`]) {
    if (!existsSync(file)) continue;
    const bytes = readFileSync(file);
    for (let at = bytes.indexOf(word); at !== -1; at = bytes.indexOf(word, at + 1)) found += 1;
  }
  return found;
}

/** Another process holding a read transaction open on the file until it is killed (as a long report or backup would). */
function startReader(): Promise<ReturnType<typeof spawn>> {
  const script = `const Database = require('better-sqlite3');
    const db = new Database(${JSON.stringify(path)}, { readonly: true });
    db.exec('BEGIN');
    db.prepare('SELECT count(*) FROM events').get();
    console.log('reading');
    setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['-e', script], { cwd: root });
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => chunk.toString('utf8').includes('reading') && resolve(child));
    child.on('exit', (code) => reject(new Error(`the reader exited (${code})`)));
  });
}

describe('engram compact beside a live server', () => {
  let server: EngramProcess;
  let api: string;
  let key: string;

  beforeAll(async () => {
    const seed = await createEngram({ store: `sqlite:${path}` });
    for (const [user, word] of [
      ['gone', CANARY],
      ['kept', KEEPER],
    ] as const) {
      const scope = { user_id: user, agent_id: 'assistant', session_id: 's1', run_id: 'r1' };
      for (let turn = 0; turn < 40; turn += 1) {
        await seed.commitTurn({
          scope,
          turn_id: `t${turn}`,
          messages: [{ role: 'user', content: `Note ${turn}: I prefer ${word} tea, and ${word} is my project name.` }],
        });
      }
    }
    await seed.close();
    server = startEngram(['--store', `sqlite:${path}`, 'serve', '--port', '0', '--quiet', '--no-worker']);
    api = (await server.waitFor(/API\s+(http:\/\/127\.0\.0\.1:\d+)\/v1/))[1]!;
    key = (await server.waitFor(/admin key[^:]*: (egk_[A-Za-z0-9_-]+)/))[1]!;
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  it('says what it could not do while another process reads the file, and finishes once it stops', async () => {
    const erased = await engram(['--json', 'erase', '--user', 'gone']);
    expect(erased.code).toBe(0);
    expect(JSON.parse(erased.stdout)).toMatchObject({ events: 40 });

    const reader = await startReader();
    let held;
    try {
      held = await engram(['--json', 'compact']);
    } finally {
      reader.kill('SIGKILL');
    }
    expect(held.code, held.stderr).toBe(5);
    const partial = JSON.parse(held.stdout) as { complete: boolean; not_done: string[] };
    expect(partial.complete).toBe(false);
    expect(partial.not_done.join('\n')).toMatch(/write-ahead log: another connection kept it busy/);
    // The report is true: the erased user's words are still in the file or its log.
    expect(occurrences(CANARY)).toBeGreaterThan(0);

    // The reader is gone; the server still serves (and writes) beside it, and the compaction is whole.
    const scope = { user_id: 'kept', agent_id: 'assistant', session_id: 's2', run_id: 'r2' };
    const commits = Array.from({ length: 5 }, (_, turn) =>
      fetch(`${api}/v1/turns`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ scope, turn_id: `late${turn}`, messages: [{ role: 'user', content: 'one more note' }] }),
      }),
    );
    const done = await engram(['compact']);
    expect((await Promise.all(commits)).map((response) => response.status)).toEqual([200, 200, 200, 200, 200]);
    expect(done.code, done.stdout + done.stderr).toBe(0);
    expect(done.stdout).toMatch(/^compacted the store: \d+ → \d+ bytes\n$/);
    expect(occurrences(CANARY)).toBe(0);
    expect(occurrences(KEEPER)).toBeGreaterThan(0);
  }, 120_000);
});
