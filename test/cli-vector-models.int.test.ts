// After the embedding model changes, the store's vectors of the old model are never compared with a
// query: `engram embed` (and `engram serve`'s banner) say how many texts they are and what to run,
// and after `engram reindex` and `engram embed` the warning is gone. Real processes on a real SQLite file.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';

import { createEngram, type BuildExplanation, type MemoryPacket } from '../src/index.js';
import { runEngram, scopeFlags } from './helpers/engram-process.js';

vi.setConfig({ testTimeout: 120_000 });

const folder = mkdtempSync(join(tmpdir(), 'engram-cli-vectors-'));
const path = join(folder, 'engram.db');

afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('vectors of another model than the configured one', () => {
  it('are counted and named until the store is reindexed and embedded again', async () => {
    // A store embedded with the default before this one, as an upgrade finds it.
    const before = await createEngram({
      store: `sqlite:${path}`,
      embeddings: { provider: 'local', model: 'use-lite-static-v3' },
    });
    const scope = { user_id: 'ada', agent_id: 'helper', session_id: 's1', run_id: 'r1' };
    const ids: string[] = [];
    for (const [index, content] of ["I'm off to do some taekwondo tonight!", 'The launch is on June 12.'].entries()) {
      const result = await before.commitTurn({ scope, turn_id: `t${index}`, messages: [{ role: 'user', content }] });
      ids.push(result.events[0]!.event_id);
    }
    const [taekwondo] = ids;
    await before.maintenance.runEmbeddings();
    expect(await before.maintenance.vectorModels()).toEqual({
      configured: 'local:use-lite-static-v3',
      models: [{ model: 'local:use-lite-static-v3', events: 2, chunks: expect.any(Number) as number }],
    });
    await before.close();

    const engram = (args: string[]) => runEngram(['--store', `sqlite:${path}`, ...args]);
    const stale = engram(['embed']);
    expect(stale.code, stale.stderr).toBe(0);
    expect(stale.stdout).toContain('embedded 0, skipped 0, 0 waiting');
    expect(stale.stdout).toMatch(
      /warning: 2 events (and \d+ item chunks? )?have vectors of local:use-lite-static-v3, not of the configured local:use-lite-glove-static-v4: meaning cannot find them until `engram reindex` and `engram embed` have run/u,
    );

    // Explaining a packet says so too: its passages were found by words and time alone.
    const composed = engram([
      'compose',
      ...scopeFlags({ ...scope, session_id: 's2' }),
      '--purpose',
      'responder',
      '--query',
      'Which martial arts do I practise?',
      '--json',
    ]);
    expect(composed.code, composed.stderr).toBe(0);
    const build = (JSON.parse(composed.stdout) as MemoryPacket).explain.determinism!['context_build_id'] as string;
    const explained = engram(['explain', build, taekwondo!, '--json']);
    expect(explained.code, explained.stderr).toBe(0);
    expect((JSON.parse(explained.stdout) as BuildExplanation).notes).toContainEqual(
      expect.stringMatching(/^2 events .*have vectors of local:use-lite-static-v3/u),
    );

    expect(engram(['reindex']).code).toBe(0);
    const again = engram(['embed', '--json']);
    expect(again.code, again.stderr).toBe(0);
    const result = JSON.parse(again.stdout) as { embedded: number; vector_models: unknown[] };
    expect(result.embedded).toBeGreaterThanOrEqual(2);
    expect(result.vector_models).toEqual([
      { model: 'local:use-lite-glove-static-v4', events: 2, chunks: expect.any(Number) as number },
    ]);
    expect(engram(['embed']).stdout).not.toContain('warning');
  });
});
