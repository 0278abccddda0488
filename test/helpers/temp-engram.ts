// A real Engram on a fresh SQLite file in a temporary folder, with a controllable clock.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach } from 'vitest';

import {
  createEngram,
  openStore,
  type Engram,
  type EngramConfig,
  type ScopeInput,
  type StorageAdapter,
} from '../../src/index.js';
import { storeOptionsOf } from '../../src/runtime/config.js';

export interface TempEngram {
  engram: Engram;
  /** The store under `engram`, opened here and handed to it (it closes the store on close). */
  storage: StorageAdapter;
  path: string;
  folder: string;
  clock: { now(): Date; set(iso: string): void; advance(ms: number): void };
  cleanup(): Promise<void>;
}

export const scope: ScopeInput = { user_id: 'user-1', agent_id: 'agent-1', session_id: 'session-1', run_id: 'run-1' };

/**
 * Opens a new Engram on a temporary SQLite file (with any other options given); packets are
 * validated against the schema. The store is opened here, so tests can read and write it directly.
 *
 * @example
 * const { engram, cleanup } = await tempEngram();
 */
export async function tempEngram(
  start = '2026-06-01T12:00:00.000Z',
  config: Omit<EngramConfig, 'store' | 'clock'> = {},
): Promise<TempEngram> {
  const folder = mkdtempSync(join(tmpdir(), 'engram-test-'));
  const path = join(folder, 'engram.db');
  let now = Date.parse(start);
  const clock = {
    now: () => new Date(now),
    set: (iso: string) => {
      now = Date.parse(iso);
    },
    advance: (ms: number) => {
      now += ms;
    },
  };
  const storage = await openStore(`sqlite:${path}`, storeOptionsOf(config));
  const engram = await createEngram({ debug: true, ...config, store: storage, clock }).catch(async (error: unknown) => {
    await storage.close();
    throw error;
  });
  return {
    engram,
    storage,
    path,
    folder,
    clock,
    cleanup: async () => {
      await engram.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/**
 * A new temporary Engram for each test of the file: opened before it, closed and removed after.
 * Read its fields inside a test (or a hook registered after this call).
 *
 * @example
 * const t = tempEngramEach();
 * it('commits', async () => { await t.engram.commitTurn(turn); });
 */
export function tempEngramEach(
  ...options: Parameters<typeof tempEngram>
): Readonly<Pick<TempEngram, 'engram' | 'storage' | 'clock' | 'path'>> {
  let store: TempEngram | undefined;
  beforeEach(async () => {
    store = await tempEngram(...options);
  });
  afterEach(async () => {
    await store?.cleanup();
    store = undefined;
  });
  const current = (): TempEngram => {
    if (store === undefined) throw new Error('tempEngramEach: the Engram exists only while a test runs');
    return store;
  };
  return {
    get engram() {
      return current().engram;
    },
    get storage() {
      return current().storage;
    },
    get clock() {
      return current().clock;
    },
    get path() {
      return current().path;
    },
  };
}
