// `engram export`, `import` and `erase` as a user runs them: real processes, two SQLite files.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const folder = mkdtempSync(join(tmpdir(), 'engram-transfer-'));
const root = join(import.meta.dirname, '..');
const main = join(root, 'src', 'cli', 'main.ts');

afterAll(() => rmSync(folder, { recursive: true, force: true }));

function engram(store: string, args: string[], input?: string) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', main, '--store', `sqlite:${join(folder, store)}`, ...args], { input, encoding: 'utf8', cwd: root });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('engram export, import and erase', () => {
  it('moves a tenant to another store whole, then erases a user there', () => {
    const turn = { scope: { tenant_id: 'acme', user_id: 'ada', agent_id: 'helper', session_id: 's1', run_id: 'r1' }, turn_id: 't1', messages: [{ role: 'user', content: 'I prefer concise answers in writing. We launch Atlas on June 12.' }] };
    expect(engram('a.db', ['commit'], JSON.stringify(turn)).code).toBe(0);
    const file = join(folder, 'acme.jsonl');
    const exported = engram('a.db', ['--json', 'export', '--tenant', 'acme', '--out', file]);
    expect(exported.code).toBe(0);
    expect(JSON.parse(exported.stdout)).toMatchObject({ file, counts: { event: 1, item: expect.any(Number), turn: 1, summary: 1 } });
    expect(readFileSync(file, 'utf8').split('\n')[0]).toContain('"format":"engram-export"');
    const imported = engram('b.db', ['import', file, '--tenant', 'acme']);
    expect(imported.code).toBe(0);
    expect(imported.stdout).toMatch(/imported into tenant acme:[\s\S]*1\s+event/);
    const items = engram('b.db', ['--json', 'items', '--tenant', 'acme', '--user', 'ada', '--agent', 'helper']);
    expect(items.stdout).toContain('pref:writing:length');
    const erased = engram('b.db', ['erase', '--tenant', 'acme', '--user', 'ada']);
    expect(erased.code).toBe(0);
    expect(erased.stdout).toMatch(/erased user ada:[\s\S]*events/);
    expect(JSON.parse(engram('b.db', ['--json', 'items', '--tenant', 'acme', '--user', 'ada', '--agent', 'helper']).stdout)).toEqual([]);
    const bad = engram('b.db', ['import', join(folder, 'missing.jsonl')]);
    expect(bad.code).not.toBe(0);
  });
});
