// LLM extraction through the real `engram` command line: a commit with --extract rules+llm writes
// the rules' items and queues the turn's job, `engram worker` configured by its environment runs it
// against an OpenAI-compatible server on loopback (with the API key from ENGRAM_LLM_API_KEY), and
// `engram jobs` and `engram history` show what happened; bad settings are refused naming the flag
// or the variable and the rule.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Job, MemoryItem } from '../src/index.js';
import { runEngram, startEngram } from './helpers/engram-process.js';
import {
  chatReply,
  promptEventIds,
  startOpenAiCompatibleServer,
  type OpenAiCompatibleServer,
} from './helpers/openai-compatible-server.js';

const turn = {
  scope: { user_id: 'mira', agent_id: 'assistant', session_id: 's1', run_id: 'r1' },
  turn_id: 't1',
  messages: [{ role: 'user', content: 'I live in Berlin, and Acme pays the bills.' }],
};

describe('engram with LLM extraction', () => {
  const folder = mkdtempSync(join(tmpdir(), 'engram-cli-extraction-'));
  const store = `sqlite:${join(folder, 'engram.db')}`;
  let model: OpenAiCompatibleServer;

  beforeAll(async () => {
    model = await startOpenAiCompatibleServer({
      apiKey: 'sk-test',
      chat: (body) => {
        const item = {
          action: 'upsert',
          type: 'profile',
          key: 'profile:user',
          value: [
            { k: 'location', v: 'Berlin' },
            { k: 'employer', v: 'Acme' },
          ],
          confidence: 0.9,
          gate: 'may',
          source_event_ids: promptEventIds(body).slice(0, 1),
          salience: null,
        };
        return chatReply(JSON.stringify({ items: [item] }));
      },
    });
  });
  afterAll(async () => {
    await model.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it("commits with the rules, then the worker writes the model's facts from its environment", async () => {
    const flags = [
      '--store',
      store,
      '--json',
      '--extract',
      'rules+llm',
      '--llm-base-url',
      model.baseUrl,
      '--llm-model',
      'test-model',
    ];
    const committed = runEngram([...flags, 'commit'], JSON.stringify(turn));
    expect(committed.code, committed.stderr).toBe(0);
    // Only the rules ran in the commit.
    const rules = (JSON.parse(committed.stdout) as { items: Array<{ key: string; rule: string }> }).items;
    expect(rules.map((diff) => diff.key)).toContain('profile:user');
    expect(rules.filter((diff) => diff.rule.startsWith('llm:'))).toEqual([]);
    expect(model.requests).toHaveLength(0);
    const queued = JSON.parse(runEngram(['--store', store, '--json', 'jobs']).stdout) as Job[];
    expect(queued).toEqual([expect.objectContaining({ kind: 'extract', status: 'pending', attempts: 0 })]);

    const worker = startEngram(['--store', store, '--json', 'worker', '--interval', '100'], {
      ENGRAM_EXTRACTION: 'rules+llm',
      ENGRAM_LLM_BASE_URL: model.baseUrl,
      ENGRAM_LLM_MODEL: 'test-model',
      ENGRAM_LLM_API_KEY: 'sk-test',
    });
    try {
      await worker.waitFor(/"jobs": 1/u);
    } finally {
      expect(await worker.stop()).toBe(0);
    }
    expect(model.requests.map((request) => request.headers.authorization)).toEqual(['Bearer sk-test']);

    const jobs = runEngram(['--store', store, 'jobs', '--kind', 'extract', '--status', 'done']);
    expect(jobs.stdout).toMatch(/^extract:evt_\w+ {2}extract {2}done {2}attempts 1/u);
    const versions = JSON.parse(
      runEngram(['--store', store, '--json', 'history', '--user', 'mira', '--key', 'profile:user']).stdout,
    ) as MemoryItem[];
    const current = versions.at(-1)!;
    expect(versions.slice(0, -1).map((version) => [version.status, version.provenance.extractor])).toEqual(
      versions.slice(0, -1).map(() => ['superseded', 'rules']),
    );
    expect(current).toMatchObject({
      status: 'active',
      provenance: { extractor: 'llm', rule: 'llm:extract-items@2', model: 'test-model' },
    });
    const facts = current.value['facts'] as Array<{ k: string; v: string }>;
    expect(facts.filter((fact) => fact.k === 'location')).toEqual([{ k: 'location', v: 'Berlin' }]);
    expect(facts.filter((fact) => fact.k === 'employer')).toEqual([{ k: 'employer', v: 'Acme' }]);
    // The items listing marks the old versions superseded and the current one alone active.
    const items = runEngram(['--store', store, 'items', '--user', 'mira', '--status', 'active,superseded']);
    const lines = items.stdout.match(/profile:user {2}v\d+ \w+/gu)!;
    expect(lines.filter((line) => line.endsWith(' active'))).toEqual([`profile:user  v${current.version} active`]);
    expect(lines.filter((line) => line.endsWith(' superseded'))).toHaveLength(versions.length - 1);
  }, 60_000);

  it('refuses bad settings with CONFIG_INVALID naming the flag or the variable and the rule', () => {
    const failure = (args: string[], env: Record<string, string> = {}) => {
      const run = runEngram(['--store', store, '--json', ...args, 'jobs'], undefined, env);
      expect(run.code).toBe(1);
      return (JSON.parse(run.stderr) as { error: { code: string; field: string; rule: string } }).error;
    };
    expect(failure(['--extract', 'llm'])).toMatchObject({ code: 'CONFIG_INVALID', field: '--extract', rule: 'enum' });
    expect(failure([], { ENGRAM_EXTRACTION: 'rules,llm' })).toMatchObject({ field: 'ENGRAM_EXTRACTION', rule: 'enum' });
    expect(failure(['--extract', 'rules+llm'])).toMatchObject({ field: '--extract', rule: 'model' });
    expect(failure(['--llm-model', 'test-model'])).toMatchObject({ field: '--llm-base-url', rule: 'required' });
    expect(failure([], { ENGRAM_LLM_BASE_URL: 'localhost:11434', ENGRAM_LLM_MODEL: 'qwen2.5' })).toMatchObject({
      field: 'ENGRAM_LLM_BASE_URL',
      rule: 'url',
    });
  });
});
