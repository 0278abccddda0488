// Crash safety: a child process commits turns and is killed with SIGKILL at a random point. Every
// turn it acknowledged must be readable after reopening the file, whole, and no turn half-written.

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';

import { createEngram } from '../src/index.js';
import { recordOutcome } from './reliability/results.js';

interface Ack {
  turn_id: string;
  events: string[];
}

/** Runs the child until it has acknowledged `killAfter` turns, then kills it with SIGKILL. */
function runAndKill(path: string, killAfter: number): Promise<Ack[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(import.meta.dirname, 'fixtures', 'commit-forever.ts'), path],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        cwd: join(import.meta.dirname, '..'),
      },
    );
    const acks: Ack[] = [];
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    createInterface({ input: child.stdout }).on('line', (line) => {
      acks.push(JSON.parse(line) as Ack);
      if (acks.length === killAfter) child.kill('SIGKILL');
    });
    child.on('exit', (_code, signal) => {
      if (signal === 'SIGKILL') resolve(acks);
      else reject(new Error(`child exited without being killed: ${stderr}`));
    });
  });
}

describe('crash safety', () => {
  it('keeps every acknowledged turn, whole, across SIGKILL', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'engram-crash-'));
    const path = join(folder, 'engram.db');
    try {
      const acknowledged: Ack[] = [];
      for (const killAfter of [1, 7, 23, 40]) acknowledged.push(...(await runAndKill(path, killAfter)));
      const engram = await createEngram({ store: `sqlite:${path}` });
      const scope = { user_id: 'crash-user', agent_id: 'agent', session_id: 'session' };
      const events = await engram.events.list({ scope, limit: 1000, kinds: ['message', 'state_patch'] });
      const ids = new Set(events.map((event) => event.id));
      for (const ack of acknowledged) for (const id of ack.events) expect(ids.has(id)).toBe(true);
      // No half-written turn: every stored turn has its two messages and its state patch.
      const perTurn = new Map<string, number>();
      for (const event of events) perTurn.set(event.turn_id!, (perTurn.get(event.turn_id!) ?? 0) + 1);
      for (const count of perTurn.values()) expect(count).toBe(3);
      await engram.close();
      const halfWritten = [...perTurn.values()].filter((count) => count !== 3).length;
      recordOutcome('crash-sqlite', {
        store: 'sqlite',
        kills: 4,
        acknowledged_turns: acknowledged.length,
        turns_stored: perTurn.size,
        acknowledged_missing: 0,
        half_written_turns: halfWritten,
      });
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 60_000);
});
