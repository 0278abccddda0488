// `engram events search` and `engram explain` end to end: real processes on a real SQLite file.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';

import type { BuildExplanation, CommitTurnResult, EventSearchPage, MemoryPacket } from '../src/index.js';
import { runEngram, scopeFlags } from './helpers/engram-process.js';

// Each command is a new Node process (1.5–3 s while other test files run); a test runs several in a row.
vi.setConfig({ testTimeout: 120_000 });

const folder = mkdtempSync(join(tmpdir(), 'engram-cli-explain-'));
const store = `sqlite:${join(folder, 'engram.db')}`;

afterAll(() => rmSync(folder, { recursive: true, force: true }));

function engram(args: string[]) {
  return runEngram(['--store', store, ...args]);
}

const scope = { user_id: 'ada', agent_id: 'helper', session_id: 's1', run_id: 'r1' };

describe('engram events search and engram explain', () => {
  it('pages an event search, and explains why a passage is in a packet and a secret one is not', () => {
    const file = join(folder, 'turns.json');
    const turns = [
      { scope, turn_id: 'a', messages: [{ role: 'user', content: 'The Lisbon venue for the launch is booked.' }] },
      { scope, turn_id: 'b', messages: [{ role: 'user', content: 'The launch is on June 12.' }] },
      {
        scope,
        turn_id: 'c',
        messages: [{ role: 'user', content: 'The launch badge code is 4471.', sensitivity: 'secret' }],
      },
    ];
    writeFileSync(file, JSON.stringify(turns));
    const committed = engram(['commit', '--file', file, '--json']);
    expect(committed.code, committed.stderr).toBe(0);
    const [venue, , secret] = (JSON.parse(committed.stdout) as CommitTurnResult[]).map(
      (result) => result.events[0]!.event_id,
    );

    const first = engram(['events', 'search', '--user', 'ada', '--query', 'launch', '--limit', '1', '--json']);
    expect(first.code, first.stderr).toBe(0);
    const page = JSON.parse(first.stdout) as EventSearchPage;
    expect(page.hits).toHaveLength(1);
    expect(page.next_cursor).not.toBeNull();
    const second = engram([
      'events',
      'search',
      '--user',
      'ada',
      '--query',
      'launch',
      '--limit',
      '1',
      '--cursor',
      page.next_cursor!,
    ]);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).not.toContain(page.hits[0]!.event.id);
    expect(second.stdout).toMatch(/evt_/u);
    expect(engram(['events', 'search', '--query', 'launch']).code).toBe(2);

    const composed = engram([
      'compose',
      ...scopeFlags(scope),
      '--purpose',
      'responder',
      '--query',
      'Lisbon venue',
      '--json',
    ]);
    expect(composed.code, composed.stderr).toBe(0);
    const build = (JSON.parse(composed.stdout) as MemoryPacket).explain.determinism!['context_build_id'] as string;
    const placed = engram(['explain', build, venue!]);
    expect(placed.code, placed.stderr).toBe(0);
    expect(placed.stdout).toContain(`${venue}`);
    expect(placed.stdout).toMatch(/in the packet — selected/u);
    expect(placed.stdout).toMatch(/signals: words #1/u);
    const filtered = JSON.parse(engram(['explain', build, secret!, '--json']).stdout) as BuildExplanation;
    expect(filtered).toMatchObject({ in_packet: false, verdict: 'filtered', filter: 'sensitivity' });
    const bad = engram(['explain', build, 'not-an-id']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('id');
  });
});
