// A scripted conversation in English and Chinese through commitTurn: the items it should leave,
// the versions it supersedes, the retractions, and the gate's reasons for what it keeps out.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { CommitTurnResult } from '../index.js';
import { scope, tempEngram, type TempEngram } from '../../test/helpers/temp-engram.js';

let t: TempEngram;
const results = new Map<string, CommitTurnResult>();
const reader = { user_id: scope.user_id, agent_id: scope.agent_id };

const script: Array<[string, 'user' | 'assistant', string]> = [
  ['hello', 'user', 'Hi there!'],
  ['job', 'user', 'I work as a product manager at Acme.'],
  ['tone', 'user', 'I prefer a casual tone for announcements.'],
  ['echo', 'assistant', 'Got it, you prefer a casual tone, and I always double-check dates.'],
  ['decision', 'user', 'We decided to launch Atlas on 2026-12-01.'],
  ['todo', 'user', 'TODO: brief the support team about Atlas.'],
  ['refs', 'user', 'The design doc is at docs/atlas-design.md and the repo is github.com/acme/atlas.'],
  ['vent', 'user', 'Ugh, Mondays are so annoying.'],
  ['maybe', 'user', 'Maybe we should try Postgres someday.'],
  ['tone2', 'user', 'Actually, I prefer a formal tone for announcements.'],
  ['done', 'user', 'Briefing the support team about Atlas is done.'],
  ['zh-pref', 'user', '我更喜欢用中文写技术文档。'],
  ['zh-decision', 'user', '我们决定使用 SQLite 作为默认存储。'],
  ['zh-retract', 'user', '我不再喜欢用中文写技术文档。'],
  ['zh-thanks', 'user', '谢谢！'],
];

beforeAll(async () => {
  t = await tempEngram();
  for (const [turnId, role, content] of script) {
    results.set(turnId, await t.engram.commitTurn({ scope, turn_id: turnId, messages: [{ role, content }] }));
    t.clock.advance(60_000);
  }
});
afterAll(async () => {
  await t.cleanup();
});

const gateOf = (turnId: string) => results.get(turnId)!.gate[0]!;
const actionsOf = (turnId: string) => results.get(turnId)!.items.map((diff) => `${diff.action} ${diff.key}`);

describe('a scripted conversation', () => {
  it('keeps small talk, venting and speculation out of long-term memory, saying why', () => {
    expect(gateOf('hello')).toMatchObject({ decision: 'never', wrote: false });
    expect(gateOf('hello').reason).toMatch(/small talk/);
    expect(gateOf('vent').reason).toMatch(/venting/);
    expect(gateOf('maybe').reason).toMatch(/speculative/);
    expect(gateOf('zh-thanks').reason).toMatch(/small talk/);
    for (const turnId of ['hello', 'vent', 'maybe', 'zh-thanks']) expect(results.get(turnId)!.items).toEqual([]);
  });

  it('writes decisions, tasks and references as must-write, with the rule that matched', () => {
    expect(gateOf('decision')).toMatchObject({ decision: 'must', wrote: true });
    expect(gateOf('decision').rules).toContain('en.decision.decided');
    expect(actionsOf('decision')).toContain('created decision:general:launch_date');
    expect(actionsOf('todo')).toEqual(['created task:general:brief_support_team_atlas']);
    expect(actionsOf('refs')).toEqual(['created entity:file:docs/atlas-design.md', 'created entity:repo:acme/atlas']);
    expect(actionsOf('zh-decision')).toEqual(['created decision:general:默认存储']);
  });

  it('supersedes a changed preference and moves a task to done on the same key, keeping history', async () => {
    expect(gateOf('tone')).toMatchObject({ decision: 'may', wrote: true });
    expect(actionsOf('tone2')).toEqual(['updated pref:writing:tone', 'superseded pref:writing:tone']);
    const tone = await t.engram.items.history({ scope: reader, key: 'pref:writing:tone' });
    expect(tone.map((item) => [item.version, item.status, item.value['value']])).toEqual([
      [1, 'superseded', 'casual'],
      [2, 'active', 'formal'],
    ]);
    expect(tone[1]!.source_event_ids).toEqual([results.get('tone2')!.events[0]!.event_id]);
    expect(tone[1]!.provenance).toMatchObject({ extractor: 'rules', rule: 'en.preference.prefer' });
    expect(actionsOf('done')).toEqual([
      'updated task:general:brief_support_team_atlas',
      'superseded task:general:brief_support_team_atlas',
    ]);
    const [task] = await t.engram.items.list({ scope: reader, types: ['tasks'] });
    expect(task!.value).toMatchObject({ title: 'brief the support team about Atlas', status: 'done' });
  });

  it('retracts a Chinese preference that the user denies', async () => {
    expect(actionsOf('zh-pref')).toEqual(['created pref:writing:language']);
    expect(actionsOf('zh-retract')).toEqual(['retracted pref:writing:language']);
    const versions = await t.engram.items.history({ scope: reader, key: 'pref:writing:language' });
    expect(versions.map((item) => item.status)).toEqual(['retracted']);
  });

  it("never turns what the assistant says into the user's preference", () => {
    expect(results.get('echo')!.items.filter((diff) => diff.type === 'preferences')).toEqual([]);
  });

  it('leaves exactly the expected current items, and finds them by search', async () => {
    const keys = (await t.engram.items.list({ scope: reader })).map((item) => item.key).sort();
    expect(keys).toEqual(
      [
        'decision:general:launch_date',
        'decision:general:默认存储',
        'entity:file:docs/atlas-design.md',
        'entity:repo:acme/atlas',
        'event:general:2026-12-01:launch',
        'pref:writing:tone',
        'profile:user',
        'task:general:brief_support_team_atlas',
      ].sort(),
    );
    const hits = await t.engram.items.search({ scope: reader, query: 'which tone for announcements?' });
    expect(hits[0]!.item.key).toBe('pref:writing:tone');
    expect((await t.engram.items.search({ scope: reader, query: '默认存储' }))[0]!.item.key).toBe(
      'decision:general:默认存储',
    );
  });
});

describe('a user who moves', () => {
  let moved: TempEngram;
  const mover = { ...scope, user_id: 'mover' };
  beforeAll(async () => {
    moved = await tempEngram();
    const turns = [
      'I live in Berlin and I work as a nurse.',
      'big news: we moved from Berlin to Lisbon last week. any tips for finding a GP?',
    ];
    for (const [index, content] of turns.entries()) {
      await moved.engram.commitTurn({ scope: mover, turn_id: `m${index}`, messages: [{ role: 'user', content }] });
      moved.clock.advance(60_000);
    }
  });
  afterAll(async () => {
    await moved.cleanup();
  });

  it('keeps one current profile: the move replaces the location, keeps the role, and supersedes the old version', async () => {
    const current = await moved.engram.items.list({
      scope: { user_id: 'mover', agent_id: scope.agent_id },
      types: ['profile'],
    });
    expect(current).toHaveLength(1);
    const facts = current[0]!.value['facts'] as Array<{ k: string; v: string }>;
    expect(facts.find((fact) => fact.k === 'location')?.v).toBe('Lisbon');
    expect(facts.find((fact) => fact.k === 'role')?.v).toBe('nurse');
    const history = await moved.engram.items.history({
      scope: { user_id: 'mover', agent_id: scope.agent_id },
      key: 'profile:user',
    });
    expect(history.map((version) => version.status)).toEqual(['superseded', 'active']);
  });
});
