import { describe, expect, it } from 'vitest';

import { ValidationError } from '../spec/errors.js';
import type { ItemCandidate, MemoryItem } from '../spec/items.js';
import type { PutItemOp, WriteOp } from '../spec/storage.js';
import { ItemMerger } from './merge.js';
import { DEFAULT_POLICIES } from './policies.js';

const scope = { tenant_id: 't', user_id: 'u', agent_id: 'a' };
const options = {
  now: '2026-01-01T00:00:00.000Z',
  policies: DEFAULT_POLICIES,
  extractor: 'rules' as const,
  sensitivityOf: () => 'normal' as const,
};

function candidate(overrides: Partial<ItemCandidate>): ItemCandidate {
  return {
    action: 'upsert',
    type: 'preferences',
    key: 'pref:writing:tone',
    value: { scope: 'writing', name: 'tone', value: 'casual' },
    confidence: 0.8,
    rule: 'test.rule',
    gate: 'may',
    source_event_ids: ['evt_01J00000000000000000000000'],
    ...overrides,
  };
}

function written(ops: WriteOp[]): MemoryItem[] {
  return ops.filter((op): op is PutItemOp => op.op === 'put_item').map((op) => op.item);
}

describe('ItemMerger', () => {
  it('creates, then overwrites with history: the old version is superseded, the new one links to it', () => {
    const merger = new ItemMerger(scope, [], options);
    const first = merger.plan(candidate({}));
    expect(first.diffs.map((diff) => diff.action)).toEqual(['created']);
    const [v1] = written(first.ops);
    expect(v1).toMatchObject({
      version: 1,
      status: 'active',
      supersedes: null,
      provenance: { extractor: 'rules', rule: 'test.rule' },
    });
    const second = merger.plan(candidate({ value: { scope: 'writing', name: 'tone', value: 'formal' } }));
    expect(second.diffs.map((diff) => diff.action)).toEqual(['updated', 'superseded']);
    const [v2] = written(second.ops);
    expect(v2).toMatchObject({ version: 2, supersedes: v1!.id, value: { value: 'formal' } });
    expect(second.ops).toContainEqual(
      expect.objectContaining({
        op: 'set_item_status',
        item_id: v1!.id,
        status: 'superseded',
        expected_status: 'active',
      }),
    );
    // The ended version keeps its chunk, so a search for superseded versions still finds it.
    expect(second.ops.filter((op) => op.op === 'put_chunk').map((op) => (op as { item_id: string }).item_id)).toEqual([
      v2!.id,
    ]);
  });

  it('keeps every version active under the versioned policy', () => {
    const merger = new ItemMerger(scope, [], options);
    const decision = (text: string) =>
      candidate({
        type: 'decisions',
        key: 'decision:atlas:webinar',
        value: { project: 'atlas', topic: 'webinar', decision: text },
        gate: 'must',
      });
    merger.plan(decision('11:00'));
    const second = merger.plan(decision('16:00'));
    expect(second.diffs.map((diff) => diff.action)).toEqual(['updated']);
    expect(second.ops.some((op) => op.op === 'set_item_status')).toBe(false);
    expect(written(second.ops)[0]!.version).toBe(2);
  });

  it('merges task status changes into the task and leaves identical values unchanged', () => {
    const merger = new ItemMerger(scope, [], options);
    const task = { type: 'tasks' as const, key: 'task:atlas:brief_support', gate: 'must' as const };
    merger.plan(
      candidate({
        ...task,
        value: { project: 'atlas', task_id: 'brief_support', title: 'Brief support', status: 'todo' },
      }),
    );
    const done = merger.plan(candidate({ ...task, value: { status: 'done' } }));
    expect(written(done.ops)[0]!.value).toEqual({
      project: 'atlas',
      task_id: 'brief_support',
      title: 'Brief support',
      status: 'done',
    });
    expect(merger.plan(candidate({ ...task, value: { status: 'done' } })).diffs[0]!.action).toBe('unchanged');
  });

  it('merges profile facts by name', () => {
    const merger = new ItemMerger(scope, [], options);
    const profile = (facts: Array<{ k: string; v: string }>) =>
      candidate({ type: 'profile', key: 'profile:user', value: { subject: 'user', facts } });
    merger.plan(
      profile([
        { k: 'role', v: 'nurse' },
        { k: 'city', v: 'Lyon' },
      ]),
    );
    const next = merger.plan(profile([{ k: 'city', v: 'Paris' }]));
    expect(written(next.ops)[0]!.value['facts']).toEqual([
      { k: 'role', v: 'nurse' },
      { k: 'city', v: 'Paris' },
    ]);
  });

  it('retracts every active version of a key, and refuses bad keys and values', () => {
    const merger = new ItemMerger(scope, [], options);
    const created = written(merger.plan(candidate({})).ops)[0]!;
    const retracted = merger.plan(candidate({ action: 'retract', value: {} }));
    expect(retracted.diffs).toEqual([expect.objectContaining({ action: 'retracted', item_id: created.id })]);
    expect(merger.plan(candidate({ action: 'retract', value: {} })).diffs).toEqual([]);
    expect(() => merger.plan(candidate({ key: 'pref:No pe:tone' }))).toThrow(ValidationError);
    expect(() => merger.plan(candidate({ type: 'tasks', key: 'task:a:b', value: { status: 'someday' } }))).toThrow(
      ValidationError,
    );
  });

  it("writes the provenance a candidate names (an LLM and its model), else the merger's extractor", () => {
    const merger = new ItemMerger(scope, [], options);
    const llm = written(
      merger.plan(candidate({ rule: 'llm:extract-items@2', provenance: { extractor: 'llm', model: 'qwen2.5' } })).ops,
    )[0]!;
    expect(llm.provenance).toEqual({ extractor: 'llm', rule: 'llm:extract-items@2', model: 'qwen2.5' });
    const rules = written(
      merger.plan(candidate({ value: { scope: 'writing', name: 'tone', value: 'formal' } })).ops,
    )[0]!;
    expect(rules.provenance).toEqual({ extractor: 'rules', rule: 'test.rule' });
  });

  it('keeps what versions learned later when its candidates may be late (a background extraction)', () => {
    const merger = new ItemMerger(scope, [], { ...options, late: true });
    const at = (time: string, value: string) =>
      candidate({ value: { scope: 'writing', name: 'tone', value }, valid_from: `2026-01-01T${time}:00.000Z` });
    const current = written(merger.plan(at('11:00', 'formal')).ops)[0]!;
    expect(merger.plan(at('10:00', 'casual'))).toEqual({ ops: [], diffs: [] });
    expect(written(merger.plan(at('12:00', 'terse')).ops)[0]).toMatchObject({
      supersedes: current.id,
      value: { value: 'terse' },
    });
  });
});
