// Concurrency on both stores, with real processes racing on one store (test/fixtures/race.ts):
// many writers of one session's working state (exactly one wins per version), the same turn_id
// from several processes at once (exactly one write), and composing while another process commits
// turns as fast as it can (every packet valid and within its budget).

import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';

import { assertPacket, createEngram } from '../../src/index.js';
import { postgresStore, sqliteStore } from '../helpers/stores.js';
import { recordOutcome } from './results.js';

const root = join(import.meta.dirname, '..', '..');
const WRITERS = 4;
const UPDATES_EACH = 8;
const BUSY_TURNS = 120;

interface Racer {
  child: ChildProcess;
  lines: Array<Record<string, unknown>>;
  ready: Promise<void>;
  done: Promise<void>;
}

function racer(args: readonly string[]): Racer {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'test', 'fixtures', 'race.ts'), ...args], {
    cwd: root,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const lines: Array<Record<string, unknown>> = [];
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });
  createInterface({ input: child.stdout! }).on('line', (line) => {
    const parsed = JSON.parse(line) as Record<string, unknown>;
    if ('ready' in parsed) markReady();
    else lines.push(parsed);
  });
  const done = new Promise<void>((resolve, reject) => {
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`race.ts ${args[0]} exited with ${code}: ${stderr}`)),
    );
  });
  return { child, lines, ready, done };
}

/** Starts the racers, waits until every one has opened the store, then lets them go at once. */
async function race(all: Racer[]): Promise<void> {
  await Promise.all(all.map((one) => one.ready));
  for (const one of all) one.child.stdin!.end('go\n');
}

const figures: Record<string, unknown> = {};
afterAll(() => {
  recordOutcome('concurrency', figures);
});

describe.each([sqliteStore('race'), postgresStore('race')])('concurrency: $name', (store) => {
  const stats: Record<string, unknown> = {};
  figures[store.name] = stats;
  afterAll(async () => {
    await store.cleanup();
  });

  it('gives each working-state version to exactly one of several racing processes', { timeout: 120_000 }, async () => {
    // The store exists (migrated) before the racers open it.
    await (await createEngram({ store: store.address(), embeddings: { provider: 'none' } })).close();
    const writers = Array.from({ length: WRITERS }, () => racer(['state', store.address(), String(UPDATES_EACH)]));
    await race(writers);
    await Promise.all(writers.map((one) => one.done));
    const won = writers.flatMap((one) => one.lines.map((line) => line['won'] as number)).sort((a, b) => a - b);
    expect(won).toEqual(Array.from({ length: WRITERS * UPDATES_EACH }, (_, index) => index + 1));
    const engram = await createEngram({ store: store.address(), embeddings: { provider: 'none' } });
    const state = await engram.sessions.workingState({ user_id: 'race-user', agent_id: 'agent', session_id: 'race' });
    expect(state.state_version).toBe(WRITERS * UPDATES_EACH);
    expect(new Set(state.decisions.map((decision) => decision.statement)).size).toBe(WRITERS * UPDATES_EACH);
    await engram.close();
    stats['working_state'] = { processes: WRITERS, updates: won.length, versions_won_twice: 0 };
  });

  it('writes a turn once when several processes commit the same turn_id at once', { timeout: 120_000 }, async () => {
    const committers = Array.from({ length: WRITERS }, () => racer(['turn', store.address()]));
    await race(committers);
    await Promise.all(committers.map((one) => one.done));
    const answers = committers.map((one) => one.lines[0]!);
    const written = answers.filter((answer) => answer['replayed'] === false);
    expect(written).toHaveLength(1);
    // Every process was told about the same events: the ones written once.
    for (const answer of answers) expect(answer['events']).toEqual(written[0]!['events']);
    const engram = await createEngram({ store: store.address(), embeddings: { provider: 'none' } });
    const events = await engram.events.list({
      scope: { user_id: 'race-user', agent_id: 'agent', session_id: 'same' },
      limit: 100,
    });
    expect(events.map((event) => event.id)).toEqual(written[0]!['events']);
    await engram.close();
    stats['same_turn'] = { processes: WRITERS, writes: written.length, events: events.length };
  });

  it(
    'composes valid packets within their budget while another process commits as fast as it can',
    { timeout: 120_000 },
    async () => {
      const committer = racer(['commit', store.address(), String(BUSY_TURNS)]);
      const engram = await createEngram({ store: store.address(), embeddings: { provider: 'none' }, debug: true });
      await race([committer]);
      let finished = false;
      void committer.done.finally(() => {
        finished = true;
      });
      let composed = 0;
      const purposes = ['planner', 'tool', 'responder'] as const;
      while (!finished) {
        const packet = await engram.compose({
          scope: { user_id: 'race-user', agent_id: 'agent', session_id: 'busy', run_id: 'run' },
          purpose: purposes[composed % 3]!,
          cues: { query: 'order pottery tea' },
          budget: { max_tokens: 600 },
        });
        expect(() => assertPacket(packet)).not.toThrow();
        expect(packet.budget_report.used_tokens_est).toBeLessThanOrEqual(600);
        composed += 1;
        // Compose on SQLite never waits for I/O: let the event loop see the committer's exit.
        await new Promise((resolve) => setImmediate(resolve));
      }
      await committer.done;
      expect(committer.lines).toEqual([{ done: BUSY_TURNS }]);
      expect(composed).toBeGreaterThan(0);
      const events = await engram.events.list({
        scope: { user_id: 'race-user', agent_id: 'agent', session_id: 'busy' },
        limit: 1000,
      });
      expect(events).toHaveLength(BUSY_TURNS * 2);
      await engram.close();
      stats['compose_during_commit'] = { turns_committed: BUSY_TURNS, packets_composed: composed, invalid_packets: 0 };
    },
  );
});
