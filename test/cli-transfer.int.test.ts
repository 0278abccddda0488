// `engram export`, `import` and `erase` as a user runs them: real processes, two SQLite files.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';

import { runEngram } from './helpers/engram-process.js';
// Each command is a new Node process (1.5–3 s while other test files run); a test runs several in a row.
vi.setConfig({ testTimeout: 120_000 });

const folder = mkdtempSync(join(tmpdir(), 'engram-transfer-'));

afterAll(() => rmSync(folder, { recursive: true, force: true }));

function engram(store: string, args: string[], input?: string) {
  return runEngram(['--store', `sqlite:${join(folder, store)}`, ...args], input);
}

describe('engram export, import and erase', () => {
  it('moves a tenant to another store whole, then erases a user there', () => {
    const turn = {
      scope: { tenant_id: 'acme', user_id: 'ada', agent_id: 'helper', session_id: 's1', run_id: 'r1' },
      turn_id: 't1',
      messages: [{ role: 'user', content: 'I prefer concise answers in writing. We launch Atlas on June 12.' }],
    };
    expect(engram('a.db', ['commit'], JSON.stringify(turn)).code).toBe(0);
    const file = join(folder, 'acme.jsonl');
    const exported = engram('a.db', ['--json', 'export', '--tenant', 'acme', '--out', file]);
    expect(exported.code).toBe(0);
    expect(JSON.parse(exported.stdout)).toMatchObject({
      file,
      counts: { event: 1, item: expect.any(Number), turn: 1, summary: 1 },
    });
    expect(readFileSync(file, 'utf8').split('\n')[0]).toContain('"format":"engram-export"');
    const imported = engram('b.db', ['import', file, '--tenant', 'acme']);
    expect(imported.code).toBe(0);
    expect(imported.stdout).toMatch(/imported into tenant acme:[\s\S]*1\s+event/);
    const items = engram('b.db', ['--json', 'items', '--tenant', 'acme', '--user', 'ada', '--agent', 'helper']);
    expect(items.stdout).toContain('pref:writing:length');
    const erased = engram('b.db', ['erase', '--tenant', 'acme', '--user', 'ada']);
    expect(erased.code).toBe(0);
    expect(erased.stdout).toMatch(/erased user ada:[\s\S]*events/);
    expect(
      JSON.parse(engram('b.db', ['--json', 'items', '--tenant', 'acme', '--user', 'ada', '--agent', 'helper']).stdout),
    ).toEqual([]);
    const bad = engram('b.db', ['import', join(folder, 'missing.jsonl')]);
    expect(bad.code).not.toBe(0);
  }, 120_000);

  it('stops at a line longer than --max-line-bytes, naming it, and finishes an import run again', () => {
    const turn = {
      scope: { tenant_id: 'acme', user_id: 'bo', agent_id: 'helper', session_id: 's1', run_id: 'r1' },
      turn_id: 't1',
      messages: [{ role: 'user', content: 'We launch Atlas on June 12.' }],
    };
    expect(engram('c.db', ['commit'], JSON.stringify(turn)).code).toBe(0);
    const file = join(folder, 'bo.jsonl');
    expect(engram('c.db', ['export', '--tenant', 'acme', '--out', file]).code).toBe(0);
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    const longest = Math.max(...lines.map((line) => Buffer.byteLength(line)));
    const tooLong = engram('d.db', ['import', file, '--tenant', 'acme', '--max-line-bytes', String(longest - 1)]);
    expect(tooLong.code, tooLong.stderr).toBe(2);
    expect(tooLong.stderr).toMatch(/line \d+: is longer than \d+ bytes, the import line limit \(maxLineBytes\)/);
    expect(engram('d.db', ['import', file, '--tenant', 'acme', '--max-line-bytes', 'lots']).code).toBe(2);
    // The same file again, in full: what the first run wrote (nothing, or whole batches) is skipped.
    expect(engram('d.db', ['import', file, '--tenant', 'acme']).code).toBe(0);
    const again = engram('d.db', ['--json', 'import', file, '--tenant', 'acme']);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ tenant_id: 'acme', counts: {}, skipped: { event: 1, turn: 1 } });
  }, 120_000);
});
