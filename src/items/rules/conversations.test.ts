// Whole conversations through the rule extractor, one commit at a time with the keys written so far:
// every key and action, turn by turn, in English and in Chinese, the values read, and the project a
// sentence's items fall under.

import { describe, expect, it } from 'vitest';

import type { ExtractionEvent, ItemCandidate } from '../../spec/items.js';
import { assertKey } from '../keys.js';
import { createRuleExtractor, RULES } from './index.js';

// Wednesday: "Friday" is 2026-02-20, "下周五" (Friday of next week) is 2026-02-27.
const TS = '2026-02-18T10:00:00Z';

type Turn = readonly [role: 'user' | 'assistant', text: string];

/** Runs turns one commit at a time, passing the keys written so far as the store would. */
function converse(turns: readonly Turn[], project?: string): ItemCandidate[][] {
  const extractor = createRuleExtractor(project === undefined ? {} : { project });
  const known = new Set<string>();
  return turns.map(([role, text], index) => {
    const event: ExtractionEvent = { event_id: `evt_${index + 1}`, kind: 'message', role, text, ts: TS };
    const out = extractor.extract({ events: [event], known_keys: [...known] }) as ItemCandidate[];
    for (const candidate of out) {
      if (candidate.action === 'retract') known.delete(candidate.key);
      else known.add(candidate.key);
    }
    return out;
  });
}

const summary = (candidates: readonly ItemCandidate[]) =>
  candidates.map((candidate) => `${candidate.action} ${candidate.key}`);

function expectWellFormed(turns: readonly ItemCandidate[][]): void {
  for (const [index, candidates] of turns.entries()) {
    for (const candidate of candidates) {
      expect(() => assertKey(candidate.type, candidate.key)).not.toThrow();
      expect(candidate.source_event_ids).toEqual([`evt_${index + 1}`]);
      expect(candidate.evidence_refs?.[0]).toMatchObject({ kind: 'event', ref: `evt_${index + 1}` });
      expect(RULES.some((rule) => rule.name === candidate.rule)).toBe(true);
      expect(candidate.confidence).toBeGreaterThan(0);
      expect(candidate.confidence).toBeLessThanOrEqual(1);
    }
  }
}

describe('an English conversation', () => {
  const turns = converse([
    ['user', 'Hi! My name is Alice Chen and I work as a product manager at Acme Labs.'],
    ['user', 'I prefer a casual tone in my emails.'],
    ['assistant', 'Got it: you prefer a casual tone, and I love that you like green tea.'],
    ['user', 'Actually I prefer a formal tone.'],
    ['user', 'I need to update the onboarding docs by Friday.'],
    ['user', "Let's go with Postgres for storage because it is boring technology."],
    ['user', 'The code is at https://github.com/acme/atlas and the plan is in docs/roadmap.md.'],
    ['user', 'The Atlas launch is on 2026-12-01.'],
    ['user', 'Thanks! Ugh, I hate Mondays. Maybe we should use Redis later. I think the launch might slip.'],
    ['user', 'The onboarding docs update is done.'],
    ['user', 'Forget about the Atlas launch.'],
    ['user', 'I no longer prefer a formal tone.'],
  ]);

  it('produces exactly the expected keys and actions, turn by turn', () => {
    expect(turns.map(summary)).toEqual([
      ['upsert profile:user'],
      ['upsert pref:writing:tone'],
      [],
      ['upsert pref:writing:tone'],
      ['upsert task:general:update_onboarding_docs'],
      ['upsert decision:general:storage'],
      ['upsert entity:repo:acme/atlas', 'upsert entity:file:docs/roadmap.md'],
      ['upsert event:general:2026-12-01:launch'],
      [],
      ['upsert task:general:update_onboarding_docs'],
      ['retract event:general:2026-12-01:launch'],
      ['retract pref:writing:tone'],
    ]);
    expectWellFormed(turns);
  });

  it('states profile facts from the first person', () => {
    expect(turns[0]![0]).toMatchObject({
      type: 'profile',
      gate: 'may',
      rule: 'en.profile.fact',
      scope_level: 'user',
      valid_from: TS,
      value: {
        subject: 'user',
        facts: [
          { k: 'name', v: 'Alice Chen' },
          { k: 'role', v: 'product manager' },
          { k: 'employer', v: 'Acme Labs' },
        ],
      },
    });
  });

  it('keys a preference by its topic, so the changed value supersedes the old one', () => {
    expect(turns[1]![0]).toMatchObject({
      rule: 'en.preference.prefer',
      gate: 'may',
      value: { scope: 'writing', name: 'tone', value: 'casual' },
    });
    expect(turns[3]![0]).toMatchObject({
      value: { scope: 'writing', name: 'tone', value: 'formal', priority: 0.8 },
      valid_from: TS,
    });
    expect(turns[1]![0]!.evidence_refs).toEqual([{ kind: 'event', ref: 'evt_2', span: [0, 36] }]);
    expect(turns[1]![0]!.salience).toMatchObject({ emotional_charge: 0.5, reusability: 0.9 });
  });

  it('creates a task with its due date and lands the status change on the same key', () => {
    expect(turns[4]![0]).toMatchObject({
      gate: 'must',
      rule: 'en.task.need-to',
      value: {
        project: 'general',
        task_id: 'update_onboarding_docs',
        title: 'update the onboarding docs',
        status: 'todo',
        due: '2026-02-20',
      },
    });
    expect(turns[9]![0]).toMatchObject({
      gate: 'must',
      rule: 'en.task.done',
      value: { task_id: 'update_onboarding_docs', status: 'done' },
    });
    expect(turns[4]![0]!.salience?.consequence).toBeGreaterThanOrEqual(0.8);
  });

  it('records a decision with its topic, date and rationale', () => {
    expect(turns[5]![0]).toMatchObject({
      gate: 'must',
      value: {
        project: 'general',
        topic: 'storage',
        decision: 'go with Postgres for storage',
        made_at: '2026-02-18',
        rationale: 'it is boring technology',
      },
    });
  });

  it('keeps a repository and a file as must-write entities', () => {
    expect(turns[6]!.map((candidate) => [candidate.gate, candidate.value])).toEqual([
      [
        'must',
        {
          kind: 'repo',
          canonical: 'acme/atlas',
          aliases: ['github.com/acme/atlas', 'atlas'],
          attrs: { host: 'github.com' },
        },
      ],
      ['must', { kind: 'file', canonical: 'docs/roadmap.md', aliases: [], attrs: {} }],
    ]);
  });

  it('records a dated event', () => {
    expect(turns[7]![0]).toMatchObject({
      gate: 'may',
      value: { scope: 'general', date: '2026-12-01', title: 'The Atlas launch is on 2026-12-01' },
    });
  });

  it('retracts what a denial names, from the known keys', () => {
    expect(turns[10]![0]).toMatchObject({ action: 'retract', type: 'events', gate: 'must', valid_to: TS });
    expect(turns[11]![0]).toMatchObject({ action: 'retract', type: 'preferences', rule: 'en.retraction' });
  });
});

describe('a Chinese conversation', () => {
  const turns = converse([
    ['user', '你好！我叫李明，是一名产品经理。'],
    ['user', '我更喜欢轻松的语气。'],
    ['assistant', '好的，你更喜欢轻松的语气，我也喜欢喝绿茶。'],
    ['user', '其实我更喜欢正式的语气。'],
    ['user', '我需要在下周五之前更新文档。'],
    ['user', '我们决定用Postgres做存储，因为它很稳定。'],
    ['user', '参考 https://example.com/spec 和 docs/设计.md。'],
    ['user', 'Atlas项目将在2026年12月1日发布。'],
    ['user', '谢谢！烦死了！也许我们应该用Redis。我觉得发布可能会推迟。'],
    ['user', '文档更新完成了。'],
    ['user', '忘掉Atlas发布的事。'],
    ['user', '我不再喜欢正式的语气了。'],
  ]);

  it('produces exactly the expected keys and actions, turn by turn', () => {
    expect(turns.map(summary)).toEqual([
      ['upsert profile:user'],
      ['upsert pref:writing:tone'],
      [],
      ['upsert pref:writing:tone'],
      ['upsert task:general:更新文档'],
      ['upsert decision:general:存储'],
      ['upsert entity:url:example.com/spec', 'upsert entity:file:docs/设计.md'],
      ['upsert event:atlas:2026-12-01:发布'],
      [],
      ['upsert task:general:更新文档'],
      ['retract event:atlas:2026-12-01:发布'],
      ['retract pref:writing:tone'],
    ]);
    expectWellFormed(turns);
  });

  it('reads values in Chinese', () => {
    expect(turns[0]![0]!.value).toEqual({
      subject: 'user',
      facts: [
        { k: 'name', v: '李明' },
        { k: 'role', v: '产品经理' },
      ],
    });
    expect(turns[1]![0]).toMatchObject({
      rule: 'zh.preference.gengxihuan',
      value: { scope: 'writing', name: 'tone', value: '轻松' },
    });
    expect(turns[3]![0]!.value).toMatchObject({ value: '正式' });
    expect(turns[4]![0]!.value).toEqual({
      project: 'general',
      task_id: '更新文档',
      title: '更新文档',
      status: 'todo',
      due: '2026-02-27',
    });
    expect(turns[5]![0]!.value).toEqual({
      project: 'general',
      topic: '存储',
      decision: '用Postgres做存储',
      made_at: '2026-02-18',
      rationale: '它很稳定',
    });
    expect(turns[7]![0]!.value).toEqual({
      scope: 'Atlas',
      date: '2026-12-01',
      title: 'Atlas项目将在2026年12月1日发布',
    });
    expect(turns[9]![0]).toMatchObject({ rule: 'zh.task.done', value: { status: 'done' } });
  });
});

describe('project inference', () => {
  it('uses the project option unless the sentence names a project', () => {
    const [first, second] = converse(
      [
        ['user', 'TODO: write the release notes'],
        ['user', 'TODO: write the changelog for project Atlas'],
      ],
      'engram',
    );
    expect(first![0]!.key).toBe('task:engram:write_release_notes');
    expect(second![0]).toMatchObject({
      key: 'task:atlas:write_changelog',
      value: { project: 'Atlas', title: 'write the changelog' },
    });
  });

  it('falls back to the repository a sentence mentions', () => {
    const [turn] = converse([['user', 'We decided to use Vitest for tests in the repo acme/atlas.']]);
    expect(turn!.map((candidate) => candidate.key)).toEqual(['entity:repo:acme/atlas', 'decision:atlas:tests']);
    expect(turn![1]!.entities).toEqual(['entity:repo:acme/atlas']);
  });
});
