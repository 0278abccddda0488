import { describe, expect, it } from 'vitest';

import type { ItemCandidate } from '../../spec/items.js';
import { mayReferBack } from '../extraction-events.js';
import { createRuleExtractor } from './index.js';

// Wednesday 2026-02-18: 周五 is 2026-02-20, 明天 2026-02-19.
const TS = '2026-02-18T10:00:00Z';

type Said = readonly ['user' | 'assistant', string];

function extract(messages: readonly Said[], knownKeys: readonly string[] = []): ItemCandidate[] {
  const events = messages.map(([role, text], index) => ({
    event_id: `evt_${index + 1}`,
    kind: 'message' as const,
    role,
    text,
    ts: TS,
  }));
  return createRuleExtractor().extract({ events, known_keys: knownKeys }) as ItemCandidate[];
}

const tasks = (messages: readonly Said[], knownKeys: readonly string[] = []) =>
  extract(messages, knownKeys)
    .filter((candidate) => candidate.type === 'tasks')
    .map(
      (candidate) =>
        [
          candidate.action,
          candidate.key,
          candidate.value['title'] ?? candidate.value['status'],
          candidate.value['due'],
        ] as const,
    );

describe('Chinese tasks', () => {
  it.each([
    ['这周要把车险续上。', 'task:general:车险续上', '车险续上', undefined],
    ['我周五前要交实验报告。', 'task:general:交实验报告', '交实验报告', '2026-02-20'],
    ['出门前得把阳台的花浇了。', 'task:general:阳台的花浇', '阳台的花浇', undefined],
    ['还得去社区开个证明。', 'task:general:去社区开个证明', '去社区开个证明', undefined],
    ['提醒我明天给房东打电话。', 'task:general:给房东打电话', '给房东打电话', '2026-02-19'],
    [
      '帮我记一下哈，医保卡快到期了，得去补办。',
      'task:general:医保卡快到期了_得去补办',
      '医保卡快到期了，得去补办',
      undefined,
    ],
    ['待办：整理发票', 'task:general:整理发票', '整理发票', undefined],
  ])('is a task: %s', (text, key, title, due) => {
    expect(tasks([['user', text]])).toEqual([['upsert', key, title, due]]);
  });

  it('reads two tasks said in one sentence', () => {
    expect(tasks([['user', '这个月要把年假申请交了，还要去换社保卡。']]).map(([, key]) => key)).toEqual([
      'task:general:年假申请交',
      'task:general:去换社保卡',
    ]);
  });

  it.each([
    // The assistant's advice is never the user's to-do.
    ['assistant', '记得提前把护照复印一份。'],
    ['assistant', '跑完记得拉伸。'],
    // 得 after a verb is a complement; 要 alone is a wish or a plan.
    ['user', '血糖控制得还行。'],
    ['user', '数学得补。'],
    ['user', '4月要去大阪玩一周！'],
    ['user', '我得减肥了哈哈。'],
    // Remembering is not a reminder; wishes and questions are no tasks.
    ['user', '老公记得今年是我们结婚十周年。'],
    ['user', '我想要把书房重新刷一遍。'],
    ['user', '我需要准备什么材料吗？'],
    ['user', '我要拿你的回答当参考。'],
  ] as const)('is no task: %s %s', (role, text) => {
    expect(tasks([[role, text]])).toEqual([]);
  });

  it('reads each errand of a list after a colon, and closes them one by one', () => {
    expect(
      tasks([['user', '这个月要办的事：驾照到期要换证，给公司交报销单，还有帮我爸在网上预约白内障手术。']]).map(
        ([, key]) => key,
      ),
    ).toEqual([
      'task:general:驾照到期要换证',
      'task:general:给公司交报销单',
      'task:general:帮我爸在网上预约白内障手术',
    ]);
    expect(
      tasks([['user', '报销单交了，钱也到账了。']], ['task:general:驾照到期要换证', 'task:general:给公司交报销单']),
    ).toEqual([['upsert', 'task:general:给公司交报销单', 'done', undefined]]);
  });

  it('closes the open task a done statement names', () => {
    const known = ['task:general:交实验报告', 'task:general:把护照续了'];
    expect(tasks([['user', '实验报告交了，老师说还行。']], known)).toEqual([
      ['upsert', 'task:general:交实验报告', 'done', undefined],
    ]);
    expect(tasks([['user', '护照已经续好了！']], known)).toEqual([
      ['upsert', 'task:general:把护照续了', 'done', undefined],
    ]);
    expect(tasks([['user', '那台显示器已经卖掉了。']], ['task:general:把显示器挂到闲鱼上'])).toEqual([
      ['upsert', 'task:general:把显示器挂到闲鱼上', 'done', undefined],
    ]);
  });

  it('does not add an open errand said again', () => {
    expect(tasks([['user', '签证必须搞定。']], ['task:general:得去续签证'])).toEqual([]);
  });

  it('tells the writer to load the current keys on a Chinese status change', () => {
    expect(mayReferBack([{ text: '护照已经续好了！' }])).toBe(true);
    expect(mayReferBack([{ text: '驾照那事不用办了。' }])).toBe(true);
    expect(mayReferBack([{ text: '今天天气不错。' }])).toBe(false);
  });

  it('drops a task no longer needed and creates none for a done statement without one', () => {
    expect(tasks([['user', '社保卡那事不用办了。']], ['task:general:去换社保卡'])).toEqual([
      ['retract', 'task:general:去换社保卡', undefined, undefined],
    ]);
    expect(tasks([['user', '作业写完了。']])).toEqual([]);
    expect(tasks([['assistant', '恭喜，报告交了就好！']], ['task:general:交实验报告'])).toEqual([]);
  });
});

describe('a Chinese status change with several readings', () => {
  it('proposes each open task it fits equally for review', () => {
    const out = (
      createRuleExtractor().extract({
        events: [{ event_id: 'e', kind: 'message', role: 'user', text: '保险续好了。', ts: TS }],
        known_keys: ['task:general:续车险的保险', 'task:general:续房子的保险'],
      }) as ItemCandidate[]
    ).filter((candidate) => candidate.type === 'tasks');
    expect(out.map((candidate) => [candidate.key, candidate.value['status'], candidate.review !== undefined])).toEqual([
      ['task:general:续车险的保险', 'done', true],
      ['task:general:续房子的保险', 'done', true],
    ]);
  });
});
