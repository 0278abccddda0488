// `engram reflect`, `engram review …` and `engram insights …` end to end: real processes on a real
// SQLite file, with the rule-based reflection (no LLM), as a reviewer runs them.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';

import type {
  DecisionResult,
  EventRecord,
  InsightRecord,
  MemoryItem,
  ReflectResult,
  ReviewCandidate,
} from '../src/index.js';
import { runEngram } from './helpers/engram-process.js';

// Each command is a new Node process (1.5–3 s while other test files run); a test runs several in a row.
vi.setConfig({ testTimeout: 120_000 });

const folder = mkdtempSync(join(tmpdir(), 'engram-cli-review-'));
const store = `sqlite:${join(folder, 'engram.db')}`;

afterAll(() => rmSync(folder, { recursive: true, force: true }));

function engram(args: string[], input?: string) {
  return runEngram(['--store', store, ...args], input);
}

/** Runs a command with --json and parses its stdout (failing with its stderr when it did not succeed). */
function json<T>(args: string[], input?: string): T {
  const result = engram([...args, '--json'], input);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as T;
}

/** The typed error a failing --json command printed on stderr. */
function failure(args: string[]): { code: number | null; error: { code: string; field: string; rule?: string } } {
  const result = engram([...args, '--json']);
  expect(result.stdout).toBe('');
  expect(result.stderr).not.toMatch(/\n\s+at /);
  return {
    code: result.code,
    error: (JSON.parse(result.stderr) as { error: { code: string; field: string; rule?: string } }).error,
  };
}

const who = ['--user', 'ada', '--agent', 'helper'];
const scope = { user_id: 'ada', agent_id: 'helper', session_id: 's1', run_id: 'r1' };
const turn = (id: string, minute: number, user: string, tools: string[]) => ({
  scope,
  turn_id: id,
  ts: `2026-06-01T10:${String(minute).padStart(2, '0')}:00.000Z`,
  messages: [
    { role: 'user', content: user },
    { role: 'assistant', content: 'Looking it up.' },
  ],
  tool_results: tools.map((tool_name) => ({ tool_name, content: `${tool_name} done` })),
});
// A preference stated in two turns of one run, and the same two-tool sequence twice.
const turns = [
  turn('t1', 0, 'I prefer concise answers in writing. Can you find the Atlas launch docs?', [
    'search_docs',
    'fetch_page',
  ]),
  turn('t2', 5, 'I prefer concise answers in writing. Now find the Atlas pricing docs.', ['search_docs', 'fetch_page']),
];
const tone = {
  write: 'item',
  type: 'preferences',
  key: 'pref:writing:tone',
  value: { scope: 'writing', name: 'tone', value: 'friendly' },
};

describe('engram CLI: reflection and review', () => {
  let candidates: ReviewCandidate[] = [];
  const byType = (type: string) => candidates.find((candidate) => candidate.memory_type === type)!;

  it('reflects over a run with the rules and prints each candidate with what approving writes', () => {
    const file = join(folder, 'turns.json');
    writeFileSync(file, JSON.stringify(turns));
    expect(engram(['commit', '--file', file]).code).toBe(0);
    const result = engram(['reflect', ...who, '--run', 'r1']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^trc_[0-9A-Z]{26} {2}rules {2}succeeded: \d+ candidates/);
    expect(result.stdout).toMatch(
      /cand_\S+ {2}memory\/affective +conf 0\.\d+ {2}pending\n {4}Prefers concise \(writing length\) {2}→ pref:writing:length/,
    );
    expect(result.stdout).toContain('call search_docs, then fetch_page.  → procedure:');
    expect(result.stdout).toMatch(/episode\/episodic[\s\S]*→ event:writing:2026-06-01:/);
  });

  it('lists the pending candidates with their evidence, salience and target', () => {
    candidates = json<ReviewCandidate[]>(['review', 'list', '--user', 'ada']);
    expect(candidates.map((candidate) => candidate.memory_type)).toEqual(
      expect.arrayContaining(['affective', 'episodic', 'procedural']),
    );
    expect(candidates.every((candidate) => candidate.status === 'pending' && candidate.source === 'rules')).toBe(true);
    expect(byType('affective').source_event_ids).toHaveLength(2);
    const text = engram(['review', 'list', '--user', 'ada', '--kind', 'memory']).stdout;
    expect(text).toContain(`evidence: ${byType('affective').source_event_ids.join(', ')}`);
    expect(text).toMatch(/salience: consequence [\d.]+ · emotional charge [\d.]+ · reusability [\d.]+/);
    expect(text).toContain('writes preferences pref:writing:length = Prefers concise (writing length)');
    expect(text).not.toContain('episode/episodic');
    const traced = json<ReviewCandidate[]>([
      'review',
      'list',
      '--user',
      'ada',
      '--trace',
      candidates[0]!.trace_id,
      '--limit',
      '1',
    ]);
    expect(traced).toHaveLength(1);
  });

  it('approves one, rejects one with a reason, and approves one with an edit', () => {
    const procedure = engram(['review', 'approve', byType('procedural').id, '--by', 'ada']);
    expect(procedure.code).toBe(0);
    expect(procedure.stdout).toContain(`${byType('procedural').id}: approved by ada`);
    expect(procedure.stdout).toMatch(/created {4}procedure:\S+ v1 \(mem_/);
    const rejected = json<DecisionResult>([
      'review',
      'reject',
      byType('episodic').id,
      '--reason',
      'not worth an episode',
      '--by',
      'ada',
    ]);
    expect(rejected.candidate).toMatchObject({
      status: 'rejected',
      decision: { by: 'ada', reason: 'not worth an episode' },
    });
    expect(rejected.items).toEqual([]);
    const edited = json<DecisionResult>(['review', 'approve', byType('affective').id, '--edit', JSON.stringify(tone)]);
    expect(edited.candidate.status).toBe('edited');
    expect(edited.items[0]).toMatchObject({ action: 'created', key: 'pref:writing:tone' });
    const shown = engram(['review', 'show', byType('affective').id]).stdout;
    expect(shown).toContain('decided: edited by user');
    expect(shown).toContain('edited to: → pref:writing:tone');
    const decidedIds = ['procedural', 'episodic', 'affective'].map((type) => byType(type).id);
    expect(
      json<ReviewCandidate[]>(['review', 'list', '--user', 'ada']).filter((candidate) =>
        decidedIds.includes(candidate.id),
      ),
    ).toEqual([]);
    const decided = json<ReviewCandidate[]>([
      'review',
      'list',
      '--user',
      'ada',
      '--status',
      'approved,edited,rejected',
    ]);
    expect(decided.map((candidate) => candidate.status).sort()).toEqual(['approved', 'edited', 'rejected']);
  });

  it('wrote the approved ones as items with the run as evidence and the candidate as provenance', () => {
    const runEvents = new Set(
      json<EventRecord[]>(['events', '--user', 'ada', '--session', 's1'])
        .filter((event) => event.run_id === 'r1')
        .map((event) => event.id),
    );
    const items = json<MemoryItem[]>(['items', ...who]);
    const approved = [
      { key: (byType('procedural').target as { key: string }).key, candidate: byType('procedural') },
      { key: 'pref:writing:tone', candidate: byType('affective') },
    ];
    for (const { key, candidate } of approved) {
      const item = items.find((found) => found.key === key);
      expect(item, key).toBeDefined();
      expect(item!.provenance).toMatchObject({ extractor: 'reflection', rule: `review:${candidate.id}` });
      expect(item!.source_event_ids.length).toBeGreaterThan(0);
      expect(item!.source_event_ids.every((id) => runEvents.has(id))).toBe(true);
    }
    const episodeKey = (byType('episodic').target as { key: string }).key;
    expect(items.some((item) => item.key === episodeKey)).toBe(false);
  });

  it('refuses bad input with a typed error and a non-zero exit, never a stack trace', () => {
    expect(failure(['review', 'approve', 'not-an-id'])).toMatchObject({
      code: 2,
      error: { code: 'VALIDATION_FAILED', field: 'candidate_id', rule: 'pattern' },
    });
    // Reflecting over r1 again proposes nothing new: a second run of the same turns gives fresh candidates.
    const again = turns.map((entry) => ({
      ...entry,
      scope: { ...scope, run_id: 'r2' },
      turn_id: `${entry.turn_id}-r2`,
    }));
    expect(engram(['commit'], JSON.stringify(again)).code).toBe(0);
    expect(json<ReflectResult>(['reflect', ...who, '--run', 'r1']).candidates).toEqual([]);
    const pending = json<ReflectResult>(['reflect', ...who, '--run', 'r2']).candidates[0]!;
    expect(failure(['review', 'reject', pending.id])).toMatchObject({
      code: 2,
      error: { code: 'VALIDATION_FAILED', field: 'reason', rule: 'required' },
    });
    expect(failure(['review', 'approve', byType('procedural').id])).toMatchObject({
      code: 3,
      error: { code: 'STATE_VERSION_CONFLICT', field: 'candidate_id' },
    });
    const human = engram(['review', 'approve', byType('procedural').id]);
    expect(human.code).toBe(3);
    expect(human.stderr).toMatch(/^error \[STATE_VERSION_CONFLICT\] candidate_id: .* was already approved by ada\n$/);
  });

  it('names the flag or request field at fault', () => {
    const pending = json<ReviewCandidate[]>(['review', 'list', '--user', 'ada', '--limit', '1'])[0]!;
    expect(failure(['review', 'approve', pending.id, '--edit', '{nope'])).toMatchObject({
      code: 2,
      error: { code: 'VALIDATION_FAILED', field: 'edit', rule: 'json' },
    });
    expect(failure(['review', 'approve', pending.id, '--edit', '{"write":"item","type":"preferences"}'])).toMatchObject(
      { code: 2, error: { code: 'VALIDATION_FAILED', field: expect.stringMatching(/^edit/) } },
    );
    expect(failure(['review', 'approve', pending.id, '--edit', '{}', '--edit-file', 'edit.json'])).toMatchObject({
      code: 2,
      error: { field: 'edit', rule: 'exclusive' },
    });
    expect(failure(['review', 'show', 'cand_00000000000000000000000000'])).toMatchObject({
      code: 1,
      error: { code: 'NOT_FOUND', field: 'candidate_id' },
    });
    expect(failure(['reflect', ...who, '--run', 'no-such-run'])).toMatchObject({
      code: 1,
      error: { code: 'NOT_FOUND', field: 'scope.run_id' },
    });
    expect(failure(['reflect', ...who, '--run', 'r1', '--use', 'llm'])).toMatchObject({
      code: 1,
      error: { code: 'CONFIG_INVALID', field: 'use' },
    });
  });
});

describe('engram CLI: a candidate drawn from private events', () => {
  const pia = { ...scope, user_id: 'pia' };
  const privately = turns.map((entry) => ({
    ...entry,
    scope: pia,
    messages: entry.messages.map((message) => ({ ...message, sensitivity: 'private' })),
    tool_results: entry.tool_results.map((result) => ({ ...result, sensitivity: 'private' })),
  }));

  it('is marked private, proposes the user level, and refuses an edit that shares it', () => {
    expect(engram(['commit'], JSON.stringify(privately)).code).toBe(0);
    const reflected = json<ReflectResult>(['reflect', '--user', 'pia', '--agent', 'helper', '--run', 'r1']);
    const procedure = reflected.candidates.find((candidate) => candidate.memory_type === 'procedural')!;
    expect(procedure).toMatchObject({ sensitivity: 'private', target: { scope_level: 'user' } });
    const listed = engram(['review', 'list', '--user', 'pia', '--kind', 'memory']).stdout;
    expect(listed).toMatch(
      new RegExp(
        `${procedure.id} {2}memory/procedural {2}pending {2}conf [\\d.]+ {2}\\(rules, trc_\\S+, run r1\\) {2}\\[private\\]`,
      ),
    );
    expect(listed).toContain('writes procedure procedure:');
    const shared = JSON.stringify({ ...procedure.target, scope_level: 'agent' });
    expect(failure(['review', 'approve', procedure.id, '--edit', shared])).toMatchObject({
      code: 2,
      error: { code: 'VALIDATION_FAILED', field: 'edit.scope_level', rule: 'private_evidence' },
    });
    expect(json<DecisionResult>(['review', 'approve', procedure.id]).items[0]).toMatchObject({ action: 'created' });
    // The same key may also hold the agent-level procedure another user's normal run approved.
    const versions = json<MemoryItem[]>([
      'history',
      '--user',
      'pia',
      '--agent',
      'helper',
      '--key',
      (procedure.target as { key: string }).key,
    ]);
    expect(versions.filter((version) => version.user_id === 'pia')).toEqual([
      expect.objectContaining({ scope_level: 'user', sensitivity: 'private' }),
    ]);
  });
});

describe('engram CLI: insights', () => {
  const run = ['--run', 'r2'];

  it('adds a run_end insight that is gone from the list once the run ends, and kept as expired', () => {
    const added = json<InsightRecord>([
      'insights',
      'add',
      ...who,
      ...run,
      '--type',
      'hypothesis',
      '--statement',
      'The timeout comes from the proxy',
      '--test',
      'curl the API directly',
      '--test',
      'read the proxy log',
    ]);
    expect(added).toMatchObject({
      validation_state: 'unvalidated',
      expires_at: 'run_end',
      tests_suggested: ['curl the API directly', 'read the proxy log'],
    });
    const listed = engram(['insights', 'list', ...who]);
    expect(listed.stdout).toContain(`${added.id}  hypothesis unvalidated conf 0.3  expires run_end  (run r2)`);
    expect(listed.stdout).toContain('tests: curl the API directly | read the proxy log');
    const end = {
      scope: { ...scope, session_id: 's2', run_id: 'r2' },
      turn_id: 'r2-end',
      messages: [{ role: 'user', content: 'Thanks, that is all.' }],
      markers: ['RUN_END'],
    };
    expect(engram(['commit'], JSON.stringify(end)).code).toBe(0);
    expect(json<InsightRecord[]>(['insights', 'list', ...who]).map((insight) => insight.id)).not.toContain(added.id);
    const all = json<InsightRecord[]>(['insights', 'list', ...who, '--all']).find((insight) => insight.id === added.id);
    expect(all?.expired_at).not.toBeNull();
    expect(engram(['insights', 'list', ...who, '--all']).stdout).toMatch(new RegExp(`${added.id} .*expired 20`));
    expect(failure(['insights', 'set', added.id, 'testing'])).toMatchObject({
      code: 3,
      error: { code: 'STATE_VERSION_CONFLICT' },
    });
  });

  it('moves an insight through its states and promotes it to a procedure', () => {
    const added = json<InsightRecord>([
      'insights',
      'add',
      ...who,
      ...run,
      '--type',
      'strategy',
      '--statement',
      'Batch the doc lookups',
      '--expires',
      'never',
      '--confidence',
      '0.6',
    ]);
    expect(added).toMatchObject({ expires_at: null, confidence: 0.6 });
    expect(
      failure(['insights', 'add', ...who, ...run, '--type', 'strategy', '--statement', 'x', '--confidence', '2']),
    ).toMatchObject({ code: 2, error: { field: 'confidence', rule: 'maximum' } });
    expect(
      failure([
        'insights',
        'promote',
        added.id,
        '--type',
        'procedure',
        '--key',
        'procedure:docs:batch',
        '--value',
        '{}',
      ]),
    ).toMatchObject({ code: 2, error: { field: 'insight_id', rule: 'validated' } });
    expect(engram(['insights', 'set', added.id, 'testing', '--note', 'try it next run', '--by', 'ada']).stdout).toMatch(
      /strategy +testing/,
    );
    expect(
      json<InsightRecord>(['insights', 'set', added.id, 'validated', '--by', 'ada']).history.map((step) => step.state),
    ).toEqual(['unvalidated', 'testing', 'validated']);
    const value = { task_type: 'docs', name: 'batch', steps: ['collect the lookups', 'run one search'] };
    const file = join(folder, 'value.json');
    writeFileSync(file, JSON.stringify(value));
    const promoted = engram([
      'insights',
      'promote',
      added.id,
      '--type',
      'procedure',
      '--key',
      'procedure:docs:batch',
      '--value-file',
      file,
    ]);
    expect(promoted.stdout).toMatch(
      new RegExp(`created {4}procedure:docs:batch v1 \\((mem_\\S+)\\)\\n${added.id}: promoted to mem_`),
    );
    expect(json<MemoryItem[]>(['history', ...who, '--key', 'procedure:docs:batch'])[0]!.provenance.rule).toBe(
      `insight:${added.id}`,
    );
  });
});
