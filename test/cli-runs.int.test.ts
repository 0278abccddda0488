// `engram snapshots …` and `engram runs …` end to end: real processes on a real SQLite file. A run
// records its objective and a verified claim, six steps of terminal markers take a passing snapshot;
// a changed objective fails the next one twice, which stops the run until `runs resume`.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';

import type { CommitTurnRequest, CommitTurnResult, Marker, RunState, SnapshotRecord } from '../src/index.js';
import { NARRATIVE_HEADINGS } from '../src/compaction/narrative.js';
import { checkSnapshot } from '../src/spec/validators.js';
import { runEngram } from './helpers/engram-process.js';

// Each command is a new Node process (1.5–3 s while other test files run); a test runs several in a row.
vi.setConfig({ testTimeout: 120_000 });

const folder = mkdtempSync(join(tmpdir(), 'engram-cli-runs-'));
const store = `sqlite:${join(folder, 'engram.db')}`;

afterAll(() => rmSync(folder, { recursive: true, force: true }));

function engram(args: string[]) {
  return runEngram(['--store', store, ...args]);
}

/** Runs a command with --json and parses its stdout (failing with its stderr when it did not succeed). */
function json<T>(args: string[]): T {
  const result = engram([...args, '--json']);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as T;
}

let files = 0;
/** Commits one turn or an array of turns through `engram commit --file`, with --json. */
function commit<T extends CommitTurnResult | CommitTurnResult[]>(
  turns: CommitTurnRequest | CommitTurnRequest[],
  extra: string[] = ['--json'],
) {
  files += 1;
  const file = join(folder, `turns-${files}.json`);
  writeFileSync(file, JSON.stringify(turns));
  const result = engram(['commit', '--file', file, ...extra]);
  return { ...result, parsed: () => JSON.parse(result.stdout) as T };
}

const scope = { user_id: 'mira', agent_id: 'researcher', session_id: 's1', run_id: 'r1' };
const runFlags = ['--user', 'mira', '--agent', 'researcher', '--run', 'r1'];
const STEP: Marker[] = ['PLAN_DONE', 'ACT_DONE', 'OBSERVE_DONE', 'STEP_DONE'];
const steps = (from: number): CommitTurnRequest[] =>
  Array.from({ length: 6 }, (_, index) => ({ scope, turn_id: `step-${from + index}`, markers: STEP }));

describe('engram CLI: runs and compaction snapshots', () => {
  let first: SnapshotRecord;

  it('takes a passing snapshot after six steps of a run that recorded its objective and a verified claim', () => {
    const search = commit<CommitTurnResult>({
      scope,
      turn_id: 'search',
      messages: [{ role: 'user', content: 'Find the launch date of Atlas.' }],
      tool_results: [{ tool_name: 'search', content: 'Atlas launches on 2026-06-12 according to the release plan.' }],
    });
    expect(search.code).toBe(0);
    const toolEvent = search.parsed().events.find((event) => event.kind === 'tool_result')!.event_id;
    const record: CommitTurnRequest = {
      scope,
      turn_id: 'record',
      messages: [{ role: 'assistant', content: 'Recorded the launch date.' }],
      run: {
        objective: 'Find the Atlas launch date',
        done_definition: { answer: 'a date with a source' },
        claims: [
          {
            claim_id: 'c1',
            status: 'verified',
            statement: 'Atlas launches on 2026-06-12.',
            evidence: [{ event_id: toolEvent, quote: 'Atlas launches on 2026-06-12' }],
          },
        ],
        open_questions: { add: ['Is the date confirmed by QA?'] },
      },
    };
    const results = commit<CommitTurnResult[]>([record, ...steps(1)]).parsed();
    expect(results.map((result) => result.compaction?.sequence ?? null)).toEqual([
      null,
      null,
      null,
      null,
      null,
      null,
      1,
    ]);
    expect(results[6]!.compaction).toMatchObject({ status: 'PASS', attempts: 1, stopped: false, diagnostic: null });

    const list = engram(['snapshots', 'list', '--user', 'mira']);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(
      /^snp_[0-9A-Z]{26} {2}researcher\/r1 #1 {2}\S+ {2}PASS {2}claims 1\/1 verified {2}conflicts 0 {2}open questions 1\n$/,
    );
    const records = json<SnapshotRecord[]>(['snapshots', 'list', '--user', 'mira', '--run', 'r1']);
    expect(records).toHaveLength(1);
    first = records[0]!;
    expect(first.snapshot.counts).toEqual({ steps_since_last_compaction: 6, counted_events_since_last_compaction: 18 });
  });

  it('renders the narrative byte for byte the same twice, with the eight sections in order', () => {
    const once = engram(['snapshots', 'render', first.snapshot.snapshot_id]);
    const twice = engram(['snapshots', 'render', first.snapshot.snapshot_id]);
    expect(once.code).toBe(0);
    expect(once.stderr).toBe('');
    expect(twice.stdout).toBe(once.stdout);
    expect(once.stdout.startsWith('# Run r1: compaction snapshot 1\n')).toBe(true);
    const positions = NARRATIVE_HEADINGS.map((heading) => once.stdout.indexOf(`\n${heading}\n`));
    expect(positions.every((position) => position > 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it('shows a snapshot: checks, claims with evidence ids; --json is a valid snapshot record', () => {
    const record = json<SnapshotRecord>(['snapshots', 'show', first.snapshot.snapshot_id]);
    expect(checkSnapshot(record.snapshot)).toEqual([]);
    expect(record).toEqual(first);
    const evidence = record.snapshot.state.claims[0]!.evidence_refs[0]!;
    const text = engram(['snapshots', 'show', first.snapshot.snapshot_id]).stdout;
    expect(text).toContain('validation: PASS, action NONE');
    expect(text).toContain('  PASS objective_stable: first snapshot of the run');
    expect(text).toContain(
      `      evidence ${evidence.evidence_id} → events ${evidence.chunk_id} [${evidence.span[0]}, ${evidence.span[1]})`,
    );
    expect(text).toContain('  - Is the date confirmed by QA?');
  });

  it('stops the run when a changed objective fails the next snapshot twice, refusing commits with RUN_STOPPED', () => {
    const change: CommitTurnRequest = {
      scope,
      turn_id: 'change',
      messages: [{ role: 'user', content: 'Never mind the source.' }],
      run: { objective: 'Find any date at all' },
    };
    const results = commit<CommitTurnResult[]>([change, ...steps(7)]).parsed();
    expect(results.at(-1)!.compaction).toMatchObject({
      sequence: 2,
      status: 'FAIL',
      attempts: 2,
      stopped: true,
      diagnostic: expect.stringMatching(/objective_stable/),
    });

    const refused = commit({ scope, turn_id: 'next', messages: [{ role: 'user', content: 'next' }] });
    expect(refused.code).toBe(4);
    expect(refused.stdout).toBe('');
    expect((JSON.parse(refused.stderr) as { error: { code: string; field: string } }).error).toMatchObject({
      code: 'RUN_STOPPED',
      field: 'scope.run_id',
    });

    const list = engram(['snapshots', 'list', '--user', 'mira', '--desc']).stdout.trimEnd().split('\n');
    expect(list).toHaveLength(2);
    expect(list[0]).toMatch(/ {2}researcher\/r1 #2 {2}\S+ {2}FAIL \(SYSTEM_ERROR\) {2}/);
    const shown = engram(['runs', 'show', ...runFlags]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('status: stopped\n  reason: SYSTEM_ERROR: compaction snapshot');
    expect(shown.stdout).toMatch(/latest snapshot: snp_\S+ #2 FAIL \(SYSTEM_ERROR\)/);
    expect(shown.stdout).toContain('objective: Find any date at all');
    expect(shown.stdout).toContain('since the last snapshot: 0 counted events');
    expect(json<RunState>(['runs', 'show', ...runFlags])).toMatchObject({ status: 'stopped', sequence: 2 });
  });

  it('resumes the run; its next commit is accepted again', () => {
    const resumed = engram(['runs', 'resume', ...runFlags, '--by', 'ops', '--note', 'objective change accepted']);
    expect(resumed.stderr).toBe('');
    expect(resumed.stdout).toMatch(/^run r1: resumed, its commits are accepted again/);
    expect(engram(['runs', 'resume', ...runFlags]).stdout).toBe('run r1: already active, nothing to resume\n');
    const accepted = commit<CommitTurnResult>({
      scope,
      turn_id: 'next',
      messages: [{ role: 'user', content: 'next' }],
    });
    expect(accepted.stderr).toBe('');
    expect(accepted.code).toBe(0);
    expect(accepted.parsed().replayed).toBe(false);
    expect(engram(['runs', 'show', ...runFlags]).stdout).toContain('status: active\n');
  });

  it('prints typed errors: an unknown snapshot, a malformed id, a run with nothing recorded', () => {
    const missing = engram(['snapshots', 'show', 'snp_00000000000000000000000000', '--json']);
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.stderr)).toMatchObject({ error: { code: 'NOT_FOUND', field: 'snapshot_id' } });
    const malformed = engram(['snapshots', 'render', 'nope']);
    expect(malformed.code).toBe(2);
    expect(malformed.stdout).toBe('');
    expect(malformed.stderr).toMatch(/^error \[VALIDATION_FAILED\] snapshot_id: /);
    expect(engram(['runs', 'show', '--user', 'mira', '--agent', 'researcher', '--run', 'r9']).stdout).toContain(
      'run r9 has recorded nothing yet',
    );
    expect(engram(['runs', 'resume', '--user', 'mira', '--agent', 'researcher', '--run', 'r9']).code).toBe(1);
  });
});
