// The `engram` command end to end: real processes on a real SQLite file, as a user runs them.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';

import { assertPacket, type CommitTurnResult, type EventRecord, type MemoryPacket } from '../src/index.js';
import { engramCommand, runEngram, scopeFlags } from './helpers/engram-process.js';

// Each command is a new Node process (1.5–3 s while other test files run); a test runs several in a row.
vi.setConfig({ testTimeout: 120_000 });

const folder = mkdtempSync(join(tmpdir(), 'engram-cli-'));
const store = `sqlite:${join(folder, 'engram.db')}`;
const root = join(import.meta.dirname, '..');

afterAll(() => rmSync(folder, { recursive: true, force: true }));

function engram(args: string[], input?: string) {
  return runEngram(['--store', store, ...args], input);
}

const scopeArgs = scopeFlags({ user_id: 'ada', agent_id: 'helper', session_id: 's1', run_id: 'r1' });
const turn = {
  scope: { user_id: 'ada', agent_id: 'helper', session_id: 's1', run_id: 'r1' },
  turn_id: 'cli-1',
  messages: [
    { role: 'user', content: '我更喜欢用中文写技术文档。The report is due on Friday.' },
    { role: 'user', content: 'token: canary-cli-55', sensitivity: 'secret' },
  ],
};

describe('engram CLI', () => {
  it('runs the quick-start demo and prints a packet and its budget without the secret', () => {
    const result = engram(['demo']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('MemoryPacket v1 · purpose responder');
    expect(result.stdout).toMatch(/Budget: \d+ of 800 tokens/);
    expect(result.stdout).not.toContain('sk-demo-DO-NOT-STORE');
    const again = engram(['demo']);
    expect(again.stdout).toContain('already in the store, nothing written');
  });

  it('commits a turn from a file, and once only', () => {
    const file = join(folder, 'turn.json');
    writeFileSync(file, JSON.stringify(turn));
    const first = engram(['commit', '--file', file, '--json']);
    expect(first.code).toBe(0);
    const result = JSON.parse(first.stdout) as CommitTurnResult;
    expect(result.events).toHaveLength(2);
    expect(result.replayed).toBe(false);
    const second = engram(['commit', '--file', file]);
    expect(second.stdout).toContain('cli-1: already committed (nothing written)');
  });

  it('commits from stdin', () => {
    const result = engram(
      ['commit'],
      JSON.stringify({ ...turn, turn_id: 'cli-2', messages: [{ role: 'assistant', content: 'Noted.' }] }),
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('cli-2: 1 events written');
  });

  it('commits a large array of turns piped on stdin, however the pipe delivers it', () => {
    // ~300 KB arrives in many pieces (more than a pipe holds): a synchronous read of the pipe failed with EAGAIN before the writer finished.
    const turns = Array.from({ length: 12 }, (_, index) => ({
      scope: { ...turn.scope, session_id: 's-bulk' },
      turn_id: `cli-bulk-${index}`,
      messages: [{ role: 'user', content: `Note ${index}: ${'the release train leaves on time. '.repeat(800)}` }],
    }));
    const result = engram(['commit', '--json'], JSON.stringify(turns));
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect((JSON.parse(result.stdout) as CommitTurnResult[]).map((committed) => committed.turn_id)).toEqual(
      turns.map((item) => item.turn_id),
    );
  });

  it('names the bad field and exits 2 on bad input', () => {
    const bad = engram(
      ['commit', '--json'],
      JSON.stringify({ ...turn, turn_id: 'cli-3', messages: [{ role: 'robot', content: 'x' }] }),
    );
    expect(bad.code).toBe(2);
    const error = (JSON.parse(bad.stderr) as { error: { code: string; field: string; rule: string } }).error;
    expect(error).toMatchObject({ code: 'VALIDATION_FAILED', field: 'messages[0].role', rule: 'enum' });
    const notJson = engram(['commit'], '{ nope');
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toContain('file: stdin is not valid JSON');
    const badNumber = engram(['compose', ...scopeArgs, '--purpose', 'responder', '--max-tokens', 'lots']);
    expect(badNumber.code).not.toBe(0);
    expect(badNumber.stderr).toContain('max_tokens');
    const badStore = spawnSync(
      process.execPath,
      [...engramCommand(), '--store', 'mysql://x', 'events', '--user', 'ada'],
      { encoding: 'utf8', cwd: root },
    );
    expect(badStore.status).toBe(1);
    expect(badStore.stderr).toContain('[CONFIG_INVALID] store:');
  });

  it('composes a schema-valid packet as JSON and as text', () => {
    const json = engram([
      'compose',
      ...scopeArgs,
      '--purpose',
      'responder',
      '--query',
      '中文',
      '--max-tokens',
      '600',
      '--json',
    ]);
    expect(json.code).toBe(0);
    const packet = assertPacket(JSON.parse(json.stdout)) as MemoryPacket;
    expect(packet.budget_report.max_tokens).toBe(600);
    expect(packet.short_term.key_quotes![0]!.quote).toContain('中文');
    expect(json.stdout).not.toContain('canary-cli-55');
    const text = engram(['compose', ...scopeArgs, '--purpose', 'planner']);
    expect(text.stdout).toContain('Budget:');
    const rendered = engram(['compose', ...scopeArgs, '--purpose', 'responder', '--render', 'xml']);
    expect(rendered.stdout).toMatch(/^<memory purpose="responder"/);
    const buildId = packet.explain.determinism!['context_build_id'] as string;
    expect(engram(['builds', '--user', 'ada']).stdout).toContain(buildId);
    expect(engram(['replay', buildId]).stdout).toContain(`${buildId}: identical`);
    const later = JSON.parse(
      engram(['compose', ...scopeArgs, '--purpose', 'planner', '--json']).stdout,
    ) as MemoryPacket;
    expect(engram(['diff', buildId, later.explain.determinism!['context_build_id'] as string]).stdout).toMatch(
      /request differs in .*purpose/,
    );
  });

  it('lists and searches events, withholding secret content', () => {
    const listed = engram(['events', '--user', 'ada', '--agent', 'helper', '--session', 's1', '--json']);
    const events = JSON.parse(listed.stdout) as EventRecord[];
    expect(events.map((event) => event.turn_id)).toEqual(['cli-1', 'cli-1', 'cli-2']);
    expect(listed.stdout).not.toContain('canary-cli-55');
    const found = engram(['events', '--user', 'ada', '--query', '中文']);
    expect(found.stdout).toContain('我更喜欢用中文写技术文档');
  });
});

describe('engram CLI: long-term memory', () => {
  const who = ['--user', 'ada', '--agent', 'helper'];

  it('remembers, lists, searches, shows history and forgets', () => {
    const remember = (value: string) =>
      engram(
        ['remember', '--json'],
        JSON.stringify({
          scope: { user_id: 'ada', agent_id: 'helper' },
          type: 'preferences',
          key: 'pref:other:drink',
          value: { scope: 'other', name: 'drink', value },
        }),
      );
    expect(JSON.parse(remember('green tea').stdout)[0]).toMatchObject({
      action: 'created',
      key: 'pref:other:drink',
      version: 1,
    });
    expect(JSON.parse(remember('black coffee').stdout).map((diff: { action: string }) => diff.action)).toEqual([
      'updated',
      'superseded',
    ]);
    expect(engram(['items', ...who]).stdout).toContain('Prefers black coffee (other drink)');
    const search = engram(['search', ...who, '--query', 'coffee']);
    expect(search.stdout).toMatch(/1\. pref:other:drink — Prefers black coffee/);
    expect(search.stdout).toMatch(/text #1/);
    const history = engram(['history', '--user', 'ada', '--key', 'pref:other:drink']);
    expect(history.stdout).toMatch(/v1 superseded[\s\S]*v2 active/);
    expect(history.stdout).toContain('from explicit:api.remember');
    expect(engram(['forget', ...who, '--key', 'pref:other:drink']).stdout).toContain('retracted  pref:other:drink v2');
    expect(engram(['items', ...who]).stdout).not.toContain('pref:other:drink');
    expect(engram(['reindex']).stdout).toMatch(/reindexed \d+ /);
  });

  it('extracts items from committed turns and names a malformed key', () => {
    const committed = engram(
      ['commit', '--json'],
      JSON.stringify({
        scope: { user_id: 'ada', agent_id: 'helper', session_id: 's9', run_id: 'r' },
        turn_id: 'x1',
        messages: [{ role: 'user', content: 'We decided to use SQLite for the demo.' }],
      }),
    );
    const result = JSON.parse(committed.stdout) as CommitTurnResult;
    expect(result.gate[0]).toMatchObject({ decision: 'must', wrote: true });
    expect(result.items[0]!.action).toBe('created');
    const bad = engram(
      ['remember'],
      JSON.stringify({
        scope: { user_id: 'ada', agent_id: 'helper' },
        type: 'preferences',
        key: 'pref:Mood:drink',
        value: { scope: 'x', name: 'y', value: 'z' },
      }),
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('key: "pref:Mood:drink" has scope "Mood", which must be a domain name');
  });

  it('re-extracts a user: the dry run changes nothing, and a store already in line needs no change', () => {
    const dry = engram(['reextract', '--user', 'ada', '--dry-run', '--json']);
    expect(dry.stderr).toBe('');
    const planned = JSON.parse(dry.stdout) as { turns: number; dry_run: boolean; items: unknown[] };
    expect(planned.dry_run).toBe(true);
    expect(planned.turns).toBeGreaterThan(0);
    // Every turn of this store was extracted by today's rules: nothing to change.
    expect(planned.items).toEqual([]);
    expect(engram(['reextract', '--user', 'ada']).stdout).toMatch(/^read \d+ turns of ada; changed 0 item versions/);
    const missing = engram(['reextract']);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain("required option '--user <id>'");
  });
});
