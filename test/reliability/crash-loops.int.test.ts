// Crash loops on both stores. A real `engram serve` under commit load is killed with SIGKILL at a
// random moment, again and again (quick: 3 kills a store; ENGRAM_RELIABILITY_LONG=1: 25); afterwards
// the store opens, every acknowledged turn is there whole, no turn is half-written, and the search
// index rebuilt from the items answers as the one the crashes left. (`engram import` killed the same
// way, then run again: interrupted-imports.int.test.ts.)

import { afterAll, describe, expect, it } from 'vitest';

import { createEngram } from '../../src/index.js';
import { startEngram } from '../helpers/engram-process.js';
import { postgresStore, sqliteStore, type StoreUnderTest } from '../helpers/stores.js';
import { recordOutcome } from './results.js';

const LONG = process.env['ENGRAM_RELIABILITY_LONG'] === '1';
const SERVER_KILLS = LONG ? 25 : 3;
const CLIENTS = 8;
const figures: Record<string, Record<string, unknown>> = {};

afterAll(() => recordOutcome('crash-loops', figures));

/**
 * Commits turns from several clients until the server dies; returns what it acknowledged. The kill
 * comes `killAfterMs` after the first acknowledged turn, so it lands while commits flow even when a
 * loaded machine takes seconds over a fresh server's first turn (or after 20 s, if none is acknowledged).
 */
async function commitUntilKilled(
  base: string,
  key: string,
  round: number,
  killAfterMs: number,
  kill: () => void,
): Promise<Map<string, string[]>> {
  const acknowledged = new Map<string, string[]>();
  let alive = true;
  let timer: NodeJS.Timeout | undefined;
  const arm = (delay: number) => {
    timer ??= setTimeout(() => {
      alive = false;
      kill();
    }, delay);
  };
  const fallback = setTimeout(() => arm(0), 20_000);
  const client = async (index: number) => {
    for (let turn = 0; alive; turn += 1) {
      const turnId = `r${round}-c${index}-t${turn}`;
      const body = {
        scope: { user_id: `crash-u${index}`, agent_id: 'assistant', session_id: 's1', run_id: 'r1' },
        turn_id: turnId,
        messages: [
          { role: 'user', content: `Round ${round} turn ${turn}: I prefer oolong tea.` },
          { role: 'assistant', content: `Noted ${turnId}.` },
        ],
      };
      try {
        const response = await fetch(`${base}/v1/turns`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        if (response.ok) {
          acknowledged.set(
            turnId,
            ((await response.json()) as { events: Array<{ event_id: string }> }).events.map((event) => event.event_id),
          );
          arm(killAfterMs);
        }
      } catch {
        // The server died with this request in flight: not acknowledged, so it may or may not be there.
        return;
      }
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, (_, index) => client(index)));
  clearTimeout(timer);
  clearTimeout(fallback);
  return acknowledged;
}

function crashLoops(store: StoreUnderTest): void {
  afterAll(() => store.cleanup());

  it(
    `keeps every acknowledged turn whole across ${SERVER_KILLS} SIGKILLs of engram serve under load`,
    async () => {
      const acknowledged = new Map<string, string[]>();
      let key = '';
      for (let round = 0; round < SERVER_KILLS; round += 1) {
        const server = startEngram([
          '--store',
          store.address(),
          'serve',
          '--port',
          '0',
          '--quiet',
          '--no-worker',
          '--rate-limit',
          '1000000',
        ]);
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
          const events = await engram.events.list({
            scope: { user_id: `crash-u${index}` },
            kinds: ['message'],
            limit: 1000,
          });
          for (let page = events; page.length > 0;) {
            for (const event of page) {
              stored.add(event.id);
              perTurn.set(event.turn_id!, (perTurn.get(event.turn_id!) ?? 0) + 1);
            }
            page =
              page.length < 1000
                ? []
                : await engram.events.list({
                    scope: { user_id: `crash-u${index}` },
                    kinds: ['message'],
                    limit: 1000,
                    cursor: page.at(-1)!.id,
                  });
          }
        }
        const missing = [...acknowledged.values()].flat().filter((id) => !stored.has(id));
        const halfWritten = [...perTurn.entries()].filter(([, count]) => count !== 2);
        expect(acknowledged.size).toBeGreaterThan(SERVER_KILLS);
        expect(missing).toEqual([]);
        expect(halfWritten).toEqual([]);
        // The derived search index, rebuilt from the items alone, answers as the one the crashes left.
        const search = { scope: { user_id: 'crash-u0', agent_id: 'assistant' }, query: 'oolong tea' };
        const before = (await engram.items.search(search)).map((hit) => hit.item.id);
        expect(before.length).toBeGreaterThan(0);
        await engram.maintenance.reindex();
        expect((await engram.items.search(search)).map((hit) => hit.item.id)).toEqual(before);
        figures[store.name] = {
          ...figures[store.name],
          server_kills: SERVER_KILLS,
          turns_acknowledged: acknowledged.size,
          turns_stored: perTurn.size,
          acknowledged_missing: missing.length,
          half_written_turns: halfWritten.length,
        };
      } finally {
        await engram.close();
      }
    },
    (SERVER_KILLS * 15 + 60) * 1000,
  );
}

describe('crash loops: sqlite', () => crashLoops(sqliteStore('crashloop')));
describe('crash loops: postgres', () => crashLoops(postgresStore('crashloop')));
